"""See-through modals: a panel alone in the app's window, its scrim not in the hierarchy.

Several toolkits draw a modal over the previous screen so that only the modal reaches the accessibility
tree; the rest of the window is a dimmed, see-through scrim without a node:
- Flutter's `DrawerController` (material/drawer.dart) wraps its scrim in `BlockSemantics`, which hides the
  page, and `ExcludeSemantics(excluding: platformHasBackButton)`, which hides the scrim on Android: only
  the drawer is left, at full height against a side edge;
- React Native's `Modal` (`ReactModalHostView`) and other `Dialog`s with a full-screen window draw only
  their sheet (at the bottom edge) or card (inset from every edge);
- a translucent activity whose content is a `BottomSheetBehavior` panel (the system photo picker) shows
  only its sheet.
A screen of its own fills its window (a toolbar at the top, the content, bars at the bottom), so a window
whose every node lies in one such panel, leaving a large part of the window empty, is a modal over the app.
Some of them do put a backdrop into the tree: a React Native `Modal` usually draws a full-window `Pressable`
(or a dimming `View`) under its card, Compose's `ModalBottomSheet` and `Dialog` a clickable scrim without a
label. A full-window node that says nothing (clickable, or an empty leaf) is then no content; the card
after it may be loose siblings (React Native flattens its layout views), so their extent is the panel.
It is cleared like an app dialog (its dismiss button, never a risky one), else with back, which closes it
without choosing anything.
"""

from __future__ import annotations

from enum import StrEnum

from starebrain.models.selector import Selector
from starebrain.obstruction.clearing import by_label, target_inside
from starebrain.obstruction.kinds import BackClearance, Obstruction, ObstructionKind
from starebrain.obstruction.lexicon import lexicon, word_of
from starebrain.obstruction.overlay import danger_reason, handle
from starebrain.obstruction.surfaces import Surface, surface_of
from starebrain.profiles import DeviceProfile
from starebrain.snapshot import Node, ScreenSnapshot, Window
from starebrain.snapshot.describe import clean
from starebrain.snapshot.node import Bounds
from starebrain.snapshot.opaque import CANVAS_CLASSES
from starebrain.snapshot.windows import WindowKind

# Views the framework's DecorView draws behind the system bars (android:id/statusBarBackground, ...).
_DECOR_BARS = ("statusBarBackground", "navigationBarBackground")
EDGE = 0.05  # a panel this close (share of the window) to an edge is anchored to it
MIN_EMPTY_TOP = 0.2  # a sheet leaves at least this share of the window empty above it
MIN_BACKDROP_TOP = 0.1  # over a backdrop the sheet may be taller (Material's modal sheet: up to 90%)
# Over a backdrop the extent is the card's content, inside the card's own padding: a card drawn 8 dp from the
# sides with 8 dp of padding leaves ~4% of a phone's width (a full-screen modal over a blurred page).
MIN_BACKDROP_SIDE = 0.03
# An edge-to-edge window lays a drawer out below the status bar (a React Native safe area, the inset Material
# pads its modal drawer with): 24 to 52 dp, up to 6% of a phone's height.
STATUS_BAR = 0.06
MIN_EMPTY_SIDE = 0.1  # a drawer leaves at least this share empty beside it (Material: 56 dp of a phone)
# The smallest modal sheet: two 56 dp items under a 48 dp handle, about a sixth of an 800 dp phone (a bottom
# navigation bar, 56-80 dp, is less than a tenth).
MIN_SHEET_HEIGHT = 0.15
MIN_BUTTONS = 2  # a modal offers a choice or a way out besides its one action
FULL = 0.98  # a node this wide (and 90% as tall) as its window is a backdrop container, not content
# Plain containers a toolkit draws a backdrop with (React Native's `View`, Compose's layout node).
_BACKDROP_CLASSES = ("ViewGroup", "View")
# Containers whose content scrolls (the class names their accessibility nodes report; React Native's
# ReactScrollView reports ScrollView, Compose's verticalScroll a scrollable View).
_SCROLLERS = ("ScrollView", "HorizontalScrollView", "NestedScrollView", "RecyclerView", "ListView")


class Shape(StrEnum):
    """Where the panel sits in its window."""

    SHEET = "bottom sheet"
    DRAWER = "navigation drawer"
    CARD = "dialog"


def see_through_modal(snap: ScreenSnapshot, profile: DeviceProfile, target: Selector | None) -> Obstruction | None:
    """OVERLAY for a lone sheet, drawer or card in the top-most app window, with its dismiss button or back,
    or for a window whose one control acknowledges it."""
    window = next((w for w in snap.windows_by_layer if w.kind is WindowKind.APP), None)
    if window is None:
        return None
    return (_alone(snap, profile, window, target) or _open_drawer(snap, window, target)
            or _lone_notice(snap, profile, window, target))


def _open_drawer(snap: ScreenSnapshot, window: Window, target: Selector | None) -> Obstruction | None:
    """A `DrawerLayout` whose only shown child is a drawer against one of its sides: an open drawer.

    androidx's DrawerLayout (`updateChildrenImportantForAccessibility`) marks its content
    IMPORTANT_FOR_ACCESSIBILITY_NO_HIDE_DESCENDANTS while a drawer is open, so a dump holds the drawer alone;
    a closed drawer is INVISIBLE and the content fills the layout. Back closes the drawer (DrawerLayout's
    `onKeyUp(KEYCODE_BACK)` / back callback) without choosing anything.
    """
    for layout in snap.by_window[window.index]:
        if layout.short_class != "DrawerLayout" or not layout.visible:
            continue
        shown = [k for k in snap.children(layout) if k.visible and k.bounds.area > 0]
        if len(shown) != 1 or _shape(layout.bounds, shown[0].bounds) is not Shape.DRAWER:
            return None
        surface = surface_of(snap, shown[0])
        if len(set(surface.texts)) < 2 or target_inside(snap, target, surface):
            return None
        return Obstruction(ObstructionKind.OVERLAY, f'{Shape.DRAWER.value} "{clean(surface.texts[0], 60)}" open '
                           "over its page; back closes it", BackClearance())
    return None


def _alone(snap: ScreenSnapshot, profile: DeviceProfile, window: Window, target: Selector | None) -> Obstruction | None:
    """A lone sheet, drawer or card in the window."""
    found_panel = _panel(snap, window) or _over_page(snap, window)
    by_handle = found_panel is None  # then only a sheet found by its drag handle is left to look for
    if by_handle:
        found_panel = _handle_sheet(snap, profile, window)
    if found_panel is None:
        return None
    panel, extent, backdrop = found_panel
    # Over a backdrop the modal is placed inside the backdrop (React Native's stops above the navigation
    # bar), and loose content may sit off the edges it is anchored to, so only a sheet or a card counts.
    # A sheet that starts with a drag handle or has its close button in its header may reach the status bar.
    tall = backdrop is not None and (_grip(snap, panel, extent) or _closed_at_top(snap, profile, panel, extent))
    top = EDGE if tall else MIN_BACKDROP_TOP
    shape = _shape(window.bounds, extent) if backdrop is None else _shape(backdrop.bounds, extent, top,
                                                                          MIN_BACKDROP_SIDE)
    if shape is None or (extent != panel.bounds and shape is Shape.DRAWER):
        return None
    if shape is Shape.CARD and backdrop is None and _in_page_body(snap, window, panel) \
            and not _notice(snap, profile, surface_of(snap, panel)):
        # A page centres its content in a card (Flutter's `Scaffold` body); a card that can only be
        # acknowledged is a dialog there too: `showDialog(useSafeArea: true)` wraps it in a `SafeArea`.
        return None
    surface = surface_of(snap, panel)
    # A clickable backdrop is itself the way out, so one button besides it is a choice.
    needed = MIN_BUTTONS - 1 if backdrop is not None and backdrop.clickable else MIN_BUTTONS
    # Content loose in a window-sized node with no backdrop is a page unless it can only be acknowledged.
    loose = backdrop is None and extent != panel.bounds and not by_handle
    if ((loose or len(surface.buttons) < needed) and not _notice(snap, profile, surface)) \
            or len(set(surface.texts)) < 2 or target_inside(snap, target, surface):
        return None  # a modal says something and offers a choice; an empty state with one "Retry" is the page
    if shape is Shape.CARD and any(n.editable for n in surface.nodes) and not _cancellable(snap, profile, surface,
                                                                                          backdrop):
        return None  # a sign-in form centred on an empty page is the page
    close = by_label(snap, surface.buttons, lexicon(profile.words).dismiss)
    item = close is not None and _list_item(snap, panel, close)
    found = None if item and not danger_reason(snap, profile, surface) else handle(snap, profile, surface,
                                                                                    shape.value)
    if found is not None:
        return found
    title = clean(surface.texts[0], 60) if surface.texts else "untitled"
    return Obstruction(ObstructionKind.OVERLAY, f'{shape.value} "{title}" alone in its window; back closes it',
                       BackClearance())


def _notice(snap: ScreenSnapshot, profile: DeviceProfile, surface: Surface) -> bool:
    """A notice that can only be acknowledged: its one button says "OK" / "Got it".

    A dialog the person may not dismiss by tapping outside shows only its card: Flutter's `ModalBarrier`
    (widgets/modal_barrier.dart) wraps a non-dismissible barrier in `BlockSemantics`, which hides the page,
    and `ExcludeSemantics`, which hides the barrier itself. An empty state's one "Retry" is no such answer.
    """
    return len(surface.buttons) == 1 and by_label(snap, surface.buttons, lexicon(profile.words).acknowledge) \
        is not None


def _lone_notice(snap: ScreenSnapshot, profile: DeviceProfile, window: Window,
                 target: Selector | None) -> Obstruction | None:
    """A window whose one control acknowledges what it says is a notice standing before the app.

    A welcome tour's or "What's new" page's single "Got it", or a full-window notice built as an AlertDialog
    with only a positive button (`AlertDialog.Builder#setPositiveButton`), can only be acknowledged, which
    chooses nothing; a page offers more than one control (a way forward, a field, a list to scroll).
    """
    nodes = snap.by_window[window.index]
    controls = 0
    for n in nodes:
        if n.visible and (n.clickable or n.long_clickable or n.scrollable or n.editable or n.checkable):
            controls += 1
            if controls > 1:
                return None  # most screens stop here
    if controls != 1:
        return None
    surface = surface_of(snap, nodes[0])
    if not _notice(snap, profile, surface) or len(set(surface.texts)) < 3 or target_inside(snap, target, surface):
        return None  # a notice says something besides its button
    return handle(snap, profile, surface, "notice")


def _over_page(snap: ScreenSnapshot, window: Window) -> tuple[Node, Bounds, Node] | None:
    """A modal over a page that stays in the tree: a clickable backdrop that takes every tap outside the
    modal drawn after it (React Native's `Modal` and @gorhom/bottom-sheet's `BottomSheetBackdrop`, a
    `Pressable` across the screen, drawn over the page and under the sheet)."""
    for backdrop in snap.by_window[window.index]:
        if not (backdrop.clickable and backdrop.parent is not None and _backdrop(snap, window, backdrop)):
            continue
        layer = _wrapped(snap, window, backdrop)
        if layer.parent is None:
            continue
        siblings = snap.children(snap.nodes[layer.parent])
        ordered = all(k.drawing_order >= 0 for k in siblings)
        if ordered:
            siblings = sorted(siblings, key=lambda k: k.drawing_order)
        later = siblings[next(i for i, k in enumerate(siblings) if k.order == layer.order) + 1:]
        roots = [r for r in (*snap.children(backdrop), *later) if r.visible and surface_of(snap, r).texts]
        if len(roots) != 1 and not ordered:
            # Without `drawing-order` a dump lists siblings by place, not by z (ViewGroup's
            # addChildrenForAccessibility sorts them with ViewLocationHolder: left, top, taller first), so
            # the page may follow the backdrop; a drawer beside the backdrop is still the modal.
            others = [r for r in siblings if r.order != layer.order and r.visible]
            roots = [r for r in others
                     if _shape(backdrop.bounds, r.bounds) is Shape.DRAWER and surface_of(snap, r).texts]
            if not roots and not later:
                roots = _sheet_over_page(snap, backdrop, others)
        if len(roots) != 1:
            continue
        root = roots[0].bounds
        content = [n.bounds for n in surface_of(snap, roots[0]).nodes if _content(snap, window, n)]
        if not content:
            continue
        # Content is drawn inside its container: a WebView may report a scrolled list's items at offsets from
        # the list's top instead of the screen's, so the extent is clipped to the container's own bounds.
        extent = Bounds(max(min(b.left for b in content), root.left), max(min(b.top for b in content), root.top),
                        min(max(b.right for b in content), root.right),
                        min(max(b.bottom for b in content), root.bottom))
        b = backdrop.bounds
        if _shape(b, roots[0].bounds) is Shape.DRAWER:
            # A drawer over a backdrop (@react-navigation/drawer: the overlay `Pressable` under the drawer
            # sheet): a tap in the strip beside it reaches the backdrop, not the page.
            extent = roots[0].bounds
            x = (extent.right + b.right) // 2 if b.right - extent.right > extent.left - b.left \
                else (b.left + extent.left) // 2
            y = (extent.top + extent.bottom) // 2
        else:
            # A tap in the empty part above the modal reaches the backdrop, not the page below it.
            x, y = (extent.left + extent.right) // 2, (b.top + extent.top) // 2
        hit = snap.touch_target_at(x, y)
        if hit is not None and hit.order == backdrop.order:
            return roots[0], extent, backdrop
    return None


def _sheet_over_page(snap: ScreenSnapshot, backdrop: Node, siblings: list[Node]) -> list[Node]:
    """The sheet a backdrop listed after the page and the sheet dims: one sibling at the bottom edge that overlaps
    another one (the page it is drawn over).

    A WebView's accessibility tree follows the document's order, while CSS stacks a modal and its backdrop by
    `z-index`, so a web app's backdrop may come last in the dump (Obsidian's mobile menu: the page, the sheet
    with its items, then a full-window clickable element). Sections of a page lie beside each other; a sheet
    at the bottom edge that overlaps the page, with a backdrop over the rest of the window, is drawn over it.
    """
    b = backdrop.bounds
    sheets = [r for r in siblings if _shape(b, r.bounds) is Shape.SHEET
              and r.bounds.height >= MIN_SHEET_HEIGHT * b.height and surface_of(snap, r).texts]
    if len(sheets) != 1:
        return []
    sheet = sheets[0]
    over_page = any(r is not sheet and r.bounds.intersects(sheet.bounds) and surface_of(snap, r).texts
                    for r in siblings)
    return sheets if over_page else []


def _handle_sheet(snap: ScreenSnapshot, profile: DeviceProfile, window: Window) -> tuple[Node, Bounds, None] | None:
    """A sheet found by its labelled drag handle, alone in its window.

    Material 3's `BottomSheetDefaults.DragHandle` (Compose: `Strings.BottomSheetDragHandleDescription`) and
    Material's `BottomSheetDragHandleView` (`bottomsheet_drag_handle_content_description`) label the handle
    "Drag handle" (the lexicon's optional `drag_handle` list). `ModalBottomSheet` lays the sheet out in a
    window of its own, where a dump may report the sheet's layout node at its pre-offset place; a standard
    sheet (`BottomSheetScaffold`) keeps the page above it in the same window. So a handle centred in the
    window, below the top fifth, with every labelled node of the window below it, is a modal sheet.
    """
    words = lexicon(profile.words).drag_handle
    if not words:
        return None
    nodes = snap.by_window[window.index]
    handle = next((n for n in nodes if n.visible and n.content_desc and word_of(n.content_desc, words)), None)
    if handle is None:
        return None
    w, b = window.bounds, handle.bounds
    if abs((b.left + b.right) - (w.left + w.right)) > EDGE * w.width or b.top - w.top < MIN_EMPTY_TOP * w.height:
        return None
    above = b.top - EDGE * w.height  # the handle's own padding at the top of the sheet
    labelled = [n for n in nodes if n.visible and (n.text.strip() or n.content_desc.strip() or n.clickable
                                                   or n.editable or n.scrollable) and not _backdrop(snap, window, n)]
    if any(n.bounds.top < above for n in labelled):
        return None  # the page is in the window above the sheet: a standard (non-modal) sheet
    chain = [handle, *snap.ancestors(handle)]  # the handle up to the window root
    level = {n.order: i for i, n in enumerate(chain)}
    lowest = 0
    for n in labelled:
        up = _meets(snap, n, level)
        if up is None:
            return None
        lowest = max(lowest, level[up.order])
    return chain[lowest], Bounds(w.left, b.top, w.right, w.bottom), None


def _closed_at_top(snap: ScreenSnapshot, profile: DeviceProfile, panel: Node, extent: Bounds) -> bool:
    """The sheet's header holds its close button: a dismiss word in its top tenth (Material's full-screen
    sheet / dialog puts its close icon at the start or end of its top bar)."""
    header = extent.top + 0.1 * (extent.bottom - extent.top)
    close = by_label(snap, surface_of(snap, panel).buttons, lexicon(profile.words).dismiss)
    return close is not None and close.bounds.top <= header


def _meets(snap: ScreenSnapshot, node: Node, chain: dict[int, int]) -> Node | None:
    """The first of the node and its ancestors that lies on the chain (orders as keys), or None."""
    up: Node | None = node
    while up is not None and up.order not in chain:
        up = snap.nodes[up.parent] if up.parent is not None else None
    return up


def _grip(snap: ScreenSnapshot, panel: Node, extent: Bounds) -> bool:
    """The sheet starts with a drag handle: an unlabelled leaf pill centred at its top (Material's
    32 x 4 dp handle, @gorhom/bottom-sheet's `BottomSheetHandle` indicator, the pill React Native sheets copy)."""
    near = extent.top + EDGE * (extent.bottom - extent.top)  # inside the sheet's top padding (Material: 22 dp)
    width = extent.right - extent.left
    for n in surface_of(snap, panel).nodes:
        b = n.bounds
        if b.top > near or n.clickable or n.text.strip() or n.content_desc.strip() or snap.children(n):
            continue
        if 0.04 * width <= b.width <= 0.15 * width and 0 < b.height * 4 <= b.width \
                and abs((b.left + b.right) - (extent.left + extent.right)) <= EDGE * width:
            return True
    return False


def _wrapped(snap: ScreenSnapshot, window: Window, backdrop: Node) -> Node:
    """The layer the backdrop fills on its own: React Native wraps the overlay `Pressable` in an
    `Animated.View` of the same size (@react-navigation/drawer's Overlay), so the modal is drawn after the
    wrapper, not after the backdrop itself."""
    layer = backdrop
    while layer.parent is not None:
        up = snap.nodes[layer.parent]
        if up.parent is None or len(snap.children(up)) != 1 or up.bounds != backdrop.bounds:
            break
        layer = up
    return layer


def _in_page_body(snap: ScreenSnapshot, window: Window, panel: Node) -> bool:
    """The card lies in a full-width container that stops at the system bars: a page's body.

    A modal's card hangs from containers as large as the window (the dialog's window, Flutter's route and
    overlay entries); a page lays its content out in a body between the bars of an edge-to-edge window.
    """
    w = window.bounds
    for up in snap.ancestors(panel):
        b = up.bounds
        if b.width >= FULL * w.width and (b.top > w.top or b.bottom < w.bottom) and b.height < w.height:
            return True
    return False


def _list_item(snap: ScreenSnapshot, panel: Node, button: Node) -> bool:
    """The button belongs to one item of a list inside the panel: a container around it sits among two or
    more clickable siblings (the system photo picker's notice above its media grid: its "Dismiss" closes
    the notice, not the picker)."""
    up = button.parent
    while up is not None and up != panel.order:
        node = snap.nodes[up]
        if node.parent is None:
            break
        # Items of a list: clickable siblings that are no fields (a form's header sits among its fields).
        items = sum(k.clickable and not k.editable and k.order != up for k in snap.children(snap.nodes[node.parent]))
        if not node.clickable and items >= 2:
            return True
        up = node.parent
    return False


def _cancellable(snap: ScreenSnapshot, profile: DeviceProfile, surface: Surface, backdrop: Node | None) -> bool:
    """A form over a backdrop that closes it, or with a cancel button, is a dialog, not a page."""
    if backdrop is None:
        return False
    return backdrop.clickable or by_label(snap, surface.buttons, lexicon(profile.words).dismiss) is not None


def _content(snap: ScreenSnapshot, window: Window, node: Node) -> bool:
    """A node drawn in the window that is not one of the containers holding the whole window."""
    b = node.bounds
    if not node.visible or b.right <= b.left or b.bottom <= b.top or node.short_id in _DECOR_BARS:
        return False
    if not _fills(window.bounds, node.bounds):
        return True
    labelled = node.clickable or node.scrollable or node.editable or node.text.strip() or node.content_desc.strip()
    return bool(labelled) or node.short_class in CANVAS_CLASSES or not snap.children(node)


def _backdrop(snap: ScreenSnapshot, window: Window, node: Node) -> bool:
    """A modal's backdrop: a node over the whole window that says nothing and is no canvas.

    React Native's `Modal` puts a full-screen `Pressable` (or a plain `View` with a dimming background)
    under its card; Compose's `ModalBottomSheet` and `Dialog` draw a clickable scrim without a label. Such
    a node is either clickable (it closes the modal) or an empty leaf, and the modal is drawn above it. A
    clickable one may carry a label (`Pressable accessibilityLabel="Add attachment"` around an action sheet);
    holding buttons of its own, it is no button either.
    """
    if not _fills(window.bounds, node.bounds):
        return False  # checked first: cheap, and most nodes are smaller than their window
    if not node.visible or node.scrollable or node.editable or node.text.strip():
        return False
    if node.content_desc.strip() and not (node.clickable and any(k.clickable for k in snap.descendants(node))):
        return False
    if node.short_class in CANVAS_CLASSES:
        return False
    if node.clickable:
        return True  # a tap on it closes the modal, wherever the toolkit put it (a drawer's `Pressable` overlay)
    if node.short_class not in _BACKDROP_CLASSES or snap.children(node):
        return False
    # An empty leaf is only a colour. A modal's dimming view stays fixed over the window; one inside a scroll
    # container's content scrolls with the page, so it is the page's own background.
    return not any(a.scrollable or a.short_class in _SCROLLERS for a in snap.ancestors(node))


def _panel(snap: ScreenSnapshot, window: Window) -> tuple[Node, Bounds, Node | None] | None:
    """The deepest node holding every content node of the window, where the content lies, and the modal's
    backdrop if one lies under it; None when the content fills the window (a screen of its own).

    Without a backdrop the panel is that node (most screens stop as soon as it is the whole window and the
    content reaches its edges); with one, or when the toolkit flattens the modal's nodes into the window's
    (Flutter's semantics tree), the modal may be loose nodes, so the content's own extent counts."""
    chain: list[Node] = []
    depth: dict[int, int] = {}
    lowest = 0
    backdrop: Node | None = None
    spread = False  # content spread over a window-sized node before any backdrop: a page, or a flattened modal
    left = top = 1 << 30
    right = bottom = -1
    for node in snap.by_window[window.index]:
        if _backdrop(snap, window, node):
            if spread:
                return None  # a page listed before the backdrop: `_over_page` decides which one is on top
            backdrop = node  # drawn below what follows it: the modal (the last one lies right under it)
            continue
        if not _content(snap, window, node):
            continue
        b = node.bounds
        left, top, right, bottom = min(left, b.left), min(top, b.top), max(right, b.right), max(bottom, b.bottom)
        if not chain:
            chain = [*reversed(snap.ancestors(node)), node]  # window root down to the node
            depth = {n.order: i for i, n in enumerate(chain)}
            lowest = len(chain) - 1
            continue
        if lowest > 0 and not _fills(window.bounds, chain[lowest].bounds):
            up = _meets(snap, node, depth)
            if up is None:
                return None
            lowest = min(lowest, depth[up.order])
        if _fills(window.bounds, chain[lowest].bounds):
            # Over a backdrop, a container inset from the window's top is a fully expanded sheet (Compose M3
            # ModalBottomSheet: a Scrim, then the sheet below the status-bar inset), however far its content spreads.
            if _fills(window.bounds, Bounds(left, top, right, bottom)) \
                    and (backdrop is None or chain[lowest].bounds.top <= window.bounds.top):
                return None  # content all over the window: a screen of its own (most screens stop here)
            spread = spread or backdrop is None
    if not chain:
        return None
    if _fills(window.bounds, chain[lowest].bounds):
        return chain[lowest], Bounds(left, top, right, bottom), backdrop
    return chain[lowest], chain[lowest].bounds, backdrop


def _fills(window: Bounds, b: Bounds) -> bool:
    # Plain arithmetic: this runs for every node of the window.
    return (b.right - b.left >= FULL * (window.right - window.left)
            and b.bottom - b.top >= 0.9 * (window.bottom - window.top))


def _shape(window: Bounds, panel: Bounds, empty_top: float = MIN_EMPTY_TOP, side: float = EDGE) -> Shape | None:
    """Sheet, drawer or card by the empty parts of the window around the panel (a card leaves `side` free
    left and right); None for a whole screen."""
    w, h = max(window.width, 1), max(window.height, 1)
    left, right = (panel.left - window.left) / w, (window.right - panel.right) / w
    top, bottom = (panel.top - window.top) / h, (window.bottom - panel.bottom) / h
    if left <= EDGE and right <= EDGE and bottom <= EDGE and top >= empty_top:
        return Shape.SHEET
    if top <= STATUS_BAR and bottom <= EDGE and min(left, right) <= EDGE and max(left, right) >= MIN_EMPTY_SIDE:
        return Shape.DRAWER
    if min(top, bottom) >= EDGE and min(left, right) >= side:
        return Shape.CARD
    return None
