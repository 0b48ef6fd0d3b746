"""Maps an OPEN's service string to the coroutine that serves it, or refuses it (None)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from starebrain.sim.services.channel import Channel
from starebrain.sim.services.device import SimDevice
from starebrain.sim.services.shell_service import parse_v2, serve_shell
from starebrain.sim.services.sync_service import serve_sync

Handler = Callable[[Channel], Awaitable[None]]
FEATURES = ["shell_v2", "fixed_push_mkdir"]  # advertise only what is implemented


def resolve_service(device: SimDevice, service: str) -> Handler | None:
    """The handler for `service` on `device`, or None to refuse the OPEN (CLSE(0, id))."""
    if service.startswith(("shell:", "exec:")):
        command_line = service.split(":", 1)[1]
        return lambda channel: serve_shell(channel, device, command_line, v2=False)
    if service.startswith("shell,"):
        command_line = parse_v2(service)
        return lambda channel: serve_shell(channel, device, command_line, v2=True)
    if service.startswith("sync:"):
        return lambda channel: serve_sync(channel, device)
    if service.startswith("tcp:"):
        return _tcp(device, service)
    return None


def _tcp(device: SimDevice, service: str) -> Handler | None:
    # `tcp:PORT` or `tcp:HOST:PORT`; only loopback ports something listens on are reachable.
    target = service[4:].rsplit(":", 1)
    host = target[0] if len(target) == 2 else "localhost"
    if not target[-1].isdigit() or host not in ("localhost", "127.0.0.1"):
        return None
    listener = device.listeners.get(int(target[-1]))
    return None if listener is None else listener.handler
