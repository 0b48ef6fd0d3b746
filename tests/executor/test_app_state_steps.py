"""The step runner with stop_app and clear_state on the fake messaging world: each is sent once and is done
when the app left the screen; clearing waits for the person until approved; a device refusal fails the step."""

from __future__ import annotations

from starebrain.errors import BadInput
from starebrain.events import EventBus
from starebrain.executor.artifacts import ArtifactWriter
from starebrain.executor.step_runner import RunnerSettings, StepRunner
from starebrain.guard import ConfirmationGuard
from starebrain.guard.act_gate import ActGate
from starebrain.models import AgentStep, ClearState, StopApp
from starebrain.profiles import load_profiles
from tests.executor.conftest import MSG, messaging_world
from tests.fakes.fake_device import FakeDevice


def _runner(device: FakeDevice) -> StepRunner:
    return StepRunner(device, load_profiles().device_profile("generic"), EventBus(), artifacts=ArtifactWriter(None),
                      settings=RunnerSettings(verify_timeout_s=0.3, poll_s=0.0, screenshots=False),
                      sleep=lambda s: None)


def test_stopping_the_app_in_front_is_sent_once_and_leaves_it() -> None:
    device = messaging_world()
    device.go("thread")
    report = _runner(device).run("t", AgentStep(instruction="stop", action=StopApp(package=MSG)), 1)
    assert report.ok, report.message
    assert device.actions == [("stop_app", MSG)] and device.screen.package != MSG


def test_an_app_still_in_front_after_stopping_fails_the_step() -> None:
    device = messaging_world()
    device.go("thread")
    device.stop_app = lambda package: None  # type: ignore[method-assign]  # a phone that ignores the stop
    report = _runner(device).run("t", AgentStep(instruction="stop", action=StopApp(package=MSG)), 1)
    assert not report.ok and report.acted and report.message == f"{MSG} is still in front"


def test_clearing_waits_for_the_person_then_runs_once_approved() -> None:
    device = messaging_world()
    device.go("list")
    runner = _runner(device)
    step = AgentStep(instruction="wipe", action=ClearState(package=MSG), target_package=MSG)
    runner.act_gate = ActGate(ConfirmationGuard(load_profiles()))
    asked = runner.run("t", step, 1)
    assert not asked.ok and asked.needs_person and device.actions == []
    assert asked.concrete is not None
    runner.act_gate = ActGate(ConfirmationGuard(load_profiles()), f"{step.approval_hash()}:{asked.concrete.digest}")
    done = runner.run("t", step, 2)
    assert done.ok, done.message
    assert device.actions == [("clear_state", MSG)] and device.screen.package != MSG


def test_a_clearing_the_phone_refuses_fails_the_step_with_its_words() -> None:
    device = messaging_world()

    def refuse(package: str) -> None:
        raise BadInput(f"fake-0: pm clear {package} did not succeed: Failed")

    device.clear_state = refuse  # type: ignore[method-assign]
    runner = _runner(device)
    step = AgentStep(instruction="wipe", action=ClearState(package="com.android.settings"))
    report = runner.run("t", step, 1)
    assert not report.ok and "did not succeed: Failed" in report.message
