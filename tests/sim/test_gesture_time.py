"""Gestures take steps x the profile's step time (UiAutomator injects a move about every 5 ms)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from starebrain.sim.services.device import SimDevice
from starebrain.sim.u2server.server import U2Methods
from starebrain.sim.world import build_phone

ALL = {"mask": 0, "childOrSibling": [], "childOrSiblingSelector": []}
ROOT_ID = {"mask": 0x200000, "resourceId": "android:id/content", "childOrSibling": [],
           "childOrSiblingSelector": []}


class TimedMethods(U2Methods):
    """The u2 server's methods, recording the latencies they would wait instead of sleeping."""

    def __init__(self, device: SimDevice) -> None:
        super().__init__(device, 9008)
        self.waited: list[float] = []

    async def pause(self, ms: float) -> None:
        self.waited.append(ms)


def run(methods: TimedMethods, name: str, *args: Any) -> list[float]:
    methods.waited.clear()
    asyncio.run(getattr(methods, name)(*args))
    return [ms for ms in methods.waited if ms]


@pytest.mark.parametrize(("timing", "per_step"), [("real-phone", 5.0), ("fast", 0.1)])
def test_gesture_rpcs_wait_steps_times_the_step_time(timing: str, per_step: float) -> None:
    phone = build_phone(timing=timing)
    methods = TimedMethods(SimDevice(phone))
    action = phone.timing.action_ms
    assert run(methods, "swipe", 540, 1500, 540, 1400, 400) == [x for x in (action, 400 * per_step) if x]
    assert run(methods, "drag", 540, 1500, 540, 1400, 100) == [x for x in (action, 100 * per_step) if x]
    assert run(methods, "pinch_in", ALL, 50, 20) == [20 * per_step]
    assert run(methods, "gesture", ALL, *[{"x": 1, "y": 1}] * 4, 30) == [30 * per_step]
    assert 3 * 10 * per_step in run(methods, "swipe_points", [1, 1, 2, 2, 3, 3, 4, 4, 5, 5], 10)
    assert run(methods, "drag_to", ROOT_ID, 540, 600, 40) == [40 * per_step]

