"""In-window modals: dialogs and sheets that Compose, Flutter and React Native draw inside the app's own
window, behind a clickable barrier (a "scrim") that closes them.

Such a modal has no window of its own, so the dialog rules never see it. Its barrier gives it away: a
clickable node across the whole width of the window, from one edge (or, beside a drawer, as tall as the
window against a side edge), whose label is a dismiss word of the
lexicon (Compose dialogs: "Close" / "閉じる", Compose sheets: "Close sheet", Flutter dialogs: "Dismiss"), or
the label Flutter gives a modal bottom sheet's barrier (`ModalBottomSheetRoute` passes
`MaterialLocalizations.scrimLabel`, "Scrim", to its `ModalBarrier`; the lexicon's `scrim` list, which also holds
React Native @gorhom/bottom-sheet's "Bottom sheet backdrop").
The modal's card is the barrier's parent's content (Flutter draws the card beside the barrier, Compose
inside it); when the parent holds the barrier alone (Flutter puts the barrier and the sheet in two overlay
entries), the card is the grandparent's content. It is cleared like any app dialog (its dismiss button,
never a risky one), else with back, which closes a modal without choosing. A drawer is closed with back:
its items are places to go, and a chat title or a menu entry that mentions "install" is no offer.
"""

from __future__ import annotations

from dataclasses import replace

from starebrain.models.selector import Selector
from starebrain.obstruction.clearing import by_label, target_inside
from starebrain.obstruction.kinds import BackClearance, Obstruction, ObstructionKind, TapClearance
from starebrain.obstruction.lexicon import lexicon, said, word_of
from starebrain.obstruction.overlay import handle
from starebrain.obstruction.surfaces import Surface, surface_of
from starebrain.profiles import DeviceProfile
from starebrain.snapshot import Node, ScreenSnapshot, Window
from starebrain.snapshot.describe import clean, own_label
from starebrain.snapshot.node import Bounds
from starebrain.snapshot.windows import WindowKind

MIN_BARRIER_WIDTH = 0.95  # share of the window's width
MIN_BARRIER_HEIGHT = 0.08  # share of the window's height
MIN_NAMED_BARRIER_HEIGHT = 0.25  # a barrier whose label only contains a dismiss word ("Close sheet" in Russian)
# A drawer leaves this share of the window beside it (M3's sheet is up to 360 dp wide: ~30 dp of a 390 dp phone).
MIN_STRIP_WIDTH = 0.05
EDGE = 0.02  # how close to the window's top or bottom edge the barrier starts or ends
BARS = 0.05  # a drawer's strip may stop at the system bars (24-48 dp each) of an edge-to-edge window


def in_window_modal(snap: ScreenSnapshot, profile: DeviceProfile, target: Selector | None) -> Obstruction | None:
    """OVERLAY for a modal inside the top-most app window, with its dismiss button or back."""
    window = next((w for w in snap.windows_by_layer if w.kind is WindowKind.APP), None)
    if window is None:
        return None
    barrier = next((n for n in snap.by_window[window.index] if _is_barrier(snap, profile, window, n)), None)
    if barrier is None:
        return _open_drawer(snap, window, target)
    if barrier.parent is not None:
        # Sheets stacked in one container each bring their barrier: the top-most of them is in the way.
        stacked = [k for k in snap.children(snap.nodes[barrier.parent]) if _is_barrier(snap, profile, window, k)]
        barrier = max(stacked, key=snap.layers.z)
    card = _card(snap, profile, barrier)
    if target_inside(snap, target, card):
        return None
    title = clean(card.texts[0], 60) if card.texts else "untitled"
    if _side_strip(window.bounds, barrier.bounds):
        # A drawer's items are places to go, not a dialog's answers: back closes it (BackHandler).
        return Obstruction(ObstructionKind.OVERLAY, f'navigation drawer "{title}"; back closes it', BackClearance())
    found = handle(snap, profile, card, "in-window dialog")
    if found is not None and isinstance(found.clearance, TapClearance) \
            and _hit(snap, found.clearance) not in {None, barrier.order, *(n.order for n in card.nodes)}:
        # A clickable layer drawn over the card (a composer's full-window scrim over a comments sheet) would take the
        # tap (ViewGroup dispatches a touch to the child drawn on top), not the button: back closes the top layer.
        return Obstruction(ObstructionKind.OVERLAY, f'in-window dialog "{title}" lies under another modal; back '
                           "closes the top one", BackClearance())
    if found is not None:
        return found
    return Obstruction(ObstructionKind.OVERLAY, f'in-window dialog "{title}"; back closes it', BackClearance())


def _hit(snap: ScreenSnapshot, tap: TapClearance) -> int | None:
    """The order of the node a tap at the clearance's point reaches; None when the dump gives no drawing order
    (without it, siblings are listed by place, not by z, so which one is on top is unknown)."""
    node = snap.touch_target_at(tap.x, tap.y)
    return None if node is None or node.drawing_order < 0 else node.order


def _is_barrier(snap: ScreenSnapshot, profile: DeviceProfile, window: Window, node: Node) -> bool:
    if not (node.visible and node.clickable and node.enabled):
        return False
    w, b = window.bounds, node.bounds
    label = own_label(node)
    words = lexicon(profile.words)
    # A barrier labelled as one (Flutter's "Scrim") may show only a sliver above a sheet that is scroll-
    # controlled up to the top (`showModalBottomSheet(isScrollControlled: true)`): no height is asked of it.
    scrim = bool(label) and word_of(label, words.scrim) is not None
    strip = _side_strip(w, b)
    if not strip:
        if b.width < MIN_BARRIER_WIDTH * w.width or (b.height < MIN_BARRIER_HEIGHT * w.height and not scrim):
            return False
        if b.top > w.top + EDGE * w.height and b.bottom < w.bottom - EDGE * w.height:
            return False  # a wide button in the middle of a page, not a barrier from an edge
    if not label:
        return b.top <= w.top + EDGE * w.height and _touch_outside(snap, profile, window, node)
    if scrim or word_of(label, words.dismiss) is not None:
        return True
    # A longer label only on a barrier that covers much of the window: a full-width "Cancel subscription" bar at
    # a page's bottom edge is the page's button.
    return (strip or b.height >= MIN_NAMED_BARRIER_HEIGHT * w.height) and _names_closing(label, words.dismiss)


def _names_closing(label: str, dismiss: tuple[str, ...]) -> bool:
    """The barrier's label says it closes something: a dismiss word inside it, as a whole word (CJK: as a
    substring). Compose's `ModalBottomSheet` labels its scrim `Strings.CloseSheet` in the phone's language
    ("Закрыть лист", "시트 닫기"), React Native apps their backdrop `Pressable` ("关闭模型选择", close the model
    picker). One-letter words ("x") say nothing inside a longer label."""
    found = said(label, dismiss)
    return found is not None and len(found) > 1


def _touch_outside(snap: ScreenSnapshot, profile: DeviceProfile, window: Window, strip: Node) -> bool:
    """An empty strip from the top edge above a sheet that reaches the bottom edge and has a dismiss button.

    Material's `BottomSheetDialog` (design_bottom_sheet_dialog.xml) lays a `touch_outside` view that closes
    the sheet beside the sheet in one container; apps that build their own sheet the same way leave the
    strip without an id or a label. Only the sheet's own dismiss button makes it a sheet.
    """
    if strip.parent is None or snap.children(strip):
        return False
    siblings = snap.children(snap.nodes[strip.parent])
    rest = siblings[next(i for i, k in enumerate(siblings) if k.order == strip.order) + 1:]
    if len(rest) != 1:
        return False
    w, b = window.bounds, rest[0].bounds
    if b.top < strip.bounds.bottom - EDGE * w.height or b.bottom < w.bottom - EDGE * w.height \
            or b.width < MIN_BARRIER_WIDTH * w.width:
        return False
    return by_label(snap, surface_of(snap, rest[0]).buttons, lexicon(profile.words).dismiss) is not None


def _open_drawer(snap: ScreenSnapshot, window: Window, target: Selector | None) -> Obstruction | None:
    """OVERLAY (back) for the open drawer of an AndroidX `DrawerLayout`.

    `DrawerLayout` lays its content out first and each drawer (a later child with a start / end gravity) off
    screen until it opens, so a dump holds a drawer child only while it is open: as tall as the layout,
    against a side edge, leaving a strip of the dimmed content beside it. Back closes it
    (`DrawerLayout#onKeyUp` handles KEYCODE_BACK for an open drawer).
    """
    for layout in snap.by_window[window.index]:
        if "DrawerLayout" not in layout.class_name or not layout.short_class.endswith("DrawerLayout"):
            continue
        for drawer in snap.children(layout)[1:]:
            if drawer.visible and _side_strip(layout.bounds, drawer.bounds):
                surface = surface_of(snap, drawer)
                if not surface.buttons or target_inside(snap, target, surface):
                    continue
                title = clean(surface.texts[0], 60) if surface.texts else "untitled"
                return Obstruction(ObstructionKind.OVERLAY, f'navigation drawer "{title}"; back closes it',
                                   BackClearance())
    return None


def _side_strip(w: Bounds, b: Bounds) -> bool:
    """As tall as `w`, against one of its side edges, not across its whole width: a drawer, or the strip of
    a drawer's scrim beside it.

    Compose's `ModalNavigationDrawer` (material3 NavigationDrawer.kt) draws its `Scrim` labelled
    `Strings.CloseDrawer` ("Close navigation menu") under the drawer sheet; a dump shows only the strip the
    sheet leaves uncovered.
    """
    tall = b.top <= w.top + BARS * w.height and b.bottom >= w.bottom - BARS * w.height
    edge = b.left <= w.left + EDGE * w.width or b.right >= w.right - EDGE * w.width
    return tall and edge and MIN_STRIP_WIDTH * w.width <= b.width < MIN_BARRIER_WIDTH * w.width


def _card(snap: ScreenSnapshot, profile: DeviceProfile, barrier: Node) -> Surface:
    """The modal: everything under the barrier's parent, the barrier itself not counted as a button."""
    holder = snap.nodes[barrier.parent] if barrier.parent is not None else barrier
    if holder.parent is not None and all(n.order == barrier.order or not _shown(n) for n in snap.descendants(holder)):
        holder = snap.nodes[holder.parent]  # the barrier's own overlay entry: the sheet is its sibling
    surface = surface_of(snap, holder)
    above = _drawn_above(snap, barrier)
    if above:
        above.add(barrier.order)
        surface = replace(surface, nodes=tuple(n for n in surface.nodes if n.order in above))
    texts = tuple(t for n in surface.nodes if n.order != barrier.order
                  for t in (n.text.strip(), n.content_desc.strip()) if t and not n.password)
    return replace(surface, texts=texts, not_a_button=(barrier.order, *_drag_handles(snap, profile, barrier, surface)))


def _drawn_above(snap: ScreenSnapshot, barrier: Node) -> set[int]:
    """The `order`s of everything in the barrier's siblings drawn above it (by `drawing-order`), when any is: the
    modal over this barrier. React Native's @gorhom/bottom-sheet draws each sheet right after its backdrop in one
    container, so a second sheet opened from the first stacks backdrop, sheet, backdrop, sheet; what lies under
    the top-most barrier (the first sheet, its close button) is not the modal in the way. Compose draws the card
    inside its scrim (no sibling above it), and without drawing orders the order of siblings is unknown: then the
    whole container is the modal."""
    if barrier.parent is None:
        return set()
    kids = snap.children(snap.nodes[barrier.parent])
    if not all(k.drawing_order >= 0 for k in kids):
        return set()
    return {n.order for k in kids if k.drawing_order > barrier.drawing_order
            for n in (k, *snap.descendants(k))}


# Flutter's modal bottom sheet (material/bottom_sheet.dart, `_DragHandle`) exposes its drag handle as a button
# labelled `modalBarrierDismissLabel` ("Dismiss") that only a semantics action closes: a touch on it starts a
# drag. It sits right under the route's barrier ("Scrim"), narrower than the sheet; back or the barrier closes it.
_HANDLE_GAP = 0.02  # share of the barrier's bottom y between that edge and the handle's top
_HANDLE_WIDTH = 0.25  # share of the barrier's width


def _drag_handles(snap: ScreenSnapshot, profile: DeviceProfile, barrier: Node, surface: Surface) -> tuple[int, ...]:
    """Flutter's sheet handles under a "Scrim" barrier: no button to tap."""
    label = own_label(barrier)
    if not label or word_of(label, lexicon(profile.words).scrim) is None:
        return ()
    b = barrier.bounds
    gap, narrow = _HANDLE_GAP * max(b.bottom, 1), _HANDLE_WIDTH * b.width
    return tuple(n.order for n in surface.nodes if n.clickable and n.order != barrier.order
                 and abs(n.bounds.top - b.bottom) <= gap and n.bounds.width < narrow and not snap.children(n))


def _shown(node: Node) -> bool:
    """A node a person can see or use: visible, with a label or a touch handler."""
    return node.visible and bool(node.clickable or node.text.strip() or node.content_desc.strip())
