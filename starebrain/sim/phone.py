"""The contract between the simulated phone's wire side and its app world.

The wire side (`starebrain/sim/adb/`, `services/`, `u2server/`) speaks ADB, the shell, sync and the
uiautomator2 JSON-RPC server; it asks a `SimPhone` for everything about the screen and the apps.
The world side (`starebrain/sim/world/`) implements `SimPhone` from declarative app data.

All methods are called from one asyncio thread per phone; implementations need no locking for
that, but must be quick (no sleeping: latencies of the timing profile are applied by the wire
side, using `timing`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol


@dataclass
class UiNode:
    """One node of the on-screen hierarchy, attribute names exactly as in the u2 XML dump."""

    attrs: dict[str, str]  # index, text, resource-id, class, package, content-desc, checkable, ...
    bounds: tuple[int, int, int, int]  # left, top, right, bottom (visible, clipped to display)
    children: list[UiNode] = field(default_factory=list)
    parent: UiNode | None = field(default=None, repr=False, compare=False)
    key: str = ""  # stable id inside the world (for set_text etc.); not serialised

    def center(self) -> tuple[int, int]:
        left, top, right, bottom = self.bounds
        return (left + right) // 2, (top + bottom) // 2

    def iter(self) -> list[UiNode]:
        """This node and all descendants, in document order."""
        out = [self]
        for child in self.children:
            out.extend(child.iter())
        return out


@dataclass
class TimingProfile:
    """Latencies the wire side adds (ms). `fast` is all zeros; `real-phone` is a mid-range phone."""

    name: str = "fast"
    dump_ms: float = 0.0
    action_ms: float = 0.0
    transition_ms: float = 0.0  # a screen change settles over this long
    rpc_ms: float = 0.0
    dumpsys_ms: float = 0.0  # one `dumpsys SERVICE` (system_server walks its state)
    screencap_ms: float = 0.0  # one `screencap -p` (capture + PNG encode on the phone)
    step_ms: float = 0.0  # one injected move of a swipe/drag/pinch (UiAutomator: ~5 ms a step)


@dataclass
class Faults:
    """Transport-level faults a scenario injects; the wire side counts and applies them."""

    disconnect_after_commands: int | None = None  # drop the adb connection after N shell/RPC commands
    disconnect_for_s: float = 3.0  # how long the phone stays away
    u2_crash_after_rpcs: int | None = None  # uiautomator server dies after N RPCs


class SimPhone(Protocol):
    serial: str
    timing: TimingProfile
    faults: Faults

    def getprop(self, name: str) -> str: ...
    def display_size(self) -> tuple[int, int]: ...
    def rotation(self) -> int: ...

    # screen
    def root(self) -> UiNode:
        """The current hierarchy (windows as top-level children of a synthetic root)."""
        ...
    def hierarchy_xml(self, max_depth: int = 50) -> str:
        """The u2 dump (docs/sim.md, "Hierarchy dump"); each call counts as one observation (spinners progress)."""
        ...
    def screenshot(self, fmt: str = "PNG", scale: float = 1.0, quality: int = 80) -> bytes: ...

    # input
    def tap(self, x: float, y: float, duration_ms: float = 0) -> bool: ...
    def swipe(self, x1: float, y1: float, x2: float, y2: float, steps: int = 55) -> bool: ...
    def press_key(self, key: str | int) -> bool:
        """A u2 key name (home, back, enter, recent, ...) or an Android keycode."""
        ...
    def set_text(self, node: UiNode, text: str) -> bool: ...
    def input_text(self, text: str) -> None:
        """Text into the focused field (clipboard paste, `input text`)."""
        ...
    def clear_focused_text(self) -> None: ...
    def get_clipboard(self) -> str | None: ...
    def set_clipboard(self, text: str | None) -> None: ...

    # apps
    def current_focus(self) -> tuple[str, str]:
        """(package, activity) of the focused window."""
        ...
    def start_app(self, package: str, activity: str | None = None) -> bool: ...
    def open_link(self, url: str, package: str) -> bool:
        """Start `package` for a VIEW intent of `url` (it declared the URL's prefix); a `link_opened` effect."""
        ...
    def stop_app(self, package: str) -> None: ...
    def clear_app_data(self, package: str) -> None:
        """`pm clear`: the app is stopped and what it stored is gone."""
        ...
    def installed_packages(self) -> list[str]: ...
    def running_packages(self) -> list[str]: ...

    # misc device state
    def screen_on(self) -> bool:
        """A method (the wire side calls it); the wire side also tolerates a bool attribute of this name."""
        ...
    def set_screen(self, on: bool) -> None: ...
    def last_toast(self) -> str | None: ...
    def open_notification(self) -> bool: ...

    # checkable state (AndroidWorld-style)
    def content_query(self, uri: str) -> str:
        """`content query --uri URI` output: `Row: 0 key=value, key=value` lines, or `No result found.`"""
        ...
    def state(self) -> dict[str, object]:
        """Every side effect with its count, and app data, as JSON-able dict."""
        ...
