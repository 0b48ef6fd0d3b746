"""A new user's first hour: doctor tries the LLM endpoint, oversized instructions are refused before
anything is recorded, piped history keeps whole ids, the confirmation is a sentence with y/yes/n/no/s/skip,
a lost phone names the task and `starebrain resume ID`, and a spinner shows while the LLM plans."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from starebrain.cli.live_view import LiveView, ask_confirmation, elapsed
from starebrain.events import StepFinished
from starebrain.llmserver import ScriptedLlmServer
from starebrain.models import AgentStep, AgentTask, Selector, Tap
from starebrain.sim.adb_server import free_port
from starebrain.store import Store

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
