"""A fast reader for the well-formed XML uiautomator writes: `<hierarchy>` and `<node>` tags only.

Reading attributes through lxml's element proxies costs ~15 µs a node (every value is decoded again on
each access); expat hands each tag's attributes over as one dict, about four times faster overall. Expat
reads only well-formed XML and knows no recovery, so anything else (a broken dump, a DOCTYPE, namespaces,
other tags) answers None and the caller reads it with lxml's recovering parser; text after the closed
root is the one thing skipped here, as lxml skips it. For every document this reader accepts, both give
the same nodes.
"""

from __future__ import annotations

from xml.parsers import expat

Element = tuple[dict[str, str], int | None, int, int]  # attributes, parent index, depth, window index


class _NotPlain(Exception):
    """The document is not plain uiautomator XML; lxml must read it."""


class _Reader:
    """Expat callbacks that record every `<node>` with its parent, depth and window."""

    def __init__(self) -> None:
        self.root: tuple[str, dict[str, str]] | None = None
        self.nodes: list[Element] = []
        self.open: list[int | None] = []  # node index of each open tag (None for the root <hierarchy>)
        self.windows = 0

    def start(self, tag: str, attrs: dict[str, str]) -> None:
        if self.root is None:
            if tag not in ("node", "hierarchy"):
                raise _NotPlain
            self.root = (tag, attrs)
        elif tag != "node":
            raise _NotPlain  # lxml's reader skips other tags with everything inside them
        if tag == "hierarchy":
            self.open.append(None)
            return
        parent = self.open[-1] if self.open else None
        if parent is None:  # a window root: a child of <hierarchy>, or a bare <node> document
            depth, window = 0, self.windows
            self.windows += 1
        else:
            depth, window = self.nodes[parent][2] + 1, self.nodes[parent][3]
        self.open.append(len(self.nodes))
        self.nodes.append((attrs, parent, depth, window))

    def end(self, _tag: str) -> None:
        self.open.pop()


def scan(text: str) -> tuple[str, dict[str, str], list[Element]] | None:
    """Root tag, root attributes and every `<node>` in document order (attributes, parent index, depth,
    window index), or None when the text is not plain, well-formed uiautomator XML."""
    if "<!DOCTYPE" in text or "xmlns" in text:
        return None  # entity definitions and namespaces: lxml treats them differently from expat
    reader = _Reader()
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
