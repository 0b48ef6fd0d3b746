"""The adb commands a person types (adbutils' bundled adb binary) against the sim."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.e2e
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def adb(adb_server: Any, sim: Any, *args: str) -> Any:
    """Run `adb -s SERIAL ARGS`."""
    return adb_server.adb("-s", sim.serial, *args)


def test_shell_exit_codes_and_android_14_answers(adb_server: Any, sim: Any) -> None:
    assert adb(adb_server, sim, "shell", "getprop", "ro.build.version.release").stdout == b"14\n"
    missing = adb(adb_server, sim, "shell", "am", "start", "-n", "com.android.settings/.NoSuch")
    assert missing.returncode == 0 and b"Error type 3" in missing.stderr  # am's status is 0 even then
    assert b"Activity class {com.android.settings/com.android.settings.NoSuch} does not exist." in missing.stderr
    ps = adb(adb_server, sim, "shell", "ps", "-A", "-o", "PID,NAME").stdout.decode().splitlines()
    assert ps[0].split() == ["PID", "NAME"] and any(line.endswith(" system_server") for line in ps)


def test_push_pull_install_uninstall(adb_server: Any, sim: Any, tmp_path: Path, real_apk: Path) -> None:
    (tmp_path / "a.txt").write_text("hello")
    assert adb(adb_server, sim, "push", str(tmp_path / "a.txt"), "/sdcard/a.txt").returncode == 0
    assert adb(adb_server, sim, "pull", "/sdcard/a.txt", str(tmp_path / "b.txt")).returncode == 0
    assert (tmp_path / "b.txt").read_text() == "hello"
    installed = adb(adb_server, sim, "install", "-r", str(real_apk))
    assert installed.returncode == 0 and b"Success" in installed.stdout
    listed = adb(adb_server, sim, "shell", "pm", "list", "packages", "-3").stdout
    assert b"package:com.github.uiautomator\n" in listed
    assert adb(adb_server, sim, "uninstall", "com.github.uiautomator").stdout == b"Success\n"
    (tmp_path / "bad.apk").write_text("not a zip")
    bad = adb(adb_server, sim, "install", str(tmp_path / "bad.apk"))
    assert bad.returncode != 0 and b"INSTALL_PARSE_FAILED_NOT_APK" in bad.stdout + bad.stderr


def test_logcat_dump_and_screencap(adb_server: Any, sim: Any) -> None:
    adb(adb_server, sim, "shell", "am", "start", "-n", "com.android.settings/.Settings")
    log = adb(adb_server, sim, "logcat", "-d")
    assert log.returncode == 0 and b"ActivityTaskManager: START u0" in log.stdout
    shot = adb(adb_server, sim, "exec-out", "screencap", "-p")
    assert shot.returncode == 0 and shot.stdout.startswith(PNG_MAGIC)


def test_forward_and_reverse(adb_server: Any, sim: Any) -> None:
    assert adb(adb_server, sim, "forward", "tcp:0", "tcp:9008").returncode == 0
    assert b"tcp:9008" in adb(adb_server, sim, "forward", "--list").stdout
    assert adb(adb_server, sim, "forward", "--remove-all").returncode == 0
    assert adb(adb_server, sim, "reverse", "tcp:18080", "tcp:8080").returncode == 0
    assert b"tcp:18080 tcp:8080" in adb(adb_server, sim, "reverse", "--list").stdout
    assert adb(adb_server, sim, "reverse", "--remove-all").returncode == 0
    assert adb(adb_server, sim, "reverse", "--list").stdout.strip() == b""
