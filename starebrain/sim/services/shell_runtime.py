"""Runs a parsed command line: `$?`, `VAR=x` prefixes, `&&`/`||`, pipes, and the command table."""

from __future__ import annotations

import asyncio
import logging
import re
import struct
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from starebrain.sim.services.channel import ChannelClosed
from starebrain.sim.services.shell_parser import Command, ShellSyntaxError, Step, expand, parse

if TYPE_CHECKING:
    from starebrain.sim.services.channel import Channel
    from starebrain.sim.services.device import SimDevice

log = logging.getLogger(__name__)
STDOUT, STDERR = 1, 2
BASE_ENV = {"PATH": "/product/bin:/apex/com.android.runtime/bin:/system/bin:/system/xbin:/vendor/bin",
            "HOME": "/", "USER": "shell", "SHELL": "/system/bin/sh", "TMPDIR": "/data/local/tmp",
            "EXTERNAL_STORAGE": "/sdcard", "ANDROID_DATA": "/data", "ANDROID_ROOT": "/system"}
ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")


class Output:
    """Where a command's stdout/stderr go: captured here, or streamed by a subclass."""

    def __init__(self) -> None:
        self.chunks: list[tuple[int, bytes]] = []

    def write(self, fd: int, data: bytes) -> None:
        """Queue output of stream `fd` (1 stdout, 2 stderr)."""
        if data:
            self.chunks.append((fd, bytes(data)))

    async def flush(self) -> None:
        """Deliver what was queued so far (only streaming outputs do something)."""

    def stdout(self) -> bytes:
        """Captured stdout."""
        return b"".join(data for fd, data in self.chunks if fd == STDOUT)


class ChannelOutput(Output):
    """Streams to a shell service channel: raw bytes for v1, `[id][len][data]` packets for v2."""

    def __init__(self, channel: Channel, v2: bool) -> None:
        super().__init__()
        self.channel = channel
        self.v2 = v2

    async def flush(self) -> None:
        chunks, self.chunks = self.chunks, []
        if not chunks:
            return
        if self.v2:
            data = b"".join(struct.pack("<BI", fd, len(payload)) + payload for fd, payload in chunks)
        else:
            data = b"".join(payload for _, payload in chunks)  # v1 merges stdout and stderr
        await self.channel.write(data)


@dataclass
class CommandContext:
    """What a command sees: the device, its environment, stdin and where to write."""

    device: SimDevice
    env: dict[str, str]
    stdin: bytes
    output: Output
    channel: Channel | None = None
    quiet_stderr: bool = False
    prefix_env: dict[str, str] = field(default_factory=dict)  # `VAR=x cmd` assignments for this command

    def print(self, text: str = "", end: str = "\n") -> None:
        """Write text to stdout."""
        self.output.write(STDOUT, (text + end).encode())

    def error(self, text: str) -> None:
        """Write a line to stderr."""
        if not self.quiet_stderr:
            self.output.write(STDERR, (text + "\n").encode())

    def write_bytes(self, data: bytes) -> None:
        """Binary stdout (screencap -p, cat)."""
        self.output.write(STDOUT, data)


CommandFn = Callable[[CommandContext, list[str]], Awaitable[int]]
COMMANDS: dict[str, CommandFn] = {}


def command(*names: str) -> Callable[[CommandFn], CommandFn]:
    """Register a shell command under one or more names."""
    def register(fn: CommandFn) -> CommandFn:
        for name in names:
            COMMANDS[name] = fn
        return fn
    return register


async def run_line(line: str, device: SimDevice, output: Output, channel: Channel | None = None) -> int:
    """Run a whole command line; returns the last exit status, like sh."""
    env = dict(BASE_ENV, **{"?": "0"})
    try:
        steps = parse(line)
    except ShellSyntaxError as exc:
        output.write(STDERR, f"/system/bin/sh: syntax error: {exc}\n".encode())
        return 2
    status = 0
    for step in steps:
        if _skipped(step, status):
            continue
        status = await _run_pipeline(step.pipeline, device, env, output, channel)
        env["?"] = str(status)
    return status


def _skipped(step: Step, status: int) -> bool:
    return (step.connector == "&&" and status != 0) or (step.connector == "||" and status == 0)


async def _run_pipeline(pipeline: list[Command], device: SimDevice, env: dict[str, str],
                        output: Output, channel: Channel | None) -> int:
    stdin = b""
    status = 0
    for position, cmd in enumerate(pipeline):
        last = position == len(pipeline) - 1
        target = output if last and cmd.stdout_file is None else Output()
        status = await _run_command(cmd, CommandContext(device, env, stdin, target, channel, cmd.stderr_null))
        if cmd.stdout_file is not None:
            status = _redirect(device, cmd, target, output) or status
        stdin = target.stdout()
    return status


def _redirect(device: SimDevice, cmd: Command, captured: Output, output: Output) -> int:
    for fd, data in captured.chunks:
        if fd == STDERR:
            output.write(fd, data)
    if cmd.stdout_file == "/dev/null":
        return 0
    path = cmd.stdout_file or ""
    previous = device.files.read(path) if cmd.append else None
    error = device.files.write(path, (previous.data if previous else b"") + captured.stdout())
    if error:
        output.write(STDERR, f"/system/bin/sh: can't create {path}: {error}\n".encode())
        return 1
    return 0


async def _run_command(cmd: Command, ctx: CommandContext) -> int:
    args = [expand(word, ctx.env) for word in cmd.words]
    while args and ASSIGNMENT.match(args[0]):
        name, value = args.pop(0).split("=", 1)
        (ctx.prefix_env if args else ctx.env)[name] = value
    if not args:
        return 0
    name = args[0].rsplit("/", 1)[-1] if args[0].startswith("/") else args[0]
    fn = COMMANDS.get(name)
    if fn is None:
        ctx.error(f"/system/bin/sh: {args[0]}: not found")
        return 127
    try:
        return await fn(ctx, args)
    except (ChannelClosed, asyncio.CancelledError):
        raise
    except Exception as exc:  # a failing world call ends this command, never the shell or the stream
        log.exception("shell command %r failed", args[0])
        ctx.error(f"{args[0]}: {type(exc).__name__}: {exc}")
        return 255
