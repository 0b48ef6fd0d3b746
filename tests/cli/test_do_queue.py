"""`starebrain do --queue` without a daemon: bad input is one line before anything is recorded; a good
instruction is queued with no steps and no LLM call, and `resume` refuses to run it unplanned."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from starebrain.models import TaskStatus
from starebrain.store import Store
from starebrain.store.farm import FarmStore


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "STAREBRAIN_MODEL"):
        monkeypatch.delenv(name, raising=False)  # nothing here may need the LLM
    monkeypatch.setenv("STAREBRAIN_HOME", str(tmp_path / "sb"))
    return tmp_path / "sb"


def starebrain(*args: str) -> tuple[int, str, str]:
    from starebrain.cli.app import app

    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize(("args", "said"), [
    (("Open Settings", "--queue", "--replay", "answers.yaml"), "a queued task is planned by the daemon"),
    (("Open Settings", "--queue", "--record", "answers.yaml"), "a queued task is planned by the daemon"),
    (("   ", "--queue"), "the instruction is empty"),
    (("Open Settings", "--label", "android=14"), "--label picks a phone for a queued task: add --queue"),
    (("Open Settings", "--queue", "--label", "android"), "label 'android' is not key=value"),
])
def test_bad_input_is_one_line_and_records_nothing(home: Path, args: tuple[str, ...], said: str) -> None:
    code, out, err = starebrain("do", *args)
    lines = err.splitlines()
    assert (code, out, len(lines)) == (2, "", 1) and lines[0].startswith("error: ") and said in lines[0], err
    assert not (home / "starebrain.db").exists()  # refused before the database was touched


def test_a_queued_instruction_has_no_steps_until_a_daemon_plans_it(home: Path) -> None:
    code, out, err = starebrain("do", "Open Settings", "--queue", "--device", "emulator-5554", "--json")
    assert code == 0, err
    queued = json.loads(out)
    assert (queued["device"], queued["labels"]) == ("emulator-5554", {})
    pool_code, pool_out, _ = starebrain("do", "Open Settings", "--queue", "-l", "android=14")
    assert pool_code == 0 and len(pool_out.split()) == 1  # the id alone
    with Store.open(home / "starebrain.db") as store:
        task = store.load_task(queued["id"])
        assert (task.status, task.source, task.steps, task.device_serial) == (
            TaskStatus.PENDING, "do", [], "emulator-5554")
        assert store.llm_calls(task.id) == [] and FarmStore(store).is_queued_task(task.id)
        assert FarmStore(store).view().queued == 2
    code, _, err = starebrain("resume", queued["id"])
    assert code == 2 and f"starebrain wait {queued['id']}" in err  # run here, it would "complete" doing nothing
    with Store.open(home / "starebrain.db") as store:
        assert store.load_task(queued["id"]).status == TaskStatus.PENDING
