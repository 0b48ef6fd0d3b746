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
It is cleared like an app dialog (its dismiss button, never a risky one), else with back, which closes it
without choosing anything.
"""

from __future__ import annotations

from enum import StrEnum

from starebrain.models.selector import Selector
from starebrain.obstruction.clearing import target_inside
from starebrain.obstruction.kinds import BackClearance, Obstruction, ObstructionKind
from starebrain.obstruction.overlay import handle
from starebrain.obstruction.surfaces import surface_of
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
MIN_EMPTY_SIDE = 0.1  # a drawer leaves at least this share empty beside it (Material: 56 dp of a phone)
MIN_BUTTONS = 2  # a modal offers a choice or a way out besides its one action
FULL = 0.98  # a node this wide (and 90% as tall) as its window is a backdrop container, not content


class Shape(StrEnum):
    """Where the panel sits in its window."""

    SHEET = "bottom sheet"
    DRAWER = "navigation drawer"
    CARD = "dialog"


def see_through_modal(snap: ScreenSnapshot, profile: DeviceProfile, target: Selector | None) -> Obstruction | None:
    """OVERLAY for a lone sheet, drawer or card in the top-most app window, with its dismiss button or back."""
    window = next((w for w in snap.windows_by_layer if w.kind is WindowKind.APP), None)
    if window is None:
        return None
    panel = _panel(snap, window)
    if panel is None:
        return None
    shape = _shape(window.bounds, panel.bounds)
    if shape is None:
        return None
    surface = surface_of(snap, panel)
    if len(surface.buttons) < MIN_BUTTONS or len(set(surface.texts)) < 2 or target_inside(snap, target, surface):
        return None  # a modal says something and offers a choice; an empty state with one "Retry" is the page
    if shape is Shape.CARD and any(n.editable for n in surface.nodes):
        return None  # a sign-in form centred on an empty page is the page
    found = handle(snap, profile, surface, shape.value)
    if found is not None:
        return found
    title = clean(surface.texts[0], 60) if surface.texts else "untitled"
    return Obstruction(ObstructionKind.OVERLAY, f'{shape.value} "{title}" alone in its window; back closes it',
                       BackClearance())


def _content(snap: ScreenSnapshot, window: Window, node: Node) -> bool:
    """A node drawn in the window that is not one of the containers holding the whole window."""
    b = node.bounds
    if not node.visible or b.right <= b.left or b.bottom <= b.top or node.short_id in _DECOR_BARS:
        return False
    if not _fills(window.bounds, node.bounds):
        return True
    labelled = node.clickable or node.scrollable or node.editable or node.text.strip() or node.content_desc.strip()
    return bool(labelled) or node.short_class in CANVAS_CLASSES or not snap.children(node)


def _panel(snap: ScreenSnapshot, window: Window) -> Node | None:
    """The deepest node holding every content node of the window; None when that is the whole window."""
    chain: list[Node] = []
    depth: dict[int, int] = {}
    lowest = 0
    for node in snap.by_window[window.index]:
        if not _content(snap, window, node):
            continue
        if not chain:
            chain = _ancestors(snap, node)
            depth = {n.order: i for i, n in enumerate(chain)}
            lowest = len(chain) - 1
            continue
        up: Node | None = node
        while up is not None and up.order not in depth:
            up = snap.nodes[up.parent] if up.parent is not None else None
        if up is None:
            return None
        lowest = min(lowest, depth[up.order])
        if _fills(window.bounds, chain[lowest].bounds):
            return None  # content all over the window: a screen of its own (most screens stop here)
    return chain[lowest] if chain else None


def _fills(window: Bounds, b: Bounds) -> bool:
    # Plain arithmetic: this runs for every node of the window.
    return (b.right - b.left >= FULL * (window.right - window.left)
            and b.bottom - b.top >= 0.9 * (window.bottom - window.top))


def _ancestors(snap: ScreenSnapshot, node: Node) -> list[Node]:
    """The node's ancestors from the window root down to the node itself."""
    out = [node]
    parent = node.parent
    while parent is not None:
        out.append(snap.nodes[parent])
        parent = out[-1].parent
    return out[::-1]


def _shape(window: Bounds, panel: Bounds) -> Shape | None:
    """Sheet, drawer or card by the empty parts of the window around the panel; None for a whole screen."""
    w, h = max(window.width, 1), max(window.height, 1)
    left, right = (panel.left - window.left) / w, (window.right - panel.right) / w
    top, bottom = (panel.top - window.top) / h, (window.bottom - panel.bottom) / h
    if left <= EDGE and right <= EDGE and bottom <= EDGE and top >= MIN_EMPTY_TOP:
        return Shape.SHEET
    if top <= EDGE and bottom <= EDGE and min(left, right) <= EDGE and max(left, right) >= MIN_EMPTY_SIDE:
        return Shape.DRAWER
    if min(left, right, top, bottom) >= EDGE:
        return Shape.CARD
    return None
