"""Parse a uiautomator hierarchy dump into `Node`s in document order."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping

from lxml import etree

from starebrain.errors import HierarchyInvalid
from starebrain.snapshot.decode import to_text
from starebrain.snapshot.node import Bounds, Node

_BOUNDS = re.compile(r"\[\s*(-?\d+)\s*,\s*(-?\d+)\s*\]\s*\[\s*(-?\d+)\s*,\s*(-?\d+)\s*\]")
_ROOT_TAGS = ("hierarchy", "node")


def parse_bounds(raw: str | None) -> Bounds:
    """`[l,t][r,b]` -> Bounds; missing or malformed bounds become an empty rectangle."""
    m = _BOUNDS.search(raw or "")
    if not m:
        return Bounds(0, 0, 0, 0)
    left, top, right, bottom = (int(g) for g in m.groups())
    return Bounds(left, top, max(left, right), max(top, bottom))


def parse_root(xml: str | bytes) -> tuple[etree._Element, int]:
    """The root element and the rotation it declares; raises HierarchyInvalid for non-XML."""
    text = to_text(xml)
    if "<" not in text:
        raise HierarchyInvalid(f"hierarchy dump is not XML: {text[:60]!r}")
    parser = etree.XMLParser(recover=True, huge_tree=True, resolve_entities=False, no_network=True)
    try:
        root = etree.fromstring(text, parser)
    except (etree.XMLSyntaxError, ValueError) as exc:
        raise HierarchyInvalid(f"hierarchy dump is not XML: {exc}") from exc
    if root is None or root.tag not in _ROOT_TAGS:
        tag = "nothing" if root is None else f"<{root.tag}>"
        raise HierarchyInvalid(f"hierarchy dump is not a uiautomator hierarchy (found {tag})")
    return root, _int(root.get("rotation"))


def _int(raw: str | None, default: int = 0) -> int:
    try:
        return int(raw) if raw else default
    except ValueError:
        return default


def _flag(attrs: Mapping[str, str], name: str, default: bool = False) -> bool:
    raw = attrs.get(name)
    if raw is None:
        return default
    return raw == "true" or (raw != "false" and raw.strip().lower() == "true")


def window_roots(root: etree._Element) -> list[etree._Element]:
    """Each top-level <node> is one window; a bare <node> document is a single window."""
    if root.tag == "node":
        return [root]
    return [el for el in root if el.tag == "node"]


def iter_nodes(root: etree._Element) -> Iterator[Node]:
    """Every <node>, depth-first in document order, with package inherited where it is missing."""
    order = 0
    for window_index, window in enumerate(window_roots(root)):
        stack: list[tuple[etree._Element, int | None, int, str]] = [(window, None, 0, "")]
        while stack:
            el, parent, depth, package = stack.pop()
            node = _make_node(el, order, parent, depth, window_index, package)
            children = [c for c in el if c.tag == "node"]
            stack.extend((c, order, depth + 1, node.package) for c in reversed(children))
            order += 1
            yield node


def _make_node(el: etree._Element, order: int, parent: int | None, depth: int,
               window_index: int, inherited_package: str) -> Node:
    a = el.attrib  # one attribute mapping, read a dozen times: cheaper than el.get each time
    bounds = parse_bounds(a.get("bounds"))
    password = _flag(a, "password")
    return Node(
        order=order, parent=parent, depth=depth, window_index=window_index,
        text="" if password else a.get("text", ""),
        resource_id=a.get("resource-id", ""), class_name=a.get("class", ""),
        package=a.get("package") or inherited_package, content_desc=a.get("content-desc", ""),
        hint="" if password else a.get("hint", ""), bounds=bounds,
        clickable=_flag(a, "clickable"), long_clickable=_flag(a, "long-clickable"),
        scrollable=_flag(a, "scrollable"), focusable=_flag(a, "focusable"),
        focused=_flag(a, "focused"), enabled=_flag(a, "enabled", True),
        checkable=_flag(a, "checkable"), checked=_flag(a, "checked"),
        selected=_flag(a, "selected"), password=password,
        visible=_flag(a, "visible-to-user", True) and bounds.area > 0,
        naf=_flag(a, "NAF"), drawing_order=_int(a.get("drawing-order"), -1), index=_int(a.get("index")),
    )
