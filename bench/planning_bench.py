"""Planning: LLM tokens per task against a per-step agent, a replan against our own full re-plan, calls per task.

Runs the seed instruction through `starebrain do` (its own process, the real openai client) against a
scripted OpenAI-compatible server on loopback and a simulated phone behind an isolated adb server, then
`starebrain approve` at the confirmation before Send:

- `default`: the clean phone; `obstacle_course`: spinner, permission, Rate us, What's new, ANR and Update
  required in the way (cleared without the LLM); `plan_breaking_screen`: Gmail opens on its Sent folder,
  so "Start a new email" finds no Compose button (one grounding call, one replan); `missing_element`: the
  plan names a button the inbox does not have (one grounding call, one replan).
- `planning.replan_vs_full_replan_tokens`: on the plan-breaking screen's real failure, the tokens (request
  and answer, BPE-counted) of our own full re-plan — the product's plan request built on the failure screen
  with the same context and installed apps — divided by those of the replan we sent. Both get the same
  answer (the remaining steps), so only the requests differ; `..._prompt_only` compares the requests alone,
  `..._by_failure` adds the missing-element failure.
- `planning.tokens_per_task_vs_stepwise` and its companions: see `bench/tokens_per_task.py`.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

import starebrain.demo
from bench import bpe_tokens, tokens_per_task
from starebrain.llmserver import ScriptedLlmServer, plan_step
from starebrain.sim.adb_server import AdbServer

PLAN_SCREEN_ITEMS = 20  # what `starebrain do` shows the planner of the screen (agent/do_task.py)
SEED = "send the invoice to the client I just messaged, then mark the project as done"
GMAIL = "com.google.android.gm"
BREAK_ON_OPEN = {"when": f"enter {GMAIL}/inbox", "do": [{"interpose": f"{GMAIL}/sent"}]}


def seed_steps() -> list[dict[str, Any]]:
    script = yaml.safe_load(Path(starebrain.demo.__file__).with_name("llm_script.yaml").read_text())
    return list(script["entries"][0]["content"]["steps"])


def plan(steps: list[dict[str, Any]]) -> dict[str, Any]:
    return {"purpose": "plan", "content": {"steps": steps, "explanation": "scripted"}}


NO_ELEMENT = {"purpose": "ground", "content": {"selector": None, "reason": "nothing fits"}}


def breaking_script() -> list[dict[str, Any]]:
    back = plan_step("Leave the Sent folder", {"kind": "press", "key": "back"}, GMAIL)
    return [plan(seed_steps()), NO_ELEMENT,
            {"purpose": "replan", "content": {"steps": [back, *seed_steps()[1:]], "explanation": "scripted"}}]


def missing_element_script() -> list[dict[str, Any]]:
    broken = seed_steps()
    broken[1] = {**broken[1], "action": {"kind": "tap", "selector": {**broken[1]["action"]["selector"],
                                                                    "resource_id": None, "text": "Write a message"}}}
    return [plan(broken), NO_ELEMENT,
            {"purpose": "replan", "content": {"steps": seed_steps()[1:], "explanation": "scripted"}}]


@dataclass
class Errand:
    """One task's run: the server's requests, the data dir, the exit codes."""

    server: ScriptedLlmServer
    home: Path
    codes: list[int]
    effects: dict[str, int]
    script: list[dict[str, Any]]


def cli(env: dict[str, str], *args: str) -> int:
    done = subprocess.run([sys.executable, "-m", "starebrain.cli", *args], env=env, capture_output=True, text=True,
                          timeout=300, stdin=subprocess.DEVNULL)
    return done.returncode


def errand(adb: AdbServer, host: Any, scenario: str, script: list[dict[str, Any]], home: Path,
           prepare: Callable[[Any], None] | None = None) -> Errand:
    """`do` the seed instruction on a fresh sim, approve the Send, and return what it took."""
    from starebrain.sim.harness import SimConfig
    from starebrain.store import Store

    sim = host.start_sim(adb, SimConfig(scenario=scenario))
    try:
        sim.wait_online()
        if prepare is not None:
            sim.call(prepare)
        server = ScriptedLlmServer(script).start()
        env = {**adb.env, "STAREBRAIN_HOME": str(home), "OPENAI_BASE_URL": server.base_url,
               "OPENAI_API_KEY": "bench", "STAREBRAIN_MODEL": "scripted"}
        codes = [cli(env, "do", SEED, "--device", sim.serial)]
        with Store.open(home / "starebrain.db") as store:
            task_id = store.list_tasks(limit=1)[0].id
        if codes[0] == 3:
            codes.append(cli(env, "approve", task_id))
        server.stop()
        effects = dict(sim.call(lambda phone: phone.state()["side_effects"]))
        return Errand(server, home, codes, effects, script)
    finally:
        sim.stop()


def replan_vs_full_replan(run: Errand) -> tuple[int, int, int]:
    """(our replan request, our full re-plan request on the same screen, the answer both get), in BPE tokens."""
    from starebrain.llm.base import PlanningContext
    from starebrain.llm.prompts import plan_messages
    from starebrain.llm.schema import PlanAnswer, response_format_for
    from starebrain.models import AgentContext
    from starebrain.snapshot import ScreenSnapshot
    from starebrain.store import Store

    replan = run.server.requests_for("replan")[0]
    with Store.open(run.home / "starebrain.db") as store:
        task = store.list_tasks(limit=1)[0]
        failed = next(a for a in store.attempts(task.id) if a.outcome.value == "FAILED")
        context = store.load_context(task.device_serial) or AgentContext(device_serial=task.device_serial)
    snap = ScreenSnapshot.from_xml(Path(failed.hierarchy_path or "").read_text(encoding="utf-8"))
    packages = _installed_line(replan.message_text("user"))
    ctx = PlanningContext.from_agent_context(context, screen_summary=snap.summary(max_items=PLAN_SCREEN_ITEMS),
                                             launchable_packages=packages)
    ctx = ctx.model_copy(update={"current_package": snap.foreground_package or ctx.current_package})
    full = {"messages": plan_messages(SEED, ctx, None), "response_format": response_format_for(PlanAnswer)}
    answer = bpe_tokens.count(json_answer(run.script[-1]))
    return bpe_tokens.prompt_tokens(replan.body), bpe_tokens.prompt_tokens(full), answer


def _installed_line(user: str) -> list[str]:
    line = next(x for x in user.splitlines() if x.startswith("Installed apps you may open: "))
    return line.split(": ", 1)[1].split(", ")


def json_answer(entry: dict[str, Any]) -> str:
    from starebrain.llmserver.script import Entry, content_text

    return content_text(Entry.model_validate(entry))


def run(results: dict[str, Any]) -> None:
    """The errands and the per-step comparison side by side; figures into `results`."""
    from starebrain.sim.harness import SimHost

    adb = AdbServer().start()
    host = SimHost()
    try:
        with tempfile.TemporaryDirectory(prefix="starebrain-planning-bench-") as tmp:
            homes = Path(tmp)  # one data dir per errand: each holds exactly its own task
            runs = {
                "default": errand(adb, host, "default", [plan(seed_steps())], homes / "default"),
                "obstacle_course": errand(adb, host, "obstacle_course", [plan(seed_steps())], homes / "obstacles"),
                "plan_breaking_screen": errand(adb, host, "default", breaking_script(), homes / "breaking",
                                               prepare=lambda phone: phone.inject("trigger", **BREAK_ON_OPEN)),
                "missing_element": errand(adb, host, "default", missing_element_script(), homes / "missing"),
            }
            tokens = {name: replan_vs_full_replan(runs[name]) for name in ("plan_breaking_screen", "missing_element")}
            per_task = tokens_per_task.compare(adb, host, homes / "per-task")
    finally:
        host.close()
        adb.close()
    report(results, runs, tokens)
    tokens_per_task.record(results, per_task)


def report(results: dict[str, Any], runs: dict[str, Errand], tokens: dict[str, tuple[int, int, int]]) -> None:
    calls = {name: len(r.server.requests) for name, r in runs.items()}
    ratios = {}
    for name, (replan, full, answer) in tokens.items():
        ratios[name] = round((full + answer) / (replan + answer), 2)
        print(f"  {name:<22} our replan {replan} + answer {answer} tokens  |  our full re-plan {full} + the same "
              f"answer  ->  {ratios[name]:.2f}x (requests alone {full / replan:.2f}x)", flush=True)
    for name, r in runs.items():
        purposes = ", ".join(q.purpose or "?" for q in r.server.requests)
        print(f"  {name:<22} LLM calls {calls[name]} ({purposes}); exit codes {r.codes}; side effects {r.effects}")
    replan, full, answer = tokens["plan_breaking_screen"]
    results["planning.replan_tokens"] = replan + answer
    results["planning.full_replan_tokens"] = full + answer
    results["planning.replan_vs_full_replan_tokens"] = ratios["plan_breaking_screen"]
    results["planning.replan_vs_full_replan_tokens_prompt_only"] = round(full / replan, 2)
    results["planning.replan_vs_full_replan_tokens_by_failure"] = ratios
    results["planning.llm_calls_per_task"] = calls
    results["planning.llm_calls_per_task_mean"] = round(sum(calls.values()) / len(calls), 2)


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    summary: dict[str, Any] = {}
    run(summary)
    print(summary)
