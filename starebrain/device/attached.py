"""Which phones the adb server lists (for `devices`, `doctor` and picking a default serial)."""

from __future__ import annotations

from typing import Any

from starebrain.device.deadline import DeadlineExceeded, run_with_deadline
from starebrain.errors import DeviceOffline


def describe_devices(timeout_s: float = 5.0) -> list[dict[str, Any]]:
    """Every phone the adb server knows, with its state and model; DeviceOffline if no server answers."""
    import adbutils

    client = adbutils.AdbClient()
    try:
        infos = run_with_deadline(lambda: client.list(extended=True), timeout_s, "adb devices")
    except (DeadlineExceeded, adbutils.AdbError, OSError) as exc:
        raise DeviceOffline(f"adb server not reachable ({exc or type(exc).__name__})") from exc
    return [{"serial": i.serial, "state": i.state, "model": i.tags.get("model", ""),
             "product": i.tags.get("product", ""), "transport_id": i.transport_id} for i in infos]


def list_serials(timeout_s: float = 5.0) -> list[str]:
    """Serials of phones ready to drive (state `device`)."""
    return [d["serial"] for d in describe_devices(timeout_s) if d["state"] == "device"]
