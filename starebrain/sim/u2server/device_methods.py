"""u2 RPCs about the device: screenshot, screen on/off, orientation, toasts, notification shade."""

from __future__ import annotations

import base64
from typing import Any

from starebrain.sim.services.device import screen_is_on
from starebrain.sim.u2server.method_base import MethodBase, rpc


class DeviceMethods(MethodBase):
    """Screen, rotation, toasts and shades."""

    _cleared_toast: str | None = None
    _own_toast: str | None = None

    @rpc("takeScreenshot")
    async def take_screenshot(self, scale: Any = 1, quality: Any = 80) -> str:
        """A base64 JPEG of the screen."""
        # Clamped: a client-chosen scale must never make the sim render a gigantic image.
        scale_value = min(max(float(scale or 1), 0.05), 1.0)
        quality_value = min(max(int(quality or 80), 1), 100)
        # UiAutomation.takeScreenshot + JPEG costs about half of `screencap -p`'s PNG on a phone
        await self.pause(self.phone.timing.screencap_ms / 2)
        image = self.phone.screenshot("JPEG", scale_value, quality_value)
        return base64.b64encode(image).decode("ascii")

    @rpc("wakeUp")
    async def wake_up(self) -> None:
        """Screen on."""
        self.phone.set_screen(True)

    @rpc("sleep")
    async def sleep(self) -> None:
        """Screen off."""
        self.phone.set_screen(False)

    @rpc("isScreenOn")
    async def is_screen_on(self) -> bool:
        """Whether the screen is on."""
        return screen_is_on(self.phone)

    @rpc("setOrientation")
    async def set_orientation(self, orientation: Any) -> None:
        """Accepted; the sim's rotation belongs to the app world."""

    @rpc("freezeRotation")
    async def freeze_rotation(self, freeze: Any = True) -> None:
        """Accepted; nothing rotates on its own in the sim."""

    @rpc("getLastToast")
    async def get_last_toast(self) -> str | None:
        """The last toast since clearLastToast, or null."""
        toast = self.phone.last_toast() or self._own_toast
        return None if toast is None or toast == self._cleared_toast else toast

    @rpc("clearLastToast")
    async def clear_last_toast(self) -> None:
        """Forget the current toast."""
        self._cleared_toast = self.phone.last_toast() or self._own_toast
        self._own_toast = None

    @rpc("makeToast")
    async def make_toast(self, text: Any, duration_ms: Any = 1000) -> bool:
        """Show a toast (it only becomes the last toast)."""
        self._own_toast = str(text)
        return True

    @rpc("openNotification")
    async def open_notification(self) -> bool:
        """Pull down the notification shade."""
        await self.action_pause()
        return bool(self.phone.open_notification())

    @rpc("openQuickSettings")
    async def open_quick_settings(self) -> bool:
        """The sim has one shade for both."""
        return await self.open_notification()
