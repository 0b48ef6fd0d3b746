"""The adb CLI (adbutils' bundled binary) against the isolated server: devices -l, shell, push, pull."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.e2e


def test_devices_long_lists_product_model_device(fake_sim: Any) -> None:
    out = fake_sim.adb.adb("devices", "-l").stdout.decode()
    line = next(ln for ln in out.splitlines() if ln.startswith(fake_sim.serial))
    assert "device product:sim_fake model:SimFake device:simfake transport_id:" in line


def test_shell_v2_carries_stdout_stderr_and_exit_code(fake_sim: Any) -> None:
    ok = fake_sim.adb.adb("-s", fake_sim.serial, "shell", "echo hi")
    assert (ok.returncode, ok.stdout) == (0, b"hi\n")
    bad = fake_sim.adb.adb("-s", fake_sim.serial, "shell", "ls /nonexistent")
    assert bad.returncode == 1 and b"No such file" in bad.stderr and bad.stdout == b""
    assert fake_sim.adb.adb("-s", fake_sim.serial, "shell", "nosuch").returncode == 127


def test_push_and_pull_round_trip(fake_sim: Any, tmp_path: Path) -> None:
    source = tmp_path / "f.bin"
    source.write_bytes(os.urandom(300_000))
    pushed = fake_sim.adb.adb("-s", fake_sim.serial, "push", str(source), "/sdcard/Download/")
    assert pushed.returncode == 0, pushed.stderr
    target = tmp_path / "g.bin"
    pulled = fake_sim.adb.adb("-s", fake_sim.serial, "pull", "/sdcard/Download/f.bin", str(target))
    assert pulled.returncode == 0, pulled.stderr
    assert target.read_bytes() == source.read_bytes()
    missing = fake_sim.adb.adb("-s", fake_sim.serial, "pull", "/sdcard/nope", str(tmp_path / "x"))
    assert missing.returncode != 0


def test_interactive_shell_reads_lines_until_exit(fake_sim: Any) -> None:
    result = fake_sim.adb.adb("-s", fake_sim.serial, "shell", input=b"echo hi\ngetprop ro.product.model\nexit\n",
                              timeout=20)
    assert result.returncode == 0 and result.stdout == b"sim:/ $ hi\nsim:/ $ SimFake\nsim:/ $ "
