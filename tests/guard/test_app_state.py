"""The guard on stop_app and clear_state: stopping is harmless; clearing deletes an app's data for good, so it
needs the person for an app that can pay, send or keep the person's data (unknown apps too), planned and at act
time alike, and the person's question says it cannot be undone."""

from __future__ import annotations

import pytest

from starebrain.guard import ConfirmationGuard
from starebrain.guard.act_gate import ActGate
from starebrain.guard.concrete_action import concrete_action
from starebrain.models import AgentStep, ClearState, StopApp
from starebrain.profiles import load_profiles
from starebrain.report.wording import question
from starebrain.snapshot import ScreenSnapshot
from tests.fakes.fake_device import screen_xml

GUARD = ConfirmationGuard(load_profiles())
HOLDING = ["com.google.android.keep", "com.google.android.gm", "com.google.android.apps.messaging",
           "com.starebrain.bank", "com.google.android.apps.tasks", "org.unknown.app"]
EMPTY = ["com.android.settings", "com.android.launcher3"]
HOME = ScreenSnapshot.from_xml(screen_xml("com.android.launcher3", []))


def _step(action: StopApp | ClearState, in_front: str | None = None) -> AgentStep:
    return AgentStep(instruction="reset the app", action=action, target_package=in_front)


@pytest.mark.parametrize("package", HOLDING + EMPTY)
def test_stopping_an_app_never_asks(package: str) -> None:
    step = _step(StopApp(package=package))
    assert not GUARD.check(step).needs_confirmation
    assert ActGate(GUARD).judge(step, HOME, None, None).go


@pytest.mark.parametrize("package", HOLDING)
def test_clearing_an_app_that_keeps_the_persons_data_asks_first(package: str) -> None:
    step = _step(ClearState(package=package), in_front="com.android.launcher3")  # its own app is judged
    decision = GUARD.check(step)
    assert decision.needs_confirmation and "cannot be undone" in decision.reason
    assert decision.category == load_profiles().category_of(package)
    verdict = ActGate(GUARD).judge(step, HOME, None, None)
    assert not verdict.go and f"clear_state {package}" in verdict.ask


@pytest.mark.parametrize("package", EMPTY)
def test_clearing_a_settings_or_system_app_does_not_ask(package: str) -> None:
    assert not GUARD.check(_step(ClearState(package=package))).needs_confirmation


def test_an_approval_covers_that_very_clearing_only() -> None:
    step = _step(ClearState(package="com.google.android.keep"))
    concrete = concrete_action(step, HOME, None)
    assert concrete.app == "com.google.android.keep" and concrete.describe() == "clear_state com.google.android.keep"
    approved = f"{step.approval_hash()}:{concrete.digest}"
    assert ActGate(GUARD, approved).judge(step, HOME, None, None).go
    other = _step(ClearState(package="com.google.android.gm"))
    assert not ActGate(GUARD, approved).judge(other, HOME, None, None).go


def test_the_persons_question_says_what_goes() -> None:
    step = _step(ClearState(package="com.google.android.keep"))
    assert question(step) == ("Step 1, “reset the app”: delete all the data of com.google.android.keep? "
                              "This cannot be undone.")
    assert "its data stays" in question(_step(StopApp(package="com.google.android.keep")))
