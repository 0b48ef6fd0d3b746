"""Scrollable lists and icon grids over app data; items scrolled out of the viewport are left out."""

from __future__ import annotations

from typing import Any

from starebrain.sim.phone import UiNode
from starebrain.sim.world.frame import Target
from starebrain.sim.world.layout import Scope, _bind_tap, measure, place, visible
from starebrain.sim.world.nodes import Bounds, add, clip, make_node
from starebrain.sim.world.template import fill_text, resolve


def items_of(element: dict[str, Any], key: str, scope: Scope) -> list[dict[str, Any]]:
    """The data records a list shows, after its item `if:` filter."""
    source = resolve(scope.ctx, fill_text(element[key], scope.ctx)) or []
    template = element.get("item", {})
    out = []
    for record in source:
        ctx = {**scope.ctx, **record, "item": record}
        if visible(template, ctx):
            out.append(ctx)
    return list(reversed(out)) if element.get("reverse") else out


def _item_height(element: dict[str, Any], scope: Scope, width: int) -> int:
    template = element.get("item", {})
    if "item_height" in element:
        return int(element["item_height"])
    shown = [e for e in template.get("layout", []) if visible(e, scope.ctx)]
    return sum(measure(e, scope, width) for e in shown) + int(template.get("pad", 24))


def build_list(element: dict[str, Any], scope: Scope, bounds: Bounds, vis: Bounds) -> UiNode:
    """A RecyclerView whose items start at the list's scroll offset."""
    list_id = element.get("id", "list")
    records = items_of(element, "list", scope)
    width = bounds[2] - bounds[0]
    heights = [_item_height(element, scope.child(ctx), width) for ctx in records]
    max_scroll = max(sum(heights) - (bounds[3] - bounds[1]), 0)
    if list_id not in scope.scroll and element.get("start_at") == "end":
        scope.scroll[list_id] = max_scroll
    offset = min(max(scope.scroll.get(list_id, 0), 0), max_scroll)
    scope.scroll[list_id] = offset
    node = make_node("recycler", scope.package, vis, rid=scope.rid(list_id), scrollable=max_scroll > 0,
                     focusable=True)
    scope.frame.bind(node, Target("scroll", name=list_id, max_scroll=max_scroll))
    inner = scope.child(scope.ctx)
    inner.viewport = vis
    y = bounds[1] - offset
    for ctx, height in zip(records, heights, strict=True):
        add(node, _item(element.get("item", {}), inner.child(ctx), (bounds[0], y, bounds[2], y + height)))
        y += height
    if not records and "empty" in element:
        add(node, make_node("text", scope.package, vis, text=fill_text(element["empty"], scope.ctx),
                            rid=scope.rid("empty_view")))
    return node


def _item(template: dict[str, Any], scope: Scope, box: Bounds) -> UiNode | None:
    visible_box = clip(box, scope.viewport)
    if visible_box is None:
        return None
    node = make_node(template.get("class", "group"), scope.package, visible_box,
                     rid=scope.rid(template.get("id")), desc=fill_text(template.get("desc", ""), scope.ctx),
                     clickable="tap" in template, focusable="tap" in template,
                     long_clickable="tap" in template)
    pad = int(template.get("pad", 24)) // 2
    place(template.get("layout", []), scope, (box[0], box[1] + pad, box[2], box[3] - pad), node)
    return _bind_tap(node, template, scope)


def build_grid(element: dict[str, Any], scope: Scope, bounds: Bounds, vis: Bounds) -> UiNode:
    """Launcher-style icon grid: `columns` per row, each cell a labelled icon."""
    columns = int(element.get("columns", 4))
    cell_w = (bounds[2] - bounds[0]) // columns
    cell_h = int(element.get("cell_height", 290))
    node = make_node("group", scope.package, vis, rid=scope.rid(element.get("id")))
    template = element.get("item", {})
    for i, ctx in enumerate(items_of(element, "grid", scope)):
        left = bounds[0] + (i % columns) * cell_w
        top = bounds[1] + (i // columns) * cell_h
        cell = clip((left + 10, top + 10, left + cell_w - 10, top + cell_h - 10), vis)
        if cell is None:
            continue
        child = scope.child(ctx)
        icon = make_node("text", scope.package, cell, text=fill_text(template.get("text", ""), ctx),
                         desc=fill_text(template.get("desc", ""), ctx), rid=scope.rid(template.get("id")),
                         clickable=True, focusable=True, long_clickable=True)
        scope.frame.styles[id(icon)] = "icon"
        add(node, _bind_tap(icon, template, child))
    return node
