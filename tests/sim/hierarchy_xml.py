"""The u2 dump format of docs/sim.md, for the test phone (the world has its own)."""

from __future__ import annotations

from xml.sax.saxutils import quoteattr

from starebrain.sim.phone import UiNode

ATTR_ORDER = ("index", "text", "resource-id", "class", "package", "content-desc", "checkable", "checked",
              "clickable", "enabled", "focusable", "focused", "scrollable", "long-clickable", "password",
              "selected", "visible-to-user")
DEFAULTS = {"index": "0", "text": "", "resource-id": "", "class": "android.view.View", "package": "",
            "content-desc": "", "enabled": "true", "visible-to-user": "true"}


def _attrs(node: UiNode) -> str:
    values = [(name, node.attrs.get(name, DEFAULTS.get(name, "false"))) for name in ATTR_ORDER]
    left, top, right, bottom = node.bounds
    values += [("bounds", f"[{left},{top}][{right},{bottom}]"), ("drawing-order", "1"), ("hint", ""),
               ("display-id", "0")]
    return " ".join(f"{name}={quoteattr(value)}" for name, value in values)


def _node(node: UiNode, depth: int, max_depth: int, out: list[str]) -> None:
    pad = "  " * depth
    children = node.children if depth < max_depth else []
    if not children:
        out.append(f"{pad}<node {_attrs(node)} />")
        return
    out.append(f"{pad}<node {_attrs(node)}>")
    for child in children:
        _node(child, depth + 1, max_depth, out)
    out.append(f"{pad}</node>")


def hierarchy_xml(root: UiNode, rotation: int = 0, max_depth: int = 50) -> str:
    """Serialise the windows under a synthetic root."""
    out = ["<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>", f'<hierarchy rotation="{rotation}">']
    for window in root.children:
        _node(window, 1, max_depth, out)
    out.append("</hierarchy>")
    return "\r\n".join(out)
