"""The fixtures other suites rely on: per-test reset, several sims, thread-safe access to the world."""

from __future__ import annotations

from typing import Any

import adbutils
import pytest
import uiautomator2 as u2

from tests.sim.fake_phone import NOTES, build_fake_phone

pytestmark = pytest.mark.e2e


def test_reset_gives_a_fresh_world_but_keeps_files_and_the_u2_server(start_sim: Any) -> None:
    handle = start_sim(factory=build_fake_phone)
    d = u2.connect(handle.serial)
    d.app_start(NOTES)
    adbutils.adb.device(handle.serial).sync.push(b"data", "/sdcard/kept.txt")
    launches = handle.server.device.u2_launches
    handle.reset()
    assert handle.call(lambda phone: phone.current_focus()[0]) == "com.android.launcher3"
    assert d.info["currentPackageName"] == "com.android.launcher3"  # same u2 session, new world
    assert handle.server.device.u2_launches == launches
    assert adbutils.adb.device(handle.serial).shell("cat /sdcard/kept.txt") == "data"


def test_several_sims_have_their_own_ports_serials_and_worlds(start_sim: Any, adb_server: Any) -> None:
    first, second = start_sim(factory=build_fake_phone), start_sim(factory=build_fake_phone)
    assert first.port != second.port and first.serial != second.serial
    assert adb_server.devices()[first.serial] == adb_server.devices()[second.serial] == "device"
    adbutils.adb.device(first.serial).shell(f"am start -n {NOTES}/.MainActivity")
    assert first.call(lambda phone: phone.current) == NOTES
    assert second.call(lambda phone: phone.current) == "com.android.launcher3"


def test_stopping_a_sim_removes_it_from_the_device_list(start_sim: Any, adb_server: Any) -> None:
    handle = start_sim(factory=build_fake_phone)
    handle.stop()
    assert adb_server.wait_for(handle.serial, None, timeout=10)


def test_the_default_sim_runs_the_world(sim: Any) -> None:
    assert "com.google.android.apps.messaging" in sim.call(lambda phone: phone.installed_packages())
    assert sim.serial == f"emulator-{sim.port - 1}"
