"""A seeded randomized fault campaign against the invoice errand, all faults from outside.

Each run drives the errand with real `starebrain` processes and applies a random fault at a random
crash point of a random step: SIGKILL of the engine, SIGSTOP past the lease while another process
resumes and the person approves, a phone restart (home screen), or a concurrent `cancel`; sometimes
a second SIGKILL hits the person's first `resume`. Then the person finishes the task with ordinary
commands. It prints `runs N, faults F, duplicated side effects 0, lost steps 0, stuck 0`.

CI runs 12 runs (about 3 minutes on 2 cores); `make fault-campaign` runs 40 (RUNS=N for more;
STAREBRAIN_CAMPAIGN_SEED picks another seed).
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.cli.cli_process import INVOICE_FLOW, Cli
from tests.cli.faults import finish_as_the_person, restart_phone, side_effects, wait_stopped, wait_until

pytestmark = pytest.mark.e2e

RUNS = int(os.environ.get("STAREBRAIN_CAMPAIGN_RUNS", "12"))
SEED = int(os.environ.get("STAREBRAIN_CAMPAIGN_SEED", "20261201"))
KINDS = ("kill", "stop_past_lease", "phone_restart", "cancel")
POINTS = ("after_begin", "after_act", "after_commit")
STEPS, SEND = 12, 8
SHORT_LEASE = {"STAREBRAIN_LEASE_TTL_S": "1.5"}
DONE = {"mail_sent": 1, "task_completed": 1}


@dataclass
class Tally:
    runs: int = 0
    faults: int = 0
    duplicated: int = 0
    lost: int = 0
    stuck: int = 0
    problems: list[str] = field(default_factory=list)


@dataclass
class Plan:
    """One run's random choices."""

    n: int
    kind: str
    point: str
    step: int
    second: tuple[str, int] | None  # a SIGKILL of the person's first `resume`: point, steps past the cursor

    @classmethod
    def draw(cls, n: int) -> Plan:
        rng = random.Random(SEED * 1000 + n)
        kind = KINDS[n % len(KINDS)] if n < len(KINDS) else rng.choice(KINDS)
        point = rng.choice(POINTS)
        step = rng.randrange(STEPS)
        second = (rng.choice(POINTS), rng.randrange(3)) if rng.random() < 0.4 else None
        return cls(n, kind, point, step, second)

    def __str__(self) -> str:
        extra = f" + kill resume at {self.second[0]}, cursor + {self.second[1]}" if self.second else ""
        return f"run {self.n}: {self.kind} at {self.point}:{self.step}{extra}"

    def second_fault(self, cursor: int) -> str:
        """Where the first `resume` dies: a step it will reach (it stops at the Send question)."""
        assert self.second is not None
        point, ahead = self.second
        last = SEND - 1 if cursor < SEND else STEPS - 1
        return f"{point}:{min(cursor + ahead, last)}"


def start_driver(cli: Cli, phone: Any, plan: Plan, action: str, env: dict[str, str]) -> subprocess.Popen[str]:
    """`run` with the fault armed; past the Send question, `approve` (as the person) carries it."""
    fault = f"{plan.point}:{plan.step}:{action}"
    driver = cli.start("run", str(INVOICE_FLOW), "--device", phone.serial, fault=fault, **env)
    if plan.step >= SEND:
        driver.communicate(timeout=120)  # exit 3: the Send question
        driver = cli.start("approve", cli.latest_task_id(), fault=fault, **env)
    return driver


def apply_fault(cli: Cli, phone: Any, plan: Plan, home: Path) -> tuple[Any, int]:
    """Apply the run's fault; returns the phone (a restart replaces its handle) and faults applied."""
    if plan.kind == "kill":
        driver = start_driver(cli, phone, plan, "kill", {})
        driver.communicate(timeout=120)
        return phone, 1
    env = SHORT_LEASE if plan.kind == "stop_past_lease" else {}
    driver = start_driver(cli, phone, plan, "stop", env)
    try:
        wait_stopped(driver)
        if plan.kind == "phone_restart":
            phone = restart_phone(phone)
        elif plan.kind == "stop_past_lease":
            # another process takes over once the lease expired, and the person finishes the task
            finish_as_the_person(cli, phone, cli.latest_task_id())
        elif plan.kind == "cancel":
            canceller = cli.start("cancel", cli.latest_task_id())
            wait_until(lambda: _cancel_recorded(home) or canceller.poll() is not None, what="cancel request")
    finally:
        driver.send_signal(signal.SIGCONT)
        driver.communicate(timeout=120)
    if plan.kind == "cancel":
        canceller.communicate(timeout=120)
    return phone, 1


def _cancel_recorded(home: Path) -> bool:
    import sqlite3

    with sqlite3.connect(home / "starebrain.db") as conn:
        return conn.execute("SELECT count(*) FROM cancel_request").fetchone()[0] > 0


def completed_irreversible(detail: dict[str, Any]) -> dict[str, int]:
    """Irreversible steps COMPLETED or SKIPPED, with how many attempts each had."""
    runs: dict[str, int] = {}
    for a in detail["attempts"]:
        runs[a["step_id"]] = runs.get(a["step_id"], 0) + 1
    return {s["id"]: runs.get(s["id"], 0) for s in detail["task"]["steps"]
            if s["irreversible"] and s["status"] in ("COMPLETED", "SKIPPED")}


def one_run(plan: Plan, phone: Any, root: Path, tally: Tally) -> Any:
    phone.reset(scenario="default")
    phone.wait_online()
    home = root / f"run{plan.n}"
    cli = Cli(home)
    phone, faults = apply_fault(cli, phone, plan, home)
    task_id = cli.latest_task_id()
    before = cli.show(task_id)
    if plan.second and before["task"]["status"] in ("IN_PROGRESS", "PAUSED"):
        killed = cli.run("resume", task_id, crash_at=plan.second_fault(before["task"]["cursor"]))
        faults += killed.returncode == -9
    finish_as_the_person(cli, phone, task_id)
    after = cli.show(task_id)
    effects = side_effects(phone)
    status = after["task"]["status"]
    tally.runs += 1
    tally.faults += faults
    if effects.get("mail_sent", 0) > 1 or effects.get("task_completed", 0) > 1:
        tally.duplicated += 1
        tally.problems.append(f"{plan}: duplicated {effects}")
    done_after = completed_irreversible(after)
    lost = [sid for sid, n in completed_irreversible(before).items() if done_after.get(sid) != n]
    if status == "COMPLETED" and effects != DONE:
        lost.append("effects")
    if lost:
        tally.lost += 1
        tally.problems.append(f"{plan}: lost {lost} ({effects})")
    if status not in ("COMPLETED", "CANCELLED") or (status == "CANCELLED" and plan.kind != "cancel"):
        tally.stuck += 1
        tally.problems.append(f"{plan}: ended {status}: {after['task']['status_reason']}")
    return phone


@pytest.mark.timeout(3600)
def test_randomized_fault_campaign(start_sim: Any, tmp_path: Path) -> None:
    plans = [Plan.draw(n) for n in range(RUNS)]
    workers = 2
    phones = [start_sim() for _ in range(workers)]

    def worker(w: int) -> Tally:
        mine = Tally()
        for plan in plans[w::workers]:
            phones[w] = one_run(plan, phones[w], tmp_path, mine)
        return mine

    with ThreadPoolExecutor(workers) as pool:
        parts = [f.result() for f in [pool.submit(worker, w) for w in range(workers)]]
    for phone in phones:
        phone.stop()
    total = Tally()
    for part in parts:
        for name, value in vars(part).items():
            setattr(total, name, getattr(total, name) + value)
    print(f"\nfault campaign (seed {SEED}): runs {total.runs}, faults {total.faults}, duplicated side effects "
          f"{total.duplicated}, lost steps {total.lost}, stuck {total.stuck}")
    for problem in total.problems:
        print(f"  {problem}")
    assert (total.runs, total.duplicated, total.lost, total.stuck) == (RUNS, 0, 0, 0)
