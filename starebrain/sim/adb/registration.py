"""Attaching a sim to a running adb server: `host:emulator:<port>` or `host:connect:`.

See docs/sim.md, "Attaching to an adb server".
"""

from __future__ import annotations

import asyncio

REGISTER_TIMEOUT_S = 2.0


def smart_request(text: str) -> bytes:
    """A smart-socket request: 4 hex digits of length, then the text."""
    data = text.encode()
    return f"{len(data):04x}".encode() + data


async def send_host_request(adb_port: int, text: str, host: str = "127.0.0.1") -> bytes | None:
    """Send one host request and return everything the server answered before closing (None: no server)."""
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection(host, adb_port), REGISTER_TIMEOUT_S)
    except (OSError, TimeoutError):
        return None
    try:
        writer.write(smart_request(text))
        await writer.drain()
        return await asyncio.wait_for(reader.read(4096), REGISTER_TIMEOUT_S)
    except (OSError, TimeoutError):
        return None
    finally:
        writer.close()


async def register(adb_port: int, device_port: int, mode: str) -> bool:
    """Ask the adb server to connect to us; True if the request was delivered ("none": never ask)."""
    if mode == "none":
        return False
    if mode == "connect":
        reply = await send_host_request(adb_port, f"host:connect:127.0.0.1:{device_port}")
        return reply is not None and reply.startswith(b"OKAY")
    # The server answers nothing to host:emulator: it closes the socket and connects to us.
    return await send_host_request(adb_port, f"host:emulator:{device_port}") is not None


def serial_for(port: int, mode: str) -> str:
    """The serial the adb server gives a sim on `port`."""
    return f"127.0.0.1:{port}" if mode == "connect" else f"emulator-{port - 1}"
