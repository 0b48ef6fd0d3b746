"""The u2 hierarchy dump (docs/sim.md, Hierarchy dump): KXmlSerializer output with indent, CRLF, ` />`."""

from __future__ import annotations

import re

from starebrain.sim.phone import UiNode

HEADER = "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>"
NEWLINE = "\r\n"

_ESCAPES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}
_SPECIAL = re.compile('[&<>"\x00-\x1f\x7f]')


def escape(value: str) -> str:
    """Escape an attribute value as KXmlSerializer does (control characters as `&#N;`)."""
    if not _SPECIAL.search(value):
        return value  # the common case: nothing to escape
    out = []
    for char in value:
        if char in _ESCAPES:
            out.append(_ESCAPES[char])
        elif ord(char) < 0x20 or char == "\x7f":
            out.append(f"&#{ord(char)};")
        else:
            out.append(char)
    return "".join(out)


def _open_tag(node: UiNode) -> str:
    parts = [f'{name}="{escape(value)}"' for name, value in node.attrs.items()]
    return "<node " + " ".join(parts)


def _write(node: UiNode, depth: int, max_depth: int, lines: list[str]) -> None:
    pad = "  " * depth
    children = node.children if depth < max_depth else []
    if not children:
        lines.append(f"{pad}{_open_tag(node)} />")
        return
    lines.append(f"{pad}{_open_tag(node)}>")
    for child in children:
        _write(child, depth + 1, max_depth, lines)
    lines.append(f"{pad}</node>")


def dump(root: UiNode, rotation: int = 0, max_depth: int = 50) -> str:
    """Serialise the synthetic root's children (window roots) as one hierarchy document."""
    if not root.children:
        return f'{HEADER}{NEWLINE}<hierarchy rotation="{rotation}" />'
    lines = [HEADER, f'<hierarchy rotation="{rotation}">']
    for window in root.children:
        _write(window, 1, max_depth, lines)
    lines.append("</hierarchy>")
    return NEWLINE.join(lines)
