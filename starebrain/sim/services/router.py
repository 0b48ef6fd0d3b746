"""Maps an OPEN's service string to the coroutine that serves it, or refuses it (None)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from starebrain.sim.services.channel import Channel
from starebrain.sim.services.device import SimDevice
from starebrain.sim.services.reverse_service import serve_reverse
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
    if service.rstrip("\x00") in ("root:", "unroot:") or service.startswith("tcpip:"):
        name = service.rstrip("\x00")
        reply = ADBD_REPLIES.get(name) or f"restarting in TCP mode port: {name[6:]}\n".encode()
        return lambda channel: _reply(channel, reply)
    if service.startswith("reverse:"):
        request = service[len("reverse:"):].rstrip("\x00")
        return lambda channel: serve_reverse(channel, device, request)
    return None


def _tcp(device: SimDevice, service: str) -> Handler | None:
    # `tcp:PORT` or `tcp:HOST:PORT`; only loopback ports something listens on are reachable.
    target = service[4:].rsplit(":", 1)
    host = target[0] if len(target) == 2 else "localhost"
    if not target[-1].isdigit() or host not in ("localhost", "127.0.0.1"):
        return None
    listener = device.listeners.get(int(target[-1]))
    return None if listener is None else listener.handler


# A production (user) build: adbd cannot become root; `tcpip:` is acknowledged but the sim keeps its socket.
ADBD_REPLIES = {"root:": b"adbd cannot run as root in production builds\n",
                "unroot:": b"adbd not running as root\n"}


async def _reply(channel: Channel, data: bytes) -> None:
    await channel.write(data)
    await channel.close()
