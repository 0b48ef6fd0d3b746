"""toybox `ps`, `pidof` and `kill` over the phone's process table."""

from __future__ import annotations

from starebrain.sim.services.processes import SHELL_USER, Process
from starebrain.sim.services.shell_runtime import CommandContext, command

# toybox ps: default columns, and the width each known -o field takes (as Android prints them:
# `USER            PID   PPID     VSZ    RSS WCHAN            ADDR S NAME`).
DEFAULT_FIELDS = ["USER", "PID", "PPID", "VSZ", "RSS", "WCHAN", "ADDR", "S", "NAME"]
WIDTHS = {"USER": -10, "PID": 8, "PPID": 6, "VSZ": 7, "RSS": 6, "WCHAN": -16, "ADDR": 4, "S": 1,
          "NAME": -1, "CMD": -1, "ARGS": -1, "CMDLINE": -1, "COMM": -1, "UID": 5, "TTY": -8, "TIME": 8}
ALIASES = {"CMD": "NAME", "ARGS": "NAME", "CMDLINE": "NAME", "COMM": "NAME"}


def _value(process: Process, name: str) -> str:
    field = ALIASES.get(name, name)
    values = {"USER": process.user, "PID": str(process.pid), "PPID": str(process.ppid), "VSZ": str(process.vsz),
              "RSS": str(process.rss), "WCHAN": process.wchan, "ADDR": "0", "S": process.state,
              "NAME": process.name, "UID": "2000" if process.user == SHELL_USER else "0", "TTY": "?",
              "TIME": "00:00:01"}
    return values.get(field, "?")


def _cell(text: str, width: int, last: bool) -> str:
    if last:
        return text
    return text.ljust(-width) if width < 0 else text.rjust(width)


def _split_option(args: list[str], option: str) -> list[str]:
    values: list[str] = []
    for i, arg in enumerate(args):
        if arg == option and i + 1 < len(args):
            values.extend(v for v in args[i + 1].split(",") if v)
        elif arg.startswith(option) and len(arg) > len(option) and arg[1] != "-":
            values.extend(v for v in arg[len(option):].split(",") if v)
    return values


@command("ps")
async def ps(ctx: CommandContext, args: list[str]) -> int:
    """ps [-A|-e] [-u USER,..] [-p PID,..] [-o FIELD,..] [NAME..]: toybox columns."""
    fields = [f.upper().split("=")[0] for f in _split_option(args, "-o")] or DEFAULT_FIELDS
    users = _split_option(args, "-u")
    pids = {int(p) for p in _split_option(args, "-p") if p.isdigit()}
    skip = {i + 1 for i, a in enumerate(args) if a in ("-o", "-u", "-p")}
    names = [a for i, a in enumerate(args[1:], 1) if not a.startswith("-") and i not in skip]
    rows = ctx.device.processes.rows(ctx.device.phone)
    everything = any(a in ("-A", "-e", "-ef") for a in args) or users or pids or names
    if not everything:
        rows = [p for p in rows if p.user == SHELL_USER and p.name in ("sh", "ps")]
        rows.append(Process(99999, 781, SHELL_USER, "ps", 10798420, 3172, "0", "R"))
    rows = [p for p in rows if (not users or p.user in users) and (not pids or p.pid in pids)
            and (not names or p.name in names)]
    ctx.print(_line(fields, {f: f for f in fields}))
    for process in rows:
        ctx.print(_line(fields, {f: _value(process, f) for f in fields}))
    return 0 if rows else 1


def _line(fields: list[str], values: dict[str, str]) -> str:
    return " ".join(_cell(values[f], WIDTHS.get(f, -8), i == len(fields) - 1) for i, f in enumerate(fields))


@command("pidof")
async def pidof(ctx: CommandContext, args: list[str]) -> int:
    """pidof [-s] NAME...: pids, space separated; exit 1 if none."""
    pids = [pid for name in args[1:] if not name.startswith("-")
            for pid in ctx.device.processes.pids_of(ctx.device.phone, name)]
    if "-s" in args:
        pids = pids[:1]
    if pids:
        ctx.print(" ".join(map(str, pids)))
    return 0 if pids else 1


@command("kill")
async def kill(ctx: CommandContext, args: list[str]) -> int:
    """kill [-SIGNAL|-s SIGNAL] PID...: the shell user may kill only its own processes."""
    operands = [a for i, a in enumerate(args[1:], 1) if not a.startswith("-") and args[i - 1] != "-s"]
    if not operands:
        ctx.error("usage: kill [-s SIGNAL | -SIGNAL] PID...")
        return 1
    status = 0
    device = ctx.device
    for operand in operands:
        process = device.processes.find(device.phone, int(operand)) if operand.isdigit() else None
        if process is None:
            ctx.error(f"kill: {operand}: No such process")
            status = 1
        elif process.user != SHELL_USER:
            ctx.error(f"kill: {operand}: Operation not permitted")
            status = 1
        else:
            _end(ctx, process.pid)
    return status


def _end(ctx: CommandContext, pid: int) -> None:
    """A shell-owned process dies: the u2 server it ran stops listening."""
    device = ctx.device
    for port, listener in list(device.listeners.items()):
        if listener.pid == pid:
            device.stop_listener(port, crashed=True)
    device.processes.exited(pid)



REBOOT_S = 2.0  # how long the phone is away from adb while it "boots"


@command("reboot")
async def reboot(ctx: CommandContext, args: list[str]) -> int:
    """reboot: every process ends (apps, the u2 server), the phone leaves adb and comes back on its home screen."""
    device = ctx.device
    for package in device.phone.running_packages():
        device.phone.stop_app(package)
    for port in list(device.listeners):
        device.stop_listener(port, crashed=True)
    device.processes.reset()
    device.phone.start_app("com.android.launcher3")
    device.log.lines.clear()
    if device.on_disconnect_fault is not None:
        device.on_disconnect_fault(REBOOT_S)
    return 0
