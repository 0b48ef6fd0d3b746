"""The simulated shell: sh semantics adbutils/u2 rely on, and the Android commands they issue."""

from __future__ import annotations

import hashlib
import re

from tests.sim.local_device import new_device, shell


def test_exit_status_is_expanded_for_the_x4exit_wrapper() -> None:
    assert shell("false; echo X4EXIT:$?") == (0, "X4EXIT:1\n")
    assert shell("nosuchcmd; echo X4EXIT:$?")[1].endswith("X4EXIT:127\n")


def test_and_or_lists_follow_sh() -> None:
    assert shell("true && echo yes || echo no")[1] == "yes\n"
    assert shell("false && echo yes || echo no")[1] == "no\n"
    assert shell("false || false && echo never")[1] == ""
    assert shell("echo a; echo b")[1] == "a\nb\n"


def test_unknown_command_prints_not_found_and_exits_127() -> None:
    assert shell("frobnicate --now") == (127, "/system/bin/sh: frobnicate: not found\n")


def test_variable_prefixes_and_quotes() -> None:
    assert shell("X=1; echo $X ${X}2 '$X' \"$X\"")[1] == "1 12 $X 1\n"
    assert shell("Y=7 echo $Y")[1] == "\n"  # a prefix assignment is for the command, not the line
    assert shell("echo 'unterminated")[0] == 2


def test_redirect_then_cat_and_pipe_to_grep() -> None:
    device = new_device()
    shell("echo hello > /sdcard/a.txt; echo world >> /sdcard/a.txt", device)
    assert shell("cat /sdcard/a.txt | grep wor", device)[1] == "world\n"
    assert shell("rm /sdcard/a.txt && cat /sdcard/a.txt", device)[0] == 1


def test_md5sum_matches_the_stored_file() -> None:
    device = new_device()
    device.files.write("/data/local/tmp/u2.jar", b"jar bytes")
    status, text = shell("toybox md5sum /data/local/tmp/u2.jar", device)
    assert status == 0 and text == f"{hashlib.md5(b'jar bytes').hexdigest()}  /data/local/tmp/u2.jar\n"
    assert shell("md5sum /nope", device)[0] == 1


def test_dumpsys_lines_match_the_regexes_u2_uses() -> None:
    focus_re = r"mCurrentFocus=Window{.*\s+(?P<package>[^\s]+)/(?P<activity>[^\s]+)\}"
    assert not re.search(focus_re, shell("dumpsys window windows")[1])  # gone since Android 13
    focus = re.search(focus_re, shell("dumpsys window displays")[1])
    assert focus and focus.group("package") == "com.android.launcher3"
    assert re.search(r"orientation=(\d+)", shell("dumpsys display")[1]).group(1) == "0"  # type: ignore[union-attr]
    assert "mHoldingDisplaySuspendBlocker=true" in shell("dumpsys power")[1]
    top = shell("dumpsys activity top")[1]
    assert re.search(r"ACTIVITY (?P<package>[^\s]+)/(?P<activity>[^/\s]+) \w+ pid=(?P<pid>\d+)", top)


def test_getprop_wm_size_and_ime() -> None:
    assert shell("getprop ro.product.model")[1] == "SimFake\n"
    assert shell("wm size")[1] == "Physical size: 1080x1920\n"
    assert "AdbKeyboard" not in shell("ime list -s -a")[1]  # until u2 installs its APK


def test_apps_start_stop_and_list() -> None:
    device = new_device()
    shell("am start -a android.intent.action.MAIN -n com.example.notes/.MainActivity", device)
    assert device.phone.current_focus()[0] == "com.example.notes"
    shell("am force-stop com.example.notes", device)
    assert device.phone.current_focus()[0] == "com.android.launcher3"
    assert shell("monkey -p com.example.notes -c android.intent.category.LAUNCHER 1", device)[0] == 0
    assert "package:com.example.notes" in shell("pm list packages", device)[1].splitlines()
    assert shell("monkey -p com.nope -c x 1", device)[0] == 252
    assert "app_process" not in shell("ps -A", device)[1]


def test_input_and_uiautomator_dump_reach_the_phone() -> None:
    device = new_device()
    shell("input tap 200 350", device)  # the Notes icon
    shell("input tap 100 350; input text hi%sthere; input keyevent KEYCODE_BACK", device)
    assert device.phone.draft == "hi there"  # type: ignore[attr-defined]
    assert device.phone.current_focus()[0] == "com.android.launcher3"
    status, text = shell("rm -f /data/local/tmp/uidump.xml; uiautomator dump /data/local/tmp/uidump.xml "
                         "&& echo success", device)
    assert status == 0 and "success" in text
    assert device.files.read("/data/local/tmp/uidump.xml").data.startswith(b"<?xml")  # type: ignore[union-attr]


def test_content_query_delegates_to_the_phone_and_screencap_is_png() -> None:
    device = new_device()
    assert shell("content query --uri content://notes/saved", device)[1] == "No result found.\n"
    device.phone.saved.append("x")  # type: ignore[attr-defined]
    assert shell("content query --uri content://notes/saved", device)[1] == "Row: 0 text=x\n"
    assert shell("screencap -p /sdcard/s.png", device)[0] == 0
    assert device.files.read("/sdcard/s.png").data.startswith(b"\x89PNG")  # type: ignore[union-attr]
