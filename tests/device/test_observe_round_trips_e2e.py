"""A look costs one dump: the phone is asked for size and activity again only when they changed."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from starebrain.device.u2_device import U2Device

pytestmark = pytest.mark.e2e
MESSAGES = "com.google.android.apps.messaging"


@pytest.fixture
def dev(sim: Any) -> Iterator[U2Device]:
    device = U2Device(sim.serial)
    yield device
    device.close()


def asked(sim: Any) -> tuple[int, int]:
    """(RPCs, shell commands) the sim has answered so far."""
    device = sim.server.device
    return device.rpcs_run, device.commands_run


def test_looks_within_one_app_are_one_rpc_each(dev: U2Device, sim: Any) -> None:
    first = dev.observe()
    before = asked(sim)
    again = dev.observe()
    rpcs, shells = (b - a for a, b in zip(before, asked(sim), strict=True))
    assert (rpcs, shells) == (1, 0)  # the dump; size and activity are known
    assert (again.package, again.activity, again.width) == (first.package, first.activity, first.width)


def test_an_app_switch_asks_for_the_activity_once(dev: U2Device, sim: Any) -> None:
    dev.observe()
    dev.open_app(MESSAGES)
    before = asked(sim)
    obs = dev.observe()
    assert obs.package == MESSAGES and obs.activity
    assert asked(sim)[1] > before[1]  # dumpsys, because the foreground app changed
    before = asked(sim)
    dev.observe()
    assert asked(sim)[1] == before[1]
