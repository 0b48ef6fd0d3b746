"""What an observation needs besides the dump, asked of the phone only when the dump shows it changed.

The hierarchy dump already says which app is in front (its window roots carry packages) and how the
display is rotated. So an observation asks `deviceInfo` for the display size only at the first look
and after a rotation, and `dumpsys` for the activity only when the foreground app changes: the
activity reported is the one the app was entered with. Each of those is a round trip to the phone
that a step would otherwise pay on every look.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from starebrain.snapshot import ScreenSnapshot

_ROTATION = re.compile(r'<hierarchy\b[^>]*\brotation="(\d)"')


class WindowFacts:
    """Display size and foreground (package, activity), refreshed from the phone only on a change."""

    def __init__(self, read_size: Callable[[], tuple[int, int]], read_app: Callable[[], tuple[str, str]]) -> None:
        self._read_size = read_size
        self._read_app = read_app
        self._rotation: str | None = None
        self._size = (0, 0)
        self._app: tuple[str, str] | None = None

    def size(self, xml: str) -> tuple[int, int]:
        """(width, height) as rotated in this dump."""
        found = _ROTATION.search(xml[:400])
        rotation = found.group(1) if found else ""
        if self._size == (0, 0) or rotation != self._rotation:
            self._size, self._rotation = self._read_size(), rotation
        return self._size

    def app(self, xml: str) -> tuple[str, str]:
        """The dump's foreground package, with the activity it was entered with ("" if unknown)."""
        package = ScreenSnapshot.from_xml(xml).foreground_package
        if self._app is None or self._app[0] != package:
            focused, activity = self._read_app()
            self._app = (package or focused, activity if focused == (package or focused) else "")
        return self._app

    def forget(self) -> None:
        """Ask the phone again at the next look (e.g. after a reconnect)."""
        self._size, self._rotation, self._app = (0, 0), None, None
