"""`TaskPlanner.plan_queued`: a `do --queue` task is planned into itself, through the code `plan()` uses."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from starebrain.agent.do_task import TaskPlanner
from starebrain.errors import ConfigInvalid, LlmUnavailable, StareBrainError, TaskStateError
from starebrain.llm.base import PlanningContext, PlanResult, attach_calls
from starebrain.models import AgentStep, AgentTask, LlmCall, OpenApp, Press, TaskStatus
from starebrain.profiles import load_profiles
from starebrain.store import Store
from starebrain.store.farm import FarmStore
from tests.fakes.fake_device import FakeDevice, FakeScreen, screen_xml

SETTINGS = "com.android.settings"


class OneAnswerPlanner:
    """A planner that gives one answer (steps, or an error carrying the calls it made) and notes what it was asked."""

    model = "scripted"

    def __init__(self, answer: PlanResult | StareBrainError) -> None:
        self.answer = answer
        self.asked: list[str] = []

    def plan(self, instruction: str, context: PlanningContext) -> PlanResult:
        self.asked.append(instruction)
        if isinstance(self.answer, StareBrainError):
            raise self.answer
        return self.answer


def call(tokens: int = 0) -> LlmCall:
    return LlmCall(purpose="plan", model="scripted", prompt_tokens=tokens, completion_tokens=tokens)


def planned(planner: OneAnswerPlanner, store: Store, device: FakeDevice) -> TaskPlanner:
    return TaskPlanner(planner, store, device, load_profiles())  # type: ignore[arg-type]


@pytest.fixture
def device() -> FakeDevice:
    return FakeDevice([FakeScreen("home", screen_xml("com.android.launcher", []), package="com.android.launcher")],
                      installed=[SETTINGS])


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with Store.open(tmp_path / "sb.db") as opened:
        yield opened


def queued(store: Store, serial: str, instruction: str = "Open Settings") -> AgentTask:
    task_id = FarmStore(store).enqueue(AgentTask(instruction=instruction, device_serial="", source="do"), serial, {})
    return store.load_task(task_id)


def test_a_queued_task_gets_its_steps_and_call_under_its_own_id(store: Store, device: FakeDevice) -> None:
    task = queued(store, device.serial)
    assert TaskPlanner.unplanned(task)
    steps = [AgentStep(instruction="Open Settings", action=OpenApp(package=SETTINGS))]
    planner = OneAnswerPlanner(PlanResult(steps=steps, calls=[call(tokens=7)]))
    result = planned(planner, store, device).plan_queued(task)
    assert planner.asked == ["Open Settings"] and result.id == task.id and not TaskPlanner.unplanned(result)
    assert [s.target_package for s in result.steps] == [SETTINGS] and result.status == TaskStatus.PENDING
    assert [c.task_id for c in store.llm_calls(task.id)] == [task.id] and result.prompt_tokens == 7
    assert [t.id for t in store.list_tasks()] == [task.id]  # filled in place, never a second task
    assert store.load_context(device.serial) is not None  # the context planning captured is kept


@pytest.mark.parametrize(("error", "calls"), [
    (LlmUnavailable("LLM endpoint answered 500"), 0),
    (LlmUnavailable("LLM endpoint answered 500"), 1),
    (ConfigInvalid("OPENAI_API_KEY is not set"), 0),  # the daemon's lazily built planner has no settings
])
def test_a_failed_plan_leaves_the_queued_task_failed_with_its_calls(store: Store, device: FakeDevice,
                                                                   error: StareBrainError, calls: int) -> None:
    task = queued(store, device.serial)
    attach_calls(error, [call() for _ in range(calls)])
    with pytest.raises(type(error)):
        planned(OneAnswerPlanner(error), store, device).plan_queued(task)
    failed = store.load_task(task.id)
    assert (failed.status, failed.status_reason) == (TaskStatus.FAILED, f"planning failed: {error.message}")
    assert failed.steps == [] and len(store.llm_calls(task.id)) == calls and len(store.list_tasks()) == 1
    assert not TaskPlanner.unplanned(failed)  # a failed task is never planned again


def test_only_an_unplanned_do_task_is_planned_in_place(store: Store, device: FakeDevice) -> None:
    planner = OneAnswerPlanner(PlanResult(steps=[]))
    flow = AgentTask(instruction="back", device_serial=device.serial,
                     steps=[AgentStep(instruction="Back", action=Press(key="back"))])
    store.create_task(flow)
    for task in (flow, flow.model_copy(update={"source": "do"})):
        with pytest.raises(TaskStateError, match="not a do-task waiting for its plan"):
            planned(planner, store, device).plan_queued(task)
    assert planner.asked == []
