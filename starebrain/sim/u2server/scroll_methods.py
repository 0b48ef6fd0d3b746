"""u2 scroll*/fling* RPCs: swipes on the scrollable node through phone.swipe (UiScrollable semantics)."""

from __future__ import annotations

from typing import Any

from starebrain.sim.phone import UiNode
from starebrain.sim.u2server.method_base import MethodBase, rpc

MAX_SWIPES = 100  # bound on *ToEnd / *ToBeginning loops whatever the client asks
SCROLL_TO_SWIPES = 30
FLING_STEPS = 5


def _screen_signature(root: UiNode) -> tuple[tuple[str, str, tuple[int, int, int, int]], ...]:
    return tuple((n.attrs.get("text", ""), n.attrs.get("resource-id", ""), n.bounds) for n in root.iter())


class ScrollMethods(MethodBase):
    """Scrolling and flinging a scrollable container."""

    async def _scroll_once(self, selector: Any, vertical: Any, forward: bool, steps: int) -> bool:
        """One swipe inside the container; True if the screen changed (so it did scroll)."""
        node = self.find_one(selector)
        left, top, right, bottom = node.bounds
        cx, cy = (left + right) / 2, (top + bottom) / 2
        if vertical in (None, True, "true"):
            near, far = top + (bottom - top) * 0.2, top + (bottom - top) * 0.8
            start, end = ((cx, far), (cx, near)) if forward else ((cx, near), (cx, far))
        else:
            near, far = left + (right - left) * 0.2, left + (right - left) * 0.8
            start, end = ((far, cy), (near, cy)) if forward else ((near, cy), (far, cy))
        before = _screen_signature(self.phone.root())
        await self.action_pause()
        await self.pause(max(int(steps), 0) * self.phone.timing.step_ms)
        self.phone.swipe(*start, *end, steps=max(2, int(steps)))
        return _screen_signature(self.phone.root()) != before

    async def _scroll_all(self, selector: Any, vertical: Any, forward: bool, max_swipes: Any,
                          steps: int) -> bool:
        for _ in range(min(max(int(max_swipes or MAX_SWIPES), 1), MAX_SWIPES)):
            if not await self._scroll_once(selector, vertical, forward, steps):
                break
        return True

    @rpc("scrollForward")
    async def scroll_forward(self, selector: Any, vertical: Any = True, steps: Any = 55) -> bool:
        """Scroll one page forward."""
        return await self._scroll_once(selector, vertical, True, int(steps))

    @rpc("scrollBackward")
    async def scroll_backward(self, selector: Any, vertical: Any = True, steps: Any = 55) -> bool:
        """Scroll one page back."""
        return await self._scroll_once(selector, vertical, False, int(steps))

    @rpc("scrollToEnd")
    async def scroll_to_end(self, selector: Any, vertical: Any = True, max_swipes: Any = MAX_SWIPES,
                            steps: Any = 55) -> bool:
        """Scroll forward until nothing changes."""
        return await self._scroll_all(selector, vertical, True, max_swipes, int(steps))

    @rpc("scrollToBeginning")
    async def scroll_to_beginning(self, selector: Any, vertical: Any = True, max_swipes: Any = MAX_SWIPES,
                                  steps: Any = 55) -> bool:
        """Scroll back until nothing changes."""
        return await self._scroll_all(selector, vertical, False, max_swipes, int(steps))

    @rpc("scrollTo")
    async def scroll_to(self, selector: Any, target: Any, vertical: Any = True) -> bool:
        """Scroll forward until `target` is on screen; True if it is."""
        for _ in range(SCROLL_TO_SWIPES):
            if self.find(target):
                return True
            if not await self._scroll_once(selector, vertical, True, 55):
                break
        return bool(self.find(target))

    @rpc("flingForward")
    async def fling_forward(self, selector: Any, vertical: Any = True) -> bool:
        """A fast swipe forward."""
        return await self._scroll_once(selector, vertical, True, FLING_STEPS)

    @rpc("flingBackward")
    async def fling_backward(self, selector: Any, vertical: Any = True) -> bool:
        """A fast swipe back."""
        return await self._scroll_once(selector, vertical, False, FLING_STEPS)

    @rpc("flingToEnd")
    async def fling_to_end(self, selector: Any, vertical: Any = True, max_swipes: Any = MAX_SWIPES) -> bool:
        """Fling forward until nothing changes."""
        return await self._scroll_all(selector, vertical, True, max_swipes, FLING_STEPS)

    @rpc("flingToBeginning")
    async def fling_to_beginning(self, selector: Any, vertical: Any = True,
                                 max_swipes: Any = MAX_SWIPES) -> bool:
        """Fling back until nothing changes."""
        return await self._scroll_all(selector, vertical, False, max_swipes, FLING_STEPS)
