"""The example Maestro suite as CI would run it: `starebrain test` on four simulated phones, JUnit
valid against the schema; then a run SIGKILLed mid-suite and `--resume`d as a new process, which must
finish every flow without repeating the irreversible Send."""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from starebrain.flows import examples_dir
from starebrain.models import StepStatus, TaskStatus
from starebrain.store import Store
from tests.cli.cli_process import Cli
from tests.regression.test_suite_e2e import junit

pytestmark = pytest.mark.e2e

SUITE = examples_dir() / "maestro"
SEND = "Send the reply to Mom"


def sent(sims: list[Any]) -> int:
    return sum(int(s.call(lambda phone: phone.state()["side_effects"].get("message_sent", 0))) for s in sims)


def reply_task(store: Store) -> Any:
    found = [t for t in store.list_tasks(limit=500) if t.source.endswith("messages-reply.yaml")]
    return found[0] if found else None


def send_done(home: Path) -> bool:
    """The reply flow's Send has been committed (read through a second connection, as another process)."""
    db = home / "starebrain.db"
    if not db.exists():
        return False
    with Store.open(db) as store:
        task = reply_task(store)
    return task is not None and any(s.instruction == SEND and s.status == StepStatus.COMPLETED for s in task.steps)


def test_the_maestro_suite_passes_on_four_phones_with_valid_junit(sim: Any, start_sim: Any, tmp_path: Path) -> None:
    sims = [sim, start_sim(), start_sim(), start_sim()]
    devices = [arg for s in sims for arg in ("--device", s.serial)]
    done = Cli(tmp_path / "sb").run("test", str(SUITE), *devices, "--junit", str(tmp_path / "junit.xml"),
                                    "--html", str(tmp_path / "html"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert '<dd id="count-passed">14</dd>' in (tmp_path / "html" / "index.html").read_text()
    resilient = next(p.read_text() for p in (tmp_path / "html").glob("task-*.html")
                     if "maestro-settings-resilient" in p.read_text())
    assert "a decision of the flow, read from the screen" in resilient  # when/while decisions are steps
    assert 'alt="final screen"' in resilient and "optional step failed, flow carried on" in resilient
    project = next(p.read_text() for p in (tmp_path / "html").glob("task-*.html")
                   if "maestro-tasks-open-project" in p.read_text())
    assert "text~/Quarterly tax.*/" in project  # a text regex, recorded as the element it found:
    assert "Tap text=&quot;Quarterly tax filing&quot;" in project
    doc = junit(tmp_path / "junit.xml")
    assert len(doc.findall(".//testcase")) == 14  # the irreversible reply is left out without approval
    assert "left out by tags: maestro-messages-reply" in done.stdout
    assert "14 flows: 14 passed" in done.stdout and "on 4 phone(s)" in done.stdout
    devices_used = {p.get("value") for p in doc.iter("property") if p.get("name") == "device"}
    assert len(devices_used) > 1  # shared out over the phones
    assert sent(sims) == 0
    assert sum(int(s.call(lambda phone: phone.state()["side_effects"].get("link_opened", 0))) for s in sims) == 1
    point = next(p.read_text() for p in (tmp_path / "html").glob("task-*.html")
                 if "maestro-settings-point" in p.read_text())
    assert "Long press point=&quot;540,1300&quot;" in point  # a long press at a point, as it was recorded


def test_the_maestro_suite_on_four_phones_survives_a_kill_and_resumes_without_repeating_the_send(
        sim: Any, start_sim: Any, tmp_path: Path) -> None:
    sims = [sim, start_sim(), start_sim(), start_sim()]
    suite = tmp_path / "maestro"
    shutil.copytree(SUITE, suite)
    cli = Cli(tmp_path / "sb", timeout_s=300)
    devices = [arg for s in sims for arg in ("--device", s.serial)]
    args = [sys.executable, "-m", "starebrain.cli", "test", str(suite), *devices, "--approve-irreversible"]

    first = subprocess.Popen([*args, "--junit", str(tmp_path / "killed.xml")], env=cli.env(),
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + 240
    while not send_done(cli.home):
        assert first.poll() is None, f"the suite ended before the Send: {first.communicate()[0]}"
        assert time.monotonic() < deadline, "the Send never happened"
        time.sleep(0.05)
    first.send_signal(signal.SIGKILL)  # mid-suite: other phones are in the middle of their flows
    first.wait(30)
    with Store.open(cli.home / "starebrain.db") as store:
        before = {t.id: t.status for t in store.list_tasks(limit=500)}
        reply_before = reply_task(store)
    unfinished = [i for i, status in before.items() if not status.resolved]
    assert unfinished, "the kill came after every flow had finished"
    assert sent(sims) == 1

    second = subprocess.run([*args, "--resume", "--junit", str(tmp_path / "junit.xml")], env=cli.env(),
                            text=True, capture_output=True, timeout=300)
    assert second.returncode == 0, second.stdout + second.stderr
    assert sent(sims) == 1  # the confirmed, irreversible Send was not repeated
    doc = junit(tmp_path / "junit.xml")
    assert len(doc.findall(".//testcase")) == 15
    assert not doc.findall(".//failure") and not doc.findall(".//error")
    assert "15 flows: 15 passed" in second.stdout and "on 4 phone(s)" in second.stdout

    with Store.open(cli.home / "starebrain.db") as store:
        after = {t.id: t for t in store.list_tasks(limit=500)}
        reply = reply_task(store)
        send = next(s for s in reply.steps if s.instruction == SEND)
        assert len(store.attempts(reply.id, send.id)) == 1
        confirmation = [c for c in store.confirmations(reply.id) if c.step_id == send.id]
    assert reply.id == reply_before.id and reply.status == TaskStatus.COMPLETED  # the same task, continued
    assert [c.decided_by for c in confirmation] == ["cli:--approve-irreversible"]  # asked, once
    for task_id in unfinished:  # every task cut off by the kill was continued, none restarted
        assert after[task_id].status == TaskStatus.COMPLETED, after[task_id].status_reason
    assert len(after) == len(before) + (15 - len(before))  # one task per flow, never a second one
