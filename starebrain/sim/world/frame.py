"""One built screen: the window roots plus what each interactive node does."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from starebrain.sim.phone import UiNode
from starebrain.sim.world.nodes import contains, is_true


@dataclass
class Target:
    """What touching a node does: run ops, focus a field, or scroll a list."""

    kind: str  # "ops" | "field" | "scroll" | "key" | "canvas"
    ops: list[dict[str, Any]] = field(default_factory=list)
    ctx: dict[str, Any] = field(default_factory=dict)
    name: str = ""  # field key, list id, or key text
    window: str = "app"  # app | dialog | keyboard | notification | status | shade
    max_scroll: int = 0
    regions: list[Region] = field(default_factory=list)  # a canvas: what it draws, and what a touch there does


@dataclass
class Region:
    """A button a canvas draws (the dump does not show it): its box, its label, what a touch on it does."""

    bounds: tuple[int, int, int, int]
    label: str
    ops: list[dict[str, Any]] = field(default_factory=list)
    color: str = "#1a73e8"

    def at(self, x: float, y: float) -> bool:
        return contains(self.bounds, x, y)


@dataclass
class Window:
    """A top-level window: its root node and its role."""

    role: str
    root: UiNode
    modal: bool = False  # dialogs swallow touches outside themselves
    dims: bool = False  # draw a dimmed backdrop under it


@dataclass
class Frame:
    """Everything on screen now, windows bottom to top, with targets by node key."""

    windows: list[Window] = field(default_factory=list)
    targets: dict[str, Target] = field(default_factory=dict)
    styles: dict[int, str] = field(default_factory=dict)  # id(node) -> text style, for the screenshot
    _counter: int = 0

    def bind(self, node: UiNode, target: Target) -> UiNode:
        """Attach a target to a node through a fresh key."""
        self._counter += 1
        node.key = node.key or f"n{self._counter}"
        self.targets[node.key] = target
        return node

    def hit(self, x: float, y: float, want: str = "touch") -> tuple[Window, Target | None, UiNode | None] | None:
        """The topmost window at the point, and the innermost target node there."""
        for window in reversed(self.windows):
            if not contains(window.root.bounds, x, y):
                if window.modal:
                    return window, None, None
                continue
            for node in reversed(window.root.iter()):
                target = self.targets.get(node.key)
                if target is None or not contains(node.bounds, x, y):
                    continue
                if want == "scroll" and target.kind != "scroll":
                    continue
                if want == "touch" and target.kind == "scroll":
                    continue
                if want == "touch" and not (is_true(node, "clickable") or is_true(node, "checkable")
                                            or target.kind == "canvas"):
                    continue
                return window, target, node
            return window, None, None
        return None
