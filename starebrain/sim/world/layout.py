"""The widget interpreter: turns the element lists of an app file into positioned `UiNode`s."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from starebrain.sim.phone import UiNode
from starebrain.sim.world.frame import Frame, Region, Target
from starebrain.sim.world.nodes import Bounds, add, clip, make_node
from starebrain.sim.world.template import fill, fill_text, truthy

MARGIN = 44
CHAR_W = 21  # average glyph width of 40 px text, for wrapping estimates
LINE_H = 52
KINDS = ("text", "button", "field", "check", "switch", "image", "progress", "spacer", "row", "list", "grid",
         "canvas")
HEIGHTS = {"button": 150, "field": 160, "check": 150, "switch": 170, "image": 130, "progress": 180}
TEXT_BASE = {"title": 120, "heading": 100, "body": 84, "small": 70}


@dataclass
class Scope:
    """Where a widget is built: the frame, package, id prefix, template context and screen UI state."""

    frame: Frame
    package: str
    id_prefix: str
    ctx: dict[str, Any]
    form: dict[str, str]
    scroll: dict[str, int]
    focus: str | None
    viewport: Bounds

    def rid(self, name: str | None) -> str:
        """A full resource id from a short one (`send` -> `pkg:id/send`)."""
        if not name:
            return ""
        return name if ":" in name else f"{self.id_prefix}:id/{name}"

    def child(self, ctx: dict[str, Any]) -> Scope:
        """The same scope with another context (a list item)."""
        return Scope(self.frame, self.package, self.id_prefix, ctx, self.form, self.scroll, self.focus, self.viewport)


def kind_of(element: dict[str, Any]) -> str:
    """The widget kind: the first key of the element that names one."""
    for key in element:
        if key in KINDS:
            return key
    raise ValueError(f"element without a widget kind: {element}")


def visible(element: dict[str, Any], ctx: dict[str, Any]) -> bool:
    """`if:` / `unless:` conditions."""
    if "if" in element and not truthy(ctx, element["if"]):
        return False
    return not ("unless" in element and truthy(ctx, element["unless"]))


def text_height(text: str, width: int, style: str = "body") -> int:
    """Height of wrapped text."""
    lines = max(1, math.ceil(len(text) * CHAR_W / max(width, 1)))
    lines += text.count("\n")
    return TEXT_BASE.get(style, 84) + (lines - 1) * LINE_H


def measure(element: dict[str, Any], scope: Scope, width: int) -> int:
    """The height an element takes."""
    kind = kind_of(element)
    if "height" in element:
        return int(element["height"])
    if kind == "text":
        width -= 2 * int(element.get("pad", MARGIN)) + int(element.get("indent", 0))
        return text_height(fill_text(element["text"], scope.ctx), width, element.get("style", "body"))
    if kind == "spacer":
        return int(element["spacer"])
    if kind == "row":
        parts = [e for e in element["row"] if visible(e, scope.ctx)]
        return max((measure(e, scope, width // max(len(parts), 1)) for e in parts), default=0)
    if kind == "field":
        return HEIGHTS["field"] + (int(element.get("lines", 1)) - 1) * LINE_H
    return HEIGHTS.get(kind, 0)


def place(elements: list[dict[str, Any]], scope: Scope, box: Bounds, parent: UiNode) -> int:
    """Stack elements top to bottom inside `box`; returns the bottom y. Lists fill what is left."""
    left, y, right, bottom = box
    shown = [e for e in elements if visible(e, scope.ctx)]
    for i, element in enumerate(shown):
        kind = kind_of(element)
        if kind in ("list", "grid", "canvas") and "height" not in element:
            below = sum(measure(e, scope, right - left) for e in shown[i + 1:])
            height = max(bottom - below - y, 0)
        else:
            height = measure(element, scope, right - left)
        add(parent, build(element, scope, (left, y, right, y + height)))
        y += height
    return y


def build(element: dict[str, Any], scope: Scope, bounds: Bounds) -> UiNode | None:
    """One element's node, clipped to the viewport (None when scrolled out of view)."""
    visible_bounds = clip(bounds, scope.viewport)
    if visible_bounds is None:
        return None
    return BUILDERS[kind_of(element)](element, scope, bounds, visible_bounds)


def _inset(bounds: Bounds, element: dict[str, Any]) -> Bounds:
    """The box minus side padding; `indent` pushes the left edge further (an outgoing bubble)."""
    pad = int(element.get("pad", MARGIN))
    return bounds[0] + pad + int(element.get("indent", 0)), bounds[1], bounds[2] - pad, bounds[3]


def _bind_tap(node: UiNode, element: dict[str, Any], scope: Scope) -> UiNode:
    if "tap" in element:
        scope.frame.bind(node, Target("ops", list(element["tap"]), dict(scope.ctx)))
    return node


def _text(element: dict[str, Any], scope: Scope, bounds: Bounds, vis: Bounds) -> UiNode:
    kind = "button" if element.get("as") == "button" else "text"
    node = make_node(
        element.get("class", kind), scope.package, clip(_inset(bounds, element), vis) or vis,
        text=fill_text(element["text"], scope.ctx), rid=scope.rid(element.get("id")),
        desc=fill_text(element.get("desc", ""), scope.ctx), clickable="tap" in element,
    )
    scope.frame.styles[id(node)] = element.get("style", "body")
    return _bind_tap(node, element, scope)


def _button(element: dict[str, Any], scope: Scope, bounds: Bounds, vis: Bounds) -> UiNode:
    left, top, right, bottom = _inset(bounds, element)
    node = make_node(
        element.get("class", "button"), scope.package, clip((left, top + 12, right, bottom - 12), vis) or vis,
        text=fill_text(element["button"], scope.ctx), rid=scope.rid(element.get("id")),
        desc=fill_text(element.get("desc", ""), scope.ctx), clickable=True, focusable=True,
        enabled=truthy(scope.ctx, element["enabled"]) if "enabled" in element else True,
    )
    return _bind_tap(node, element, scope)


def _field(element: dict[str, Any], scope: Scope, bounds: Bounds, vis: Bounds) -> UiNode:
    key = element["field"]
    value = scope.form.get(key, "")
    hint = fill_text(element.get("hint", ""), scope.ctx)
    password = bool(element.get("password"))
    shown = ("\u2022" * len(value) if password else value) or hint  # empty fields report their hint
    left, top, right, bottom = _inset(bounds, element)
    node = make_node(
        "edit", scope.package, clip((left, top + 10, right, bottom - 10), vis) or vis, text=shown,
        rid=scope.rid(element.get("id")), hint=hint, key=f"field:{key}", clickable=True, focusable=True,
        long_clickable=True, focused=scope.focus == key, password=password,
    )
    scope.frame.styles[id(node)] = "hint" if not value else "body"
    target = Target("field", list(element.get("submit", [])), dict(scope.ctx), name=key)
    scope.frame.targets[node.key] = target
    return node


def _check(element: dict[str, Any], scope: Scope, bounds: Bounds, vis: Bounds) -> UiNode:
    node = make_node(
        "check", scope.package, clip(_inset(bounds, element), vis) or vis,
        text=fill_text(element["check"], scope.ctx), rid=scope.rid(element.get("id")),
        desc=fill_text(element.get("desc", ""), scope.ctx), checkable=True, clickable=True, focusable=True,
        checked=truthy(scope.ctx, element["checked"]) if "checked" in element else False,
    )
    return _bind_tap(node, element, scope)


def _switch(element: dict[str, Any], scope: Scope, bounds: Bounds, vis: Bounds) -> UiNode:
    left, top, right, bottom = _inset(bounds, element)
    row = make_node("linear", scope.package, vis, clickable=True, focusable=True)
    checked = truthy(scope.ctx, element["checked"])
    title = make_node("text", scope.package, clip((left, top, right - 200, bottom), vis) or vis,
                      text=fill_text(element["switch"], scope.ctx), rid="android:id/title")
    toggle = make_node("switch", scope.package, clip((right - 170, top + 40, right, bottom - 40), vis) or vis,
                       text="ON" if checked else "OFF", rid=scope.rid(element.get("id", "android:id/switch_widget")),
                       checkable=True, checked=checked, focusable=True)
    add(row, title, toggle)
    return _bind_tap(row, element, scope)


def _image(element: dict[str, Any], scope: Scope, bounds: Bounds, vis: Bounds) -> UiNode:
    node = make_node(
        "imagebutton" if "tap" in element else "image", scope.package, vis,
        rid=scope.rid(element.get("id")), desc=fill_text(element["image"], scope.ctx),
        clickable="tap" in element, focusable="tap" in element,
    )
    return _bind_tap(node, element, scope)


def _progress(element: dict[str, Any], scope: Scope, bounds: Bounds, vis: Bounds) -> UiNode:
    cx = (bounds[0] + bounds[2]) // 2
    return make_node("progress", scope.package, clip((cx - 60, bounds[1] + 30, cx + 60, bounds[1] + 150), vis)
                     or vis, rid=scope.rid(element.get("id")), desc=fill_text(element.get("progress", ""),
                                                                             scope.ctx))


def _spacer(element: dict[str, Any], scope: Scope, bounds: Bounds, vis: Bounds) -> None:
    return None


def _row(element: dict[str, Any], scope: Scope, bounds: Bounds, vis: Bounds) -> UiNode:
    parts = [e for e in element["row"] if visible(e, scope.ctx)]
    node = make_node("linear", scope.package, vis, rid=scope.rid(element.get("id")))
    left, top, right, bottom = bounds
    weights = [float(e.get("weight", 1)) for e in parts]
    x = float(left)
    for part, weight in zip(parts, weights, strict=True):
        width = (right - left) * weight / sum(weights)
        add(node, build(part, scope, (round(x), top, round(x + width), bottom)))
        x += width
    return _bind_tap(node, element, scope)


def _canvas(element: dict[str, Any], scope: Scope, bounds: Bounds, vis: Bounds) -> UiNode:
    """One node that draws its own pixels (a game, Flutter without semantics): the dump shows nothing inside,
    the screenshot shows its `buttons` (`box` in percent of the canvas) and a touch on one runs its `tap`."""
    left, top, right, bottom = bounds
    width, height = right - left, bottom - top
    regions = []
    for button in element.get("buttons", []):
        if not visible(button, scope.ctx):
            continue
        x1, y1, x2, y2 = (float(v) for v in button["box"])
        box = (left + round(width * x1 / 100), top + round(height * y1 / 100),
               left + round(width * x2 / 100), top + round(height * y2 / 100))
        regions.append(Region(box, fill_text(button["label"], scope.ctx), list(button.get("tap", [])),
                              str(button.get("color", "#1a73e8"))))
    node = make_node(element["canvas"], scope.package, vis, rid=scope.rid(element.get("id")), focusable=True)
    return scope.frame.bind(node, Target("canvas", [], dict(scope.ctx), regions=regions))


def _list(element: dict[str, Any], scope: Scope, bounds: Bounds, vis: Bounds) -> UiNode:
    from starebrain.sim.world.lists import build_list

    return build_list(element, scope, bounds, vis)


def _grid(element: dict[str, Any], scope: Scope, bounds: Bounds, vis: Bounds) -> UiNode:
    from starebrain.sim.world.lists import build_grid

    return build_grid(element, scope, bounds, vis)


BUILDERS: dict[str, Callable[[dict[str, Any], Scope, Bounds, Bounds], UiNode | None]] = {
    "text": _text, "button": _button, "field": _field, "check": _check, "switch": _switch,
    "image": _image, "progress": _progress, "spacer": _spacer, "row": _row, "list": _list, "grid": _grid,
    "canvas": _canvas,
}


def fill_ops(ops: list[dict[str, Any]], ctx: dict[str, Any]) -> list[dict[str, Any]]:
    """Ops with their templates filled now (a list item's values are captured at build time)."""
    return [fill(op, ctx) for op in ops]
