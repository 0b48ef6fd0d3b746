"""`logcat`: the phone's log in threadtime format (-d dumps and exits, -c clears, otherwise it follows)."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field

from starebrain.sim.services.shell_runtime import CommandContext, command

SYSTEM_SERVER_PID = 1104
FOLLOW_POLL_S = 0.2


@dataclass
class LogBuffer:
    """The main log buffer: `threadtime` lines, oldest first (bounded)."""

    lines: list[str] = field(default_factory=list)
    limit: int = 5000

    def add(self, tag: str, message: str, level: str = "I", pid: int = SYSTEM_SERVER_PID) -> None:
        """Append one line, as `MM-DD HH:MM:SS.mmm  PID  TID L TAG: message`."""
        now = time.time()
        stamp = time.strftime("%m-%d %H:%M:%S", time.localtime(now)) + f".{int(now * 1000) % 1000:03d}"
        self.lines.append(f"{stamp} {pid:5d} {pid + 46:5d} {level} {tag}: {message}")
        del self.lines[:-self.limit]


@command("logcat")
async def logcat(ctx: CommandContext, args: list[str]) -> int:
    """logcat [-d] [-c|--clear] [-t N] [-v threadtime] [FILTERS]."""
    log = ctx.device.log
    if "-c" in args or "--clear" in args:
        log.lines.clear()
        return 0
    count = int(args[args.index("-t") + 1]) if "-t" in args[:-1] and args[args.index("-t") + 1].isdigit() else 0
    lines = log.lines[-count:] if count else list(log.lines)
    ctx.print("--------- beginning of main")
    for line in lines:
        ctx.print(line)
    if "-d" in args or count or ctx.channel is None:
        return 0
    seen = len(log.lines)
    while not ctx.channel.closed():  # follow until the client hangs up
        await ctx.output.flush()
        await asyncio.sleep(FOLLOW_POLL_S)
        for line in log.lines[seen:]:
            ctx.print(line)
        seen = len(log.lines)
    return 0
