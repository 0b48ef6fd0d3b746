"""`app_process ... com.wetest.uia2.Main -p PORT`: the long-running shell command that is the u2 server.

The launch stream stays open while the server runs (u2 raises "server quit unexpectly" otherwise);
when the client closes it the server stops, and when the server crashes (fault) the stream ends.
"""

from __future__ import annotations

import asyncio

from starebrain.sim.services.shell_runtime import CommandContext, command
from starebrain.sim.u2server.server import U2Server

MAIN_CLASS = "com.wetest.uia2.Main"
DEFAULT_PORT = 9008


@command("app_process", "app_process64")
async def app_process(ctx: CommandContext, args: list[str]) -> int:
    """Run the simulated u2.jar server until the stream closes or it crashes."""
    classpath = ctx.prefix_env.get("CLASSPATH") or ctx.env.get("CLASSPATH", "")
    if MAIN_CLASS not in args or ctx.device.files.read(classpath) is None:
        ctx.error(f"Error: Could not find or load main class {args[-1] if len(args) > 1 else ''}")
        return 1
    port = _port(args)
    server = U2Server(ctx.device, port)
    listener = ctx.device.listen(port, server.serve)
    listener.pid = ctx.device.processes.spawn("app_process")
    ctx.device.u2_launches += 1
    ctx.print("[server] INFO: [UiAutomator2Server] Starting Server")
    ctx.print(f"http server listening on *:{port}")
    await ctx.output.flush()
    try:
        await _until_stopped(ctx, listener.stopped)
    finally:
        ctx.device.processes.exited(listener.pid)
        if ctx.device.listeners.get(port) is listener:
            ctx.device.stop_listener(port)
    if listener.crashed:
        ctx.error("java.lang.IllegalStateException: UiAutomation not connected (simulated crash)")
        return 1
    return 0


def _port(args: list[str]) -> int:
    if "-p" in args[:-1] and args[args.index("-p") + 1].isdigit():
        return int(args[args.index("-p") + 1])
    return DEFAULT_PORT


async def _until_stopped(ctx: CommandContext, stopped: asyncio.Event) -> None:
    if ctx.channel is None:
        return
    waiters = [asyncio.ensure_future(ctx.channel.wait_closed()), asyncio.ensure_future(stopped.wait())]
    try:
        await asyncio.wait(waiters, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for waiter in waiters:
            waiter.cancel()
