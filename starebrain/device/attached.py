"""Which phones the adb server lists (for `devices`, `doctor` and picking a default serial).

The adb query itself lives in `u2_device` (the one module that imports adbutils); importing this
module stays cheap, and the library is loaded only when a listing is asked for.
"""

from __future__ import annotations

from typing import Any


def describe_devices(timeout_s: float = 5.0) -> list[dict[str, Any]]:
    """Every phone the adb server knows, with its state and model; DeviceOffline if no server answers."""
    from starebrain.device.u2_device import adb_device_list

    return adb_device_list(timeout_s)


def list_serials(timeout_s: float = 5.0) -> list[str]:
    """Serials of phones ready to drive (state `device`)."""
    return [d["serial"] for d in describe_devices(timeout_s) if d["state"] == "device"]
