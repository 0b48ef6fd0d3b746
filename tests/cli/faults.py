"""Faults applied from outside the product, for the exactly-once tests: stopped processes, a held
write lock, a restarted phone — and the person who finishes a task afterwards."""

from __future__ import annotations

import sqlite3
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from starebrain.executor.task_executor import INTERRUPTED_REASON
from starebrain.sim.harness import SimConfig
from tests.cli.cli_process import Cli


def wait_stopped(proc: subprocess.Popen[str], timeout_s: float = 60.0) -> None:
    """Until the process stopped itself (SIGSTOP at a fault point: state `T` in /proc)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            output = proc.stdout.read() if proc.stdout else ""
            raise AssertionError(f"exited {proc.returncode} before its fault point: {output}")
        with open(f"/proc/{proc.pid}/stat", encoding="ascii") as f:
            if f.read().rsplit(")", 1)[1].split()[0] in ("T", "t"):
                return
        time.sleep(0.05)
    raise AssertionError(f"pid {proc.pid} never reached its fault point")


def wait_until(check: Any, timeout_s: float = 60.0, what: str = "condition") -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


@contextmanager
def write_lock(db: Path) -> Iterator[sqlite3.Connection]:
    """A second SQLite connection holding the database's write lock (BEGIN IMMEDIATE) until the end."""
    conn = sqlite3.connect(db, isolation_level=None, timeout=30)
    try:
        conn.execute("BEGIN IMMEDIATE")
        yield conn
    finally:
        conn.execute("ROLLBACK")
        conn.close()


def side_effects(sim: Any) -> dict[str, int]:
    return dict(sim.call(lambda phone: phone.state()["side_effects"]))


def restart_phone(sim: Any) -> Any:
    """Kill the simulated phone's adbd and u2 server and start them again on the same port with the
    same world, every app stopped and the home screen in front (what a reboot leaves)."""
    phone, port, host, adb = sim.phone, sim.port, sim.host, sim.adb
    sim.stop()
    for package in list(phone.running_packages()):
        phone.stop_app(package)
    phone.go_home()
    restarted = host.start_sim(adb, SimConfig(factory=lambda **_: phone), port=port)
    restarted.config = sim.config  # a later reset() builds a fresh world again
    return restarted


def finish_as_the_person(cli: Cli, sim: Any, task_id: str, max_commands: int = 10) -> int:
    """What a person does until the task is resolved: resume a stopped task, retry a failed one
    (skip a step that fails twice: its effect is already there), answer questions (an interrupted
    Send: skip when the mail went out, otherwise redo)."""
    done = cli.run("resume", task_id)
    failed_at = None
    for _ in range(max_commands):
        task = cli.show(task_id)["task"]
        status = task["status"]
        if status in ("COMPLETED", "CANCELLED"):
            return done.returncode
        if status == "AWAITING_CONFIRMATION":
            if task["status_reason"] == INTERRUPTED_REASON:
                happened = side_effects(sim).get("mail_sent", 0) >= 1
                done = cli.run("skip" if happened else "approve", task_id)
            else:
                done = cli.run("approve", task_id)
        elif status == "FAILED":  # retry once; failing again at the same step, they see it is done
            done = cli.run("skip" if failed_at == task["cursor"] else "retry", task_id)
            failed_at = task["cursor"]
        else:  # IN_PROGRESS or PAUSED
            done = cli.run("resume", task_id)
    return done.returncode
