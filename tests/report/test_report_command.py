"""`starebrain report`: --html writes the page for a task; --prune-artifacts applies retention."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from starebrain.store import Store
from tests.report.conftest import build_task


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("STAREBRAIN_HOME", str(tmp_path / "sb"))
    monkeypatch.setenv("STAREBRAIN_ARTIFACT_RETENTION_DAYS", "7")
    with Store.open(tmp_path / "sb" / "starebrain.db") as store:
        build_task(store, tmp_path / "sb" / "artifacts")
    return tmp_path / "sb"


def starebrain(*args: str) -> tuple[int, str]:
    from starebrain.cli.app import app

    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.output


def test_html_report_for_a_task_prefix(home: Path, tmp_path: Path) -> None:
    code, out = starebrain("report", "rep0rt", "--html", str(tmp_path / "r" / "task.html"))
    assert code == 0, out
    page = (tmp_path / "r" / "task.html").read_text()
    assert "Send the invoice to Dana" in page and page.count('<img class="screenshot"') == 6


def test_prune_artifacts_removes_only_files_past_retention(home: Path) -> None:
    shots = sorted((home / "artifacts" / "rep0rt000001").glob("*.png"))
    old = time.time() - 10 * 86400
    os.utime(shots[0], (old, old))
    code, out = starebrain("report", "--prune-artifacts")
    assert code == 0, out
    assert "pruned 1 artifact file(s) older than 7 days" in out
    assert not shots[0].exists() and all(s.exists() for s in shots[1:])


def test_report_needs_a_task_or_prune(home: Path) -> None:
    code, out = starebrain("report")
    assert code == 2 and "--prune-artifacts" in out
