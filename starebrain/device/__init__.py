"""The device boundary: the `Device` protocol and its uiautomator2 implementation.

`U2Device` is loaded lazily, so `import starebrain.device` does not import uiautomator2 or
adbutils (pure-logic code and tests never pay for them).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from starebrain.device.base import Device, Direction, Key, Observation

if TYPE_CHECKING:
    from starebrain.device.u2_device import DeviceTimeouts, U2Device

__all__ = ["Device", "DeviceTimeouts", "Direction", "Key", "Observation", "U2Device"]


def __getattr__(name: str) -> Any:
    if name in ("U2Device", "DeviceTimeouts"):
        from starebrain.device import u2_device

        return getattr(u2_device, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
