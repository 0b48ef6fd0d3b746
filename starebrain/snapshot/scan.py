"""A fast reader for the well-formed XML uiautomator writes: `<hierarchy>` and `<node>` tags only.

Reading attributes through lxml's element proxies costs ~15 µs a node (every value is decoded again on
each access); expat hands each tag's attributes over as one dict, about four times faster overall. Expat
reads only well-formed XML and knows no recovery, so anything else (a broken dump, a DOCTYPE, namespaces,
other tags) answers None and the caller reads it with lxml's recovering parser; text after the closed
root is the one thing skipped here, as lxml skips it. For every document this reader accepts, both give
the same nodes.
"""

from __future__ import annotations

from collections.abc import Callable
from xml.parsers import expat

from starebrain.snapshot.node import Node

# Builds one node from its attributes, its document order, its parent (None for a window root) and window.
MakeNode = Callable[[dict[str, str], int, Node | None, int], Node]


class _NotPlain(Exception):
    """The document is not plain uiautomator XML; lxml must read it."""


class _Reader:
    """Expat callbacks that make every `<node>` as it is read, knowing its parent and window."""

    def __init__(self, make: MakeNode) -> None:
        self.make = make
        self.root: tuple[str, dict[str, str]] | None = None
        self.nodes: list[Node] = []
        self.open: list[Node | None] = []  # each open tag's node (None for the root <hierarchy>)
        self.windows = 0

    def start(self, tag: str, attrs: dict[str, str]) -> None:
        if tag != "node" or self.root is None:
            self._first_or_other(tag, attrs)
            if tag == "hierarchy":
                self.open.append(None)
                return
        parent = self.open[-1] if self.open else None
        if parent is None:  # a window root: a child of <hierarchy>, or a bare <node> document
            window = self.windows
            self.windows += 1
        else:
            window = parent.window_index
        node = self.make(attrs, len(self.nodes), parent, window)
        self.open.append(node)
        self.nodes.append(node)

    def _first_or_other(self, tag: str, attrs: dict[str, str]) -> None:
        if self.root is not None or tag not in ("node", "hierarchy"):
            raise _NotPlain  # lxml's reader skips other tags with everything inside them
        self.root = (tag, attrs)

    def end(self, _tag: str) -> None:
        self.open.pop()


def scan(text: str, make: MakeNode) -> tuple[str, dict[str, str], list[Node]] | None:
    """Root tag, root attributes and every `<node>` in document order, each built by `make` as it is read
    (no list of attribute dicts in between), or None when the text is not plain, well-formed uiautomator XML."""
    if "<!DOCTYPE" in text or "xmlns" in text:
        return None  # entity definitions and namespaces: lxml treats them differently from expat
    reader = _Reader(make)
    parser = expat.ParserCreate()
    parser.StartElementHandler = reader.start
    parser.EndElementHandler = reader.end
    try:
        parser.Parse(text, True)
    except expat.ExpatError:
        if reader.root is None or reader.open:
            return None
        # Junk after the closed root (`uiautomator dump /dev/tty` appends "UI hierchary dumped to: …"):
        # lxml's recovery ignores it too, so what was read is the whole hierarchy.
    except (_NotPlain, ValueError):
        return None
    if reader.root is None:
        return None
    return reader.root[0], reader.root[1], reader.nodes
