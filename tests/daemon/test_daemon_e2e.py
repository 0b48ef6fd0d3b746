"""`starebrain daemon` on one host: one worker per phone, queued tasks, a graceful SIGTERM."""

from __future__ import annotations

import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from starebrain.flows import examples_dir
from starebrain.sim.adb_server import AdbServer
from tests.cli.cli_process import Cli
from tests.cli.faults import side_effects, wait_until

SUITE = examples_dir() / "suite"
NOTE = SUITE / "notes-new.yaml"


def submit(cli: Cli, flow: Path, *args: str) -> str:
    done = cli.run("submit", str(flow), *args)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def stop(daemon: subprocess.Popen[str]) -> str:
    daemon.send_signal(signal.SIGTERM)
    out, _ = daemon.communicate(timeout=90)
    assert daemon.returncode == 0, out
    return out


@pytest.fixture
def own_host(sim_host: Any, tmp_path: Path) -> Iterator[tuple[AdbServer, list[Any]]]:
    """An adb server of its own with two sims: the daemon must see this test's phones and no other."""
    from starebrain.sim.harness import SimConfig
    from starebrain.sim.world import build_phone

    (tmp_path / "adb").mkdir()
    adb = AdbServer(workdir=tmp_path / "adb").start()
    phones = [sim_host.start_sim(adb, SimConfig(factory=build_phone)) for _ in range(2)]
    try:
        yield adb, phones
    finally:
        for phone in phones:
            phone.stop()
        adb.close()


def test_queued_tasks_run_on_every_phone_and_each_side_effect_happens_once(
        own_host: tuple[AdbServer, list[Any]], tmp_path: Path) -> None:
    adb, phones = own_host
    port = {"ANDROID_ADB_SERVER_PORT": str(adb.port)}
    cli = Cli(tmp_path)
    bound = [submit(cli, NOTE, "--device", phones[0].serial)]
    queued = cli.run("run", str(NOTE), "--queue", "--device", phones[1].serial)  # the same as submit
    assert queued.returncode == 0, queued.stderr
    bound.append(queued.stdout.strip())
    pool = [submit(cli, NOTE) for _ in range(2)]
    daemon = cli.start("daemon", "--interval", "0.2", "--host-name", "bench-1", **port)
    try:
        for task_id in bound + pool:
            done = cli.run("wait", task_id, "--timeout", "120", "--quiet")
            assert done.returncode == 0, done.stdout + done.stderr
        status = cli.run("status", "--host-name", "bench-1", **port)
        assert "daemon up" in status.stdout and status.stdout.count("present") == 2, status.stdout
    finally:
        out = stop(daemon)
    devices = {task_id: cli.show(task_id)["task"]["device_serial"] for task_id in bound + pool}
    assert [devices[t] for t in bound] == [p.serial for p in phones]  # a bound task ran on its phone
    assert {devices[t] for t in pool} <= {p.serial for p in phones}
    effects = [side_effects(p) for p in phones]
    assert sum(e.get("note_saved", 0) for e in effects) == 4, effects  # nothing twice, nothing lost
    assert [sum(e.values()) for e in effects] == [sum(1 for d in devices.values() if d == p.serial) for p in phones]
    assert out.count("phone attached") == 2 and "stopped" in out.splitlines()[-1]


def test_sigterm_pauses_the_running_task_and_the_next_daemon_finishes_it(start_sim: Any, tmp_path: Path) -> None:
    phone = start_sim(timing="real-phone")
    cli = Cli(tmp_path)
    task_id = submit(cli, NOTE, "--device", phone.serial)
    daemon = cli.start("daemon", "--interval", "0.2")
    try:
        wait_until(lambda: cli.show(task_id)["task"]["cursor"] >= 2, timeout_s=120, what="step 3")
    finally:
        out = stop(daemon)
    assert f"task {task_id} paused (resumable)" in out, out
    shown = cli.show(task_id)["task"]
    assert shown["status"] == "PAUSED" and shown["cursor"] < len(shown["steps"])
    again = cli.start("daemon", "--interval", "0.2")
    try:
        assert cli.run("wait", task_id, "--timeout", "120", "--quiet").returncode == 0
    finally:
        out = stop(again)
    assert f"resuming task {task_id}" in out
    assert side_effects(phone) == {"note_saved": 1}
