"""The toybox-style commands of the simulated shell: echo, cat, rm, ls, md5sum, getprop, sleep, ..."""

from __future__ import annotations

import asyncio
import re
import stat
import time

from starebrain.sim.services.shell_runtime import COMMANDS, CommandContext, command

MAX_SLEEP_S = 30.0  # a shell `sleep` never holds a stream longer than this


@command("echo")
async def echo(ctx: CommandContext, args: list[str]) -> int:
    """echo [-n] WORDS."""
    words = args[1:]
    newline = True
    if words and words[0] == "-n":
        newline, words = False, words[1:]
    ctx.print(" ".join(words), end="\n" if newline else "")
    return 0


@command("true")
async def true(ctx: CommandContext, args: list[str]) -> int:
    """Exit 0."""
    return 0


@command("false")
async def false(ctx: CommandContext, args: list[str]) -> int:
    """Exit 1."""
    return 1


@command("cat")
async def cat(ctx: CommandContext, args: list[str]) -> int:
    """cat FILE... (or stdin)."""
    if len(args) == 1:
        ctx.write_bytes(ctx.stdin)
        return 0
    status = 0
    for path in args[1:]:
        entry = ctx.device.files.read(path)
        if entry is None:
            what = "Is a directory" if ctx.device.files.is_dir(path) else "No such file or directory"
            ctx.error(f"cat: {path}: {what}")
            status = 1
        else:
            ctx.write_bytes(entry.data)
    return status


@command("rm")
async def rm(ctx: CommandContext, args: list[str]) -> int:
    """rm [-f] [-r] PATH..."""
    flags = "".join(a[1:] for a in args[1:] if a.startswith("-"))
    status = 0
    for path in (a for a in args[1:] if not a.startswith("-")):
        error = ctx.device.files.remove(path, recursive="r" in flags or "R" in flags)
        if error and not ("f" in flags and "No such file" in error):
            ctx.error(error)
            status = 1
    return status


@command("mkdir")
async def mkdir(ctx: CommandContext, args: list[str]) -> int:
    """mkdir [-p] DIR..."""
    for path in (a for a in args[1:] if not a.startswith("-")):
        ctx.device.files.mkdir(path)
    return 0


@command("chmod", "chown", "sync", "touch")
async def no_op(ctx: CommandContext, args: list[str]) -> int:
    """Accepted and ignored (touch creates an empty file)."""
    if args[0] == "touch":
        for path in (a for a in args[1:] if not a.startswith("-")):
            if ctx.device.files.read(path) is None:
                ctx.device.files.write(path, b"")
    return 0


@command("ls")
async def ls(ctx: CommandContext, args: list[str]) -> int:
    """ls [-l] [PATH...]: names, or `mode size name` with -l."""
    long = any(a.startswith("-") and "l" in a for a in args[1:])
    paths = [a for a in args[1:] if not a.startswith("-")] or ["/"]
    status = 0
    for path in paths:
        entries = ctx.device.files.listdir(path)
        if entries is None:
            info = ctx.device.files.stat(path)
            if info is None:
                ctx.error(f"ls: {path}: No such file or directory")
                status = 1
                continue
            entries = [(path, info)]
        for name, (mode, size, mtime) in entries:
            ctx.print(_long_entry(name, mode, size, mtime) if long else name)
    return status


def _long_entry(name: str, mode: int, size: int, mtime: int) -> str:
    stamp = time.strftime("%Y-%m-%d %H:%M", time.localtime(mtime))
    return f"{stat.filemode(mode)} 1 shell shell {size} {stamp} {name}"


@command("md5sum", "md5")
async def md5sum(ctx: CommandContext, args: list[str]) -> int:
    """md5sum FILE...: `<md5>  <path>` lines (u2 checks u2.jar this way on every connect)."""
    status = 0
    for path in args[1:]:
        entry = ctx.device.files.read(path)
        if entry is None:
            ctx.error(f"md5sum: {path}: No such file or directory")
            status = 1
        else:
            ctx.print(f"{entry.md5()}  {path}")
    return status


@command("toybox", "busybox")
async def toybox(ctx: CommandContext, args: list[str]) -> int:
    """toybox CMD ARGS: runs the command."""
    if len(args) < 2:
        ctx.print(" ".join(sorted(COMMANDS)))
        return 0
    fn = COMMANDS.get(args[1])
    if fn is None:
        ctx.error(f"toybox: Unknown command {args[1]}")
        return 1
    return await fn(ctx, args[1:])


@command("sleep")
async def sleep(ctx: CommandContext, args: list[str]) -> int:
    """sleep SECONDS (capped)."""
    try:
        seconds = float(args[1]) if len(args) > 1 else 0.0
    except ValueError:
        ctx.error(f"sleep: invalid number '{args[1]}'")
        return 1
    await asyncio.sleep(min(max(seconds, 0.0), MAX_SLEEP_S))
    return 0


@command("id")
async def id_(ctx: CommandContext, args: list[str]) -> int:
    """The shell user."""
    ctx.print("uid=2000(shell) gid=2000(shell) groups=2000(shell),1004(input),1007(log),1015(sdcard_rw)")
    return 0


@command("whoami")
async def whoami(ctx: CommandContext, args: list[str]) -> int:
    """The shell user's name."""
    ctx.print("shell")
    return 0


@command("which")
async def which(ctx: CommandContext, args: list[str]) -> int:
    """which NAME: /system/bin/NAME if the shell knows it."""
    found = [name for name in args[1:] if name in COMMANDS]
    for name in found:
        ctx.print(f"/system/bin/{name}")
    return 0 if found and len(found) == len(args) - 1 else 1


@command("grep")
async def grep(ctx: CommandContext, args: list[str]) -> int:
    """grep [-v] [-i] [-E] PATTERN: filters stdin lines."""
    flags = "".join(a[1:] for a in args[1:] if a.startswith("-"))
    patterns = [a for a in args[1:] if not a.startswith("-")]
    if not patterns:
        ctx.error("usage: grep [-vi] PATTERN")
        return 2
    try:
        regex = re.compile(patterns[0], re.IGNORECASE if "i" in flags else 0)
    except re.error:
        ctx.error(f"grep: bad regex '{patterns[0]}'")
        return 2
    lines = [ln for ln in ctx.stdin.decode(errors="replace").splitlines()
             if bool(regex.search(ln)) != ("v" in flags)]
    for line in lines:
        ctx.print(line)
    return 0 if lines else 1


@command("export")
async def export(ctx: CommandContext, args: list[str]) -> int:
    """export NAME=VALUE...: into the line's environment (the adb CLI's logcat sets ANDROID_LOG_TAGS)."""
    for assignment in args[1:]:
        name, _, value = assignment.partition("=")
        ctx.env[name] = value
    return 0


@command("exec")
async def exec_(ctx: CommandContext, args: list[str]) -> int:
    """exec CMD ARGS: runs CMD (the shell ends with it anyway)."""
    if len(args) < 2:
        return 0
    fn = COMMANDS.get(args[1].rsplit("/", 1)[-1])
    if fn is None:
        ctx.error(f"/system/bin/sh: exec: {args[1]}: not found")
        return 127
    return await fn(ctx, args[1:])
