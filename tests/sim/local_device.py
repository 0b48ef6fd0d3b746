"""Drive the services layer directly (no TCP, no adb): a SimDevice on the FakePhone plus pipe channels."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from starebrain.sim.services.channel import PipeChannel
from starebrain.sim.services.device import SimDevice
from starebrain.sim.services.router import resolve_service
from starebrain.sim.services.shell_runtime import Output, run_line
from tests.sim.fake_phone import FakePhone


def new_device() -> SimDevice:
    """A fresh device with the FakePhone."""
    return SimDevice(FakePhone("emulator-5554"))


def shell(line: str, device: SimDevice | None = None) -> tuple[int, str]:
    """(exit status, merged output text) of one command line."""
    device = device or new_device()
    output = Output()

    async def run() -> int:
        return await run_line(line, device, output)
    status = asyncio.run(run())
    return status, b"".join(data for _, data in output.chunks).decode(errors="replace")


async def talk(device: SimDevice, service: str, request: bytes, close_after: bool = True,
               timeout: float = 5.0) -> bytes:
    """Open `service`, send `request`, collect everything the device sends until it closes."""
    handler = resolve_service(device, service)
    assert handler is not None, f"service {service} refused"
    host, dev = PipeChannel.pair()
    task = asyncio.ensure_future(_serve(handler, dev))
    await host.write(request)
    received = bytearray()
    try:
        async with asyncio.timeout(timeout):
            while chunk := await host.read():
                received += chunk
    except TimeoutError:
        if close_after:
            await host.close()
    await asyncio.wait_for(task, timeout)
    return bytes(received)


async def _serve(handler: Callable[[Any], Awaitable[None]], channel: PipeChannel) -> None:
    try:
        await handler(channel)
    finally:
        await channel.close()


def talk_sync(device: SimDevice, service: str, request: bytes, timeout: float = 5.0) -> bytes:
    """talk() from synchronous test code."""
    return asyncio.run(talk(device, service, request, timeout=timeout))
