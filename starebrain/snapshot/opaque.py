"""Screens without a usable hierarchy: games, canvases, camera previews, Flutter without semantics,
WebViews that expose nothing. Acting on them needs the screenshot, not the node tree."""

from __future__ import annotations

from typing import TYPE_CHECKING

from starebrain.snapshot.node import Node
from starebrain.snapshot.text import normalize_text
from starebrain.snapshot.windows import WindowKind

if TYPE_CHECKING:
    from starebrain.snapshot.snapshot import ScreenSnapshot

# Classes that draw their own pixels: nothing inside them reaches the accessibility tree.
CANVAS_CLASSES = ("SurfaceView", "TextureView", "GLSurfaceView", "FlutterView", "FlutterSurfaceView",
                  "UnityPlayer", "WebView", "VideoView", "PlayerView")
# A canvas this large (share of its window) is the screen, not a picture on it.
MIN_CANVAS_SHARE = 0.3
# SurfaceView, GLSurfaceView and TextureView keep View#getAccessibilityClassName, so a dump names them
# plain "android.view.View" (Unity's "Game view" surface, a camera or video preview). A plain View leaf
# covering the whole window is such a surface; a smaller or clickable one is a Compose or custom-drawn element
# (a "tap anywhere" screen is still something to act on).
GENERIC_VIEW = "View"
MIN_SURFACE_SHARE = 0.9
# Flutter merges the semantics of a tappable widget's descendants into one node, joining their labels with
# newlines (flutter/lib/src/semantics/semantics.dart, `_concatAttributedString`). A clickable plain View leaf
# filling the window whose description joins this many labels is a whole page merged into one node: none of its
# parts can be told apart or tapped on its own.
MIN_MERGED_LABELS = 3
# At most this many labelled or actionable nodes besides the canvas.
MAX_HANDLES = 1
# A button is at most this share of its window (a 48dp icon button is ~0.3% of a phone's).
MAX_CONTROL_SHARE = 0.02


def _labelled(n: Node) -> bool:
    return bool(normalize_text(n.text) or normalize_text(n.content_desc))


def _draws_own_pixels(n: Node, window_area: int) -> bool:
    """A canvas class filling a large share of the window, or a plain View leaf filling all of it."""
    if n.short_class == GENERIC_VIEW:
        return not n.clickable and n.bounds.area >= MIN_SURFACE_SHARE * window_area
    return n.short_class in CANVAS_CLASSES and n.bounds.area >= MIN_CANVAS_SHARE * window_area


def _merged_page(n: Node, window_area: int) -> bool:
    """A clickable plain View leaf over the whole window whose description joins several labels (see above)."""
    return (n.short_class == GENERIC_VIEW and n.clickable and n.bounds.area >= MIN_SURFACE_SHARE * window_area
            and sum(1 for line in n.content_desc.split("\n") if line.strip()) >= MIN_MERGED_LABELS)


def unusable_reason(snap: ScreenSnapshot) -> str:
    """Why the top-most app window offers nothing to act on ("" when its hierarchy is usable)."""
    top = snap.top_window
    if top is None and any(w.kind is WindowKind.BAR for w in snap.windows):
        return "the dump holds only system bars (the app's window is missing)"
    if top is None or top.kind is not WindowKind.APP:
        return ""
    nodes = [n for n in snap.nodes if n.window_index == top.index and n.visible]
    area = max(top.bounds.area, 1)
    canvas = next((n for n in nodes if (_draws_own_pixels(n, area) or _merged_page(n, area))
                   and not snap.children(n)), None)
    handles = [n for n in nodes if n is not canvas and (_labelled(n) or n.clickable or n.editable or n.scrollable)]
    if canvas is not None and _controls(snap, handles, area) <= MAX_HANDLES:
        if _merged_page(canvas, area):
            return "the page is one node merging all its labels (Flutter semantics): its parts cannot be told apart"
        return f"a {canvas.short_class} fills the screen and exposes no elements"
    if not handles and nodes:
        return "the app exposes only empty containers (no text, descriptions or controls)"
    if not nodes:
        # Every node has empty bounds (a window captured before layout, or one that hides its views from
        # accessibility, leaving only the root): nothing in the dump is on screen.
        return "the app window shows no node on screen"
    return ""


def _controls(snap: ScreenSnapshot, handles: list[Node], window_area: int) -> int:
    """How many controls the handles make: a label inside a button-sized clickable is that button's (a Compose
    IconButton keeps its icon's `contentDescription` in a child of the clickable, a View button its TextView).
    A large clickable container (a panel, a card) is no one control."""
    clickable = {n.order for n in handles if n.clickable and n.bounds.area <= MAX_CONTROL_SHARE * window_area}
    return sum(1 for n in handles if not any(a.order in clickable for a in snap.ancestors(n)))
