"""A recorded task with everything a report shows: retries, an obstruction, a confirmation, a replan,
LLM calls, a failure and a pruned screenshot — written through the real Store, no phone needed."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from starebrain.models import (
    AgentStep,
    AgentTask,
    Attempt,
    AttemptOutcome,
    Confirmation,
    Decision,
    LlmCall,
    LlmPurpose,
    OpenApp,
    Selector,
    StepResult,
    StepStatus,
    Tap,
    TaskStatus,
)
from starebrain.store import Store

T0 = datetime(2026, 11, 30, 9, 0, 0, tzinfo=UTC)
MSG = "com.google.android.apps.messaging"
CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run")


def screenshot(path: Path, colour: str, label: str) -> str:
    """A small phone-shaped PNG with a label, like the sim's wireframes."""
    img = Image.new("RGB", (270, 600), colour)
    ImageDraw.Draw(img).text((20, 20), label, fill="black")
    path.parent.mkdir(parents=True, exist_ok=True)
    img.save(path)
    return str(path)


def steps() -> list[AgentStep]:
    return [
        AgentStep(id="s1", index=0, instruction="Open Messages", action=OpenApp(package=MSG), target_package=MSG),
        AgentStep(id="s2", index=1, instruction="Open Dana's thread", target_package=MSG,
                  action=Tap(selector=Selector(text="Dana Whitfield"))),
        AgentStep(id="s3", index=2, instruction="Send the invoice", target_package=MSG, irreversible=True,
                  action=Tap(selector=Selector(content_desc="Send"))),
    ]


def attempt(task: AgentTask, step: str, number: int, outcome: AttemptOutcome, shot: str | None,
            minutes: int, error: str = "", obstructions: list[str] | None = None) -> Attempt:
    return Attempt(id=f"a-{step}-{number}", task_id=task.id, step_id=step, number=number,
                   started_at=T0 + timedelta(minutes=minutes), ended_at=T0 + timedelta(minutes=minutes, seconds=1),
                   outcome=outcome, error=error, obstructions=obstructions or [], screenshot_path=shot,
                   phases_ms={"observe": 120.0, "act": 40.0, "verify": 200.0})


def record_attempt(store: Store, task: AgentTask, a: Attempt) -> None:
    step = next(s for s in task.steps if s.id == a.step_id)
    step.status = StepStatus.IN_PROGRESS
    outcome = a.outcome
    a.outcome = AttemptOutcome.RUNNING
    store.begin_attempt(task, a)
    a.outcome = outcome
    store.finish_attempt(task, a)


def build_task(store: Store, artifacts: Path) -> AgentTask:
    """Step 1 done after a spinner; step 2 failed once then passed (a retry); step 3 denied by the person."""
    task = AgentTask(id="rep0rt000001", instruction="Send the invoice to Dana", device_serial="emulator-5554",
                     steps=steps(), created_at=T0)
    store.create_task(task)
    folder = artifacts / task.id
    record_attempt(store, task, attempt(task, "s1", 1, AttemptOutcome.SUCCEEDED,
                                        screenshot(folder / "step01-attempt1.png", "#d0e8ff", "home"), 0,
                                        obstructions=["LOADING: Loading… (waited)"]))
    record_attempt(store, task, attempt(task, "s2", 1, AttemptOutcome.FAILED,
                                        screenshot(folder / "step02-attempt1.png", "#ffe0e0", "list"), 1,
                                        error='no element matches text="Dana Whitfield"'))
    record_attempt(store, task, attempt(task, "s2", 2, AttemptOutcome.SUCCEEDED,
                                        screenshot(folder / "step02-attempt2.png", "#e0ffe0", "list again"), 2))
    screenshot(folder / "final.png", "#f0e0ff", "final")  # the screen after the last step
    for s, status in zip(task.steps, (StepStatus.COMPLETED, StepStatus.COMPLETED), strict=False):
        s.status, s.result = status, StepResult(ok=True, message="done")
    task.cursor = 2
    asked = Confirmation(id="c1", task_id=task.id, step_id="s3", approved_hash=task.steps[2].approval_hash(),
                         reason="sends a message", asked_at=T0 + timedelta(minutes=3))
    task.status = TaskStatus.AWAITING_CONFIRMATION
    store.add_confirmation(asked, task=task)
    store.decide_confirmation("c1", Decision.DENIED, "tui")
    store.add_llm_call(LlmCall(id="l1", task_id=task.id, purpose=LlmPurpose.PLAN, model="gpt-4o-mini",
                               prompt_tokens=900, completion_tokens=120, latency_ms=812, created_at=T0))
    store.add_event(task.id, "Replanned", {"cursor": 1, "removed": 2, "added": 2, "reason": "thread moved"})
    task.steps[2].result = StepResult(ok=False, message="denied by the person (tui)")
    task.status, task.status_reason = TaskStatus.FAILED, "step 3 denied: Send the invoice"
    task.replan_count = 1
    store.save_task(task)
    return store.load_task(task.id)


@pytest.fixture
def report_store(tmp_path: Path) -> Iterator[tuple[Store, AgentTask]]:
    store = Store.open(tmp_path / "sb.db")
    task = build_task(store, tmp_path / "artifacts")
    yield store, task
    store.close()


def chromium_or_skip() -> str:
    """Chromium's path; in CI (CI=true) a missing chromium fails the test instead of skipping it."""
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found:
        return found
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail("chromium is not installed but CI=true: scripts/ci-deps.sh must install it")
    pytest.skip("chromium is not installed (apt-get install -y chromium, or run scripts/ci-deps.sh); "
                "CI runs this test")


def chromium(binary: str, tmp: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run headless chromium with a throwaway profile, bounded in time."""
    profile = tmp / "chromium-profile"
    return subprocess.run([binary, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *args],
                          capture_output=True, text=True, timeout=90, check=True)
