"""A small messaging world on the FakeDevice, a real Store on a temp file, the real guard."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from starebrain.engine import Parts, build_executor
from starebrain.events import Event, EventBus
from starebrain.executor.artifacts import ArtifactWriter
from starebrain.executor.replan_policy import ReplanPolicy
from starebrain.executor.step_runner import RunnerSettings
from starebrain.executor.task_executor import TaskExecutor
from starebrain.llm.base import Planner
from starebrain.profiles import load_profiles
from starebrain.store import Store
from tests.fakes.fake_device import FakeDevice, FakeNode, FakeScreen, screen_xml

MSG = "com.google.android.apps.messaging"


def messaging_world() -> FakeDevice:
    """Launcher → conversation list → thread with Dana → sent (toast-like 'Message sent')."""
    home = FakeScreen("home", screen_xml("com.android.launcher3", [
        FakeNode(text="Messages", bounds=(0, 0, 200, 200), clickable=True)]), package="com.android.launcher3",
        on_tap={"text=Messages": "list"})
    conv = FakeScreen("list", screen_xml(MSG, [
        FakeNode(text="Dana Whitfield", bounds=(0, 200, 1080, 350), clickable=True),
        FakeNode(text="Mum", bounds=(0, 350, 1080, 500), clickable=True)]), package=MSG,
        on_tap={"text=Dana Whitfield": "thread"}, on_press={"back": "home"})
    thread = FakeScreen("thread", screen_xml(MSG, [
        FakeNode(text="Dana Whitfield", resource_id=f"{MSG}:id/title", bounds=(0, 0, 1080, 150)),
        FakeNode(text="", resource_id=f"{MSG}:id/compose", class_name="android.widget.EditText",
                 bounds=(0, 1700, 900, 1850), clickable=True, focused=True),
        FakeNode(content_desc="Send", resource_id=f"{MSG}:id/send", bounds=(900, 1700, 1080, 1850),
                 clickable=True)]), package=MSG, on_tap={"content-desc=Send": "sent"}, on_press={"back": "list"})
    sent = FakeScreen("sent", screen_xml(MSG, [
        FakeNode(text="Dana Whitfield", resource_id=f"{MSG}:id/title", bounds=(0, 0, 1080, 150)),
        FakeNode(text="Message sent", bounds=(0, 1500, 1080, 1600))]), package=MSG, on_press={"back": "list"})
    overlay = FakeScreen("rate", screen_xml(MSG, [
        FakeNode(text="Enjoying Messages? Rate us", bounds=(100, 700, 980, 800)),
        FakeNode(text="Rate now", bounds=(100, 900, 500, 1000), clickable=True, class_name="android.widget.Button"),
        FakeNode(text="Not now", bounds=(580, 900, 980, 1000), clickable=True, class_name="android.widget.Button"),
    ]), package=MSG, on_tap={"text=Not now": "list"})
    return FakeDevice([home, conv, thread, sent, overlay], launch={MSG: "list"})


class Recorder:
    def __init__(self) -> None:
        self.events: list[Event] = []

    def __call__(self, event: Event) -> None:
        self.events.append(event)

    def kinds(self) -> list[str]:
        return [e.kind for e in self.events]


class World:
    """Everything one executor test needs, rebuilt on demand (as a new process would)."""

    def __init__(self, tmp: Path, device: FakeDevice) -> None:
        self.tmp = tmp
        self.device = device
        self.store = Store.open(tmp / "sb.db")
        self.recorder = Recorder()
        self.profiles = load_profiles()

    def executor(self, *, planner: Planner | None = None, policy: ReplanPolicy | None = None) -> TaskExecutor:
        """The executor `starebrain.engine` builds, over the fake device (a planner brings replanning)."""
        bus = EventBus()
        bus.subscribe(self.recorder)
        return build_executor(Parts(
            device=self.device, profiles=self.profiles, store=self.store, events=bus,
            artifacts=ArtifactWriter(self.tmp / "artifacts"), planner=planner, policy=policy,
            runner_settings=RunnerSettings(verify_timeout_s=0.3, poll_s=0.01), sleep=lambda s: None))

    def reopen(self) -> None:
        """Drop the store connection and open it again, like a new process."""
        self.store.close()
        self.store = Store.open(self.tmp / "sb.db")


@pytest.fixture
def world(tmp_path: Path) -> Iterator[World]:
    w = World(tmp_path, messaging_world())
    yield w
    w.store.close()
