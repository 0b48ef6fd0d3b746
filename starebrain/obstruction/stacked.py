"""Stacked layers: a whole-screen layer with a close button drawn over the page in the same window.

Compose (`Box { Page(); Overlay() }`) and React Native (an absolutely positioned `View`) draw an overlay
screen as a later sibling of the page, the same size as it, without a window or a barrier of its own;
the page's nodes stay in the hierarchy underneath. Such a layer gives itself away by drawing its texts
over the page's texts in the same place, and by offering a dismiss word (a close button). Ordinary
screens also stack same-size siblings (a list under a translucent bar, a split view), but none of them
carries a close button in the upper layer. The layer is cleared like an app dialog: its dismiss button,
or the person when it offers to pay, subscribe or add an account.
"""

from __future__ import annotations

from starebrain.models.selector import Selector
from starebrain.obstruction.clearing import by_label, target_inside
from starebrain.obstruction.kinds import Obstruction
from starebrain.obstruction.lexicon import lexicon
from starebrain.obstruction.overlay import handle
from starebrain.obstruction.surfaces import Surface, surface_of
from starebrain.profiles import DeviceProfile
from starebrain.snapshot import Node, ScreenSnapshot
from starebrain.snapshot.node import Bounds
from starebrain.snapshot.windows import WindowKind

MIN_LAYER_AREA = 0.5  # share of the window a layer covers
SAME_EDGE = 0.02  # how far (share of the window) the two layers' edges may differ
CARD_MARGIN = 0.1  # a dialog card leaves this share of its layer empty on every side


def stacked_layer(snap: ScreenSnapshot, profile: DeviceProfile, target: Selector | None) -> Obstruction | None:
    """OVERLAY (or a person) for a whole-screen layer with a close button over the page below it."""
    window = next((w for w in snap.windows_by_layer if w.kind is WindowKind.APP), None)
    if window is None:
        return None
    area = MIN_LAYER_AREA * window.bounds.area
    for node in snap.by_window[window.index]:
        kids = snap.children(node)
        if len(kids) < 2:
            continue  # most nodes stop here
        large = [k for k in kids if k.visible and k.bounds.area >= area]
        if not large:
            continue
        found = _card_layer(snap, profile, kids, large, target)
        if found is not None:
            return found
        if len(large) < 2:
            continue
        layers = sorted(large, key=lambda k: k.drawing_order) if all(k.drawing_order >= 0 for k in kids) \
            else large  # bottom-most first: drawing-order, else document order, as Android draws siblings
        for i, upper in enumerate(layers[1:], start=1):
            lower = [n for n in layers[:i] if _same_place(window.bounds, n.bounds, upper.bounds)]
            if not lower:
                continue  # checked first: cheap, and most stacked children are not the same size
            found = _closable_over(snap, profile, upper, lower, target, "overlay screen")
            if found is not None:
                return found
    return None


def _card_layer(snap: ScreenSnapshot, profile: DeviceProfile, kids: list[Node], large: list[Node],
                target: Selector | None) -> Obstruction | None:
    """A dialog card alone in a layer over the page: a child covering half the window whose content lies
    inset from each of its edges, with a dismiss button, drawing its texts over a sibling's texts.

    .NET MAUI / Xamarin popups and overlays built as a page-sized `Grid` cell (a card centred in a layer of
    its own) draw over the page's parts, which stay in the tree as the layer's siblings. Without
    `drawing-order` a dump lists siblings by place, not by z (ViewGroup#addChildrenForAccessibility sorts them
    with ViewLocationHolder: left, top, taller first), so the layer may come first; with it, the page's parts
    must be drawn before the layer. A WebView's virtual nodes all report drawing-order 0 (Chromium's
    accessibility provider sets none), which orders nothing: its DOM order is the CSS painting order, so a
    `position: fixed` modal that comes last is drawn over the page listed before it.
    """
    ordered = all(k.drawing_order >= 0 for k in kids) and len({k.drawing_order for k in kids}) > 1
    for layer in large:
        below = [k for k in kids if k.order != layer.order and (not ordered or k.drawing_order < layer.drawing_order)]
        if not below or not _inset(snap, layer):
            continue
        found = _closable_over(snap, profile, layer, below, target, "dialog over the page")
        if found is not None:
            return found
    return None


def _closable_over(snap: ScreenSnapshot, profile: DeviceProfile, layer: Node, lower: list[Node],
                   target: Selector | None, what: str) -> Obstruction | None:
    """The layer's way out when it has a dismiss button and draws its texts over one of `lower`'s (and the
    step does not mean to act inside it)."""
    surface = surface_of(snap, layer)
    if by_label(snap, surface.buttons, lexicon(profile.words).dismiss) is None:
        return None
    if any(_drawn_over(snap, n, surface) for n in lower) and not target_inside(snap, target, surface):
        return handle(snap, profile, surface, what)
    return None


def _inset(snap: ScreenSnapshot, layer: Node) -> bool:
    """The layer has content (visible nodes with a text, a description or a click) and all of it leaves
    CARD_MARGIN of the layer empty on every side: a card, not a page. A page's first content (its app bar)
    already reaches an edge, so the walk stops early."""
    box = layer.bounds
    dx, dy = CARD_MARGIN * box.width, CARD_MARGIN * box.height
    found = False
    stack = [layer]
    while stack:
        n = stack.pop()
        if n.visible and (n.clickable or n.text.strip() or n.content_desc.strip()):
            b = n.bounds
            if b.left < box.left + dx or b.right > box.right - dx or b.top < box.top + dy \
                    or b.bottom > box.bottom - dy:
                return False
            found = True
        stack.extend(reversed(snap.children(n)))
    return found


def _same_place(window: Bounds, a: Bounds, b: Bounds) -> bool:
    dx, dy = SAME_EDGE * window.width, SAME_EDGE * window.height
    return (abs(a.left - b.left) <= dx and abs(a.right - b.right) <= dx
            and abs(a.top - b.top) <= dy and abs(a.bottom - b.bottom) <= dy)


def _drawn_over(snap: ScreenSnapshot, lower: Node, upper: Surface) -> bool:
    """A text of the upper layer lies over a text of the lower one."""
    mine = [n.bounds for n in upper.nodes if n.text.strip() or n.content_desc.strip()]
    return any(n.visible and (n.text.strip() or n.content_desc.strip()) and any(n.bounds.intersects(b) for b in mine)
               for n in snap.descendants(lower))
