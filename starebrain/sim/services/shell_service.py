"""The `shell:` (v1) and `shell,v2,...:` services (docs/sim.md, Shell)."""

from __future__ import annotations

import struct
from collections.abc import AsyncIterator

# Imported for their @command registrations.
from starebrain.sim.services import (  # noqa: F401  (each registers its commands)
    app_commands,
    dumpsys,
    logcat,
    package_commands,
    posix_commands,
    process_commands,
    system_commands,
    text_commands,
)
from starebrain.sim.services.channel import Channel, ChannelReader
from starebrain.sim.services.device import SimDevice
from starebrain.sim.services.shell_runtime import ChannelOutput, run_line
from starebrain.sim.u2server import launch  # noqa: F401  (registers app_process)

V2_STDIN, V2_EXIT, V2_CLOSE_STDIN = 0, 3, 4
PROMPT = b"sim:/ $ "


def parse_v2(service: str) -> str:
    """The command of `shell,v2,TERM=xterm,raw:CMD` (options are ignored)."""
    return service.split(":", 1)[1] if ":" in service else ""


async def serve_shell(channel: Channel, device: SimDevice, command_line: str, v2: bool) -> None:
    """Run one command line (or an interactive session if it is empty); v2 also sends the exit code."""
    output = ChannelOutput(channel, v2)
    if command_line.strip():
        status = await run_line(command_line, device, output, channel)
    else:
        status = await _interactive(channel, device, output, v2)
    await output.flush()
    if v2:
        await channel.write(struct.pack("<BIB", V2_EXIT, 1, status & 0xFF))
    device.count_command()


async def _interactive(channel: Channel, device: SimDevice, output: ChannelOutput, v2: bool) -> int:
    """`adb shell` without a command: a prompt, one line at a time, until `exit` or end of input."""
    lines = _stdin_lines(channel, v2)
    status = 0
    while True:
        output.write(1, PROMPT)
        await output.flush()
        line = await anext(lines, None)
        if line is None or line.strip() == "exit":
            return status
        status = await run_line(line, device, output, channel)


async def _stdin_lines(channel: Channel, v2: bool) -> AsyncIterator[str]:
    reader = ChannelReader(channel)
    pending = bytearray()
    while True:
        chunk = await _stdin_chunk(reader) if v2 else await reader.channel.read()
        if not chunk:
            return
        pending += chunk.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        while b"\n" in pending:
            line, _, rest = bytes(pending).partition(b"\n")
            pending = bytearray(rest)
            yield line.decode("utf-8", "replace")


async def _stdin_chunk(reader: ChannelReader) -> bytes:
    """The next stdin payload of a v2 stream; b"" at close-stdin or EOF (other packet ids are skipped)."""
    while True:
        header = await reader.read_exactly(5)
        if header is None:
            return b""
        kind, length = struct.unpack("<BI", header)
        payload = await reader.read_exactly(length) if length else b""
        if kind == V2_CLOSE_STDIN or payload is None:
            return b""
        if kind == V2_STDIN:
            return payload
