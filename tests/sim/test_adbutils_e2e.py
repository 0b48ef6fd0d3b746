"""adbutils 2.12, unmodified, through the real adb server: devices, shell, push/pull, screenshot."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

import adbutils
import pytest

pytestmark = pytest.mark.e2e


def test_device_list_shows_the_sim_with_its_banner_tags(fake_sim: Any) -> None:
    infos = {info.serial: info for info in adbutils.adb.list(extended=True)}
    info = infos[fake_sim.serial]
    assert info.state == "device"
    assert info.tags["model"] == "SimFake" and info.tags["product"] == "sim_fake"


def test_shell_output_and_exit_codes(fake_sim: Any) -> None:
    device = adbutils.adb.device(fake_sim.serial)
    assert device.shell("echo hello") == "hello"
    assert device.shell2("false").returncode == 1
    missing = device.shell2("nosuchcmd")
    assert missing.returncode == 127 and "nosuchcmd: not found" in missing.output
    assert device.prop.model == "SimFake"
    assert device.window_size() == (1080, 1920)


def test_push_and_pull_of_5_mb_are_byte_identical(fake_sim: Any, tmp_path: Path) -> None:
    source = tmp_path / "big.bin"
    source.write_bytes(os.urandom(5 * 1024 * 1024))
    device = adbutils.adb.device(fake_sim.serial)
    device.sync.push(source, "/sdcard/big.bin")
    assert device.sync.stat("/sdcard/big.bin").size == 5 * 1024 * 1024
    target = tmp_path / "back.bin"
    device.sync.pull("/sdcard/big.bin", target)
    assert hashlib.sha256(target.read_bytes()).digest() == hashlib.sha256(source.read_bytes()).digest()
    assert device.shell("md5sum /sdcard/big.bin").split()[0] == hashlib.md5(source.read_bytes()).hexdigest()


def test_screenshot_and_dump_hierarchy(fake_sim: Any) -> None:
    device = adbutils.adb.device(fake_sim.serial)
    image = device.screenshot()
    assert image.size == (1080, 1920)
    assert 'text="Notes"' in device.dump_hierarchy()


def test_input_helpers_reach_the_phone(fake_sim: Any) -> None:
    device = adbutils.adb.device(fake_sim.serial)
    device.click(200, 350)
    assert device.app_current().package == "com.example.notes"
    device.keyevent("KEYCODE_HOME")
    assert fake_sim.call(lambda phone: phone.current) == "com.android.launcher3"


def test_adb_forward_reaches_the_u2_server_through_the_real_server(fake_sim: Any, fake_u2: Any) -> None:
    import http.client

    from starebrain.sim.adb_server import free_port

    assert fake_u2.info["displayWidth"] == 1080  # the u2 server is running
    device = adbutils.adb.device(fake_sim.serial)
    local = free_port()
    device.forward(f"tcp:{local}", "tcp:9008")
    try:
        conn = http.client.HTTPConnection("127.0.0.1", local, timeout=5)
        conn.request("GET", "/ping")
        assert conn.getresponse().read() == b"pong"
        conn.close()
    finally:
        device.forward_remove(f"tcp:{local}")
