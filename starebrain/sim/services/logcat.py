"""`logcat`: the phone's log in threadtime format (-d dumps and exits, -c clears, otherwise it follows)."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field

from starebrain.sim.services.shell_runtime import CommandContext, command

SYSTEM_SERVER_PID = 1104
FOLLOW_POLL_S = 0.2
CHATTER_S = 1.0
GC_LINE = ("Background young concurrent copying GC freed 118213(5848KB) AllocSpace objects, 14(412KB) LOS "
           "objects, 25% free, 21MB/28MB, paused 97us,41us total 118.342ms")


@dataclass(frozen=True)
class LogEntry:
    """One log line's fields."""

    when: float
    pid: int
    level: str
    tag: str
    message: str

    def format(self, style: str) -> str:
        """As `logcat -v STYLE` prints it (threadtime, time or brief)."""
        stamp = time.strftime("%m-%d %H:%M:%S", time.localtime(self.when)) + f".{int(self.when * 1000) % 1000:03d}"
        if style == "time":
            return f"{stamp} {self.level}/{self.tag}({self.pid:5d}): {self.message}"
        if style == "brief":
            return f"{self.level}/{self.tag}({self.pid:5d}): {self.message}"
        return f"{stamp} {self.pid:5d} {self.pid + 46:5d} {self.level} {self.tag}: {self.message}"


@dataclass
class LogBuffer:
    """The main log buffer, oldest first (bounded)."""

    lines: list[LogEntry] = field(default_factory=list)
    limit: int = 5000

    def add(self, tag: str, message: str, level: str = "I", pid: int = SYSTEM_SERVER_PID) -> None:
        """Append one entry."""
        self.lines.append(LogEntry(time.time(), pid, level, tag, message))
        del self.lines[:-self.limit]


@command("logcat")
async def logcat(ctx: CommandContext, args: list[str]) -> int:
    """logcat [-d] [-c|--clear] [-t N] [-v threadtime|time|brief] [FILTERS]."""
    log = ctx.device.log
    if "-c" in args or "--clear" in args:
        log.lines.clear()
        return 0
    count = int(args[args.index("-t") + 1]) if "-t" in args[:-1] and args[args.index("-t") + 1].isdigit() else 0
    style = args[args.index("-v") + 1] if "-v" in args[:-1] else "threadtime"
    lines = log.lines[-count:] if count else list(log.lines)
    ctx.print("--------- beginning of main")
    for line in lines:
        ctx.print(line.format(style))
    if "-d" in args or count or ctx.channel is None:
        return 0
    seen, quiet_since = len(log.lines), time.monotonic()
    while not ctx.channel.closed:  # follow until the client hangs up
        await ctx.output.flush()
        await asyncio.sleep(FOLLOW_POLL_S)
        if len(log.lines) == seen and time.monotonic() - quiet_since >= CHATTER_S:
            log.add("system_server", GC_LINE)  # a phone's log is never silent for long
        for line in log.lines[seen:]:
            ctx.print(line.format(style))
            quiet_since = time.monotonic()
        seen = len(log.lines)
    return 0
