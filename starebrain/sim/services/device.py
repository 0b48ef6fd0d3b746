"""Everything one simulated phone holds besides its app world: files, settings, running servers, faults."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

from starebrain.sim.phone import SimPhone
from starebrain.sim.services.android_release import DEFAULT_RELEASE, AndroidRelease, android_release
from starebrain.sim.services.channel import Channel
from starebrain.sim.services.files import DeviceFiles
from starebrain.sim.services.logcat import LogBuffer
from starebrain.sim.services.packages import GBOARD, PackageRegistry
from starebrain.sim.services.processes import ProcessTable

log = logging.getLogger(__name__)

PortHandler = Callable[[Channel], Awaitable[None]]

DEFAULT_SETTINGS = {
    "secure": {"default_input_method": GBOARD, "enabled_input_methods": GBOARD,
               "android_id": "5f1c0ffee0ddba11"},
    "system": {"screen_brightness": "128", "screen_brightness_mode": "0", "screen_off_timeout": "600000",
               "pointer_location": "0", "show_touches": "0"},
    "global": {"adb_enabled": "1", "airplane_mode_on": "0", "stay_on_while_plugged_in": "0"},
}


@dataclass
class Listener:
    """A device-side TCP port something "listens" on (the u2 server while app_process runs)."""

    port: int
    handler: PortHandler
    stopped: asyncio.Event = field(default_factory=asyncio.Event)
    crashed: bool = False
    pid: int = 0  # of the process serving it (0: none in the process table)


class SimDevice:
    """The device side of one phone: the SimPhone plus what adbd and the shell keep."""

    def __init__(self, phone: SimPhone, files_dir: Path | None = None, android: int = DEFAULT_RELEASE) -> None:
        self.phone = phone
        self.release: AndroidRelease = android_release(android)
        self.packages = PackageRegistry()
        self.processes = ProcessTable()
        self.files = DeviceFiles(files_dir)
        self.settings = {ns: dict(values) for ns, values in DEFAULT_SETTINGS.items()}
        self.listeners: dict[int, Listener] = {}
        self.reverses: dict[str, str] = {}
        self.log = LogBuffer()
        self.log.add("init", "starting service 'zygote'...", pid=1)  # `adb reverse`: device-side spec -> host-side spec
        self.commands_run = 0
        self.rpcs_run = 0
        self.u2_launches = 0  # app_process starts, so tests can see u2 relaunch after a crash
        self._disconnect_fired = False
        self._crash_fired = False
        # Set by the server: drop the adb connection and stay away for so many seconds.
        self.on_disconnect_fault: Callable[[float], None] | None = None

    def replace_phone(self, phone: SimPhone) -> None:
        """A new app world (per-test reset): files and a running u2 server stay, fault counters restart."""
        self.phone = phone
        self.packages.reset_world()
        self.commands_run = self.rpcs_run = 0
        self._disconnect_fired = self._crash_fired = False

    def getprop(self, name: str) -> str:
        """A system property: the Android release's build properties over the world's."""
        return self.release.props().get(name) or self.phone.getprop(name)

    def listen(self, port: int, handler: PortHandler) -> Listener:
        """Start serving `port`; an older listener on it is stopped (the new process wins)."""
        self.stop_listener(port)
        listener = Listener(port, handler)
        self.listeners[port] = listener
        return listener

    def stop_listener(self, port: int, crashed: bool = False) -> None:
        """Stop serving `port`; its launch stream then ends."""
        listener = self.listeners.pop(port, None)
        if listener is not None:
            listener.crashed = crashed
            listener.stopped.set()

    def count_command(self) -> None:
        """One shell command line ran; may trigger the disconnect fault."""
        self.commands_run += 1
        self._check_disconnect()

    def count_rpc(self, port: int) -> None:
        """One JSON-RPC was answered; may trigger the disconnect or the u2-crash fault."""
        self.rpcs_run += 1
        limit = self.phone.faults.u2_crash_after_rpcs
        if limit is not None and not self._crash_fired and self.rpcs_run >= limit:
            self._crash_fired = True
            log.info("fault: uiautomator server on %s crashes after %d RPCs", port, self.rpcs_run)
            self.stop_listener(port, crashed=True)
        self._check_disconnect()

    def _check_disconnect(self) -> None:
        faults = self.phone.faults
        limit = faults.disconnect_after_commands
        if limit is None or self._disconnect_fired or self.commands_run + self.rpcs_run < limit:
            return
        self._disconnect_fired = True
        log.info("fault: disconnecting for %.1f s", faults.disconnect_for_s)
        if self.on_disconnect_fault is not None:
            self.on_disconnect_fault(faults.disconnect_for_s)


def screen_is_on(phone: SimPhone) -> bool:
    """phone.screen_on() per the contract; tolerates a plain bool attribute of the same name."""
    value = phone.screen_on
    return bool(value() if callable(value) else value)
