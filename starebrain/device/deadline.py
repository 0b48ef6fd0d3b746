"""Run one blocking device call with an overall deadline, whatever the library's own timeouts do.

uiautomator2 and adbutils set socket timeouts of up to 10 minutes, and some of their paths
(server restart, wait-for-device) loop on their own. We cannot interrupt a thread stuck in a
socket, so the call runs in a daemon thread and the caller stops waiting at the deadline; the
straggler ends on its own when its socket times out or the connection is closed. A daemon
thread (rather than a pool) so that a straggler never delays interpreter exit.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class DeadlineExceeded(Exception):
    """The call did not finish within its deadline (it may still be running)."""


class _Outcome(Generic[T]):
    def __init__(self) -> None:
        self.done = threading.Event()
        self.value: T | None = None
        self.error: BaseException | None = None


def run_with_deadline(fn: Callable[[], T], timeout_s: float, name: str = "device-call") -> T:
    """Return `fn()`, re-raise what it raised, or raise DeadlineExceeded after `timeout_s`."""
    outcome: _Outcome[T] = _Outcome()

    def target() -> None:
        try:
            outcome.value = fn()
        except BaseException as exc:  # noqa: BLE001 - handed back to the caller's thread
            outcome.error = exc
        finally:
            outcome.done.set()

    threading.Thread(target=target, name=name, daemon=True).start()
    if not outcome.done.wait(timeout_s):
        raise DeadlineExceeded(f"{name} did not finish within {timeout_s:g}s")
    if outcome.error is not None:
        raise outcome.error
    return outcome.value  # type: ignore[return-value]
