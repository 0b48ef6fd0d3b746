"""Session-wide test fixtures: an isolated real adb server and simulated phones.

Everything end-to-end goes through the REAL stack: adbutils' bundled adb server (own free port, scratch
HOME/TMPDIR, killed at the end) -> adbutils / uiautomator2 / the adb CLI -> `starebrain.sim`.

Fixtures (see starebrain/sim/harness.py for the handle's API):

- ``adb_server`` (session): `AdbServer` with ``.port``, ``.adb(*args)`` (runs the adb CLI against it),
  ``.devices()``, ``.wait_for(serial, state)``, ``.restart()``.
- ``sim_host`` (session): the background asyncio thread hosting in-process sims.
- ``sim_phone`` (session): one running sim with the world's "default" scenario: ``.serial``
  ("emulator-<port-1>"), ``.port``, ``.phone`` (the SimPhone), ``.call(fn)`` (run fn(phone) on the sim's
  thread), ``.reset(scenario=..., seed=..., timing=...)`` (a fresh world; u2.jar and the running u2 server
  stay, so ``u2.connect`` stays fast).
- ``sim`` (function): ``sim_phone`` reset to the "default" scenario first: use it for a clean world per test.
- ``start_sim`` (function): factory ``start_sim(scenario="default", seed=0, timing="fast", factory=None)``
  starting another sim (own port and serial); stopped when the test ends.

adbutils reads ANDROID_ADB_SERVER_PORT when first imported, so it is set here, before any test module
imports adbutils or uiautomator2. ADBUTILS_ADB_PATH=/bin/false keeps adbutils from ever spawning a
non-isolated adb server (with the real HOME) when ours is not running.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from starebrain.sim.adb_server import AdbServer, free_port

ADB_PORT = free_port()
os.environ["ANDROID_ADB_SERVER_PORT"] = str(ADB_PORT)
os.environ.setdefault("ADBUTILS_ADB_PATH", "/bin/false")


def _default_factory() -> Any:
    try:
        from starebrain.sim.world import build_phone
    except ImportError:  # the world package is not there: the wire-side tests' small phone
        from tests.sim.fake_phone import build_fake_phone as build_phone
    return build_phone


@pytest.fixture(scope="session")
def adb_server() -> Iterator[AdbServer]:
    """The isolated real adb server all e2e tests share."""
    server = AdbServer(port=ADB_PORT).start()
    try:
        yield server
    finally:
        server.close()


@pytest.fixture(scope="session")
def sim_host() -> Iterator[Any]:
    """The background loop hosting in-process sims."""
    from starebrain.sim.harness import SimHost

    host = SimHost()
    try:
        yield host
    finally:
        host.close()


@pytest.fixture(scope="session")
def sim_phone(adb_server: AdbServer, sim_host: Any) -> Any:
    """One running sim with the default scenario (shared by the session; see `sim` for a clean one)."""
    from starebrain.sim.harness import SimConfig

    return sim_host.start_sim(adb_server, SimConfig(factory=_default_factory()))


@pytest.fixture
def sim(sim_phone: Any, adb_server: AdbServer) -> Any:
    """The session sim with a fresh default world, online."""
    sim_phone.reset(scenario="default", seed=0, timing="fast")
    sim_phone.wait_online()
    return sim_phone


@pytest.fixture
def start_sim(adb_server: AdbServer, sim_host: Any) -> Iterator[Callable[..., Any]]:
    """Factory: start more sims for this test; each is stopped at the end."""
    from starebrain.sim.harness import SimConfig

    started: list[Any] = []

    def start(scenario: str = "default", seed: int = 0, timing: str = "fast", factory: Any = None,
              **kwargs: Any) -> Any:
        config = SimConfig(scenario=scenario, seed=seed, timing=timing, factory=factory or _default_factory())
        handle = sim_host.start_sim(adb_server, config, **kwargs)
        started.append(handle)
        return handle

    yield start
    for handle in started:
        handle.stop()
