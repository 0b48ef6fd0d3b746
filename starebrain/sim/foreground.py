"""Run one sim in the foreground until Ctrl-C/SIGTERM (`starebrain sim start`)."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
from dataclasses import dataclass
from pathlib import Path

from starebrain.sim.adb_server import bundled_adb, host_query
from starebrain.sim.harness import SimConfig
from starebrain.sim.server import SimServer


@dataclass
class ForegroundOptions:
    """The options of `starebrain sim start`."""

    port: int = 0
    serial: str | None = None
    adb_port: int = 5037
    ready_json: bool = False
    config: SimConfig | None = None


def ensure_adb_server(port: int) -> None:
    """Start a (daemonised) adb server on `port` if none answers there."""
    if host_query(port, "host:version", timeout=1.0) is None:
        subprocess.run([bundled_adb(), "-P", str(port), "start-server"], check=True, timeout=30,
                       capture_output=True)


def port_for_serial(serial: str | None, port: int) -> tuple[int, str]:
    """(port, mode) from `--serial emulator-N` (port N+1) or `127.0.0.1:P`, else from `--port`."""
    if serial and serial.startswith("emulator-") and serial[9:].isdigit():
        return int(serial[9:]) + 1, "emulator"
    if serial and ":" in serial and serial.rsplit(":", 1)[1].isdigit():
        return int(serial.rsplit(":", 1)[1]), "connect"
    if serial:
        raise ValueError(f"--serial must look like emulator-N or 127.0.0.1:PORT, not {serial!r}")
    return port, "emulator"


async def run_foreground(options: ForegroundOptions) -> None:
    """Serve until SIGINT/SIGTERM, then shut down cleanly."""
    config = options.config or SimConfig()
    port, mode = port_for_serial(options.serial, options.port)
    files_dir = config.state_dir / "files" if config.state_dir else None
    server = await SimServer.create(config.build, port=port, adb_port=options.adb_port, mode=mode,
                                    files_dir=files_dir, android=config.android)
    _write_pointer(config.state_dir, server, options.adb_port)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    info = {"serial": server.serial, "port": server.port, "adb_port": options.adb_port, "pid": os.getpid()}
    print(json.dumps(info) if options.ready_json else
          f"sim {server.serial} on 127.0.0.1:{server.port}, adb server port {options.adb_port}; Ctrl-C stops",
          flush=True)
    try:
        await stop.wait()
    finally:
        await server.stop()


def _write_pointer(state_dir: Path | None, server: SimServer, adb_port: int) -> None:
    # `starebrain sim state --state-dir` finds the running sim's serial here.
    if state_dir is not None:
        state_dir.mkdir(parents=True, exist_ok=True)
        info = {"serial": server.serial, "port": server.port, "adb_port": adb_port, "pid": os.getpid()}
        (state_dir / "sim.json").write_text(json.dumps(info))
