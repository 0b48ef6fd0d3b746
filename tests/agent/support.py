"""Shared pieces of the planning tests: the seed plan, LLM scripts, and the `do` path run in-process."""

from __future__ import annotations

import copy
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

import starebrain.demo
from starebrain.llmserver import ScriptedLlmServer, plan_step, selector_dict
from starebrain.models import AgentTask

ROOT = Path(__file__).resolve().parents[2]
SEED = "send the invoice to the client I just messaged, then mark the project as done"
DEMO_SCRIPT = Path(starebrain.demo.__file__).with_name("llm_script.yaml")
GMAIL = "com.google.android.gm"
TASKS = "com.google.android.apps.tasks"
MESSAGING = "com.google.android.apps.messaging"
BANK = "com.starebrain.bank"
SEND_INDEX = 6  # "Send the email with the invoice" in the seed plan
SENSITIVE = ("transfer_made", "message_sent", "mail_sent", "task_completed", "note_saved", "wifi_toggled",
             "dangerous_tap")


def seed_steps() -> list[dict[str, Any]]:
    """The demo's plan for the seed instruction, as the LLM writes it."""
    script = yaml.safe_load(DEMO_SCRIPT.read_text(encoding="utf-8"))
    return copy.deepcopy(script["entries"][0]["content"]["steps"])


def plan_entry(steps: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    """A script entry answering one plan request with `steps`."""
    return {"purpose": "plan", "content": {"steps": steps, "explanation": "scripted"}, **extra}


def replan_entry(steps: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    """A script entry answering one replan request with `steps`."""
    return {"purpose": "replan", "content": {"steps": steps, "explanation": "scripted replan"}, **extra}


def no_element_ground() -> dict[str, Any]:
    """A grounding answer that finds nothing fitting on the screen."""
    return {"purpose": "ground", "content": {"selector": None, "reason": "nothing fits"}}


def tap(instruction: str, package: str | None, *, irreversible: bool = False, expect: dict[str, Any] | None = None,
        **selector: Any) -> dict[str, Any]:
    """A planned tap step."""
    step = plan_step(instruction, {"kind": "tap", "selector": selector_dict(**selector)}, package,
                     irreversible=irreversible)
    step["expect"] = selector_dict(**expect) if expect else None
    return step


def type_into(instruction: str, package: str, text: str, **selector: Any) -> dict[str, Any]:
    """A planned type step."""
    return plan_step(instruction, {"kind": "type", "selector": selector_dict(**selector), "text": text}, package)


def open_app(package: str) -> dict[str, Any]:
    """A planned open_app step."""
    return plan_step(f"Open {package}", {"kind": "open_app", "package": package}, package)


def broken_seed_steps() -> list[dict[str, Any]]:
    """The seed plan with step 2 naming a button the compose screen does not have."""
    steps = seed_steps()
    steps[1] = tap("Start a new email", GMAIL, text="Write a message", expect={"resource_id": f"{GMAIL}:id/to"})
    return steps


def untrusted_spans(text: str) -> list[str]:
    """The contents of every <untrusted_…> … </untrusted_…> block of a prompt."""
    import re

    return [body for _, body in re.findall(r"<untrusted_(\w+)>(.*?)</untrusted_\1>", text, flags=re.DOTALL)]


def outside_untrusted(text: str) -> str:
    """A prompt with its untrusted blocks cut out: what the LLM may take as trusted."""
    import re

    return re.sub(r"<untrusted_(\w+)>.*?</untrusted_\1>", "", text, flags=re.DOTALL)


def side_effects(sim: Any) -> dict[str, int]:
    """The simulated phone's side-effect counts."""
    return dict(sim.call(lambda phone: phone.state()["side_effects"]))


def llm_env(server: ScriptedLlmServer, **extra: str) -> dict[str, str]:
    """Environment pointing the CLI's openai client at the scripted server."""
    return {"OPENAI_BASE_URL": server.base_url, "OPENAI_API_KEY": "test-key", "STAREBRAIN_MODEL": "scripted",
            **extra}


@dataclass
class InProcess:
    """`starebrain do` without a process per run: the same objects the CLI wires, in this process."""

    home: Path
    serial: str
    base_url: str

    def settings(self, **overrides: Any) -> Any:
        from starebrain.config import load_settings

        return load_settings(home=self.home, openai_base_url=self.base_url, openai_api_key="test-key",
                             model="scripted", **overrides)

    @contextmanager
    def engine(self, **overrides: Any) -> Iterator[tuple[Any, Any, Any]]:
        """(store, session, planner) from the engine builder `starebrain do` uses."""
        from starebrain.engine import build_engine
        from starebrain.llm import build_planner
        from starebrain.store import Store

        settings = self.settings(**overrides)
        planner = build_planner(settings)
        with Store.open(settings=settings) as store, build_engine(settings, store, self.serial,
                                                                  planner=planner) as session:
            yield store, session, planner

    def do(self, instruction: str = SEED, **overrides: Any) -> AgentTask:
        """Plan once through the real openai client, then run the task like `starebrain do`."""
        with self.engine(**overrides) as (store, session, planner):
            return run_do(store, session, planner, instruction)


def run_do(store: Any, session: Any, planner: Any, instruction: str) -> AgentTask:
    """TaskPlanner → persisted task → the session's executor (cli/do_command.py without the terminal)."""
    from starebrain.agent.do_task import TaskPlanner

    task_planner = TaskPlanner(planner, store, session.device, session.profiles, session.tracker)
    return session.executor.run(task_planner.plan(instruction))


PROBE = Path(__file__).with_name("fixtures") / "cli_probe.py"


@dataclass
class LlmCli:
    """The CLI as its own process (tests/cli/cli_process.py) with the LLM settings in its environment."""

    home: Path
    env_extra: dict[str, str]
    timeout_s: float = 120.0

    def env(self) -> dict[str, str]:
        from tests.cli.cli_process import Cli

        return {**Cli(self.home).env(), **self.env_extra}

    def run(self, *args: str, probe: bool = False, crash_at: str | None = None) -> subprocess.CompletedProcess[str]:
        """One command; with `probe`, through fixtures/cli_probe.py (start time, openai imported?);
        `crash_at` sets a kill point (starebrain/executor/crash_points.py, via tests/cli/faulty_cli.py)."""
        entry = [str(PROBE)] if probe else ["-m", "tests.cli.faulty_cli", "--fault", crash_at] if crash_at \
            else ["-m", "starebrain.cli"]
        env = self.env()
        return subprocess.run([sys.executable, *entry, *args], env=env, text=True, capture_output=True,
                              timeout=self.timeout_s, stdin=subprocess.DEVNULL, cwd=ROOT)

    def show(self, task_id: str) -> dict[str, Any]:
        from tests.cli.cli_process import Cli

        return Cli(self.home).show(task_id)

    def latest_task_id(self) -> str:
        from tests.cli.cli_process import Cli

        return Cli(self.home).latest_task_id()


@dataclass(frozen=True)
class Probe:
    """What fixtures/cli_probe.py reported: epoch seconds of process start and of imports done."""

    started: float
    ready: float
    openai_imported: bool


def probe_report(stderr: str) -> Probe:
    """The report on cli_probe's last line."""
    line = next(x for x in reversed(stderr.splitlines()) if x.startswith("probe: "))
    fields = dict(part.split("=") for part in line.removeprefix("probe: ").split())
    return Probe(float(fields["started"]), float(fields["ready"]), fields["openai_imported"] == "True")
