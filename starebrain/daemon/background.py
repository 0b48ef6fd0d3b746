"""A daemon thread that follows one stream until the daemon stops, reconnecting when it breaks."""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from collections.abc import Callable


class Follower(ABC):
    """Runs `follow()` again and again (after `retry_s`) until `stopping`; errors go to `on_error`."""

    name = "follower"
    retry_s = 1.0

    def __init__(self, stopping: threading.Event, on_error: Callable[[str], None]) -> None:
        self._stopping = stopping
        self._on_error = on_error
        self._thread = threading.Thread(target=self._loop, name=self.name, daemon=True)

    def start(self) -> Follower:
        self._thread.start()
        return self

    @abstractmethod
    def follow(self) -> None:
        """Follow the stream until it ends or breaks (raises)."""

    def broken(self, exc: Exception) -> None:
        """The stream broke: report it (subclasses also undo what the stream had set up)."""
        self._on_error(f"{self.name}: {type(exc).__name__}: {exc}".splitlines()[0] + " (reconnecting)")

    def _loop(self) -> None:
        while not self._stopping.is_set():
            try:
                self.follow()
            except Exception as exc:  # noqa: BLE001 - a broken stream is reopened, never fatal
                self.broken(exc)
            self._stopping.wait(self.retry_s)
