"""Start simulated phones for tests, the benchmark and the demo, attached to an isolated adb server.

    adb = AdbServer().start()                  # real adb, own port/HOME/TMPDIR
    host = SimHost()                           # one background asyncio thread for in-process sims
    sim = host.start_sim(adb, scenario="default")
    sim.serial                                 # "emulator-<port-1>", listed as `device`
    sim.call(lambda phone: phone.state())      # read the world on the sim's own thread
    sim.reset(scenario="default")              # a fresh world; files (u2.jar) stay
    host.close(); adb.close()

Or out of process: `proc = start_sim_process(adb, scenario=...)` runs `python -m starebrain.cli sim start`.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import threading
from collections.abc import Callable, Coroutine
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TypeVar

from starebrain.sim.adb_server import AdbServer, child_guard
from starebrain.sim.phone import SimPhone
from starebrain.sim.server import SimServer

T = TypeVar("T")
CALL_TIMEOUT_S = 30.0
ONLINE_TIMEOUT_S = 15.0


class PhoneFactory(Protocol):
    """The signature of starebrain.sim.world.build_phone."""

    def __call__(self, scenario: str = "default", seed: int = 0, serial: str = "",
                 state_dir: Path | None = None, timing: str = "fast") -> SimPhone: ...


def world_factory() -> PhoneFactory:
    """The app world's build_phone (imported lazily: the world is a separate package)."""
    from starebrain.sim.world import build_phone

    return build_phone


@dataclass
class SimConfig:
    """How to build a phone's world."""

    scenario: str = "default"
    seed: int = 0
    timing: str = "fast"
    state_dir: Path | None = None
    factory: PhoneFactory | None = None
    android: int = 14  # the Android release whose formats the shell and u2 server speak (13, 14, 15)
    locale: str = "en"  # app labels and dialogs in this language (the world's `locale_<lang>` scenario)

    def build(self, serial: str) -> SimPhone:
        """A new SimPhone for `serial`."""
        factory = self.factory or world_factory()
        scenario = self.scenario if self.locale in ("", "en") else f"{self.scenario}+locale_{self.locale}"
        return factory(scenario=scenario, seed=self.seed, serial=serial, state_dir=self.state_dir,
                       timing=self.timing)


class SimHost:
    """A daemon thread running one asyncio loop that hosts any number of in-process sims."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="starebrain-sim", daemon=True)
        self.thread.start()
        self.sims: list[SimHandle] = []

    def run(self, coro: Coroutine[Any, Any, T], timeout: float = CALL_TIMEOUT_S) -> T:
        """Run a coroutine on the sim loop and wait for its result."""
        future: Future[T] = asyncio.run_coroutine_threadsafe(coro, self.loop)
        return future.result(timeout)

    def start_sim(self, adb: AdbServer, config: SimConfig | None = None, *, port: int = 0,
                  mode: str = "emulator", wait: bool = True, **overrides: Any) -> SimHandle:
        """Start one sim registered with `adb`; by default wait until it is listed as `device`."""
        config = config or SimConfig(**overrides)
        files_dir = config.state_dir / "files" if config.state_dir else None
        server = self.run(SimServer.create(config.build, port=port, adb_port=adb.port, mode=mode,
                                           files_dir=files_dir, android=config.android))
        handle = SimHandle(self, server, adb, config)
        self.sims.append(handle)
        if wait:
            handle.wait_online()
        return handle

    def close(self) -> None:
        """Stop every sim and the loop thread."""
        for sim in list(self.sims):
            sim.stop()
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)


@dataclass
class SimHandle:
    """One running in-process sim, as tests see it."""

    host: SimHost
    server: SimServer
    adb: AdbServer
    config: SimConfig
    stopped: bool = field(default=False)

    @property
    def serial(self) -> str:
        return self.server.serial

    @property
    def port(self) -> int:
        return self.server.port

    @property
    def phone(self) -> SimPhone:
        """The current SimPhone (replaced by reset()); prefer call() to touch it while the sim serves."""
        return self.server.device.phone

    def call(self, fn: Callable[[SimPhone], T], timeout: float = CALL_TIMEOUT_S) -> T:
        """Run fn(phone) on the sim's loop thread, so it never races a command being served."""
        async def invoke() -> T:
            return fn(self.server.device.phone)
        return self.host.run(invoke(), timeout)

    def reset(self, scenario: str | None = None, seed: int | None = None, timing: str | None = None) -> None:
        """Replace the app world with a fresh one; u2 server stops, pushed files stay."""
        if scenario is not None:
            self.config.scenario = scenario
        if seed is not None:
            self.config.seed = seed
        if timing is not None:
            self.config.timing = timing

        async def swap() -> None:
            self.server.device.replace_phone(self.config.build(self.serial))
        self.host.run(swap())

    def wait_online(self, timeout: float = ONLINE_TIMEOUT_S) -> None:
        """Block until the adb server lists this sim as `device`."""
        if not self.adb.wait_for(self.serial, "device", timeout):
            raise TimeoutError(f"{self.serial} not online after {timeout} s: {self.adb.devices()}")

    def stop(self) -> None:
        """Stop serving; the adb server drops the device."""
        if not self.stopped:
            self.stopped = True
            self.host.run(self.server.stop())
            if self in self.host.sims:
                self.host.sims.remove(self)


class SimProcess:
    """A sim in its own process (`python -m starebrain.cli sim start`), e.g. for parallel benchmarks."""

    def __init__(self, adb: AdbServer, scenario: str = "default", seed: int = 0, timing: str = "fast",
                 extra_args: tuple[str, ...] = ()) -> None:
        self.adb = adb
        args = [sys.executable, "-m", "starebrain.cli", "sim", "start", "--adb-port", str(adb.port), "--port", "0",
                "--scenario", scenario, "--seed", str(seed), "--timing", timing, "--ready-json", *extra_args]
        self.process = subprocess.Popen(args, env=adb.env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                        stdin=subprocess.DEVNULL, preexec_fn=child_guard())
        self.info = self._read_ready()
        self.serial: str = self.info["serial"]
        self.port: int = self.info["port"]

    def _read_ready(self) -> dict[str, Any]:
        result: dict[str, Any] = {}

        def read() -> None:
            assert self.process.stdout is not None
            line = self.process.stdout.readline()
            if line:
                result.update(json.loads(line))
        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        reader.join(ONLINE_TIMEOUT_S)
        if "serial" not in result:
            self.stop()
            raise RuntimeError("sim process did not report ready")
        return result

    def wait_online(self, timeout: float = ONLINE_TIMEOUT_S) -> None:
        """Block until the adb server lists this sim as `device`."""
        if not self.adb.wait_for(self.serial, "device", timeout):
            raise TimeoutError(f"{self.serial} not online after {timeout} s")

    def stop(self) -> None:
        """SIGTERM, then kill if it does not exit."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
