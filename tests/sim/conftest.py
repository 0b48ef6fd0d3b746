"""Wire-side fixtures: a session sim running the small FakePhone (deterministic screens for u2 tests)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.sim.fake_phone import build_fake_phone


@pytest.fixture(scope="session")
def fake_sim_session(adb_server: Any, sim_host: Any) -> Any:
    """A sim with the FakePhone (launcher + Notes)."""
    from starebrain.sim.harness import SimConfig

    return sim_host.start_sim(adb_server, SimConfig(factory=build_fake_phone))


@pytest.fixture
def fake_sim(fake_sim_session: Any) -> Any:
    """The FakePhone sim with a fresh world, online."""
    fake_sim_session.reset()
    fake_sim_session.wait_online()
    return fake_sim_session


@pytest.fixture(scope="session")
def fake_u2_session(fake_sim_session: Any) -> Iterator[Any]:
    """One uiautomator2 connection to the FakePhone sim, shared by the session."""
    import uiautomator2 as u2

    yield u2.connect(fake_sim_session.serial)


@pytest.fixture
def fake_u2(fake_sim: Any, fake_u2_session: Any) -> Any:
    """The shared u2 device on a freshly reset FakePhone."""
    return fake_u2_session
