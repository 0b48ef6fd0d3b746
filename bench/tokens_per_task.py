"""`planning.tokens_per_task_vs_stepwise`: LLM tokens per completed task, StareBrain vs the per-step agent.

Thirteen tasks (the invoice errand and the twelve example flows of the regression suite) on a simulated
phone reset to the same state before each run. Both sides get the same scripted answers: StareBrain one
plan holding the flow's steps; the per-step agent (`bench/stepwise_agent.py`) those same steps one per
call, then an empty list. Both go through the real openai client to the scripted server; every request
body and every answer is counted with the same BPE tokenizer (`bench/bpe_tokens.py`).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench import bpe_tokens
from starebrain.flows.flow_file import Flow, load_flow
from starebrain.models import AgentStep
from starebrain.sim.adb_server import AdbServer

SECRETS = {"STAREBRAIN_SECRET_BANK_PASSWORD": "hunter2"}  # bank-activity types it; it never reaches a prompt


@dataclass
class Usage:
    """What one task cost in LLM traffic."""

    prompt: int
    completion: int
    calls: int
    completed: bool
    schema: int  # of `prompt`: the response_format JSON schemas sent

    @property
    def total(self) -> int:
        return self.prompt + self.completion


def task_flows() -> list[Flow]:
    """The invoice errand and the suite's flows, in a fixed order."""
    from starebrain.flows import examples_dir

    root = examples_dir()
    return [load_flow(root / "invoice.yaml"), *(load_flow(p) for p in sorted((root / "suite").glob("*.yaml")))]


def planned(step: AgentStep) -> dict[str, Any]:
    """`step` as strict structured output writes it."""
    from starebrain.llm.schema import PlannedStep

    return PlannedStep(instruction=step.instruction, action=step.action, target_package=step.target_package,
                       expect=step.expect, irreversible=step.irreversible).model_dump(mode="json")


def plan_entry(steps: list[AgentStep], explanation: str) -> dict[str, Any]:
    return {"purpose": "plan", "content": {"steps": [planned(s) for s in steps], "explanation": explanation}}


def served(server: Any, script: list[dict[str, Any]]) -> int:
    """Completion tokens of every answer the scripted server gave (all of `script`, checked)."""
    from starebrain.llmserver.script import Entry, content_text

    assert server.remaining("plan") == 0, "a scripted answer was left unused"
    return sum(bpe_tokens.count(content_text(Entry.model_validate(e))) for e in script)


def usage(bodies: list[dict[str, Any]], completion: int, completed: bool) -> Usage:
    """Counted request bodies and answers."""
    prompt = sum(bpe_tokens.prompt_tokens(b) for b in bodies)
    bare = sum(bpe_tokens.prompt_tokens(b, schema=False) for b in bodies)
    return Usage(prompt, completion, len(bodies), completed, prompt - bare)


def starebrain_task(serial: str, flow: Flow, home: Path) -> Usage:
    """`starebrain do` in this process: one plan through the real openai client, then the engine walks it."""
    from starebrain.agent.do_task import TaskPlanner
    from starebrain.config import load_settings
    from starebrain.engine import build_engine
    from starebrain.llm import build_planner
    from starebrain.llmserver import ScriptedLlmServer
    from starebrain.models import TaskStatus
    from starebrain.store import Store

    script = [plan_entry(flow.steps, "scripted")]
    with ScriptedLlmServer(script) as server:
        settings = load_settings(home=home, openai_base_url=server.base_url, openai_api_key="bench",
                                 model="scripted")
        planner = build_planner(settings)
        with Store.open(settings=settings) as store, build_engine(settings, store, serial,
                                                                  planner=planner) as session:
            assert session.executor is not None
            task = TaskPlanner(planner, store, session.device, session.profiles, session.tracker).plan(
                flow.instruction)
            task = session.executor.run(task)
            while task.status is TaskStatus.AWAITING_CONFIRMATION:  # the person says yes
                task = session.executor.approve(task, "bench")
        return usage([r.body for r in server.requests], served(server, script), task.status is TaskStatus.COMPLETED)


def stepwise_task(serial: str, flow: Flow, home: Path) -> Usage:
    """The per-step agent on the same task with the same answers, one step per call."""
    import openai

    from bench.stepwise_agent import StepwiseAgent
    from starebrain.device.u2_device import U2Device
    from starebrain.llmserver import ScriptedLlmServer
    from starebrain.profiles import load_profiles

    script = [plan_entry([s], "the next step") for s in flow.steps] + [plan_entry([], "done")]
    with ScriptedLlmServer(script) as server:
        client = openai.OpenAI(base_url=server.base_url, api_key="bench", max_retries=0, timeout=30)
        device = U2Device.connect(serial, timeout_s=30)
        try:
            agent = StepwiseAgent(client, "scripted", device, load_profiles(), home / "artifacts")
            completed = agent.run(flow.instruction)
        finally:
            device.close()
        completion = sum(bpe_tokens.count(answer) for answer in agent.answers)
        return usage(agent.requests, completion, completed and server.remaining("plan") == 0)


@contextmanager
def environment(adb: AdbServer) -> Iterator[None]:
    """U2Device's adb client takes the server port from the environment; secrets too. Restored after."""
    wanted = {"ANDROID_ADB_SERVER_PORT": str(adb.port), "ADBUTILS_ADB_PATH": "/bin/false", **SECRETS}
    saved = {k: os.environ.get(k) for k in wanted}
    os.environ.update(wanted)
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def compare(adb: AdbServer, host: Any, work: Path) -> dict[str, tuple[Usage, Usage]]:
    """Per task name: (StareBrain, per-step agent), each on a freshly reset sim."""
    from starebrain.sim.harness import SimConfig

    sim = host.start_sim(adb, SimConfig(scenario="default"))
    results: dict[str, tuple[Usage, Usage]] = {}
    try:
        with environment(adb):
            for flow in task_flows():
                runs = []
                for side, run in (("starebrain", starebrain_task), ("stepwise", stepwise_task)):
                    sim.reset(scenario="default")
                    sim.wait_online()
                    runs.append(run(sim.serial, flow, work / flow.name / side))
                results[flow.name] = (runs[0], runs[1])
    finally:
        sim.stop()
    return results


def record(results: dict[str, Any], runs: dict[str, tuple[Usage, Usage]]) -> None:
    """Print each task side by side; store the per-task means and their ratio."""
    for name, (ours, theirs) in runs.items():
        print(f"  {name:<26} StareBrain {ours.total:>6} tokens in {ours.calls} call(s) "
              f"{'ok' if ours.completed else 'NOT COMPLETED'}  |  per-step agent {theirs.total:>6} in "
              f"{theirs.calls} calls {'ok' if theirs.completed else 'NOT COMPLETED'}  ->  "
              f"{theirs.total / ours.total:.1f}x", flush=True)
    done = [(o, t) for o, t in runs.values() if o.completed and t.completed]
    ours_mean = sum(o.total for o, _ in done) / len(done)
    theirs_mean = sum(t.total for _, t in done) / len(done)
    results["planning.tokens_per_task_vs_stepwise"] = round(theirs_mean / ours_mean, 2)
    results["planning.tokens_per_task_starebrain"] = round(ours_mean, 1)
    results["planning.tokens_per_task_stepwise"] = round(theirs_mean, 1)
    bare = [sum(t.total - t.schema for _, t in done), sum(o.total - o.schema for o, _ in done)]
    results["planning.tokens_per_task_vs_stepwise_without_schema"] = round(bare[0] / bare[1], 2)
    results["planning.tokens_per_task_tasks"] = f"{len(done)} of {len(runs)} completed by both"
    results["planning.tokenizer"] = "tiktoken cl100k_base (BPE)"
