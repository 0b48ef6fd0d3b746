"""A new user's first hour: doctor tries the LLM endpoint, oversized instructions are refused before
anything is recorded, piped history keeps whole ids, the confirmation is a sentence with y/yes/n/no/s/skip,
a lost phone names the task and `starebrain resume ID`, a spinner shows while the LLM plans, --json prints
an object on every exit, cancel says "cancelled", help has -h, --version and examples, and a `do` whose
planning fails leaves no empty task."""

from __future__ import annotations

import io
import json
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from starebrain.agent.do_task import TaskPlanner
from starebrain.cli.live_view import LiveView, ask_confirmation, elapsed
from starebrain.errors import LlmUnavailable
from starebrain.events import StepFinished
from starebrain.llm.base import PlanningContext, PlanResult
from starebrain.llmserver import ScriptedLlmServer
from starebrain.models import AgentStep, AgentTask, Confirmation, Selector, Tap, TaskStatus
from starebrain.profiles import load_profiles
from starebrain.sim.adb_server import free_port
from starebrain.store import Store
from tests.cli.cli_process import REPO, Cli
from tests.fakes.fake_device import FakeDevice, FakeScreen, screen_xml

LONG = "Find the invoice Dana asked for in her last message and send it to her from my work account"


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "STAREBRAIN_MODEL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("STAREBRAIN_HOME", str(tmp_path / "sb"))
    return tmp_path / "sb"


def starebrain(*args: str) -> tuple[int, str]:
    from starebrain.cli.app import app

    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.output


def llm_line(out: str) -> str:
    return next(line for line in out.splitlines() if "LLM endpoint" in line)


def test_doctor_says_what_is_wrong_with_the_llm_endpoint(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code, out = starebrain("doctor")
    assert code == 2 and llm_line(out).startswith("FAIL LLM endpoint: no API key: set OPENAI_API_KEY")

    monkeypatch.setenv("OPENAI_BASE_URL", f"http://127.0.0.1:{free_port()}/v1")  # nobody listens there
    assert "FAIL LLM endpoint: cannot reach http://127.0.0.1:" in llm_line(starebrain("doctor")[1])

    with ScriptedLlmServer({"model": "scripted-model", "entries": []}) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("STAREBRAIN_MODEL", "gpt-9")
        assert "does not offer model gpt-9 (STAREBRAIN_MODEL); it offers: scripted-model" in \
            llm_line(starebrain("doctor")[1])
        monkeypatch.setenv("STAREBRAIN_MODEL", "scripted-model")
        assert llm_line(starebrain("doctor")[1]) == \
            f"ok   LLM endpoint: {server.base_url} answers; model scripted-model is offered"


def test_doctor_names_the_settings_file_it_read_or_where_it_looked(home: Path, tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))  # where platformdirs puts the user config dir
    monkeypatch.delenv("STAREBRAIN_CONFIG", raising=False)
    default = tmp_path / "config" / "starebrain" / "config.toml"

    def line() -> str:
        return next(x for x in starebrain("doctor")[1].splitlines() if " settings file: " in x)

    assert line() == f"ok   settings file: none read: {default} does not exist (in the user config dir; " \
                     f"STAREBRAIN_CONFIG=FILE names another)"
    default.parent.mkdir(parents=True)
    default.write_text('model = "gpt-from-file"\n')
    assert line() == f"ok   settings file: read {default} (in the user config dir); environment variables " \
                     f"override its values"
    named = tmp_path / "team.toml"
    monkeypatch.setenv("STAREBRAIN_CONFIG", str(named))
    assert line() == f"FAIL settings file: STAREBRAIN_CONFIG={str(named)!r} names no file"
    named.write_text('model = "gpt-team"\n')
    assert line().startswith(f"ok   settings file: read {named} (named by STAREBRAIN_CONFIG)")


def test_an_oversized_or_empty_instruction_is_one_line_and_records_nothing(home: Path) -> None:
    code, out = starebrain("do", "x" * 100_000)
    assert code == 2 and "error: the instruction is 100000 characters; the limit is 2000" in out
    code, out = starebrain("do", "   ")
    assert code == 2 and "error: the instruction is empty" in out
    assert not (home / "starebrain.db").exists() or not Store.open(home / "starebrain.db").list_tasks()


def test_piped_history_prints_whole_ids_and_instructions_one_line_each(home: Path) -> None:
    with Store.open(home / "starebrain.db") as store:
        store.create_task(AgentTask(id="abcdef123456", instruction=LONG, device_serial="emulator-5554"))
    code, out = starebrain("history")
    assert code == 0
    assert out.splitlines()[0].split("\t")[:3] == ["abcdef123456", "PENDING", "emulator-5554"]
    assert f"\t{LONG}\t" in out and "…" not in out


def step() -> AgentStep:
    return AgentStep(index=5, instruction="Send the reply", irreversible=True, target_package="com.msg",
                     action=Tap(selector=Selector(content_desc="Send SMS")))


@pytest.mark.parametrize("typed, answer", [(["YES"], "y"), (["y"], "y"), (["No"], "n"), (["SKIP"], "s"),
                                           (["s"], "s"), (["maybe", "", "n"], "n")])
def test_the_confirmation_is_a_sentence_and_takes_any_spelling_of_yes_no_skip(typed: list[str], answer: str) -> None:
    out = io.StringIO()
    replies = iter(typed)
    got = ask_confirmation(step(), "sends a message (risk 0.80 >= 0.55)", resuming=False,
                           read=lambda _prompt: next(replies), console=Console(file=out, width=200))
    assert got == answer
    text = out.getvalue()
    assert text.startswith("Step 6, “Send the reply”: tap “Send SMS” in com.msg? This cannot be undone.")
    assert "skip: do not run it but carry on with the next step" in text
    assert text.count("Send the reply") == 1  # asked once, not twice
    assert "risk 0.80" not in text  # the guard's numbers only when asked for (e)
    assert ("please answer y (yes), n (no), s (skip) or e (why)" in text) == (len(typed) > 1)


def test_the_evidence_is_one_key_away() -> None:
    out = io.StringIO()
    replies = iter(["e", "y"])
    got = ask_confirmation(step(), "sends a message (risk 0.80 >= 0.55)", resuming=False,
                           read=lambda _prompt: next(replies), console=Console(file=out, width=200),
                           evidence=lambda: "the phone's screen before this question: /tmp/step05.jpg")
    assert got == "y"
    assert "why you are asked: sends a message (risk 0.80 >= 0.55)" in out.getvalue()
    assert "/tmp/step05.jpg" in out.getvalue()


def test_a_lost_phone_names_the_task_and_how_to_resume_it() -> None:
    line = LiveView(Console(file=io.StringIO())).render(StepFinished(
        "t4sk00000001", step_id="s", index=2, instruction="Send", status="IN_PROGRESS",
        message="phone lost during step 3: device offline"))
    assert line is not None and "?" not in line.split("—")[0]
    assert "task t4sk00000001 is kept" in line and "starebrain resume t4sk00000001" in line


def test_a_spinner_with_seconds_runs_while_the_llm_plans_on_a_terminal_only() -> None:
    terminal = io.StringIO()
    with elapsed(Console(file=terminal, force_terminal=True, width=80), "planning with the LLM…"):
        pass
    assert "planning with the LLM… 0.0 s" in terminal.getvalue()
    piped = io.StringIO()
    with elapsed(Console(file=piped, force_terminal=False), "planning with the LLM…"):
        pass
    assert piped.getvalue() == ""


def starebrain_json(*args: str) -> tuple[int, Any]:
    """Exit code and what stdout holds, parsed: with --json it is always one JSON document."""
    from starebrain.cli.app import app

    result = CliRunner().invoke(app, [*args, "--json"])
    return result.exit_code, json.loads(result.stdout)


def test_json_prints_an_error_object_on_every_exit(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code, out = starebrain_json("do", "   ")
    assert code == 2 and out["exit_code"] == 2 and out["kind"] == "BadInput"
    assert out["error"].startswith("the instruction is empty")
    code, out = starebrain_json("do")  # a usage error, found before any command runs
    assert (code, out["exit_code"], out["kind"]) == (2, 2, "UsageError") and "instruction" in out["error"]
    code, out = starebrain_json("show", "nosuchtask")
    assert (code, out["exit_code"], out["kind"]) == (2, 2, "TaskNotFound")
    assert starebrain_json("resume") == (0, {"task": None, "message": "nothing to resume", "exit_code": 0})
    monkeypatch.setenv("STAREBRAIN_LLM_TIMEOUT_S", "soon")
    code, out = starebrain_json("history")
    assert (code, out["kind"]) == (2, "ConfigInvalid") and "STAREBRAIN_LLM_TIMEOUT_S='soon'" in out["error"]


@pytest.mark.e2e
def test_json_error_objects_for_no_phone_and_a_failing_llm(sim: Any, tmp_path: Path) -> None:
    cli = Cli(tmp_path / "sb")
    done = cli.run("do", "Open Settings", "--device", "nosuch", "--json")
    error = json.loads(done.stdout)
    assert done.returncode == 4 and error["exit_code"] == 4 and "no phone with serial 'nosuch'" in error["error"]

    script = {"model": "scripted", "entries": [{"purpose": "plan", "fault": {"kind": "status", "status": 500}}]}
    with ScriptedLlmServer(script) as server:
        done = cli.run("do", "Open Settings", "--device", sim.serial, "--json", OPENAI_BASE_URL=server.base_url,
                       OPENAI_API_KEY="k", STAREBRAIN_MODEL="scripted", STAREBRAIN_LLM_MAX_RETRIES="0")
    error = json.loads(done.stdout)
    assert done.returncode == 8 and (error["exit_code"], error["kind"]) == (8, "LlmUnavailable")
    task_id = error["task_id"]
    assert task_id == cli.latest_task_id() and "answered 500" in error["error"]
    assert f"no step ran; the LLM calls it made (1) are kept in task {task_id} (starebrain show {task_id})" \
        in done.stderr and "`starebrain doctor` checks the LLM endpoint" in done.stderr
    assert done.stderr.strip().splitlines()[-1].startswith("error: LLM endpoint")


class FailingPlanner:
    """A planner whose endpoint fails before any call is made (nothing to keep)."""

    model = "none"

    def plan(self, instruction: str, context: PlanningContext) -> PlanResult:
        raise LlmUnavailable("LLM endpoint http://127.0.0.1:9/v1 is not configured")


def test_a_planning_failure_without_llm_calls_leaves_no_task(tmp_path: Path) -> None:
    device = FakeDevice([FakeScreen("home", screen_xml("com.android.launcher", []),
                                    package="com.android.launcher")])
    with Store.open(tmp_path / "sb.db") as store:
        with pytest.raises(LlmUnavailable) as failure:
            TaskPlanner(FailingPlanner(), store, device, load_profiles()).plan("Open Settings")  # type: ignore[arg-type]
        assert failure.value.task_id is None and store.list_tasks() == []


def awaiting_task(home: Path) -> str:
    """A task waiting for confirmation of an irreversible Send."""
    with Store.open(home / "starebrain.db") as store:
        store.create_task(AgentTask(id="c4nc3l000001", instruction="reply", device_serial="emulator-5554",
                                    steps=[step()]))
        task = store.load_task("c4nc3l000001")
        task.status, task.status_reason = TaskStatus.AWAITING_CONFIRMATION, "sends a message"
        store.add_confirmation(Confirmation(task_id=task.id, step_id=task.steps[0].id, approved_hash="h",
                                            reason="sends a message"), task)
    return task.id


def test_cancel_exits_9_and_says_cancelled_not_denied(home: Path) -> None:
    task_id = awaiting_task(home)
    code, out = starebrain("cancel", task_id)
    assert code == 9 and "denied" not in out
    assert out.strip().splitlines() == [f"task {task_id} cancelled: cancelled by the person (cli)"]
    with Store.open(home / "starebrain.db") as store:
        assert store.load_task(task_id).status == TaskStatus.CANCELLED
        assert store.pending_confirmation(task_id) is None


SUB_COMMANDS = [["sim", "start"], ["sim", "state"], ["sim", "scenarios"], ["farm", "status"], ["farm", "test"],
                ["devices"], ["devices", "label"]]


def every_command() -> list[list[str]]:
    from starebrain.cli.app import app

    top = [[info.callback.__name__] for info in app.registered_commands if info.callback is not None]
    return top + SUB_COMMANDS


@pytest.mark.parametrize("command", [[], *every_command()], ids=lambda c: " ".join(c) or "starebrain")
def test_help_takes_h_and_shows_no_bool_for_flags(command: list[str]) -> None:
    code, out = starebrain(*command, "-h")
    assert code == 0 and "Usage: starebrain" in out and "--help" in out
    assert "<bool>" not in out


@pytest.mark.parametrize("command", every_command(), ids=" ".join)
def test_every_command_shows_examples(command: list[str]) -> None:
    code, out = starebrain(*command, "-h")
    assert code == 0 and "Examples:" in out and f"starebrain {' '.join(command)}" in out.split("Examples:")[1]


def test_version() -> None:
    from starebrain import __version__

    assert starebrain("--version") == (0, f"starebrain {__version__}\n")


@pytest.mark.e2e
def test_demo_logs_plain_text_and_its_hint_works(tmp_path: Path) -> None:
    """`make demo` into a log: no escape sequences, and the command it suggests runs as printed."""
    done = subprocess.run([sys.executable, "-m", "starebrain.demo", str(tmp_path / "demo")], cwd=REPO,
                          capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
    log = done.stdout + done.stderr
    assert done.returncode == 0, log[-2000:]
    assert "\x1b" not in log
    hint = next(line for line in log.splitlines() if "try: STAREBRAIN_HOME=" in line).split("try: ", 1)[1]
    assignment, *command = shlex.split(hint)
    name, value = assignment.split("=", 1)
    shown = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=120,
                           env={"PATH": "/usr/bin:/bin", name: value})
    assert shown.returncode == 0 and "COMPLETED" in shown.stdout, shown.stderr
