"""What every group of u2 RPC methods shares: the device, latencies, selector lookups, registration."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, TypeVar

from starebrain.sim.phone import SimPhone, UiNode
from starebrain.sim.services.device import SimDevice
from starebrain.sim.u2server.rpc_errors import JavaException, not_found
from starebrain.sim.u2server.selector import SelectorError, describe, find_all

F = TypeVar("F", bound=Callable[..., Any])
MAX_WAIT_MS = 120_000  # no RPC blocks longer than this, whatever the client asks
POLL_S = 0.05  # how often a wait re-evaluates the screen


def rpc(name: str) -> Callable[[F], F]:
    """Mark a coroutine method as the JSON-RPC method `name`."""
    def mark(fn: F) -> F:
        fn._rpc_name = name  # type: ignore[attr-defined]
        return fn
    return mark


class MethodBase:
    """Shared state of one running u2 server process."""

    def __init__(self, device: SimDevice, port: int) -> None:
        self.device = device
        self.port = port

    @property
    def phone(self) -> SimPhone:
        return self.device.phone

    async def pause(self, ms: float) -> None:
        """A timing-profile latency; never blocks other phones."""
        if ms > 0:
            await asyncio.sleep(ms / 1000.0)

    async def action_pause(self) -> None:
        """The latency of one input action."""
        await self.pause(self.phone.timing.action_ms)

    def find(self, selector: Any) -> list[UiNode]:
        """All nodes matching a u2 selector on the current screen."""
        try:
            return find_all(self.phone.root(), selector)
        except SelectorError as exc:
            java_class, _, message = str(exc).partition(": ")
            raise JavaException(java_class, message) from exc

    def find_one(self, selector: Any) -> UiNode:
        """The first match, or UiObjectNotFoundException."""
        found = self.find(selector)
        if not found:
            raise not_found(describe(selector) if isinstance(selector, dict) else str(selector))
        return found[0]

    async def wait_until(self, predicate: Callable[[], bool], timeout_ms: Any) -> bool:
        """Re-check `predicate` against the live screen until true or `timeout_ms` passes."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + min(max(float(timeout_ms or 0), 0.0), MAX_WAIT_MS) / 1000.0
        while True:
            if predicate():
                return True
            remaining = deadline - loop.time()
            if remaining <= 0:
                return False
            await asyncio.sleep(min(POLL_S, remaining))


def collect_methods(obj: object) -> dict[str, Callable[..., Any]]:
    """Every @rpc-marked bound method of `obj`, by RPC name."""
    found: dict[str, Callable[..., Any]] = {}
    for attr in dir(type(obj)):
        fn = getattr(type(obj), attr, None)
        name = getattr(fn, "_rpc_name", None)
        if name is not None:
            found[name] = getattr(obj, attr)
    return found
