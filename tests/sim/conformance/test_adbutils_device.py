"""adbutils' AdbDevice API (its README and docstrings) against the sim: the results a Pixel on Android 14 gives."""

from __future__ import annotations

import datetime
import re
import socket
import time
from pathlib import Path
from typing import Any

import adbutils
import pytest

pytestmark = pytest.mark.e2e
MESSAGES = "com.google.android.apps.messaging"
SETTINGS = "com.android.settings"


def test_identity_state_features_and_props(dev: Any, sim: Any) -> None:
    assert dev.get_state() == "device" and dev.get_serialno() == sim.serial
    assert "shell_v2" in dev.get_features().split(",")
    assert dev.info["serialno"] == sim.serial and dev.info["state"] == "device"
    assert (dev.prop.model, dev.prop.device) == ("StareBrain Sim", "sim")
    assert dev.getprop("ro.build.version.sdk") == "34" and dev.getprop("ro.build.version.release") == "14"
    assert any(d.serial == sim.serial for d in adbutils.adb.device_list())
    assert isinstance(dev.get_devpath(), str)


def test_shell_variants(dev: Any) -> None:
    assert dev.shell("echo hi") == "hi" and dev.shell(["echo", "a b"]) == "a b"
    result = dev.shell2("ls /nope")
    assert result.returncode == 1 and "No such file" in result.output
    stream = dev.shell("echo streamed", stream=True)
    assert stream.read_until_close() == "streamed\n"


def test_sync_push_pull_stat_list(dev: Any, tmp_path: Path) -> None:
    dev.sync.push(b"payload", "/sdcard/Download/c.txt")
    assert dev.sync.read_text("/sdcard/Download/c.txt") == "payload"
    assert dev.sync.stat("/sdcard/Download/c.txt").size == 7 and dev.sync.exists("/sdcard/Download/c.txt")
    assert "c.txt" in [e.path for e in dev.sync.list("/sdcard/Download")]
    dev.sync.pull("/sdcard/Download/c.txt", tmp_path / "c.txt")
    assert (tmp_path / "c.txt").read_bytes() == b"payload"
    dev.remove("/sdcard/Download/c.txt")
    assert not dev.sync.exists("/sdcard/Download/c.txt")
    dev.shell("mkdir -p /sdcard/tree/x && touch /sdcard/tree/x/f")
    dev.rmtree("/sdcard/tree")
    assert not dev.sync.exists("/sdcard/tree/x/f")


def test_forward_and_reverse(dev: Any) -> None:
    local = dev.forward_port(9008)
    assert any(item.local == f"tcp:{local}" for item in dev.forward_list())
    dev.forward_remove(f"tcp:{local}")
    assert all(item.local != f"tcp:{local}" for item in dev.forward_list())
    dev.forward_port(9008)
    dev.forward_remove_all()
    assert [item for item in dev.forward_list() if item.serial == dev.serial] == []
    dev.reverse("tcp:18080", "tcp:8080")
    assert [(r.remote, r.local) for r in dev.reverse_list()] == [("tcp:18080", "tcp:8080")]
    dev.reverse_remove("tcp:18080")
    dev.reverse("tcp:18081", "tcp:8081")
    dev.reverse_remove_all()
    assert dev.reverse_list() == []
    with pytest.raises(adbutils.AdbError):
        dev.create_connection(adbutils.Network.TCP, 1)  # nothing listens there on the phone


def test_screen_geometry_and_power(dev: Any) -> None:
    assert dev.window_size() == (1080, 2400) and dev.rotation() == 0
    assert dev.is_screen_on()
    dev.switch_screen(False)
    assert not dev.is_screen_on()
    dev.switch_screen(True)
    assert dev.is_screen_on()
    assert dev.screenshot().size == (1080, 2400)
    assert dev.screenshot(display_id=0, error_ok=False).size == (1080, 2400)  # via dumpsys SurfaceFlinger
    with pytest.raises(adbutils.AdbError):
        dev.screenshot(display_id=1)  # the phone has one display
    dev.click(10, 10, display_id=0)
    assert dev.dump_hierarchy().startswith("<?xml")


def test_input_commands_reach_the_screen(dev: Any, sim: Any) -> None:
    dev.app_start(SETTINGS)
    assert dev.app_current().package == SETTINGS
    dev.keyevent("HOME")
    assert dev.app_current().package == "com.android.launcher3"
    dev.click(0.5, 0.5)  # percentages, as the docs allow
    dev.swipe(540, 1800, 540, 600, 0.1)
    dev.drag(540, 1800, 540, 600, 0.1)
    dev.volume_mute()
    dev.send_keys("hello")  # `input text` with nothing focused: accepted, nothing typed


def test_app_current_on_android_14_has_pid_and_short_activity(dev: Any) -> None:
    dev.app_start(MESSAGES)
    info = dev.app_current()
    assert (info.package, info.activity) == (MESSAGES, ".ui.ConversationListActivity")
    assert info.pid == int(dev.shell(["pidof", MESSAGES]))
    dev.app_stop(MESSAGES)
    dev.app_start(MESSAGES, ".ui.ConversationListActivity")
    assert dev.app_current().pid != info.pid


def test_app_info_list_and_clear(dev: Any) -> None:
    info = dev.app_info(MESSAGES)
    assert info is not None and info.package_name == MESSAGES and info.version_code == 1
    assert info.path.endswith("/base.apk") and isinstance(info.first_install_time, datetime.datetime)
    assert dev.app_info("com.no.such") is None
    assert MESSAGES in dev.list_packages() and MESSAGES in dev.list_packages(["-s"])
    dev.app_clear(MESSAGES)
    assert "Failed" in dev.shell2("pm clear com.no.such").output


def test_install_uninstall_a_real_apk(dev: Any, real_apk: Path) -> None:
    dev.install(str(real_apk), nolaunch=True, silent=True)
    info = dev.app_info("com.github.uiautomator")
    assert info is not None and (info.version_name, info.version_code) == ("2.4.0", 2004001)
    assert "com.github.uiautomator" in dev.list_packages(["-3"])
    assert "com.github.uiautomator/.AdbKeyboard" in dev.shell("ime list -s -a").split()
    assert "Success" in dev.uninstall("com.github.uiautomator")
    assert dev.app_info("com.github.uiautomator") is None
    assert dev.uninstall("com.github.uiautomator") == "Failure [DELETE_FAILED_INTERNAL_ERROR]"
    dev.sync.push(real_apk, "/data/local/tmp/u.apk")
    dev.install_remote("/data/local/tmp/u.apk", clean=True)
    assert not dev.sync.exists("/data/local/tmp/u.apk") and dev.app_info("com.github.uiautomator")
    dev.uninstall("com.github.uiautomator")
    dev.sync.push(b"not an apk", "/data/local/tmp/bad.apk")
    with pytest.raises(adbutils.AdbInstallError):
        dev.install_remote("/data/local/tmp/bad.apk")


def test_open_browser_without_a_browser_is_refused_like_android(dev: Any) -> None:
    dev.open_browser("example.com")  # adbutils ignores am's answer; the phone stays where it was
    out = dev.shell2(["am", "start", "-a", "android.intent.action.VIEW", "-d", "https://example.com/x"]).output
    assert "unable to resolve Intent { act=android.intent.action.VIEW dat=https://example.com/... " in out
    assert dev.app_current().package == "com.android.launcher3"


def test_network_battery_settings(dev: Any) -> None:
    assert dev.wlan_ip() == "192.168.1.57"
    battery = dev.battery()
    assert battery.level == 87 and battery.usb_powered and battery.temperature == 28.1
    dev.brightness_value = 200
    assert dev.brightness_value == 200
    dev.brightness_mode = adbutils.BrightnessMode.AUTO
    assert dev.brightness_mode == adbutils.BrightnessMode.AUTO
    dev.switch_airplane(True)
    assert dev.shell("settings get global airplane_mode_on") == "1"
    dev.switch_wifi(False)
    assert dev.shell("settings get global wifi_on") == "0"


def test_adbd_services_and_logcat(dev: Any) -> None:
    assert dev.root() == "adbd cannot run as root in production builds\n"
    dev.app_start(SETTINGS, ".Settings")
    lines = dev.shell("logcat -d").splitlines()
    assert lines[0] == "--------- beginning of main"
    assert any(re.search(r"I ActivityTaskManager: START u0 .*cmp=com.android.settings/.Settings", ln)
               for ln in lines)
    dev.shell("logcat --clear")
    assert dev.shell("logcat -d").splitlines() == ["--------- beginning of main"]


def test_framebuffer_is_not_offered(dev: Any) -> None:
    # Android 14 phones refuse the legacy framebuffer: service without root too (adbutils calls it unstable).
    with pytest.raises((adbutils.AdbError, socket.timeout, OSError)):
        dev.framebuffer()


@pytest.mark.filterwarnings("ignore:push is deprecated")
def test_low_level_streams_volume_and_deprecated(dev: Any, tmp_path: Path) -> None:
    conn = dev.open_shell("echo raw")
    assert conn.read_until_close() == "raw\n"
    with dev.open_transport() as transport:  # host:transport then a device service on the same socket
        transport.send_command("shell:echo over-transport")
        transport.check_okay()
        assert transport.read_until_close() == "over-transport\n"
    (tmp_path / "p.txt").write_text("pushed")
    dev.push(str(tmp_path / "p.txt"), "/sdcard/p.txt")
    assert dev.sync.read_text("/sdcard/p.txt") == "pushed"
    dev.volume_up()
    dev.volume_down()
    assert dev.package_info(MESSAGES)["package_name"] == MESSAGES
    assert dev.tcpip(5555) == "restarting in TCP mode port: 5555\n"
    dev.app_start(SETTINGS, ".Settings")
    assert dev.app_current().activity == ".Settings"


def test_logcat_api_writes_the_log_to_a_file(dev: Any, tmp_path: Path) -> None:
    dev.app_start(SETTINGS, ".Settings")
    stream = dev.logcat(tmp_path / "log.txt", clear=False, re_filter="ActivityTaskManager")
    deadline = time.monotonic() + 10
    while "START u0" not in (tmp_path / "log.txt").read_text() and time.monotonic() < deadline:
        time.sleep(0.05)  # the copying thread writes what the following logcat stream sends
    stream.stop(timeout=5)  # the next line (chatter within a second) lets the copying thread end
    text = (tmp_path / "log.txt").read_text()
    assert re.search(r"I/ActivityTaskManager\( *\d+\): START u0 \{ cmp=com.android.settings/.Settings \}", text)


def test_reboot_ends_every_process_and_comes_back(dev: Any, sim: Any) -> None:
    dev.app_start(MESSAGES)
    pid = int(dev.shell(["pidof", MESSAGES]))
    dev.reboot()
    sim.adb.wait_for(sim.serial, "offline", 5)
    sim.wait_online(timeout=15)
    after = adbutils.adb.device(sim.serial)
    assert after.app_current().package == "com.android.launcher3"
    after.app_start(MESSAGES)
    assert int(after.shell(["pidof", MESSAGES])) != pid
