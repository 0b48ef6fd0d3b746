"""`ScreenSnapshot`: one parsed look at the screen, and the questions the engine asks of it."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from functools import cached_property

from starebrain.models.selector import Selector
from starebrain.snapshot import resolve as _resolve
from starebrain.snapshot.describe import describe, element_label, label_frequencies
from starebrain.snapshot.layers import Cover, Layers
from starebrain.snapshot.node import REDACTED, Bounds, Node
from starebrain.snapshot.parse import read_nodes
from starebrain.snapshot.summary import render_full_dump, render_summary
from starebrain.snapshot.text import normalize_text
from starebrain.snapshot.windows import (
    Window,
    WindowKind,
    by_layer,
    display_bounds,
    foreground_window,
    screen_bounds,
    windows_of,
)

# Status-bar ids whose text changes by itself (clock, battery, signal); never part of the hash.
_NOISE_IDS = ("clock", "battery", "date", "signal", "wifi", "mobile", "status_bar", "notification_icon")


class ScreenSnapshot:
    """An immutable, parsed hierarchy dump; build it with `ScreenSnapshot.from_xml`."""

    def __init__(self, nodes: Sequence[Node], rotation: int = 0) -> None:
        self.nodes: tuple[Node, ...] = tuple(nodes)
        self.rotation = rotation

    @classmethod
    def from_xml(cls, xml: str | bytes) -> ScreenSnapshot:
        """Parse a uiautomator dump; raises `HierarchyInvalid` for anything that is not one."""
        nodes, rotation = read_nodes(xml)
        return cls(nodes, rotation)

    # --- structure -------------------------------------------------------------------------
    @cached_property
    def _children(self) -> dict[int, list[Node]]:
        """Children of each node by its `order`; built on first use (many screens are judged without it)."""
        out: dict[int, list[Node]] = {}
        for n in self.nodes:
            if n.parent is not None:
                out.setdefault(n.parent, []).append(n)
        return out

    def children(self, node: Node) -> list[Node]:
        """Direct children in document order."""
        return self._children.get(node.order, [])

    @cached_property
    def by_window(self) -> dict[int, list[Node]]:
        """Every node of each window (by window index), in document order."""
        out: dict[int, list[Node]] = {}
        for n in self.nodes:
            out.setdefault(n.window_index, []).append(n)
        return out

    def descendants(self, node: Node) -> list[Node]:
        """All nodes below `node`, in document order."""
        if node.parent is None:
            return self.by_window.get(node.window_index, [])[1:]  # a window root: the rest of its window
        # Iterative: a hostile or buggy dump may nest deeper than Python's recursion limit.
        out: list[Node] = []
        stack = list(reversed(self.children(node)))
        while stack:
            child = stack.pop()
            out.append(child)
            stack.extend(reversed(self.children(child)))
        return out

    def ancestors(self, node: Node) -> list[Node]:
        """Parent first, window root last."""
        out: list[Node] = []
        while node.parent is not None:
            node = self.nodes[node.parent]
            out.append(node)
        return out

    @cached_property
    def windows(self) -> list[Window]:
        return windows_of(self.nodes)

    @cached_property
    def screen(self) -> Bounds:
        """The display as far as the dump shows it."""
        return screen_bounds(self.nodes)

    @cached_property
    def display(self) -> Bounds:
        """The display size, estimated (a centred dialog-only dump implies the screen around it)."""
        return display_bounds(self.windows)

    # --- order and occlusion -----------------------------------------------------------------
    @cached_property
    def layers(self) -> Layers:
        """z-order of every node (windows by kind, then drawing-order), for the point queries below."""
        return Layers(self.nodes, self.windows, self._children)

    @cached_property
    def windows_by_layer(self) -> list[Window]:
        """Every window, top-most first."""
        return by_layer(self.windows)

    @cached_property
    def top_window(self) -> Window | None:
        """The top-most window a person reads: a dialog, the shade or the app (never a bar or keyboard)."""
        skip = (WindowKind.BAR, WindowKind.KEYBOARD)
        return next((w for w in self.windows_by_layer if w.kind not in skip and w.node_count), None)

    def node_on_top_at(self, x: int, y: int) -> Node | None:
        """The node drawn on top at screen point (x, y), of any window; None where nothing is drawn."""
        return self.layers.node_on_top_at(x, y)

    def touch_target_at(self, x: int, y: int) -> Node | None:
        """The enabled node a tap at (x, y) reaches (top-most window, top-most touchable node), or None."""
        return self.layers.touch_target_at(x, y)

    def cover(self, node: Node) -> Cover:
        """What hides the node's centre: the keyboard, a dialog, another window, an overlay, or NONE."""
        return self.layers.cover(node)

    def in_sight(self, node: Node) -> bool:
        """Visible and not hidden by anything drawn above it."""
        return node.visible and self.cover(node) is Cover.NONE

    # --- which app ---------------------------------------------------------------------------
    @cached_property
    def foreground_window(self) -> Window | None:
        return foreground_window(self.windows, self.screen)

    @property
    def foreground_package(self) -> str:
        """The app the person is in (not system UI, a keyboard or a gesture strip); "" if empty."""
        window = self.foreground_window
        return window.package if window else ""

    @cached_property
    def packages(self) -> list[str]:
        """Every package with a node on screen, in order of first appearance."""
        return list(dict.fromkeys(n.package for n in self.nodes if n.package))

    def content_nodes(self) -> list[Node]:
        """Visible nodes of app windows and dialogs (system ones too); the shade only when it is all there is
        (its notifications are other apps' words, never read over an app)."""
        fg = self.foreground_window
        keep = {w.index for w in self.windows
                if w.kind in (WindowKind.APP, WindowKind.DIALOG, WindowKind.SYSTEM_DIALOG)
                and not (w.is_system_ui and w.kind is WindowKind.APP and w is not fg)
                or w.kind is WindowKind.SHADE and w is fg}
        return [n for n in self.nodes if n.visible and n.window_index in keep]

    # --- selectors ---------------------------------------------------------------------------
    def resolve(self, selector: Selector) -> Node | None:
        """The node the selector names (its `index`-th match; ones in plain sight, then visible ones, first)."""
        return _resolve.pick(self.nodes, selector, self.in_sight)

    def resolve_all(self, selector: Selector) -> list[Node]:
        """All matches in document order (only visible ones when any is visible); ignores `index`."""
        return _resolve.candidates(self.nodes, selector, self.in_sight)

    def click_target(self, node: Node) -> Node:
        """The node itself if clickable, else its nearest clickable ancestor, else itself."""
        if node.clickable:
            return node
        return next((a for a in self.ancestors(node) if a.clickable and a.bounds.area > 0), node)

    def tap_point(self, node: Node) -> tuple[int, int]:
        """Where to tap for `node`.

        A non-clickable label inside a clickable row is tapped at its *own* centre: Android routes
        that touch to the row anyway, and the row's centre may sit on another control (a delete
        icon in the same row). Only a label without area, or outside its clickable ancestor, is
        tapped at the ancestor's centre. When something else drawn above (a floating button, a bar)
        would take the tap there, the nearest point of the node where the tap reaches it is used.
        """
        target = self.click_target(node)
        x, y = node.center
        point = (x, y) if node.bounds.area > 0 and (target is node or target.bounds.contains(x, y)) \
            else target.center
        return point if self._reaches(point, target) else self._clear_point(node, target, point)

    def _reaches(self, point: tuple[int, int], target: Node) -> bool:
        """True unless a tap there would land on another touchable node (not the target or inside it)."""
        hit = self.touch_target_at(*point)
        return hit is None or hit == target or target in self.ancestors(hit) or hit in self.ancestors(target)

    def _clear_point(self, node: Node, target: Node, fallback: tuple[int, int]) -> tuple[int, int]:
        """A point of the node (within its clickable target) where a tap reaches the target, nearest
        its centre; `fallback` when every sampled point is covered."""
        b = node.bounds if node.bounds.area > 0 else target.bounds
        cx, cy = b.center
        steps = (0.5, 0.3, 0.7, 0.15, 0.85)
        points = sorted(((int(b.left + fx * b.width), int(b.top + fy * b.height)) for fx in steps for fy in steps),
                        key=lambda p: (p[0] - cx) ** 2 + (p[1] - cy) ** 2)
        return next((p for p in points if target.bounds.contains(*p) and self.touch_target_at(*p) is not None
                     and self._reaches(p, target)), fallback)

    # --- words for people and prompts -------------------------------------------------------
    @cached_property
    def visible_texts(self) -> list[str]:
        """Distinct visible texts and descriptions of the content, passwords redacted."""
        out: list[str] = []
        for n in self.content_nodes():
            if n.password:
                out.append(REDACTED)
                continue
            out.extend(t for t in (normalize_text(n.text), normalize_text(n.content_desc)) if t)
        return list(dict.fromkeys(out))

    @cached_property
    def interactable_nodes(self) -> list[Node]:
        """Visible nodes a person can act on, keyboards and system bars excluded."""
        return [n for n in self.content_nodes() if n.interactive and n.enabled]

    @cached_property
    def interactables(self) -> list[str]:
        """One human-readable line per interactable node (passwords redacted)."""
        return [describe(n, self.descendants, self.label_counts) for n in self.interactable_nodes]

    @cached_property
    def label_counts(self) -> dict[str, int]:
        """How many visible nodes carry each normalised text: repeated texts do not tell rows apart."""
        return label_frequencies(self.nodes)

    def label_of(self, node: Node) -> str:
        """What a person would call this node (its text, or its children's most distinctive texts)."""
        mine = node.order < len(self.nodes) and self.nodes[node.order] is node
        label = self._labels.get(node.order) if mine else None
        if label is None:
            label = element_label(node, self.descendants, self.label_counts)
            if mine:
                self._labels[node.order] = label
        return label

    @cached_property
    def _labels(self) -> dict[int, str]:
        """`label_of` by node order: many rules ask for the labels of the same buttons and rows."""
        return {}

    # --- change detection --------------------------------------------------------------------
    @cached_property
    def hash(self) -> str:
        """Digest of what matters on screen; status-bar clock/battery noise and passwords left out."""
        h = hashlib.sha256()
        for n in self.content_nodes():
            if any(part in n.resource_id for part in _NOISE_IDS) and n.package.endswith("systemui"):
                continue
            h.update(_fingerprint(n).encode("utf-8", "replace"))
        for w in self.windows:
            if w.is_keyboard:
                h.update(f"keyboard:{w.bounds}".encode())
        return h.hexdigest()[:32]

    # --- prompts -----------------------------------------------------------------------------
    def summary(self, max_items: int = 10, relevant_to: str | None = None) -> str:
        """Capped, prompt-ready description; screen text is delimited as untrusted data."""
        return render_summary(self, max_items=max_items, relevant_to=relevant_to)

    def full_dump_text(self) -> str:
        """The naive whole hierarchy as text (passwords redacted), for token-size comparisons."""
        return render_full_dump(self)

    def __repr__(self) -> str:
        return f"ScreenSnapshot({len(self.nodes)} nodes, foreground={self.foreground_package!r})"


def _fingerprint(n: Node) -> str:
    flags = "".join("1" if f else "0" for f in (n.checked, n.selected, n.enabled, n.focused))
    return f"{n.window_index}|{n.class_name}|{n.resource_id}|{n.text}|{n.content_desc}|{n.bounds}|{flags}\n"
