"""Planning intelligence: what a replan costs next to a naive full regeneration, and LLM calls per task.

Runs the seed instruction through `starebrain do` (its own process, the real openai client) against a
scripted OpenAI-compatible server on loopback and a simulated phone behind an isolated adb server, then
`starebrain approve` at the confirmation before Send:

- `default`: the clean phone; `obstacle_course`: spinner, permission, Rate us, What's new, ANR and Update
  required in the way (cleared without the LLM); `plan_breaking_screen`: Gmail opens on its Sent folder,
  so "Start a new email" finds no Compose button (one grounding call, one replan); `missing_element`: the
  plan names a button the inbox does not have (one grounding call, one replan).
- `planning.replan_token_ratio`: on the plan-breaking screen's real failure, the prompt tokens of a naive
  full regeneration (the instruction plus the whole hierarchy XML, same system prompt) divided by those of
  the replan we sent; `planning.replan_token_ratio_by_failure` adds the missing-element failure. Both are
  estimated with `starebrain.planner.tokens` (the same estimate the scripted server reports).
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
from starebrain.llmserver import ScriptedLlmServer, plan_step
from starebrain.planner.prompts import naive_replan_messages
from starebrain.planner.tokens import estimate_messages_tokens
from starebrain.sim.adb_server import AdbServer

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
        return Errand(server, home, codes, effects)
    finally:
        sim.stop()


def replan_token_ratio(run: Errand) -> tuple[int, int]:
    """(tokens of the replan we sent, tokens of a naive regeneration) for that failure's screen."""
    from starebrain.store import Store

    sent = run.server.requests_for("replan")[0].messages
    with Store.open(run.home / "starebrain.db") as store:
        task = store.list_tasks(limit=1)[0]
        failed = next(a for a in store.attempts(task.id) if a.outcome.value == "FAILED")
    xml = Path(failed.hierarchy_path or "").read_text(encoding="utf-8")
    return estimate_messages_tokens(sent), estimate_messages_tokens(naive_replan_messages(SEED, xml))


def run(results: dict[str, Any]) -> None:
    """Three errands side by side; figures into `results`."""
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
            tokens = {name: replan_token_ratio(runs[name]) for name in ("plan_breaking_screen", "missing_element")}
    finally:
        host.close()
        adb.close()
    report(results, runs, tokens)


def report(results: dict[str, Any], runs: dict[str, Errand], tokens: dict[str, tuple[int, int]]) -> None:
    calls = {name: len(r.server.requests) for name, r in runs.items()}
    for name, (ours, naive) in tokens.items():
        print(f"  {name:<22} replan prompt tokens: ours {ours}  |  naive full regeneration {naive}  ->  "
              f"{naive / ours:.1f}x smaller (target >= 5x)")
    for name, r in runs.items():
        purposes = ", ".join(q.purpose or "?" for q in r.server.requests)
        print(f"  {name:<22} LLM calls {calls[name]} ({purposes}); exit codes {r.codes}; side effects {r.effects}")
    ours, naive = tokens["plan_breaking_screen"]
    results["planning.replan_prompt_tokens"] = ours
    results["planning.naive_regeneration_prompt_tokens"] = naive
    results["planning.replan_token_ratio"] = round(naive / ours, 2)
    results["planning.replan_token_ratio_by_failure"] = {k: round(n / o, 2) for k, (o, n) in tokens.items()}
    results["planning.llm_calls_per_task"] = calls
    results["planning.llm_calls_per_task_mean"] = round(sum(calls.values()) / len(calls), 2)


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    summary: dict[str, Any] = {}
    run(summary)
    print(summary)
