"""u2 RPCs that act: click, swipe, drag, touch events, keys, text and the clipboard."""

from __future__ import annotations

from typing import Any

from starebrain.sim.u2server.method_base import MethodBase, rpc
from starebrain.sim.u2server.rpc_errors import JavaException

TAP_SLOP_PX = 10  # a touch that moves less than this between down and up is a tap
ACTION_DOWN, ACTION_UP = 0, 1


class InputMethods(MethodBase):
    """Touch, keys and text."""

    _touch_down: tuple[float, float] | None = None
    _traversed: str | None = None  # only accessibility text traversal sets it; the sim's apps never do

    @rpc("click")
    async def click(self, *args: Any) -> bool:
        """click(x, y[, ms]) or click(selector): a tap (long when ms is given)."""
        duration = float(args[2]) if len(args) > 2 and not isinstance(args[0], dict) else 0.0
        x, y = self._point(args)
        if x < 0 or y < 0:
            return False
        await self.action_pause()
        return bool(self.phone.tap(x, y, duration))

    @rpc("longClick")
    async def long_click(self, *args: Any) -> bool:
        """longClick(selector) or longClick(x, y)."""
        x, y = self._point(args)
        await self.action_pause()
        return bool(self.phone.tap(x, y, 1000))

    def _point(self, args: tuple[Any, ...]) -> tuple[float, float]:
        """The centre of a selector's first match, or the x, y given."""
        if args and isinstance(args[0], dict):
            cx, cy = self.find_one(args[0]).center()
            return float(cx), float(cy)
        return _xy(args[:2])

    @rpc("swipe")
    async def swipe(self, x1: Any, y1: Any, x2: Any, y2: Any, steps: Any = 55) -> bool:
        """A straight swipe; takes steps x the profile's step time, as UiDevice.swipe does."""
        await self.action_pause()
        await self.pause(max(int(steps), 0) * self.phone.timing.step_ms)
        return bool(self.phone.swipe(float(x1), float(y1), float(x2), float(y2), max(2, int(steps))))

    @rpc("swipePoints")
    async def swipe_points(self, points: Any, steps: Any = 55) -> bool:
        """A swipe through points [x1, y1, x2, y2, ...], simplified to first-to-last."""
        if not isinstance(points, list) or len(points) < 4:
            raise JavaException("java.lang.IllegalArgumentException", "need at least two points")
        # Each segment takes `steps` moves; the world sees the first-to-last swipe.
        await self.pause(max(len(points) // 2 - 2, 0) * max(int(steps), 0) * self.phone.timing.step_ms)
        return await self.swipe(points[0], points[1], points[-2], points[-1], steps)

    @rpc("drag")
    async def drag(self, x1: Any, y1: Any, x2: Any, y2: Any, steps: Any = 55) -> bool:
        """A drag is a slow swipe here."""
        return await self.swipe(x1, y1, x2, y2, steps)

    @rpc("injectInputEvent")
    async def inject_input_event(self, action: Any, x: Any, y: Any, meta: Any = 0) -> bool:
        """Touch down/move/up: up near the down point taps, far from it swipes."""
        point = _xy((x, y))
        if int(action) == ACTION_DOWN:
            self._touch_down = point
        elif int(action) == ACTION_UP and self._touch_down is not None:
            start, self._touch_down = self._touch_down, None
            await self.action_pause()
            if abs(start[0] - point[0]) + abs(start[1] - point[1]) < TAP_SLOP_PX:
                self.phone.tap(*point)
            else:
                self.phone.swipe(*start, *point)
        return True

    @rpc("getLastTraversedText")
    async def get_last_traversed_text(self) -> str | None:
        """Text of the last TYPE_VIEW_TEXT_TRAVERSED_AT_MOVEMENT_GRANULARITY event (none in the sim's apps)."""
        return self._traversed

    @rpc("clearLastTraversedText")
    async def clear_last_traversed_text(self) -> None:
        """Forget the last traversed text."""
        self._traversed = None

    @rpc("pressKey")
    async def press_key(self, key: Any) -> bool:
        """A u2 key name (home, back, enter, ...)."""
        await self.action_pause()
        return bool(self.phone.press_key(str(key).lower()))

    @rpc("pressKeyCode")
    async def press_key_code(self, code: Any, meta: Any = 0) -> bool:
        """An Android keycode."""
        await self.action_pause()
        return bool(self.phone.press_key(int(code)))

    @rpc("setText")
    async def set_text(self, selector: Any, text: Any) -> bool:
        """Replace the text of the first match."""
        node = self.find_one(selector)
        await self.action_pause()
        return bool(self.phone.set_text(node, "" if text is None else str(text)))

    @rpc("clearTextField")
    async def clear_text_field(self, selector: Any) -> None:
        """Empty the first match."""
        node = self.find_one(selector)
        await self.action_pause()
        self.phone.set_text(node, "")

    @rpc("setClipboard")
    async def set_clipboard(self, label: Any, text: Any = None) -> None:
        """setClipboard(label, text) (label ignored)."""
        self.phone.set_clipboard(None if text is None else str(text))

    @rpc("getClipboard")
    async def get_clipboard(self) -> str | None:
        """Exactly what setClipboard set (u2's send_keys depends on it)."""
        return self.phone.get_clipboard()

    @rpc("pasteClipboard")
    async def paste_clipboard(self) -> None:
        """Type the clipboard into the focused field."""
        text = self.phone.get_clipboard()
        if text:
            await self.action_pause()
            self.phone.input_text(text)

    @rpc("clearInputText")
    async def clear_input_text(self) -> None:
        """Empty the focused field."""
        await self.action_pause()
        self.phone.clear_focused_text()


def _xy(values: tuple[Any, ...]) -> tuple[float, float]:
    if len(values) != 2:
        raise JavaException("java.lang.IllegalArgumentException", "need x and y")
    return float(values[0]), float(values[1])
