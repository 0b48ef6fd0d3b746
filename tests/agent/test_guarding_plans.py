"""Plans and groundings are vetted by the guard, not taken on the model's word (pure logic, no device)."""

from __future__ import annotations

from starebrain.agent.guarded_grounding import GuardedGrounding
from starebrain.agent.step_targets import assign_target_packages
from starebrain.guard import ConfirmationGuard
from starebrain.models import AgentStep, OpenApp, Tap
from starebrain.models.selector import Selector
from starebrain.profiles import load_profiles
from tests.fakes.scripted_planner import ScriptedPlanner

MESSAGING = "com.google.android.apps.messaging"
NOTES = "com.google.android.keep"
BANK = "com.starebrain.bank"


def _tap(text: str, package: str | None = None, index: int = 0) -> AgentStep:
    return AgentStep(index=index, instruction=f"Tap {text}", action=Tap(selector=Selector(text=text)),
                     target_package=package)


def test_a_step_acts_in_the_app_the_plan_opened_whatever_the_model_claims() -> None:
    guard = ConfirmationGuard(load_profiles())
    steps = [AgentStep(index=0, instruction="Open Messages", action=OpenApp(package=MESSAGING)),
             _tap("Send", NOTES, 1)]  # "send" is only content in Notes: the lie would pass the guard
    assert not guard.check(steps[1]).needs_confirmation
    assigned = assign_target_packages(steps, "com.android.launcher3", guard)
    assert [s.target_package for s in assigned] == [MESSAGING, MESSAGING]
    assert guard.check(assigned[1]).needs_confirmation


def test_a_riskier_claim_is_kept_and_the_screen_app_is_the_default() -> None:
    guard = ConfirmationGuard(load_profiles())
    assigned = assign_target_packages([_tap("Confirm", BANK), _tap("Next")], NOTES, guard)
    assert [s.target_package for s in assigned] == [BANK, NOTES]


def test_grounding_onto_a_riskier_element_is_refused_and_a_harmless_one_is_kept() -> None:
    inner = ScriptedPlanner(groundings=[Selector(text="Send"), Selector(text="Latest")])
    grounding = GuardedGrounding(inner, ConfirmationGuard(load_profiles()))
    step = _tap("Show latest", MESSAGING)
    refused = grounding.ground(step, "screen")
    assert refused.selector is None and refused.reason.startswith("grounded element refused")
    assert len(refused.calls) == 1  # the call still counts
    assert grounding.ground(step, "screen").selector == Selector(text="Latest")


def test_a_link_with_a_package_brings_that_app_in_front_for_the_steps_after_it() -> None:
    from starebrain.models import OpenLink

    guard = ConfirmationGuard(load_profiles())
    steps = [AgentStep(instruction="Write to Dana", action=OpenLink(url="smsto:+15550100",
                                                                     package=MESSAGING)),
             _tap("Send SMS", NOTES)]
    assigned = assign_target_packages(steps, NOTES, guard)
    assert [s.target_package for s in assigned] == [MESSAGING, MESSAGING]
    assert guard.check(assigned[1]).needs_confirmation


def test_locating_on_a_screenshot_is_refused_for_a_step_that_needs_the_person() -> None:
    inner = ScriptedPlanner()
    grounding = GuardedGrounding(inner, ConfirmationGuard(load_profiles()))
    refused = grounding.locate(_tap("Confirm transfer", BANK), b"\xff\xd8", "a canvas")
    assert refused.point is None and "grounding refused" in refused.reason
