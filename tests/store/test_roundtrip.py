"""Every model goes into the store and comes back equal; timestamps come back aware UTC."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta, timezone

import pytest

from starebrain.errors import BadInput, StoreError, TaskNotFound, TaskStateError
from starebrain.models import (
    Action,
    AgentContext,
    AgentStep,
    AgentTask,
    AppSwitch,
    Attempt,
    AttemptOutcome,
    Confidence,
    Confirmation,
    Decision,
    LlmCall,
    LlmPurpose,
    LongPress,
    OpenApp,
    Press,
    ScrollTo,
    Selector,
    StepResult,
    StepStatus,
    Swipe,
    Tap,
    TaskStatus,
    TypeText,
    WaitFor,
)
from starebrain.store import Store
from tests.store.sample import make_task

EVERY_ACTION: list[Action] = [
    OpenApp(package="com.bank.app"),
    Tap(selector=Selector(text="Pay", index=1)),
    LongPress(selector=Selector(content_desc="Photo", class_name="android.widget.ImageView")),
    TypeText(selector=Selector(resource_id="com.bank:id/amount"), text="12.50"),
    TypeText(text="{secret:pin}"),
    Press(key="back"),
    Swipe(direction="left"),
    ScrollTo(selector=Selector(text_contains="Invoice"), max_swipes=7),
    WaitFor(selector=Selector(text="Done"), timeout_s=2.5),
]


@pytest.mark.parametrize("action", EVERY_ACTION, ids=lambda a: f"{a.kind}")
def test_every_action_kind_round_trips(store: Store, action: Action) -> None:
    step = AgentStep(instruction="do", action=action, target_package="com.bank.app",
                     expect=Selector(text="ok"), irreversible=True, status=StepStatus.FAILED,
                     result=StepResult(ok=False, message="no", confirmed_by="cli", settled_by="expect"))
    task = AgentTask(instruction="x", device_serial="s1", steps=[step])
    store.create_task(task)
    back = store.load_task(task.id)
    assert back == task
    assert type(back.steps[0].action) is type(action)


def test_task_round_trip_keeps_every_field_and_utc(store: Store) -> None:
    task = make_task()
    task.status, task.status_reason, task.cursor, task.replan_count = (
        TaskStatus.AWAITING_CONFIRMATION, "confirm send", 2, 1)
    task.source, task.prompt_tokens, task.completion_tokens = "do", 10, 5
    store.create_task(task)
    back = store.load_task(task.id)
    assert back == task
    assert back.created_at.tzinfo is not None and back.created_at.utcoffset() == timedelta(0)


def test_non_utc_timestamps_are_stored_as_the_same_instant(store: Store) -> None:
    task = make_task()
    task.created_at = datetime(2026, 1, 2, 8, 4, 5, tzinfo=timezone(timedelta(hours=5)))
    store.create_task(task)
    assert store.load_task(task.id).created_at == datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)


def test_attempt_round_trip_with_every_field(store: Store) -> None:
    task = make_task()
    store.create_task(task)
    task.steps[0].status = StepStatus.IN_PROGRESS
    attempt = Attempt(task_id=task.id, step_id=task.steps[0].id, number=2,
                      obstructions=["OVERLAY: Not now", "LOADING"], screenshot_path="a/b.png",
                      hierarchy_path="a/b.xml", hierarchy_hash="abc123",
                      phases_ms={"observe": 12.5, "act": 3.0})
    store.begin_attempt(task, attempt)
    assert store.attempts(task.id) == [attempt]
    attempt.outcome, attempt.error = AttemptOutcome.FAILED, "element not found"
    attempt.ended_at = attempt.started_at + timedelta(seconds=2)
    store.finish_attempt(task, attempt)
    assert store.attempts(task.id, task.steps[0].id) == [attempt]
    assert store.attempts(task.id, "other") == []


def test_confirmation_round_trip_and_decision(store: Store) -> None:
    task = make_task()
    store.create_task(task)
    step = task.steps[2]
    c = Confirmation(task_id=task.id, step_id=step.id, approved_hash=step.approval_hash(), reason="sends")
    store.add_confirmation(c)
    assert store.pending_confirmation(task.id) == c
    decided = store.decide_confirmation(c.id, Decision.APPROVED, "cli")
    assert decided.decision is Decision.APPROVED and decided.decided_by == "cli"
    assert store.pending_confirmation(task.id) is None
    assert store.confirmations(task.id) == [decided]
    assert store.decide_confirmation(c.id, "APPROVED", "tui").decided_by == "cli"  # idempotent
    with pytest.raises(TaskStateError, match="already decided: APPROVED by cli"):
        store.decide_confirmation(c.id, Decision.DENIED, "tui")
    with pytest.raises(BadInput):
        store.decide_confirmation("nope", Decision.DENIED, "cli")


def test_llm_calls_add_to_task_token_totals(store: Store) -> None:
    task = make_task()
    store.create_task(task)
    calls = [LlmCall(task_id=task.id, purpose=LlmPurpose.PLAN, model="m", prompt_tokens=100,
                     completion_tokens=20, latency_ms=350.0),
             LlmCall(task_id=task.id, purpose=LlmPurpose.REPLAN, model="m", prompt_tokens=50,
                     completion_tokens=10, outcome="repaired")]
    for call in calls:
        store.add_llm_call(call)
    assert store.llm_calls(task.id) == calls
    assert (store.load_task(task.id).prompt_tokens, store.load_task(task.id).completion_tokens) == (150, 30)
    store.save_task(task)  # a stale in-memory copy (0 tokens) must not shrink the totals
    assert store.load_task(task.id).prompt_tokens == 150


def test_context_is_stored_low_and_kept_per_device(store: Store) -> None:
    ctx = AgentContext(device_serial="s1", current_package="com.chat", current_activity=".Main",
                       recent_switches=[AppSwitch(package="com.mail", activity=".Inbox")],
                       entities={"last_conversation_partner": "Ana"}, confidence=Confidence.HIGH)
    store.save_context(ctx)
    back = store.load_context("s1")
    assert back == ctx.model_copy(update={"confidence": Confidence.LOW})
    assert store.load_context("s2") is None
    store.save_context(ctx.model_copy(update={"current_package": "com.tasks"}))
    assert store.load_context("s1").current_package == "com.tasks"  # type: ignore[union-attr]
    with pytest.raises(StoreError):
        store.save_context(AgentContext())


def test_load_task_by_unique_prefix_and_not_found(store: Store) -> None:
    a, b = make_task(), make_task()
    a.id, b.id = "abc111", "abc222"
    store.create_task(a)
    store.create_task(b)
    assert store.load_task("abc1").id == "abc111"
    with pytest.raises(TaskNotFound, match="ambiguous"):
        store.load_task("abc")
    with pytest.raises(TaskNotFound, match="no task 'zzz'"):
        store.load_task("zzz")
    with pytest.raises(TaskStateError, match="already exists"):
        store.create_task(a)


def test_replan_supersedes_steps_but_keeps_their_attempts(store: Store) -> None:
    task = make_task()
    store.create_task(task)
    old = task.steps[1]
    old.status = StepStatus.IN_PROGRESS
    attempt = Attempt(task_id=task.id, step_id=old.id)
    store.begin_attempt(task, attempt)
    task.cursor = 1
    revised = [AgentStep(instruction="retry typing", action=TypeText(text="hello"))]
    task = task.with_revised_steps(revised)
    store.save_task(task)
    back = store.load_task(task.id)
    assert [s.instruction for s in back.steps] == ["open messages", "retry typing"]
    assert [s.index for s in back.steps] == [0, 1]
    assert [a.id for a in store.attempts(task.id, old.id)] == [attempt.id]


def test_list_tasks_and_latest_unresolved(store: Store) -> None:
    done, waiting, running = make_task("s1"), make_task("s1"), make_task("s2")
    done.status, waiting.status, running.status = (
        TaskStatus.COMPLETED, TaskStatus.AWAITING_CONFIRMATION, TaskStatus.IN_PROGRESS)
    for t in (done, waiting, running):
        store.create_task(t)
    assert [t.id for t in store.list_tasks()] == [running.id, waiting.id, done.id]
    assert [t.id for t in store.list_tasks(serial="s1")] == [waiting.id, done.id]
    assert [t.id for t in store.list_tasks(status=TaskStatus.COMPLETED)] == [done.id]
    assert len(store.list_tasks(limit=1)) == 1
    assert store.latest_unresolved().id == running.id  # type: ignore[union-attr]
    store.save_task(waiting)  # touched last: now the newest unresolved
    assert store.latest_unresolved().id == waiting.id  # type: ignore[union-attr]
    assert store.latest_unresolved("s2").id == running.id  # type: ignore[union-attr]
    assert store.latest_unresolved("s3") is None


def test_events_since_returns_only_newer_events(store: Store) -> None:
    task = make_task()
    store.create_task(task)
    first = store.add_event(task.id, "StepStarted", {"index": 0, "at": datetime.now(UTC)})
    second = store.add_event(None, "DeviceOffline", {"serial": "s1"})
    assert [e.id for e in store.events_since(0)] == [first, second]
    assert [e.kind for e in store.events_since(first)] == ["DeviceOffline"]
    assert [e.id for e in store.events_since(0, task_id=task.id)] == [first]
    assert store.events_since(0)[0].payload["index"] == 0


def test_asking_saves_task_and_question_in_one_transaction(store: Store) -> None:
    task = make_task()
    store.create_task(task)
    step = task.steps[2]
    task.status, task.cursor = TaskStatus.AWAITING_CONFIRMATION, 2
    c = Confirmation(task_id=task.id, step_id=step.id, approved_hash=step.approval_hash(), reason="sends")
    store.add_confirmation(c, task=task)
    back = store.load_task(task.id)
    assert (back.status, back.cursor) == (TaskStatus.AWAITING_CONFIRMATION, 2)
    assert store.pending_confirmation(task.id) == c


def test_llm_call_for_an_unsaved_task_is_refused_clearly(store: Store) -> None:
    with pytest.raises(TaskStateError, match="not saved; create_task first"):
        store.add_llm_call(LlmCall(task_id="later", purpose=LlmPurpose.PLAN, model="m"))
    store.add_llm_call(LlmCall(purpose=LlmPurpose.PLAN, model="m"))  # no task: fine


def test_store_is_usable_from_another_thread(store: Store) -> None:
    lease = store.acquire_lease("emu-1", "executor", ttl_s=5)
    errors: list[BaseException] = []

    def renew() -> None:
        try:
            store.renew_lease(lease, ttl_s=60)
        except BaseException as e:  # surfaced below
            errors.append(e)

    worker = threading.Thread(target=renew)
    worker.start()
    worker.join(timeout=10)
    assert errors == []
    assert store.lease_of("emu-1").expires_at > lease.expires_at  # type: ignore[union-attr]


def test_a_task_with_a_cursor_off_its_steps_or_twin_step_ids_is_refused(store: Store) -> None:
    task = make_task()
    task.cursor = 4
    with pytest.raises(TaskStateError, match="cursor 4 outside its 3 steps"):
        store.create_task(task)
    task.cursor = 0
    task.steps[1].id = task.steps[0].id
    with pytest.raises(TaskStateError, match="two steps with id"):
        store.create_task(task)
    with pytest.raises(TaskNotFound):
        store.load_task(task.id)


def test_events_may_name_a_task_not_saved_yet(store: Store) -> None:
    event_id = store.add_event("planned-but-unsaved", "Planned", {"steps": 3})
    assert store.events_since(event_id - 1)[0].task_id == "planned-but-unsaved"


@pytest.mark.parametrize("decision", list(Decision))
def test_every_decision_round_trips(store: Store, decision: Decision) -> None:
    task = make_task()
    store.create_task(task)
    c = Confirmation(task_id=task.id, step_id=task.steps[0].id, approved_hash="h", reason="r")
    store.add_confirmation(c)
    store.decide_confirmation(c.id, decision, "approve")
    assert store.confirmations(task.id)[0].decision is decision
