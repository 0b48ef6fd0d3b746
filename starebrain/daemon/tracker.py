"""Event-driven phone tracking: the adb server's `host:track-devices` stream, never a polling loop.

The stream itself comes from `starebrain.device.u2_device` (the one module that imports the device
libraries), imported lazily: only the daemon opens it. A broken stream (the adb server restarted) is
reopened after a short pause; phones missing from the new stream's first listing are reported gone.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from starebrain.daemon.background import Follower

log = logging.getLogger(__name__)


class DeviceTracker(Follower):
    """Calls `on_change(serial, ready)` from its own thread whenever a phone comes or goes."""

    name = "adb server"

    def __init__(self, on_change: Callable[[str, bool], None], stopping: threading.Event,
                 on_error: Callable[[str], None] = lambda _msg: None) -> None:
        self._on_change = on_change
        self._ready: set[str] = set()
        super().__init__(stopping, on_error)

    def follow(self) -> None:
        from starebrain.device.u2_device import track_device_events

        for serial, ready in track_device_events():
            if self._stopping.is_set():
                return
            self._set(serial, ready)

    def broken(self, exc: Exception) -> None:
        super().broken(exc)
        for serial in sorted(self._ready):  # unknown until the new stream lists them again
            self._set(serial, False)

    def _set(self, serial: str, ready: bool) -> None:
        if ready == (serial in self._ready):
            return
        (self._ready.add if ready else self._ready.discard)(serial)
        self._on_change(serial, ready)


def device_labels(serial: str, timeout_s: float) -> dict[str, str]:
    """What a pool task can ask for: model, Android version, brand (empty values when unknown)."""
    from starebrain.device.u2_device import device_properties

    props = {"model": "ro.product.model", "android": "ro.build.version.release", "brand": "ro.product.brand"}
    labels = dict.fromkeys(props, "")
    try:
        labels = device_properties(serial, props, timeout_s)
    except Exception as exc:  # noqa: BLE001 - labels are best effort; the phone still works without them
        log.debug("labels of %s: %s", serial, exc)
    return labels
