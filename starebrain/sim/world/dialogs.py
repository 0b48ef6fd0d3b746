"""Dialog windows from templates: permission requests, "isn't responding", in-app pop-ups."""

from __future__ import annotations

from typing import Any

from starebrain.sim.phone import UiNode
from starebrain.sim.world.frame import Frame, Target
from starebrain.sim.world.layout import text_height
from starebrain.sim.world.nodes import add, make_node
from starebrain.sim.world.template import fill_text

SIDE = 70
BUTTON_H = 150


def _height(spec: dict[str, Any], ctx: dict[str, Any], inner_w: int) -> int:
    title = fill_text(spec.get("title", ""), ctx)
    message = fill_text(spec.get("message", ""), ctx)
    height = 80
    height += text_height(title, inner_w, "title") if title else 0
    height += text_height(message, inner_w, "body") + 20 if message else 0
    buttons = len(spec.get("buttons", []))
    height += BUTTON_H * (buttons if spec.get("buttons_layout") == "vertical" else 1)
    return height


def build_dialog(frame: Frame, spec: dict[str, Any], ctx: dict[str, Any], display: tuple[int, int]) -> UiNode:
    """A centred dialog window for a template filled with `ctx`."""
    width, height = display
    package = fill_text(spec.get("package", "android"), ctx)
    inner_w = width - 2 * SIDE - 120
    box_h = _height(spec, ctx, inner_w)
    top = (height - box_h) // 2 if spec.get("position") != "bottom" else height - box_h - 60
    box = (SIDE, top, width - SIDE, top + box_h)
    root = make_node("frame", package, box)
    content = make_node("frame", package, box, rid="android:id/content")
    panel = make_node("linear", package, box, rid=spec.get("panel_id", "android:id/parentPanel"),
                      clickable=bool(spec.get("panel_clickable")))
    add(root, add(content, panel))
    y = top + 60
    for key, style in (("title", "title"), ("message", "body")):
        text = fill_text(spec.get(key, ""), ctx)
        if not text:
            continue
        h = text_height(text, inner_w, style)
        node = make_node("text", package, (SIDE + 60, y, width - SIDE - 60, y + h), text=text,
                         rid=spec.get(f"{key}_id", f"android:id/{'alertTitle' if key == 'title' else 'message'}"))
        frame.styles[id(node)] = style
        add(panel, node)
        y += h + (20 if key == "message" else 0)
    add(panel, _buttons(frame, spec, ctx, package, (SIDE + 30, y, width - SIDE - 30, top + box_h - 20)))
    if spec.get("close"):
        close = make_node("imagebutton", package, (width - SIDE - 140, top + 10, width - SIDE - 10, top + 140),
                          rid=f"{package}:id/close_button", desc="Close", clickable=True, focusable=True)
        add(panel, frame.bind(close, Target("ops", [{"dismiss": True}], dict(ctx), window="dialog")))
    return root


def _buttons(frame: Frame, spec: dict[str, Any], ctx: dict[str, Any], package: str,
             box: tuple[int, int, int, int]) -> UiNode:
    left, top, right, bottom = box
    panel = make_node("linear", package, box, rid=spec.get("buttons_id", "android:id/buttonPanel"))
    buttons = spec.get("buttons", [])
    vertical = spec.get("buttons_layout") == "vertical"
    for i, button in enumerate(buttons):
        if vertical:
            bounds = (left, top + i * BUTTON_H + 6, right, top + (i + 1) * BUTTON_H - 6)
        else:
            w = (right - left) // max(len(buttons), 1)
            bounds = (left + i * w + 6, top + 6, left + (i + 1) * w - 6, top + BUTTON_H - 6)
        node = make_node("button", package, bounds, text=fill_text(button["text"], ctx),
                         rid=fill_text(button.get("id", ""), ctx), clickable=True, focusable=True)
        add(panel, frame.bind(node, Target("ops", list(button.get("tap", [{"dismiss": True}])), dict(ctx),
                                           window="dialog")))
    return panel
