"""A column's copies stay in step: model field, table column, converters (the migration: test_schema.py).

The pydantic models are the API and the SQLModel tables the storage; they are kept apart on purpose (a
row has store-only columns, a model has no storage details) and the differences are listed here, each
with its reason. Adding a field to a model without a column and a converter fails these tests.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest
import sqlalchemy as sa
from pydantic import BaseModel
from sqlmodel import SQLModel

from starebrain import models as m
from starebrain.store import convert, tables

T1 = datetime(2026, 1, 2, 3, 4, 5, 600000, tzinfo=UTC)
T2 = datetime(2026, 1, 2, 3, 9, 0, tzinfo=UTC)

STEP = m.AgentStep(
    id="s1", index=4, instruction="tap Send", action=m.Tap(selector=m.Selector(text="Send")),
    target_package="com.example.mail", expect=m.Selector(text_contains="Sent"), irreversible=True,
    status=m.StepStatus.COMPLETED,
    result=m.StepResult(ok=True, message="sent", confirmed_by="cli", settled_by="expect"),
)
TASK = m.AgentTask(
    id="t1", instruction="send it", device_serial="emulator-5554", steps=[STEP], cursor=1,
    status=m.TaskStatus.COMPLETED, status_reason="done", replan_count=2, source="do", created_at=T1,
    updated_at=T2, prompt_tokens=120, completion_tokens=30, version=7,
)
ATTEMPT = m.Attempt(
    id="a1", task_id="t1", step_id="s1", number=3, started_at=T1, ended_at=T2,
    outcome=m.AttemptOutcome.SUCCEEDED, error="once timed out", obstructions=["keyboard"],
    screenshot_path="t1/s1.png", hierarchy_path="t1/s1.xml", hierarchy_hash="abc",
    phases_ms={"observe": 12.5},
)
CONFIRMATION = m.Confirmation(
    id="c1", task_id="t1", step_id="s1", approved_hash="h", reason="sends a message", asked_at=T1,
    decided_at=T2, decision=m.Decision.APPROVED, decided_by="cli",
)
LLM_CALL = m.LlmCall(
    id="l1", task_id="t1", purpose=m.LlmPurpose.REPLAN, model="m", prompt_tokens=100, completion_tokens=20,
    latency_ms=8.5, outcome="repaired", created_at=T1,
)
CONTEXT = m.AgentContext(
    device_serial="emulator-5554", current_package="com.example.mail", current_activity=".Main",
    recent_switches=[m.AppSwitch(package="com.example.mail", activity=".Main", at=T1)],
    entities={"last_conversation_partner": "Dana"}, captured_at=T1, confidence=m.Confidence.LOW,
)


class Mirror:
    """How one model maps onto its table: renamed fields, model-only fields, store-only columns."""

    def __init__(self, model: BaseModel, table: type[SQLModel], *, renamed: dict[str, str] | None = None,
                 model_only: frozenset[str] = frozenset(), store_only: frozenset[str] = frozenset()) -> None:
        self.model, self.table = model, table
        self.renamed, self.model_only, self.store_only = renamed or {}, model_only, store_only

    def columns(self) -> set[str]:
        return {c.name for c in sa.inspect(self.table).columns}

    def expected_columns(self) -> set[str]:
        fields = set(type(self.model).model_fields) - self.model_only
        return {self.renamed.get(f, f) for f in fields} | self.store_only


MIRRORS = {
    # steps are rows of their own table
    "task": Mirror(TASK, tables.TaskRow, model_only=frozenset({"steps"})),
    # task_id: the parent key; action_kind: the action's kind as plain text for SQL (the action is JSON);
    # superseded_at: a step a replan removed is kept for its attempts, the model holds only live steps;
    # position: `index` is an SQL keyword
    "step": Mirror(STEP, tables.StepRow, renamed={"index": "position"},
                   store_only=frozenset({"task_id", "action_kind", "superseded_at"})),
    "attempt": Mirror(ATTEMPT, tables.AttemptRow),
    "confirmation": Mirror(CONFIRMATION, tables.ConfirmationRow),
    "llm_call": Mirror(LLM_CALL, tables.LlmCallRow),
    # saved_at: when this process saved it; captured_at is when the phone was looked at
    "agent_context": Mirror(CONTEXT, tables.AgentContextRow, store_only=frozenset({"saved_at"})),
}


@pytest.mark.parametrize("name", sorted(MIRRORS))
def test_every_model_field_has_a_column_and_every_column_a_reason(name: str) -> None:
    mirror = MIRRORS[name]
    assert mirror.columns() == mirror.expected_columns()


@pytest.mark.parametrize("name", sorted(MIRRORS))
def test_the_samples_set_every_field_away_from_its_default(name: str) -> None:
    # so a converter that forgets a field cannot pass the round trips below by returning the default
    model = MIRRORS[name].model
    for field, info in type(model).model_fields.items():
        if not info.is_required():
            assert getattr(model, field) != info.get_default(call_default_factory=True), field


VALUES: dict[str, Callable[[], dict[str, Any]]] = {
    "task": lambda: convert.task_values(TASK),
    "step": lambda: convert.step_values(TASK.id, STEP),
    "attempt": lambda: convert.attempt_values(ATTEMPT),
}


@pytest.mark.parametrize("name", sorted(VALUES))
def test_prepared_values_name_exactly_the_columns(name: str) -> None:
    # the prepared statements bind by the table's columns: a missing key fails, an extra one is lost
    assert set(VALUES[name]()) == MIRRORS[name].columns()


ROUND_TRIPS: dict[str, Callable[[], tuple[BaseModel, BaseModel]]] = {
    "task": lambda: (TASK, convert.task_from_rows(convert.task_to_row(TASK),
                                                  [convert.step_to_row(TASK.id, s) for s in TASK.steps])),
    "step": lambda: (STEP, convert.step_from_row(convert.step_to_row(TASK.id, STEP))),
    "attempt": lambda: (ATTEMPT, convert.attempt_from_row(convert.attempt_to_row(ATTEMPT))),
    "confirmation": lambda: (CONFIRMATION, convert.confirmation_from_row(convert.confirmation_to_row(CONFIRMATION))),
    "llm_call": lambda: (LLM_CALL, convert.llm_call_from_row(convert.llm_call_to_row(LLM_CALL))),
    "agent_context": lambda: (CONTEXT, convert.context_from_row(convert.context_to_row(CONTEXT, T2))),
}


@pytest.mark.parametrize("name", sorted(ROUND_TRIPS))
def test_every_field_survives_the_converters(name: str) -> None:
    original, back = ROUND_TRIPS[name]()
    assert back == original


def test_every_mirrored_table_has_a_round_trip() -> None:
    assert set(ROUND_TRIPS) == set(MIRRORS)
