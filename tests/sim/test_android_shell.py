"""Android 13/14/15 behaviour of the shell commands, checked on a SimDevice without adb."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from starebrain.sim.services.device import SimDevice
from starebrain.sim.world import build_phone
from tests.sim.local_device import shell

WORLD_APP = "com.google.android.apps.messaging"


def world_device(android: int = 14, scenario: str = "default") -> SimDevice:
    return SimDevice(build_phone(scenario, serial="emulator-5554"), android=android)


@pytest.fixture(scope="module")
def apk_bytes() -> bytes:
    import uiautomator2

    return (Path(uiautomator2.__file__).parent / "assets" / "app-uiautomator.apk").read_bytes()


RECORD = r"ActivityRecord\{\w+ u0 com\.android\.launcher3/\.uioverride\.QuickstepLauncher\} t\d+\}"


@pytest.mark.parametrize("android", [13, 14, 15])
def test_each_release_reports_its_version_and_record_format(android: int) -> None:
    device = world_device(android)
    assert shell("getprop ro.build.version.release", device)[1] == f"{android}\n"
    assert shell("getprop ro.build.version.sdk", device)[1] == f"{android + 20}\n"
    assert re.search(r"  ResumedActivity: " + RECORD, shell("dumpsys activity activities", device)[1])
    assert "mCurrentFocus" not in shell("dumpsys window windows", device)[1]


def test_pids_change_on_restart_and_ps_filters() -> None:
    device = world_device()
    shell(f"monkey -p {WORLD_APP} -c android.intent.category.LAUNCHER 1", device)
    first = int(shell(f"pidof {WORLD_APP}", device)[1])
    assert shell(f"am force-stop {WORLD_APP}; pidof {WORLD_APP}", device)[0] == 1
    shell(f"am start -n {WORLD_APP}/.ui.ConversationListActivity", device)
    second = int(shell(f"pidof {WORLD_APP}", device)[1])
    assert second > first
    header, *rows = shell("ps -A -o PID,USER,NAME", device)[1].splitlines()
    assert header.split() == ["PID", "USER", "NAME"] and f"{second}" in " ".join(rows)
    assert all(row.split()[0] == "root" for row in shell("ps -u root", device)[1].splitlines()[1:])
    status, text = shell(f"kill {second}", device)
    assert status == 1 and text == f"kill: {second}: Operation not permitted\n"


def test_kill_of_the_u2_server_process_stops_it() -> None:
    device = world_device()
    pid = device.processes.spawn("app_process")
    assert shell("pidof app_process", device)[1] == f"{pid}\n"
    assert shell(f"kill -9 {pid}", device)[0] == 0
    assert shell("pidof app_process", device)[0] == 1


def test_dumpsys_package_and_runtime_grants(apk_bytes: bytes) -> None:
    device = world_device()
    device.files.write("/data/local/tmp/u.apk", apk_bytes)
    assert shell("pm install -r -t /data/local/tmp/u.apk", device) == (0, "Success\n")
    dump = shell("dumpsys package com.github.uiautomator", device)[1]
    assert "versionCode=2004001 minSdk=19 targetSdk=32" in dump and "versionName=2.4.0" in dump
    assert re.search(r"firstInstallTime=\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", dump)
    assert "android.permission.GET_ACCOUNTS: granted=false" in dump
    assert shell("pm grant com.github.uiautomator android.permission.GET_ACCOUNTS", device)[0] == 0
    assert "android.permission.GET_ACCOUNTS: granted=true" in shell("dumpsys package com.github.uiautomator",
                                                                     device)[1]
    status, text = shell("pm grant com.github.uiautomator android.permission.INTERNET", device)
    assert status == 255 and "is not a changeable permission type" in text
    status, text = shell("pm grant com.no.such android.permission.CAMERA", device)
    assert status == 255 and "java.lang.IllegalArgumentException: Unknown package: com.no.such" in text
    assert shell("dumpsys package com.no.such", device) == (0, "")
    assert shell("pm path com.github.uiautomator", device)[1].startswith("package:/data/app/")


def test_pm_failures_read_as_on_android(apk_bytes: bytes) -> None:
    device = world_device()
    assert shell("pm uninstall com.no.such", device) == (1, "Failure [DELETE_FAILED_INTERNAL_ERROR]\n")
    assert shell(f"pm uninstall {WORLD_APP}", device)[0] == 1  # preinstalled (system) app
    assert shell("pm clear com.no.such", device) == (1, "Failed\n")
    assert shell(f"pm clear {WORLD_APP}", device) == (0, "Success\n")
    status, text = shell("pm install /data/local/tmp/missing.apk", device)
    assert status == 255 and text.startswith("Error: Unable to open file: /data/local/tmp/missing.apk\n")
    device.files.write("/sdcard/u.apk", apk_bytes)
    status, text = shell("pm install /sdcard/u.apk", device)
    assert status == 255 and "u:object_r:fuse:s0" in text and "Consider using a file under /data/local/tmp/" in text


def test_am_start_resolves_components_and_view_intents() -> None:
    device = world_device(scenario="recorded_apps")
    status, text = shell(f"am start -n {WORLD_APP}/.NoSuchActivity", device)
    assert status == 0 and text.endswith(
        f"Error type 3\nError: Activity class {{{WORLD_APP}/{WORLD_APP}.NoSuchActivity}} does not exist.\n")
    text = shell("am start -a android.intent.action.VIEW -d https://example.com/a/b", device)[1]
    assert text == ("Starting: Intent { act=android.intent.action.VIEW dat=https://example.com/... }\n"
                    "Error: Activity not started, unable to resolve Intent { act=android.intent.action.VIEW "
                    "dat=https://example.com/... flg=0x10000000 }\n")
    shell("am start -a android.intent.action.VIEW -d https://www.justdial.com/Mumbai/Hospitals", device)
    assert device.phone.current_focus()[0] == "com.justdial.search"
    again = shell("am start -W -n com.justdial.search/.newfeatures.search.SearchResultActivity", device)[1]
    assert "intent has been delivered to currently running top-most instance" in again
    assert "LaunchState: HOT" in again


def test_ime_commands() -> None:
    device = world_device()
    gboard = "com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME"
    assert shell("ime list -s -a", device)[1] == f"{gboard}\n"
    assert shell("ime set com.x/.Y", device) == (255, "Unknown input method com.x/.Y cannot be selected for user #0\n")
    assert shell(f"ime enable {gboard}", device)[1] == f"Input method {gboard}: already enabled for user #0\n"
    assert shell("ime list -a", device)[1].startswith(f"{gboard}:\n  mId={gboard}")
    assert f"mCurMethodId={gboard}" in shell("dumpsys input_method", device)[1]


def test_toybox_text_and_network_commands() -> None:
    device = world_device()
    shell("echo a > /sdcard/t; echo b >> /sdcard/t; echo c >> /sdcard/t", device)
    assert shell("head -n 2 /sdcard/t", device)[1] == "a\nb\n"
    assert shell("tail -1 /sdcard/t", device)[1] == "c\n"
    assert shell("cat /sdcard/t | wc -l", device)[1] == "3\n"
    assert shell("wc -l /sdcard/t", device)[1] == "      3 /sdcard/t\n"
    assert "inet addr:192.168.1.57" in shell("ifconfig wlan0", device)[1]
    assert "inet 192.168.1.57/24" in shell("ip addr show dev wlan0", device)[1]
    assert re.fullmatch(r"\d{4}\n", shell("date +%Y", device)[1])
    assert shell("ls /nope", device)[0] == 1 and shell("grep x", device)[0] == 1


def test_input_takes_display_and_source_options() -> None:
    device = world_device()
    assert shell("input -d 0 tap 10 10", device)[0] == 0
    assert shell("input touchscreen swipe 540 1800 540 900 100", device)[0] == 0
    assert shell("input draganddrop 540 1800 540 900 100", device)[0] == 0
    assert shell("input roll 1 1", device)[0] == 1


def test_a_system_dialog_in_front_has_a_running_process() -> None:
    device = world_device(scenario="permission")
    shell(f"monkey -p {WORLD_APP} -c android.intent.category.LAUNCHER 1", device)
    top = shell("dumpsys activity top", device)[1]
    match = re.search(r"ACTIVITY (?P<package>[^\s]+)/(?P<activity>[^/\s]+) \w+ pid=(?P<pid>\d+)", top)
    assert match and match.group("package") == device.phone.current_focus()[0]
    assert int(match.group("pid")) == int(shell(f"pidof {match.group('package')}", device)[1])


def test_ps_columns_line_up_as_toybox_prints_them() -> None:
    lines = shell("ps -A", world_device())[1].splitlines()
    assert lines[0] == "USER            PID   PPID     VSZ    RSS WCHAN            ADDR S NAME"
    assert lines[1].startswith("root              1      0 10943276   6632 do_epoll_wait       0 S init")
