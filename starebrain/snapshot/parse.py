"""Parse a uiautomator hierarchy dump into `Node`s in document order."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from operator import itemgetter
from typing import cast

from lxml import etree

from starebrain.errors import HierarchyInvalid
from starebrain.snapshot.decode import to_text
from starebrain.snapshot.node import FLAG_FIELDS, Bounds, Flags, Node, new_node
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
    return Bounds(left, top, right if right > left else left, bottom if bottom > top else top)


def read_nodes(xml: str | bytes) -> tuple[list[Node], int]:
    """Every node in document order and the rotation the dump declares; raises HierarchyInvalid for
    anything that is not a uiautomator hierarchy. Plain dumps skip lxml (see `scan.py`)."""
    text = _xml_text(xml)
    scanned = scan(text, NodeBuilder().node)
    if scanned is None:
        root, rotation = _lxml_root(text)
        return list(iter_nodes(root)), rotation
    _, root_attrs, nodes = scanned
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
    make = NodeBuilder().node
    order = 0
    for window_index, window in enumerate(window_roots(root)):
        stack: list[tuple[etree._Element, Node | None]] = [(window, None)]
        while stack:
            el, parent = stack.pop()
            node = make(el.attrib, order, parent, window_index)
            stack.extend((c, node) for c in reversed([c for c in el if c.tag == "node"]))
            order += 1
            yield node


# Attributes of the boolean fields, in `FLAG_FIELDS` order, and each one's value when the dump omits it.
_FLAG_ATTRS = ("clickable", "long-clickable", "scrollable", "focusable", "focused", "enabled", "checkable",
               "checked", "selected", "password", "visible-to-user", "NAF")
_FLAG_DEFAULTS = (False, False, False, False, False, True, False, False, False, False, True, False)
# Every uiautomator version writes the first ten; one C call reads them (a KeyError falls back to `get`).
_ALWAYS_WRITTEN = itemgetter(*_FLAG_ATTRS[:10])
_VISIBLE = FLAG_FIELDS.index("visible")
_PASSWORD = FLAG_FIELDS.index("password")
# Spellings of the flag attributes -> the flags, and the flags of a node without area (never visible).
_FLAG_SETS: dict[tuple[str | None, ...], tuple[Flags, Flags]] = {}


def _flags(a: Mapping[str, str], has_area: bool) -> Flags:
    """Every boolean field of a node. A dump spells them with a handful of value combinations, so each
    combination is worked out once (a pure function of the strings) and looked up after."""
    try:
        key = (*_ALWAYS_WRITTEN(a), a.get("visible-to-user"), a.get("NAF"))
    except KeyError:
        key = tuple(map(a.get, _FLAG_ATTRS))
    known = _FLAG_SETS.get(key)
    if known is None:
        values = [_flag(a, name, default) for name, default in zip(_FLAG_ATTRS, _FLAG_DEFAULTS, strict=True)]
        flags = cast(Flags, tuple(values))
        values[_VISIBLE] = False
        known = (flags, cast(Flags, tuple(values)))
        if len(_FLAG_SETS) < 4096:  # odd spellings cannot grow it without bound
            _FLAG_SETS[key] = known
    return known[0] if has_area else known[1]


class NodeBuilder:
    """Makes the Nodes of one dump; a child often has its parent's bounds string, so each is parsed once."""

    def __init__(self) -> None:
        self._boxes: dict[str | None, tuple[Bounds, bool]] = {}  # bounds string -> bounds, has an area

    def node(self, a: Mapping[str, str], order: int, parent: Node | None, window_index: int) -> Node:
        """The Node of one `<node>` element (package inherited from the parent where it is missing)."""
        get = a.get
        raw = get("bounds")
        box = self._boxes.get(raw)
        if box is None:
            b = parse_bounds(raw)
            box = self._boxes[raw] = (b, b.right > b.left and b.bottom > b.top)
        flags = _flags(a, box[1])
        hidden = flags[_PASSWORD]
        if parent is None:
            parent_order, depth, inherited = None, 0, ""
        else:
            parent_order, depth, inherited = parent.order, parent.depth + 1, parent.package
        return new_node(order, parent_order, depth, window_index, "" if hidden else get("text", ""),
                        get("resource-id", ""), get("class", ""), get("package") or inherited,
                        get("content-desc", ""), "" if hidden else get("hint", ""), box[0], flags,
                        _int(get("drawing-order"), -1), _int(get("index")))
