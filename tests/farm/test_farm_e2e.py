"""Three hosts on one machine (three adb servers, two simulated phones each, three daemon processes)
sharing one PostgreSQL: a suite through the queue, then faults from outside.

Sizes are kept small for CI: 10 pool flows, 4 flows x 6 phones = 24 runs, 1-4 tasks per fault."""

from __future__ import annotations

import signal
import time
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from starebrain.flows import examples_dir
from starebrain.models import TaskStatus
from starebrain.store.farm import FarmStore
from tests.farm.farm import LEASE_TTL_S, Farm, side_effects
from tests.postgres import PgServer

pytestmark = pytest.mark.e2e
SUITE = examples_dir() / "suite"
NOTE = SUITE / "notes-new.yaml"
# every suite flow that needs no person (no irreversible step, no secret): 10 flows
SUITE_RUNS = sorted(p for p in SUITE.glob("*.yaml") if p.stem not in ("bank-activity", "messages-reply"))


@pytest.fixture
def farm(farm_pg: PgServer, sim_host: Any, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Farm]:
    marker = request.node.get_closest_marker("farm")
    f = Farm(farm_pg, sim_host, tmp_path, **(marker.kwargs if marker else {}))
    try:
        yield f
    finally:
        f.close()


def queue_notes(farm: Farm, serials: list[str]) -> list[str]:
    from starebrain.flows.flow_file import load_flow
    from starebrain.models import AgentTask

    doc = load_flow(NOTE)
    with farm.store() as store:
        return [FarmStore(store).enqueue(AgentTask(instruction=doc.instruction, device_serial=s,
                                                   steps=[x.model_copy(deep=True) for x in doc.steps],
                                                   source="flow"), s, {}) for s in serials]


def tasks_of(farm: Farm, ids: list[str]) -> list[Any]:
    with farm.store() as store:
        return [store.load_task(i) for i in ids]


def wait_for(check: Any, timeout_s: float = 180, what: str = "condition") -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


def test_a_suite_runs_across_three_hosts_into_one_junit(farm: Farm, tmp_path: Path) -> None:
    for n in range(3):
        farm.start_daemon(f"host{n}", n)
    farm.wait_present(6)
    junit = tmp_path / "junit.xml"
    done = farm.cli("test", "--farm", *map(str, SUITE_RUNS), "--junit", str(junit))
    assert done.returncode == 0, done.stdout + done.stderr
    root = ET.parse(junit).getroot()
    cases = root.findall(".//testcase")
    assert len(cases) == len(SUITE_RUNS) and not root.findall(".//failure") and not root.findall(".//error")
    status = farm.cli("farm", "status")
    assert status.stdout.count("daemon up") == 3 and "queue: 0 waiting, 0 claimed" in status.stdout, status.stdout
    drove = {name: farm.log(name).count("completed in") for name in farm.daemons}
    assert sum(drove.values()) == len(SUITE_RUNS) and all(drove.values()), drove  # every host took part
    notes = sum(side_effects(p).get("note_saved", 0) for host in farm.phones for p in host)
    assert notes == sum(1 for f in SUITE_RUNS if f.stem == "notes-new")  # exactly once each


def test_each_phone_runs_the_suite_24_runs_with_labels(farm: Farm, tmp_path: Path) -> None:
    for n in range(3):
        farm.start_daemon(f"host{n}", n)
    farm.wait_present(6)
    flows = [SUITE / f"{name}.yaml" for name in ("notes-new", "notes-read", "settings-about", "tasks-add")]
    junit = tmp_path / "each.xml"
    done = farm.cli("farm", "test", *map(str, flows), "--each-phone", "--label", "android=14", "--junit", str(junit))
    assert done.returncode == 0, done.stdout + done.stderr
    root = ET.parse(junit).getroot()
    assert len(root.findall(".//testcase")) == 24 and not root.findall(".//failure")
    assert [side_effects(p).get("note_saved", 0) for host in farm.phones for p in host] == [1] * 6
    refused = farm.cli("farm", "test", str(flows[0]), "--label", "model=Nokia 3310")
    assert refused.returncode == 4 and refused.stderr.startswith("error: no phone in the farm matches model=Nokia")


@pytest.mark.farm(timing="real-phone")
def test_a_killed_daemons_task_waits_for_it_and_never_moves(farm: Farm) -> None:
    for n in range(3):
        farm.start_daemon(f"host{n}", n)
    farm.wait_present(6)
    phone = farm.phones[0][0]
    [task_id] = queue_notes(farm, [phone.serial])
    wait_for(lambda: tasks_of(farm, [task_id])[0].cursor >= 2, what="step 3 on host0")
    farm.daemons["host0"][0].send_signal(signal.SIGKILL)
    farm.daemons["host0"][0].wait()
    time.sleep(4)  # past --dead-after: host0 is dead, its phones absent
    with farm.store() as store:
        view = FarmStore(store).view(stale_after_s=3)
    assert {h["name"]: h["state"] for h in view.hosts}["host0"] == "dead (no heartbeat)"
    assert not any(d["present"] for d in view.devices if d["host"] == "host0")
    [task] = tasks_of(farm, [task_id])
    assert task.status is TaskStatus.IN_PROGRESS and task.device_serial == phone.serial  # waits, bound
    farm.start_daemon("host0", 0)
    wait_for(lambda: tasks_of(farm, [task_id])[0].status.resolved, what="the task after the restart")
    [task] = tasks_of(farm, [task_id])
    assert task.status is TaskStatus.COMPLETED and task.device_serial == phone.serial
    assert f"resuming task {task_id}" in farm.log("host0")
    assert all(task_id not in farm.log(n) for n in ("host1", "host2"))  # never on another host's phone
    assert side_effects(phone) == {"note_saved": 1}


@pytest.mark.farm(hosts=1, timing="real-phone")
def test_two_daemons_on_one_adb_server_and_one_suspended_past_its_lease(farm: Farm) -> None:
    a, b = farm.start_daemon("twin-a", 0), farm.start_daemon("twin-b", 0)
    farm.wait_present(2)
    serials = [p.serial for p in farm.phones[0]]
    ids = queue_notes(farm, serials + serials)  # two tasks per phone, both daemons see both phones
    wait_for(lambda: any(t.cursor >= 2 for t in tasks_of(farm, ids)), what="a task at step 3")
    with farm.store() as store:
        running = next(t for t in tasks_of(farm, ids) if t.cursor >= 2 and not t.status.resolved)
        holder = store.lease_of(running.device_serial)
    assert holder is not None
    stopped, other = (a, b) if holder.pid == a.pid else (b, a)
    stopped.send_signal(signal.SIGSTOP)
    time.sleep(LEASE_TTL_S * 2)  # its lease runs out; the other daemon takes the phone over
    wait_for(lambda: tasks_of(farm, [running.id])[0].status.resolved, what="the takeover finishing the task")
    stopped.send_signal(signal.SIGCONT)
    wait_for(lambda: all(t.status.resolved for t in tasks_of(farm, ids)), what="every task")
    assert all(t.status is TaskStatus.COMPLETED for t in tasks_of(farm, ids))
    assert [side_effects(p) for p in farm.phones[0]] == [{"note_saved": 2}, {"note_saved": 2}]  # exactly once
    woke = "twin-a" if stopped is a else "twin-b"
    assert f"fenced: lease on device {running.device_serial} was lost" in farm.log(woke)  # it woke, did nothing
    assert f"task {running.id} completed" not in farm.log(woke)
    for task_id in ids:  # exactly one daemon finished each task
        assert sum(f"task {task_id} completed" in farm.log(n) for n in ("twin-a", "twin-b")) == 1


@pytest.mark.farm(hosts=2, timing="real-phone")
def test_postgresql_restarting_mid_run_loses_nothing(farm: Farm) -> None:
    for n in range(2):
        farm.start_daemon(f"host{n}", n)
    farm.wait_present(4)
    serials = [p.serial for host in farm.phones for p in host]
    ids = queue_notes(farm, serials)
    wait_for(lambda: sum(t.cursor >= 2 for t in tasks_of(farm, ids)) >= 2, what="tasks under way")
    farm.pg.stop("fast")
    time.sleep(1.0)
    farm.pg.start()
    wait_for(lambda: all(t.status.resolved for t in tasks_of(farm, ids)), what="every task after the restart")
    assert all(t.status is TaskStatus.COMPLETED for t in tasks_of(farm, ids))
    assert [side_effects(p) for host in farm.phones for p in host] == [{"note_saved": 1}] * 4
    assert all(farm.daemons[n][0].poll() is None for n in farm.daemons)  # they reconnected, still up
