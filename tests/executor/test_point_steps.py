"""The step runner with point taps and links on the fake messaging world: the point reaches the row under it,
a point off the screen is refused, a point on "Send" waits for the person, a link is opened once."""

from __future__ import annotations

from starebrain.events import EventBus
from starebrain.executor.artifacts import ArtifactWriter
from starebrain.executor.step_runner import RunnerSettings, StepRunner
from starebrain.models import AgentStep, OpenLink, Selector, Tap
from starebrain.profiles import load_profiles
from tests.executor.conftest import MSG, messaging_world


def _runner(start: str) -> tuple[StepRunner, object]:
    device = messaging_world()
    device.go(start)
    runner = StepRunner(device, load_profiles().device_profile("generic"), EventBus(), artifacts=ArtifactWriter(None),
                        settings=RunnerSettings(verify_timeout_s=0.5, poll_s=0.0, screenshots=False),
                        sleep=lambda s: None)
    return runner, device


def _tap(point: str) -> AgentStep:
    return AgentStep(instruction="tap there", action=Tap(selector=Selector(point=point)), target_package=MSG)


def test_a_point_tap_reaches_the_row_under_it() -> None:
    runner, device = _runner("list")
    report = runner.run("t", _tap("540,275"), 1)
    assert report.ok, report.message
    assert device.actions == [("tap", 540, 275)] and device.current == "thread"  # type: ignore[attr-defined]
    assert report.concrete is not None and "Dana Whitfield" in report.concrete.element


def test_a_point_off_the_screen_is_refused_before_anything_is_sent() -> None:
    runner, device = _runner("list")
    report = runner.run("t", _tap("5000,10"), 1)
    assert not report.ok and "off the 1080x1920 screen" in report.message
    assert device.actions == []  # type: ignore[attr-defined]


def test_a_point_on_send_waits_for_the_person() -> None:
    runner, device = _runner("thread")
    report = runner.run("t", _tap("990,1775"), 1)
    assert not report.ok and report.needs_person and "Send" in report.needs_person
    assert device.actions == []  # type: ignore[attr-defined]


def test_a_link_is_opened_once() -> None:
    runner, device = _runner("list")
    step = AgentStep(instruction="map", action=OpenLink(url="geo:52.52,13.40"), target_package=MSG)
    runner.run("t", step, 1)
    assert device.actions == [("open_link", "geo:52.52,13.40")]  # type: ignore[attr-defined]


def test_text_grounding_that_answers_a_point_is_not_used() -> None:
    from tests.fakes.scripted_planner import ScriptedPlanner

    runner, device = _runner("list")
    runner.planner = ScriptedPlanner(groundings=[Selector(point="540,275")])
    step = AgentStep(instruction="open Dana", action=Tap(selector=Selector(text="Dana W.")), target_package=MSG)
    report = runner.run("t", step, 1)
    assert not report.ok and 'grounding answered point="540,275"' in report.message
    assert device.actions == []  # type: ignore[attr-defined]
