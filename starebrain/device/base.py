"""The `Device` protocol: everything the engine may ask of a phone.

Implementations: `U2Device` (uiautomator2 over adbutils; the only module importing them) and, for
pure-logic unit tests, `tests/fakes/fake_device.py`. Every method has a timeout and raises only
errors from `starebrain.errors` (DeviceOffline, UiServerGone, DeviceTimeout, DeviceNotFound).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, Protocol, runtime_checkable

Key = Literal["back", "home", "enter", "recents"]
Direction = Literal["up", "down", "left", "right"]


@dataclass(frozen=True)
class Observation:
    """One look at the screen."""

    hierarchy_xml: str
    package: str = ""
    activity: str = ""  # as the app was entered (U2Device asks the phone only on an app switch)
    screenshot: bytes | None = None  # PNG or JPEG bytes, when asked for
    width: int = 0
    height: int = 0
    extras: dict[str, str] = field(default_factory=dict)


@runtime_checkable
class Device(Protocol):
    serial: str

    def observe(self, *, screenshot: bool = False) -> Observation:
        """Dump the hierarchy (and optionally a screenshot) of what is on screen now."""
        ...

    def tap(self, x: int, y: int) -> None: ...

    def long_press(self, x: int, y: int, duration_s: float = 0.8) -> None: ...

    def type_text(self, text: str) -> None:
        """Type into the focused field, replacing what it holds."""
        ...

    def press(self, key: Key) -> None: ...

    def swipe(self, direction: Direction) -> None: ...

    def open_app(self, package: str, *, fresh: bool = False) -> None:
        """Launch `package`; `fresh` force-stops it first (a clean start on its first screen)."""
        ...

    def open_link(self, url: str, package: str | None = None) -> None:
        """Open `url` with a VIEW intent (in `package` if given); sent at most once, like a tap."""
        ...

    def stop_app(self, package: str) -> None:
        """Force-stop `package` (its data stays); sent at most once, like a tap."""
        ...

    def clear_state(self, package: str) -> None:
        """Delete `package`'s data (`pm clear`); sent at most once, like a tap; cannot be undone."""
        ...

    def current_app(self) -> tuple[str, str]:
        """(package, activity) in the foreground."""
        ...

    def installed_packages(self) -> list[str]: ...

    def brand(self) -> str:
        """The maker, lower-cased (selects the device profile)."""
        ...

    def close(self) -> None: ...
