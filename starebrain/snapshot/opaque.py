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
# At most this many labelled or actionable nodes besides the canvas.
MAX_HANDLES = 1


def _labelled(n: Node) -> bool:
    return bool(normalize_text(n.text) or normalize_text(n.content_desc))


def unusable_reason(snap: ScreenSnapshot) -> str:
    """Why the top-most app window offers nothing to act on ("" when its hierarchy is usable)."""
    top = snap.top_window
    if top is None or top.kind is not WindowKind.APP:
        return ""
    nodes = [n for n in snap.nodes if n.window_index == top.index and n.visible]
    area = max(top.bounds.area, 1)
    canvas = next((n for n in nodes if n.short_class in CANVAS_CLASSES and not snap.children(n)
                   and n.bounds.area >= MIN_CANVAS_SHARE * area), None)
    handles = [n for n in nodes if n is not canvas and (_labelled(n) or n.clickable or n.editable or n.scrollable)]
    if canvas is not None and len(handles) <= MAX_HANDLES:
        return f"a {canvas.short_class} fills the screen and exposes no elements"
    if not handles and len(nodes) >= 1:
        return "the app exposes only empty containers (no text, descriptions or controls)"
    return ""
