"""Order and occlusion: which node is drawn on top at a point, which one a tap reaches, what is hidden.

Windows are stacked by kind (app < app dialog < keyboard < bars < system dialog < shade, see
`windows.py`); inside a window, a child is above its parent and siblings are stacked by their
`drawing-order` attribute (API 24+), else by document order, as Android draws them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from starebrain.snapshot.node import Node
from starebrain.snapshot.windows import Window, WindowKind


class Cover(StrEnum):
    """Why a node cannot be seen or touched where it is drawn."""

    NONE = ""
    KEYBOARD = "under the keyboard"
    DIALOG = "behind a dialog"
    WINDOW = "under another window"
    OVERLAY = "covered"


@dataclass(frozen=True)
class Hit:
    """What lies at one point: the top-most node drawn there, the enabled node a tap there reaches, and the
    node that takes the touch (the top-most touch-handling one, enabled or not: a disabled button still
    swallows a tap)."""

    on_top: Node | None
    touch: Node | None
    receiver: Node | None = None


def _touchable(n: Node) -> bool:
    return n.clickable or n.long_clickable or n.checkable or n.editable


def _solid(n: Node) -> bool:
    """A node that hides what is beneath it: it has content or handles touches."""
    return _touchable(n) or n.scrollable or bool(n.text.strip() or n.content_desc.strip())


class Layers:
    """z-order keys for every node of a snapshot, and the point queries built on them."""

    def __init__(self, nodes: Sequence[Node], windows: Sequence[Window],
                 children: dict[int, list[Node]]) -> None:
        self.nodes = nodes
        self.windows = {w.index: w for w in windows}
        self._key: dict[int, tuple[int, ...]] = {}
        # Sibling rank: drawing-order when every sibling has one, else document order.
        for n in nodes:
            if n.parent is None:
                self._key[n.order] = (self.windows[n.window_index].layer if n.window_index in self.windows else 0,)
            kids = children.get(n.order, [])
            use_drawing = bool(kids) and all(k.drawing_order >= 0 for k in kids)
            ranked = sorted(range(len(kids)), key=lambda i: (kids[i].drawing_order, i) if use_drawing else (i,))
            for rank, i in enumerate(ranked):
                self._key[kids[i].order] = (*self._key[n.order], rank)
        self._by_z = sorted((n for n in nodes if n.visible), key=lambda n: self._key[n.order], reverse=True)
        self._modal_layer = max((w.layer for w in windows if w.floating), default=-1)
        self._covers: dict[int, Cover] = {}
        self._grid = _Grid(self._by_z)

    def z(self, node: Node) -> tuple[int, ...]:
        """Sort key: a larger key is drawn above a smaller one."""
        return self._key[node.order]

    def window_of(self, node: Node) -> Window | None:
        return self.windows.get(node.window_index)

    def at(self, x: int, y: int) -> Hit:
        """The top-most visible node containing the point, and the node a tap at the point would reach.

        A tap goes to the top-most window containing the point; there, to the top-most node that
        handles touches (taps fall through labels and plain containers).
        """
        on_top: Node | None = None
        receiver: Node | None = None
        top_window: int | None = None
        for n in self._grid.at(x, y):
            if not n.bounds.contains(x, y):
                continue
            if on_top is None:
                on_top, top_window = n, n.window_index
            if n.window_index != top_window:
                break
            if _touchable(n):
                receiver = receiver or n
                if n.enabled:
                    return Hit(on_top, n, receiver)
        return Hit(on_top, None, receiver)

    def node_on_top_at(self, x: int, y: int) -> Node | None:
        """The node drawn on top at the point (any kind), or None outside every window."""
        return self.at(x, y).on_top

    def touch_target_at(self, x: int, y: int) -> Node | None:
        """The enabled clickable/checkable/editable node a tap at the point reaches, or None (also for an
        app window below a dialog: the dialog swallows taps outside itself)."""
        window = self._window_at(x, y)
        if window is not None and window.layer < self._modal_layer and not window.floating \
                and window.kind is WindowKind.APP:
            return None  # a modal dialog above swallows taps outside itself
        return self.at(x, y).touch

    def _window_at(self, x: int, y: int) -> Window | None:
        top = self.node_on_top_at(x, y)
        return self.window_of(top) if top is not None else None

    def cover(self, node: Node) -> Cover:
        """Whether the node's centre is hidden, and by what (NONE when it is in plain sight)."""
        found = self._covers.get(node.order)
        if found is None:
            found = self._covers[node.order] = self._cover(node)
        return found

    def _cover(self, node: Node) -> Cover:
        if not node.visible:
            return Cover.NONE  # off screen: not drawn at all, so not covered either
        window = self.window_of(node)
        x, y = node.center
        if window is not None and window.kind is WindowKind.APP and window.layer < self._modal_layer:
            return Cover.DIALOG
        mine = self._key[node.order]
        for other in self._grid.at(x, y):
            key = self._key[other.order]
            if key <= mine:
                break
            if not other.bounds.contains(x, y) or key[: len(mine)] == mine:
                continue  # elsewhere, or a descendant of the node
            if other.window_index != node.window_index:
                other_window = self.window_of(other)
                kind = other_window.kind if other_window is not None else None
                return Cover.KEYBOARD if kind is WindowKind.KEYBOARD else Cover.WINDOW
            if _solid(other):
                return Cover.OVERLAY
        return Cover.NONE


class _Grid:
    """Visible nodes bucketed by screen cell, top-most first in each, so a point query reads one bucket.

    A bucket is filled when a point in its cell is first asked about: filling all of them up front put
    every full-screen container into all 128 cells, while a screen is asked about a handful of points.
    """

    COLUMNS, ROWS = 8, 16

    def __init__(self, by_z: Sequence[Node]) -> None:
        self._by_z = by_z  # already top-most first, so every bucket is too
        self._right = max((n.bounds.right for n in by_z), default=1)
        self._bottom = max((n.bounds.bottom for n in by_z), default=1)
        self._cw = max(1, -(-self._right // self.COLUMNS))
        self._ch = max(1, -(-self._bottom // self.ROWS))
        self._cells: dict[tuple[int, int], list[Node]] = {}

    def at(self, x: int, y: int) -> list[Node]:
        """Every node whose cell holds the point, top-most first (callers still check `contains`)."""
        cx, cy = x // self._cw, y // self._ch
        found = self._cells.get((cx, cy))
        if found is None:
            found = self._cells[cx, cy] = [n for n in self._by_z if self._in_cell(n, cx, cy)]
        return found

    def _in_cell(self, n: Node, cx: int, cy: int) -> bool:
        b = n.bounds
        return (b.left // self._cw <= cx <= min(b.right, self._right - 1) // self._cw
                and b.top // self._ch <= cy <= min(b.bottom, self._bottom - 1) // self._ch)
