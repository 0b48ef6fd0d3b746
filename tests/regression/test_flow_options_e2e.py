"""`starebrain test` options for flows: tags, -e variables, and secrets checked before the phone is touched."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from starebrain.store import Store
from tests.regression.conftest import run_cli

pytestmark = pytest.mark.e2e

SETTINGS = """\
format: starebrain-flow
version: 2
name: {name}
tags: [{tags}]
env: {{ENTRY: Bluetooth}}
steps:
  - press: home
  - open_app: {{package: com.android.settings, fresh: true}}
  - tap: {{text: "${{ENTRY}}"}}
  - press: back
"""
SECRET = """\
format: starebrain-flow
version: 2
name: needs-a-secret
tags: [smoke]
steps:
  - press: home
  - type: {text: "{secret:vault_pin}"}
"""


def test_tags_pick_flows_variables_come_from_the_command_line_and_a_missing_secret_stops_before_any_step(
        sim: Any, sb_env: Path, tmp_path: Path) -> None:
    folder = tmp_path / "flows"
    folder.mkdir()
    (folder / "network.yaml").write_text(SETTINGS.format(name="network", tags="smoke"))
    (folder / "slow.yaml").write_text(SETTINGS.format(name="slow", tags="smoke, slow"))
    (folder / "other.yaml").write_text(SETTINGS.format(name="other", tags="misc"))
    (folder / "secret.yaml").write_text(SECRET)
    result = run_cli("test", str(folder), "--device", sim.serial, "--include-tags", "smoke",
                     "--exclude-tags", "slow", "-e", "ENTRY=Network & internet")
    assert "left out by tags: other, slow" in result.output
    assert "network on" in result.output and "passed" in result.output  # Bluetooth does not exist: -e won
    assert "needs-a-secret" in result.output
    assert "secret 'vault_pin' is not set: export STAREBRAIN_SECRET_VAULT_PIN=..." in result.output
    assert result.exit_code == 1
    with Store.open(sb_env / "starebrain.db") as store:
        tasks = store.list_tasks(limit=10)
    assert [t.instruction for t in tasks] == ["network"]  # the secret flow never became a task


def test_a_bad_variable_assignment_is_one_line(sb_env: Path, tmp_path: Path) -> None:
    (tmp_path / "f.yaml").write_text(SETTINGS.format(name="n", tags="x"))
    result = run_cli("test", str(tmp_path / "f.yaml"), "-e", "oops")
    assert result.exit_code == 2 and "-e 'oops': expected NAME=VALUE" in result.output
