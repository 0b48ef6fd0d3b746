"""`starebrain look` on the simulated phone: the verdict and the planner's view, and it never acts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from starebrain.snapshot import ScreenSnapshot
from tests.cli.cli_process import Cli

pytestmark = pytest.mark.e2e


def look(cli: Cli, sim: Any, *args: str) -> dict[str, Any]:
    done = cli.run("look", "--device", sim.serial, "--json", *args)
    assert done.returncode == 0, done.stderr
    return dict(json.loads(done.stdout))


def test_a_system_dialog_is_named_with_its_clearing_and_left_on_the_phone(tmp_path: Path, sim: Any) -> None:
    sim.call(lambda phone: phone.inject("anr"))
    cli, saved = Cli(tmp_path), tmp_path / "screen.xml"
    first = look(cli, sim, "--save", str(saved))
    assert first["screen"]["kind"] == "SYSTEM_DIALOG" and not first["screen"]["needs_person"]
    assert "Wait" in first["screen"]["would_clear"] and "isn't responding" in first["summary"]
    # Nothing was tapped: the dialog is still up, and a second look sees the same screen.
    assert look(cli, sim)["screen"] == first["screen"]
    assert sim.call(lambda phone: len(phone.dialog_stack)) == 1
    assert sim.call(lambda phone: phone.state()["effects"]) == []
    snap = ScreenSnapshot.from_xml(saved.read_text(encoding="utf-8"))
    assert any(n.text == "Wait" for n in snap.nodes) and first["nodes"] == len(snap.nodes)
    assert not (tmp_path / "starebrain.db").exists()  # no task, no lease: looking records nothing


def test_a_clear_screen_prints_ready_and_the_planners_summary(tmp_path: Path, sim: Any) -> None:
    done = Cli(tmp_path).run("look", "--device", sim.serial)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith(f"phone {sim.serial} · ")
    assert lines[1].startswith("screen: READY") and "nothing to clear" in lines[1]
    assert "Messages" in done.stdout  # the launcher's icons are in the planner's view


def test_a_save_path_in_a_missing_directory_is_one_line_exit_2(tmp_path: Path, sim: Any) -> None:
    done = Cli(tmp_path).run("look", "--device", sim.serial, "--save", str(tmp_path / "no" / "such" / "x.xml"))
    assert done.returncode == 2
    assert [line for line in done.stderr.splitlines() if line] == [
        f"error: --save {tmp_path / 'no' / 'such' / 'x.xml'}: not a file in an existing directory"]


def test_a_secret_on_the_screen_is_neither_printed_nor_saved(tmp_path: Path, sim: Any) -> None:
    sim.call(lambda phone: phone.inject("dialog", name="alert", title="Your code", message="Use 4921-7788 to sign in"))
    saved = tmp_path / "screen.xml"
    done = Cli(tmp_path).run("look", "--device", sim.serial, "--json", "--save", str(saved),
                             STAREBRAIN_SECRET_BANK_PIN="4921-7788")
    assert done.returncode == 0, done.stderr
    assert "{secret:BANK_PIN}" in json.loads(done.stdout)["summary"]
    assert "4921-7788" not in done.stdout + done.stderr + saved.read_text(encoding="utf-8")
    assert "{secret:BANK_PIN}" in saved.read_text(encoding="utf-8")
