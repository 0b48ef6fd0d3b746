"""Exactly once, even when two processes disagree: each fault is applied from outside the product
(SIGSTOP/SIGCONT, a second SQLite connection, a concurrent command, a restarted phone) to real
`starebrain` processes driving the simulated phone through the real adb server.

Every test ends with the invoice errand's side effects exactly `mail_sent 1, task_completed 1`
(or none for a cancelled one) and the task resolved by ordinary commands.
"""

from __future__ import annotations

import os
import signal
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from tests.cli.cli_process import INVOICE_FLOW, Cli
from tests.cli.faults import (
    finish_as_the_person,
    restart_phone,
    side_effects,
    wait_stopped,
    wait_until,
    write_lock,
)

pytestmark = pytest.mark.e2e

DONE = {"mail_sent": 1, "task_completed": 1}
SHORT_LEASE = {"STAREBRAIN_LEASE_TTL_S": "1.5"}
SEND = 8


def errors(output: str) -> list[str]:
    return [line for line in output.splitlines() if line.startswith("error:")]


def awaiting_send(cli: Cli, sim: Any) -> str:
    """Run the errand up to the Send question (no terminal: it waits, exit 3)."""
    done = cli.run("run", str(INVOICE_FLOW), "--device", sim.serial)
    assert done.returncode == 3, done.stderr
    return cli.latest_task_id()


def test_a_driver_stopped_past_its_lease_never_writes_or_sends_again(sim: Any, tmp_path: Path) -> None:
    cli = Cli(tmp_path)
    a = cli.start("run", str(INVOICE_FLOW), "--device", sim.serial, fault="after_commit:5:stop", **SHORT_LEASE)
    try:
        wait_stopped(a)
        time.sleep(float(SHORT_LEASE["STAREBRAIN_LEASE_TTL_S"]) + 0.5)  # A, stopped, cannot renew: its lease lapses
        task_id = cli.latest_task_id()
        b = cli.run("resume", task_id, **SHORT_LEASE)  # A's lease is out of date: B takes the phone and drives
        assert b.returncode == 3, b.stderr
        assert cli.run("approve", task_id, **SHORT_LEASE).returncode == 0
        assert side_effects(sim) == DONE
    finally:
        a.send_signal(signal.SIGCONT)
        out, _ = a.communicate(timeout=60)
    assert a.returncode == 6, out
    assert "Traceback" not in out
    assert len(errors(out)) == 1 and "lease on device" in errors(out)[0], out
    assert cli.show(task_id)["task"]["status"] == "COMPLETED"
    again = cli.run("resume", task_id)
    assert again.returncode == 0 and side_effects(sim) == DONE, again.stderr


def test_a_locked_database_at_the_decision_says_try_again_and_trying_again_works(
        sim: Any, tmp_path: Path) -> None:
    cli = Cli(tmp_path)
    task_id = awaiting_send(cli, sim)
    env = {"STAREBRAIN_DB_BUSY_TIMEOUT_MS": "800"}
    first = cli.start("approve", task_id, fault=f"before_decide:{SEND}:stop", **env)
    wait_stopped(first)
    with write_lock(tmp_path / "starebrain.db"):
        first.send_signal(signal.SIGCONT)
        out, _ = first.communicate(timeout=60)
    assert first.returncode == 7, out
    assert "Traceback" not in out and len(errors(out)) == 1 and "try again" in errors(out)[0], out
    detail = cli.show(task_id)
    assert detail["task"]["status"] == "AWAITING_CONFIRMATION"  # nothing half-written
    assert [c["decision"] for c in detail["confirmations"]] == [None]
    assert side_effects(sim) == {}
    second = cli.run("approve", task_id, **env)
    assert second.returncode == 0, second.stderr
    assert side_effects(sim) == DONE


def test_cancel_while_another_process_drives_sticks(sim: Any, tmp_path: Path) -> None:
    cli = Cli(tmp_path)
    driver = cli.start("run", str(INVOICE_FLOW), "--device", sim.serial, fault="after_commit:3:stop")
    wait_stopped(driver)
    task_id = cli.latest_task_id()
    canceller = cli.start("cancel", task_id)
    try:
        wait_until(lambda: _cancel_recorded(tmp_path / "starebrain.db"), what="the cancel request")
    finally:
        driver.send_signal(signal.SIGCONT)
    driver_out, _ = driver.communicate(timeout=60)
    cancel_out, _ = canceller.communicate(timeout=60)
    assert (driver.returncode, canceller.returncode) == (9, 9), driver_out + cancel_out
    assert f"task {task_id} cancelled: cancelled by the person (cli)" in driver_out
    assert cli.show(task_id)["task"]["status"] == "CANCELLED"
    later = cli.run("resume", task_id)
    assert later.returncode == 9 and cli.show(task_id)["task"]["status"] == "CANCELLED"
    assert side_effects(sim) == {}


def _cancel_recorded(db: Path) -> bool:
    import sqlite3

    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT count(*) FROM cancel_request").fetchone()[0] > 0


def test_commands_paused_before_their_lease_never_overwrite_a_finished_task(sim: Any, tmp_path: Path) -> None:
    cli = Cli(tmp_path)
    task_id = awaiting_send(cli, sim)
    late = [cli.start(verb, task_id, fault="before_lease:-1:stop") for verb in ("resume", "deny")]
    for proc in late:
        wait_stopped(proc)
    assert cli.run("approve", task_id).returncode == 0
    outs = []
    for proc in late:  # one after the other: each takes the phone's lease
        proc.send_signal(signal.SIGCONT)
        outs.append(proc.communicate(timeout=60)[0])
    assert [p.returncode for p in late] == [0, 2], outs  # resume: it is done; deny: no question now
    assert "not awaiting confirmation" in outs[1]
    task = cli.show(task_id)["task"]
    assert (task["status"], task["cursor"]) == ("COMPLETED", 12)
    assert side_effects(sim) == DONE


@pytest.mark.parametrize("by", ["resume", "daemon"])
def test_an_approval_committed_but_unused_is_honoured(by: str, sim: Any, tmp_path: Path) -> None:
    cli = Cli(tmp_path)
    task_id = awaiting_send(cli, sim)
    killed = cli.run("approve", task_id, crash_at=f"after_decide:{SEND}")  # committed, then killed
    assert killed.returncode == -9
    assert cli.show(task_id)["task"]["status"] == "IN_PROGRESS"
    if by == "resume":
        resumed = cli.run("resume", task_id)
        assert resumed.returncode == 0, resumed.stderr
    else:
        daemon = cli.start("daemon", "--interval", "0.3")
        try:
            wait_until(lambda: cli.show(task_id)["task"]["status"] == "COMPLETED", what="the daemon")
        finally:
            daemon.send_signal(signal.SIGTERM)
            daemon.communicate(timeout=30)
    assert len(cli.show(task_id)["confirmations"]) == 1  # not asked again: the approval was used
    assert side_effects(sim) == DONE


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_ctrl_c_pauses_and_the_daemon_leaves_a_paused_task_alone(stop: int, sim: Any, tmp_path: Path) -> None:
    cli = Cli(tmp_path)
    driver = cli.start("run", str(INVOICE_FLOW), "--device", sim.serial, fault="after_commit:2:stop")
    wait_stopped(driver)
    task_id = cli.latest_task_id()
    driver.send_signal(stop)  # delivered when it continues, as a Ctrl-C at that moment
    driver.send_signal(signal.SIGCONT)
    out, _ = driver.communicate(timeout=60)
    assert driver.returncode == 130 and "paused" in out, out
    assert cli.show(task_id)["task"]["status"] == "PAUSED"
    daemon = cli.start("daemon", "--interval", "0.3")
    try:
        time.sleep(3)  # about ten looks
        assert daemon.poll() is None
        assert cli.show(task_id)["task"]["status"] == "PAUSED"
    finally:
        daemon.send_signal(signal.SIGTERM)
        daemon_out, _ = daemon.communicate(timeout=30)
    assert f"resuming task {task_id}" not in daemon_out
    assert cli.run("resume", task_id).returncode == 3  # resume continues it, up to the Send question
    assert cli.run("approve", task_id).returncode == 0 and side_effects(sim) == DONE


STEPS = 12
# The steps the rewind treats most differently (1-based): a launch, just before the Send, the Send itself, the
# launch after it. `make fault-campaign` runs every step (STAREBRAIN_RESTART_STEPS=all), which adds the first
# tap after a launch, taps deep in a segment and the last step.
EACH_KIND = "3,8,9,10"


@pytest.mark.timeout(1200)
def test_a_phone_restart_after_each_kind_of_step_never_repeats_the_send(start_sim: Any, tmp_path: Path) -> None:
    phones = [start_sim(), start_sim()]

    def case(step: int) -> str:
        phone = phones[step % 2]
        phone.reset(scenario="default")
        phone.wait_online()
        cli = Cli(tmp_path / f"restart{step}")
        driver = cli.start("run", str(INVOICE_FLOW), "--device", phone.serial, fault=f"after_act:{step}:stop")
        restarted = None
        if step >= SEND:  # the Send and what follows run only after the person's approval
            wait_until(lambda: driver.poll() is not None, what="the Send question")
            driver = cli.start("approve", cli.latest_task_id(), fault=f"after_act:{step}:stop")
        try:
            wait_stopped(driver)
            restarted = phones[step % 2] = restart_phone(phone)
        finally:
            driver.send_signal(signal.SIGCONT)
            driver.communicate(timeout=120)
        task_id = cli.latest_task_id()
        finish_as_the_person(cli, restarted, task_id)
        status = cli.show(task_id)["task"]["status"]
        effects = side_effects(restarted)
        return "" if (status, effects) == ("COMPLETED", DONE) else f"step {step + 1}: {status} {effects}"

    only = os.environ.get("STAREBRAIN_RESTART_STEPS", EACH_KIND)  # "3,9": those steps (1-based); "all"
    steps = list(range(STEPS)) if only == "all" else [int(n) - 1 for n in only.split(",")]
    with ThreadPoolExecutor(2) as pool:
        evens = pool.submit(lambda: [case(s) for s in steps if s % 2 == 0])
        odds = pool.submit(lambda: [case(s) for s in steps if s % 2 == 1])
        problems = [p for p in evens.result() + odds.result() if p]
    for phone in phones:
        phone.stop()  # the restarted ones (start_sim stops the first ones)
    print(f"\nphone restarts: {len(steps)} (after the action of steps {[s + 1 for s in steps]}); "
          f"problems: {len(problems)}")
    assert problems == []
