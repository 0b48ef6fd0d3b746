"""Every example flow in starebrain/flows/examples/suite passes on fresh simulated phones."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.regression.conftest import EXAMPLES, run_cli

pytestmark = pytest.mark.e2e


def test_the_example_suite_passes_on_three_phones(sim: Any, start_sim: Any, sb_env: Path) -> None:
    phones = [sim.serial, start_sim().serial, start_sim().serial]
    devices = [arg for serial in phones for arg in ("--device", serial)]
    result = run_cli("test", str(EXAMPLES), *devices, "--approve-irreversible")
    assert result.exit_code == 0, result.output
    assert f"OK {len(list(EXAMPLES.glob('*.yaml')))} flows:" in result.output


def test_the_example_suite_passes_out_of_the_box_on_the_simulated_phone(
        sim: Any, start_sim: Any, sb_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # No secret exported and no --approve-irreversible: what a new user runs after `make demo`.
    monkeypatch.delenv("STAREBRAIN_SECRET_BANK_PASSWORD")
    devices = [arg for serial in (sim.serial, start_sim().serial) for arg in ("--device", serial)]
    result = run_cli("test", str(EXAMPLES), *devices)
    assert result.exit_code == 0, result.output
    assert "left out by tags: messages-reply (flows tagged 'irreversible' run only with " \
           "--approve-irreversible)" in result.output
    assert f"OK {len(list(EXAMPLES.glob('*.yaml'))) - 1} flows:" in result.output
    assert "bank-activity on" in result.output
