"""Sample tasks for the store tests."""

from __future__ import annotations

from starebrain.models import AgentStep, AgentTask, OpenApp, Selector, Tap, TypeText


def make_task(serial: str = "emulator-5554", n_steps: int = 3) -> AgentTask:
    """A task whose steps cover three action kinds, the last one irreversible."""
    steps = [
        AgentStep(instruction="open messages", action=OpenApp(package="com.example.messages"),
                  target_package="com.example.messages"),
        AgentStep(instruction="type the note", action=TypeText(selector=Selector(resource_id="msg"),
                                                               text="hello")),
        AgentStep(instruction="send it", action=Tap(selector=Selector(text="Send")),
                  expect=Selector(text_contains="Sent"), irreversible=True),
    ][:n_steps]
    return AgentTask(instruction="send hello", device_serial=serial, steps=steps)
