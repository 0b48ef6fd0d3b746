"""`starebrain devices` lists an attached phone with the tags `devices label` put on it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner


def starebrain(*args: str) -> tuple[int, str]:
    from starebrain.cli.app import app

    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout


@pytest.mark.e2e
def test_devices_shows_the_tags_of_an_attached_phone(sim: Any, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STAREBRAIN_HOME", str(tmp_path / "sb"))
    assert starebrain("devices", "label", sim.serial, "bank=logged-in", "sim=prepaid")[0] == 0
    code, out = starebrain("devices", "--json")
    assert code == 0
    (phone,) = [d for d in json.loads(out) if d["serial"] == sim.serial]
    assert phone["tags"] == {"bank": "logged-in", "sim": "prepaid"}
    code, out = starebrain("devices")
    (line,) = [x for x in out.splitlines() if x.startswith(sim.serial)]
    assert code == 0 and line.endswith("\tbank=logged-in sim=prepaid")
