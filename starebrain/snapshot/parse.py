"""Parse a uiautomator hierarchy dump into `Node`s in document order."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping

from lxml import etree

from starebrain.errors import HierarchyInvalid
from starebrain.snapshot.decode import to_text
from starebrain.snapshot.node import Bounds, Node
from starebrain.snapshot.scan import scan

_BOUNDS = re.compile(r"\[\s*(-?\d+)\s*,\s*(-?\d+)\s*\]\s*\[\s*(-?\d+)\s*,\s*(-?\d+)\s*\]")
_ROOT_TAGS = ("hierarchy", "node")
# The form every real dump writes; the general pattern above reads the rest (spaces, junk around it).
_PLAIN_BOUNDS = re.compile(r"\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]")
_FLAGS = {"true": True, "false": False}


def parse_bounds(raw: str | None) -> Bounds:
    """`[l,t][r,b]` -> Bounds; missing or malformed bounds become an empty rectangle."""
    m = _PLAIN_BOUNDS.fullmatch(raw) if raw else None
    if m is None:
        m = _BOUNDS.search(raw or "")
    if m is None:
        return Bounds(0, 0, 0, 0)
    left, top, right, bottom = map(int, m.groups())
    return Bounds(left, top, max(left, right), max(top, bottom))


def read_nodes(xml: str | bytes) -> tuple[list[Node], int]:
    """Every node in document order and the rotation the dump declares; raises HierarchyInvalid for
    anything that is not a uiautomator hierarchy. Plain dumps skip lxml (see `scan.py`)."""
    text = _xml_text(xml)
    scanned = scan(text)
    if scanned is None:
        root, rotation = _lxml_root(text)
        return list(iter_nodes(root)), rotation
    _, root_attrs, elements = scanned
    nodes: list[Node] = []
    boxes: dict[str | None, Bounds] = {}  # a child often has its parent's bounds string: parse it once
    for order, (attrs, parent, depth, window) in enumerate(elements):
        package = nodes[parent].package if parent is not None else ""
        raw = attrs.get("bounds")
        bounds = boxes.get(raw)
        if bounds is None:
            bounds = boxes[raw] = parse_bounds(raw)
        nodes.append(_make_node(attrs, bounds, order, parent, depth, window, package))
    return nodes, _int(root_attrs.get("rotation"))


def _xml_text(xml: str | bytes) -> str:
    text = to_text(xml)
    if "<" not in text:
        raise HierarchyInvalid(f"hierarchy dump is not XML: {text[:60]!r}")
    return text


def parse_root(xml: str | bytes) -> tuple[etree._Element, int]:
    """The root element and the rotation it declares; raises HierarchyInvalid for non-XML."""
    return _lxml_root(_xml_text(xml))


def _lxml_root(text: str) -> tuple[etree._Element, int]:
    parser = etree.XMLParser(recover=True, huge_tree=True, resolve_entities=False, no_network=True)
    try:
        root = etree.fromstring(text, parser)
    except (etree.XMLSyntaxError, ValueError) as exc:
        raise HierarchyInvalid(f"hierarchy dump is not XML: {exc}") from exc
    if root is None or root.tag not in _ROOT_TAGS:
        tag = "nothing" if root is None else f"<{root.tag}>"
        raise HierarchyInvalid(f"hierarchy dump is not a uiautomator hierarchy (found {tag})")
    return root, _int(root.get("rotation"))


_INTS: dict[str, int] = {}


def _int(raw: str | None, default: int = 0) -> int:
    if not raw:
        return default
    value = _INTS.get(raw)  # `index` and `drawing-order` take a few small values: convert each once
    if value is None:
        try:
            value = int(raw)
        except ValueError:
            return default
        if len(_INTS) < 4096:
            _INTS[raw] = value
    return value


def _flag(attrs: Mapping[str, str], name: str, default: bool = False) -> bool:
    raw = attrs.get(name)
    if raw is None:
        return default
    flag = _FLAGS.get(raw)
    return flag if flag is not None else raw.strip().lower() == "true"


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
            node = _make_node(el.attrib, parse_bounds(el.get("bounds")), order, parent, depth, window_index, package)
            children = [c for c in el if c.tag == "node"]
            stack.extend((c, order, depth + 1, node.package) for c in reversed(children))
            order += 1
            yield node


# Boolean attributes (Node field, dump attribute, value when missing); `visible` also needs an area.
_FLAG_FIELDS = (("clickable", "clickable", False), ("long_clickable", "long-clickable", False),
                ("scrollable", "scrollable", False), ("focusable", "focusable", False),
                ("focused", "focused", False), ("enabled", "enabled", True), ("checkable", "checkable", False),
                ("checked", "checked", False), ("selected", "selected", False), ("password", "password", False),
                ("naf", "NAF", False), ("visible", "visible-to-user", True))
_FLAG_SETS: dict[tuple[str | None, ...], dict[str, bool]] = {}


def _flags(a: Mapping[str, str]) -> dict[str, bool]:
    """Every boolean field of a node. A dump spells them with a handful of value combinations, so each
    combination is worked out once (a pure function of the strings) and looked up after."""
    get = a.get
    key = (get("clickable"), get("long-clickable"), get("scrollable"), get("focusable"), get("focused"),
           get("enabled"), get("checkable"), get("checked"), get("selected"), get("password"), get("NAF"),
           get("visible-to-user"))
    flags = _FLAG_SETS.get(key)
    if flags is None:
        flags = {field: _flag(a, name, default) for field, name, default in _FLAG_FIELDS}
        if len(_FLAG_SETS) < 4096:  # odd spellings cannot grow it without bound
            _FLAG_SETS[key] = flags
    return flags


def _make_node(a: Mapping[str, str], bounds: Bounds, order: int, parent: int | None, depth: int,
               window_index: int, inherited_package: str) -> Node:
    get = a.get
    flags = _flags(a)
    hidden = flags["password"]
    return Node(
        order=order, parent=parent, depth=depth, window_index=window_index,
        text="" if hidden else get("text", ""),
        resource_id=get("resource-id", ""), class_name=get("class", ""),
        package=get("package") or inherited_package, content_desc=get("content-desc", ""),
        hint="" if hidden else get("hint", ""), bounds=bounds,
        drawing_order=_int(get("drawing-order"), -1), index=_int(get("index")),
        **{**flags, "visible": flags["visible"] and bounds.right > bounds.left and bounds.bottom > bounds.top},
    )
