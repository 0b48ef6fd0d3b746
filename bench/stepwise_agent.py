"""The per-step agent baseline: one LLM call per step, each with the goal, the history and the current screen.

This is how the well-known phone agents work (observe, ask the model for the next action, act, repeat).
To be the baseline a skeptic would pick, it is as lean as StareBrain's own requests: the same action
vocabulary and untrusted-data rules in its system prompt, the same capped screen summary (no raw
hierarchy), the same structured answer (a step list, here holding only the next step, empty when the
goal is reached), one line of history per step taken. It acts through StareBrain's `StepRunner`, so it
does exactly the device work StareBrain would do for the same step.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from starebrain.device.base import Device
from starebrain.events import EventBus
from starebrain.executor.artifacts import ArtifactWriter
from starebrain.executor.step_runner import RunnerSettings, StepRunner
from starebrain.llm import prompts
from starebrain.llm.schema import PlanAnswer, parse_answer, response_format_for, to_agent_steps
from starebrain.profiles import Profiles
from starebrain.snapshot import ScreenSnapshot

SCREEN_ITEMS = 20  # the cap StareBrain's plan request uses
MAX_TURNS = 40

_STEP_TASK = """\
purpose: plan
You are operating the phone one action at a time. Given the person's instruction, the actions already
taken and the current screen, answer the single next step as a list of one step, or an empty list
when the instruction has been carried out."""


def step_messages(goal: str, history: list[str], summary: str, package: str,
                  launchable: list[str]) -> list[dict[str, str]]:
    """One turn's request: goal, history, device facts and the current screen."""
    taken = [f"  {i + 1}. {line}" for i, line in enumerate(history)] or ["  (none yet)"]
    user = "\n".join([f"Instruction from the person: {goal}", "",
                      "Actions taken so far:", *taken, "",
                      f"Foreground app: {package or 'unknown'}",
                      f"Installed apps you may open: {', '.join(sorted(launchable)) or '(unknown)'}",
                      "Current screen:", prompts.screen(summary)])
    return [{"role": "system", "content": prompts.system_prompt(_STEP_TASK, None)},
            {"role": "user", "content": user}]


class StepwiseAgent:
    """Observe, ask for the next step, run it, until the model answers that it is done."""

    def __init__(self, client: Any, model: str, device: Device, profiles: Profiles, work: Path) -> None:
        self.client = client
        self.model = model
        self.device = device
        self.runner = StepRunner(device, profiles.device_profile(device.brand()), EventBus(),
                                 artifacts=ArtifactWriter(work), settings=RunnerSettings(screenshots=False))
        self.requests: list[dict[str, Any]] = []  # every request body sent, for counting
        self.answers: list[str] = []  # every answer's content

    def run(self, goal: str) -> bool:
        """Carry out `goal`; True when the model declared it done with every step succeeding."""
        launchable = sorted(self.device.installed_packages())
        history: list[str] = []
        for turn in range(MAX_TURNS):
            obs = self.device.observe()
            snap = ScreenSnapshot.from_xml(obs.hierarchy_xml)
            answer = self._ask(step_messages(goal, history, snap.summary(max_items=SCREEN_ITEMS), obs.package,
                                             launchable))
            if not answer.steps:
                return True
            (step,) = to_agent_steps(answer, start=turn)
            report = self.runner.run("stepwise", step, 1)
            history.append(f"{prompts.step_line(step)} -> {'done' if report.ok else 'failed: ' + report.message}")
            if not report.ok:
                return False
        return False

    def _ask(self, messages: list[dict[str, str]]) -> PlanAnswer:
        body = {"model": self.model, "messages": messages, "response_format": response_format_for(PlanAnswer)}
        self.requests.append(json.loads(json.dumps(body)))
        reply = self.client.chat.completions.create(**body, extra_headers={prompts.PURPOSE_HEADER: "plan"})
        content = reply.choices[0].message.content or ""
        self.answers.append(content)
        return parse_answer(PlanAnswer, content)
