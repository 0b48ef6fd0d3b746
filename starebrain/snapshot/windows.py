"""Which window is which: system bars, keyboards, gesture strips and the app the person is in."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from starebrain.snapshot.node import Bounds, Node

SYSTEM_UI_PACKAGES = frozenset({"com.android.systemui", "com.miui.systemui", "com.samsung.android.systemui"})
# Packages that are keyboards on common phones; the device profiles add OEM ones for obstruction rules.
KEYBOARD_PACKAGES = frozenset({
    "com.google.android.inputmethod.latin", "com.android.inputmethod.latin",
    "com.samsung.android.honeyboard", "com.sec.android.inputmethod", "com.touchtype.swiftkey",
    "com.baidu.input", "com.baidu.input_mi", "com.sohu.inputmethod.sogou", "com.sohu.inputmethod.sogou.xiaomi",
    "com.iflytek.inputmethod", "com.tencent.qqpinyin", "com.google.android.inputmethod.pinyin",
})
# A window this thin is a gesture strip or a bar, never the app the person is in.
_STRIP_FRACTION = 0.06


@dataclass(frozen=True)
class Window:
    """One top-level window of the dump."""

    index: int
    package: str
    bounds: Bounds
    node_count: int

    @property
    def is_system_ui(self) -> bool:
        return self.package in SYSTEM_UI_PACKAGES

    @property
    def is_keyboard(self) -> bool:
        return is_keyboard_package(self.package)


def is_keyboard_package(package: str) -> bool:
    """True for input-method packages (known ones, or any with `inputmethod` in the name)."""
    return package in KEYBOARD_PACKAGES or "inputmethod" in package


def windows_of(nodes: Sequence[Node]) -> list[Window]:
    """The windows in dump order, each with its root's package and bounds."""
    counts: dict[int, int] = {}
    for n in nodes:
        counts[n.window_index] = counts.get(n.window_index, 0) + 1
    roots = [n for n in nodes if n.parent is None]
    return [Window(r.window_index, _window_package(nodes, r), r.bounds, counts[r.window_index]) for r in roots]


def _window_package(nodes: Sequence[Node], root: Node) -> str:
    if root.package:
        return root.package
    return next((n.package for n in nodes if n.window_index == root.window_index and n.package), "")


def screen_bounds(nodes: Sequence[Node]) -> Bounds:
    """The display as far as the dump shows it (the union of the window roots)."""
    roots = [n.bounds for n in nodes if n.parent is None and n.bounds.area > 0]
    if not roots:
        return Bounds(0, 0, 0, 0)
    return Bounds(min(b.left for b in roots), min(b.top for b in roots),
                  max(b.right for b in roots), max(b.bottom for b in roots))


def app_windows(windows: Sequence[Window], screen: Bounds) -> list[Window]:
    """Windows of apps: not system UI, not a keyboard, not a thin gesture/bar strip."""
    def is_strip(w: Window) -> bool:
        return (w.bounds.height < screen.height * _STRIP_FRACTION
                or w.bounds.width < screen.width * _STRIP_FRACTION)
    return [w for w in windows if not (w.is_system_ui or w.is_keyboard or is_strip(w))]


def foreground_window(windows: Sequence[Window], screen: Bounds) -> Window | None:
    """The largest app window; when only system windows are shown, the largest of those."""
    pool = app_windows(windows, screen) or list(windows)
    if not pool:
        return None
    # Larger area wins; among equals the later window, which the dump lists above the earlier.
    return max(enumerate(pool), key=lambda iw: (iw[1].bounds.area, iw[0]))[1]
