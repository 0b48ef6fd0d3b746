"""An app's window for one screen: decor, toolbar, body, bottom bar and floating button."""

from __future__ import annotations

from typing import Any

from starebrain.sim.phone import UiNode
from starebrain.sim.world.frame import Frame, Target
from starebrain.sim.world.layout import Scope, measure, place, visible
from starebrain.sim.world.navigation import Screen
from starebrain.sim.world.nodes import Bounds, add, make_node
from starebrain.sim.world.template import fill_text

STATUS_H = 84
TOOLBAR_H = 147
NAV_H = 48
ACTION_W = 132
BACK_OPS: list[dict[str, Any]] = [{"screen_back": True}]


def build_app_window(frame: Frame, app: dict[str, Any], spec: dict[str, Any], screen: Screen,
                     ctx: dict[str, Any], display: tuple[int, int], content_bottom: int) -> UiNode:
    """The window root of `screen`; content ends at `content_bottom` (above the nav bar or keyboard)."""
    width, height = display
    package = screen.package
    scope = Scope(frame, package, app.get("id_prefix", package), ctx, screen.form, screen.scroll,
                  screen.focus, (0, 0, width, content_bottom))
    root = make_node("frame", package, (0, 0, width, height))
    decor = make_node("linear", package, (0, 0, width, height))
    content = make_node("frame", package, (0, STATUS_H, width, content_bottom), rid="android:id/content")
    add(root, add(decor, content))
    top = STATUS_H
    if spec.get("toolbar") is not None:
        add(content, _toolbar(spec["toolbar"], scope, width))
        top += TOOLBAR_H
    bar, bottom = _bottom_bar(spec, scope, width, content_bottom)
    body_box = (0, top, width, bottom)
    body = make_node("frame", package, body_box, rid=scope.rid(spec.get("body_id", "content_frame")))
    add(content, body, bar)
    if screen.loading > 0:
        _loading(scope, body, body_box)
    else:
        place(spec.get("body", []), scope, body_box, body)
        _fab(spec.get("fab"), scope, content, width, bottom)
    return root


def _toolbar(bar: dict[str, Any], scope: Scope, width: int) -> UiNode:
    top, bottom = STATUS_H, STATUS_H + TOOLBAR_H
    node = make_node("group", scope.package, (0, top, width, bottom), rid=scope.rid(bar.get("id", "toolbar")))
    left = 44
    if bar.get("up", True):
        up = make_node("imagebutton", scope.package, (0, top, TOOLBAR_H, bottom), desc="Navigate up",
                       clickable=True, focusable=True)
        add(node, scope.frame.bind(up, Target("ops", BACK_OPS, {})))
        left = TOOLBAR_H + 18
    actions = [a for a in bar.get("actions", []) if visible(a, scope.ctx)]
    right = width - ACTION_W * len(actions)
    title = make_node("text", scope.package, (left, top + 30, right, bottom - 30),
                      text=fill_text(bar.get("title", ""), scope.ctx), rid=scope.rid(bar.get("title_id")))
    scope.frame.styles[id(title)] = "title"
    add(node, title)
    for i, action in enumerate(actions):
        add(node, _action(action, scope, (right + i * ACTION_W, top, right + (i + 1) * ACTION_W, bottom)))
    return node


def _action(action: dict[str, Any], scope: Scope, box: Bounds) -> UiNode:
    kind = "text" if action.get("text") else "imagebutton"
    node = make_node(kind, scope.package, box, text=fill_text(action.get("text", ""), scope.ctx),
                     rid=scope.rid(action.get("id")), desc=fill_text(action.get("desc", ""), scope.ctx),
                     clickable=True, focusable=True)
    scope.frame.styles[id(node)] = "action"
    return scope.frame.bind(node, Target("ops", list(action.get("tap", [])), dict(scope.ctx)))


def _bottom_bar(spec: dict[str, Any], scope: Scope, width: int, content_bottom: int) -> tuple[UiNode | None, int]:
    elements = [e for e in spec.get("bottom", []) if visible(e, scope.ctx)]
    if not elements:
        return None, content_bottom
    height = sum(measure(e, scope, width) for e in elements)
    top = content_bottom - height
    bar = make_node("linear", scope.package, (0, top, width, content_bottom),
                    rid=scope.rid(spec.get("bottom_id", "bottom_bar")))
    place(elements, scope, (0, top, width, content_bottom), bar)
    return bar, top


def _fab(fab: dict[str, Any] | None, scope: Scope, content: UiNode, width: int, bottom: int) -> None:
    if not fab or not visible(fab, scope.ctx):
        return
    box = (width - 44 - 420, bottom - 44 - 168, width - 44, bottom - 44)
    node = make_node("button", scope.package, box, text=fill_text(fab.get("text", ""), scope.ctx),
                     rid=scope.rid(fab.get("id")), desc=fill_text(fab.get("desc", ""), scope.ctx),
                     clickable=True, focusable=True)
    scope.frame.styles[id(node)] = "fab"
    add(content, scope.frame.bind(node, Target("ops", list(fab.get("tap", [])), dict(scope.ctx))))


def _loading(scope: Scope, body: UiNode, box: Bounds) -> None:
    cx, cy = (box[0] + box[2]) // 2, (box[1] + box[3]) // 2
    spinner = make_node("progress", scope.package, (cx - 60, cy - 160, cx + 60, cy - 40),
                        rid=scope.rid("loading_spinner"))
    label = make_node("text", scope.package, (120, cy, box[2] - 120, cy + 84), text="Loading\u2026",
                      rid=scope.rid("loading_text"))
    add(body, spinner, label)
