"""The `shell:` (v1) and `shell,v2,...:` services (sim-protocol.md §3.1, §3.2)."""

from __future__ import annotations

import struct

# Imported for their @command registrations.
from starebrain.sim.services import app_commands, posix_commands, system_commands  # noqa: F401
from starebrain.sim.services.channel import Channel
from starebrain.sim.services.device import SimDevice
from starebrain.sim.services.shell_runtime import ChannelOutput, run_line
from starebrain.sim.u2server import launch  # noqa: F401  (registers app_process)

V2_EXIT = 3


def parse_v2(service: str) -> str:
    """The command of `shell,v2,TERM=xterm,raw:CMD` (options are ignored)."""
    return service.split(":", 1)[1] if ":" in service else ""


async def serve_shell(channel: Channel, device: SimDevice, command_line: str, v2: bool) -> None:
    """Run one command line; v1 sends merged raw output, v2 framed output plus the exit code."""
    output = ChannelOutput(channel, v2)
    status = 0
    if command_line.strip():
        status = await run_line(command_line, device, output, channel)
    await output.flush()
    if v2:
        await channel.write(struct.pack("<BIB", V2_EXIT, 1, status & 0xFF))
    device.count_command()
