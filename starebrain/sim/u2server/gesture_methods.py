"""u2 RPCs for gestures on a UiObject: dragTo, two-finger gesture, pinchIn/pinchOut.

Each takes its real time (steps x the profile's step time, UiAutomator injects a move about every
5 ms). The app world has no multi-touch model: a two-finger gesture reaches the screen and changes
nothing on it (the sim's apps have no zoomable content).
"""

from __future__ import annotations

from typing import Any

from starebrain.sim.u2server.method_base import MethodBase, rpc
from starebrain.sim.u2server.rpc_errors import JavaException

ILLEGAL_STATE = "java.lang.IllegalStateException"


class GestureMethods(MethodBase):
    """Drags and two-pointer gestures."""

    async def steps_pause(self, steps: Any) -> None:
        """The time a gesture of `steps` moves takes."""
        await self.pause(max(int(steps or 0), 0) * self.phone.timing.step_ms)

    @rpc("dragTo")
    async def drag_to(self, selector: Any, *target: Any) -> bool:
        """dragTo(selector, x, y, steps) or dragTo(selector, destSelector, steps)."""
        start = self.find_one(selector).center()
        if target and isinstance(target[0], (dict, str)):
            end, steps = self.find_one(target[0]).center(), target[1] if len(target) > 1 else 55
        elif len(target) >= 2:
            end, steps = (int(float(target[0])), int(float(target[1]))), target[2] if len(target) > 2 else 55
        else:
            raise JavaException("java.lang.IllegalArgumentException", "dragTo needs a point or an object")
        await self.steps_pause(steps)
        return bool(self.phone.swipe(*start, *end, steps=max(2, int(steps))))

    @rpc("gesture")
    async def gesture(self, selector: Any, start1: Any, start2: Any, end1: Any, end2: Any, steps: Any = 100) -> bool:
        """performTwoPointerGesture from the object's points (`{"x", "y"}` each)."""
        self.find_one(selector)
        for point in (start1, start2, end1, end2):
            if not isinstance(point, dict) or "x" not in point or "y" not in point:
                raise JavaException("java.lang.IllegalArgumentException", "a point needs x and y")
        await self.steps_pause(steps)
        return True

    async def _pinch(self, selector: Any, percent: Any, steps: Any) -> bool:
        self.find_one(selector)
        if not 0 <= float(percent) <= 100:
            raise JavaException(ILLEGAL_STATE, "Percent must be between 0 and 100")
        await self.steps_pause(steps)
        return True

    @rpc("pinchIn")
    async def pinch_in(self, selector: Any, percent: Any = 100, steps: Any = 50) -> bool:
        """Two fingers from the edges to the centre."""
        return await self._pinch(selector, percent, steps)

    @rpc("pinchOut")
    async def pinch_out(self, selector: Any, percent: Any = 100, steps: Any = 50) -> bool:
        """Two fingers from the centre to the edges."""
        return await self._pinch(selector, percent, steps)
