"""Bad input through the real CLI: one clear line each, a documented exit code, nothing lost."""

from __future__ import annotations

import hashlib
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from starebrain.models import AgentStep, AgentTask, Press
from starebrain.store import Store
from tests.cli.cli_process import INVOICE_FLOW, Cli

pytestmark = pytest.mark.e2e


@pytest.fixture
def cli_with_history(tmp_path: Path) -> Cli:
    """A data dir that already holds one task, so we can check nothing recorded is lost."""
    cli = Cli(tmp_path)
    with Store.open(tmp_path / "starebrain.db") as store:
        store.create_task(AgentTask(instruction="earlier work", device_serial="emulator-1",
                                    steps=[AgentStep(instruction="Back", action=Press(key="back"))]))
    return cli


def one_error_line(done: subprocess.CompletedProcess[str]) -> str:
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("error: ")
    return lines[0]


def still_there(cli: Cli) -> None:
    with Store.open(cli.home / "starebrain.db") as store:
        assert [t.instruction for t in store.list_tasks()] == ["earlier work"]


def test_invalid_flow_file(cli_with_history: Cli, sim: Any) -> None:
    bad = cli_with_history.home / "bad.yaml"
    bad.write_text("format: starebrain-flow\nversion: 1\nsteps:\n  - tap: {colour: red}\n")
    done = cli_with_history.run("run", str(bad), "--device", sim.serial)
    assert done.returncode == 2
    assert "step 1 (tap)" in one_error_line(done)
    still_there(cli_with_history)


def test_unknown_serial(cli_with_history: Cli, sim: Any) -> None:
    done = cli_with_history.run("run", str(INVOICE_FLOW), "--device", "emulator-9998")
    assert done.returncode == 4
    assert "emulator-9998" in one_error_line(done)
    still_there(cli_with_history)


@pytest.fixture
def write_locked(cli_with_history: Cli) -> Iterator[None]:
    conn = sqlite3.connect(cli_with_history.home / "starebrain.db", isolation_level=None)
    conn.execute("BEGIN IMMEDIATE")
    yield
    conn.execute("ROLLBACK")
    conn.close()


def test_locked_database(cli_with_history: Cli, sim: Any, write_locked: None) -> None:
    done = cli_with_history.run("run", str(INVOICE_FLOW), "--device", sim.serial,
                                STAREBRAIN_DB_BUSY_TIMEOUT_MS="300")
    assert done.returncode == 7
    assert "lock" in one_error_line(done).lower()


def test_read_only_database(cli_with_history: Cli, sim: Any) -> None:
    db = cli_with_history.home / "starebrain.db"
    before = hashlib.sha256(db.read_bytes()).hexdigest()
    if subprocess.run(["chattr", "+i", str(db)], capture_output=True).returncode != 0:
        pytest.skip("chattr +i is not available on this filesystem")
    try:
        done = cli_with_history.run("run", str(INVOICE_FLOW), "--device", sim.serial)
        assert done.returncode == 7
        assert "read-only" in one_error_line(done).lower() or "not writable" in done.stderr
        assert hashlib.sha256(db.read_bytes()).hexdigest() == before
    finally:
        subprocess.run(["chattr", "-i", str(db)], check=True)
    still_there(cli_with_history)


def test_database_from_a_newer_schema(cli_with_history: Cli) -> None:
    db = cli_with_history.home / "starebrain.db"
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE alembic_version SET version_num = 'f00d_from_the_future'")
    done = cli_with_history.run("history")
    assert done.returncode == 7
    assert "newer" in one_error_line(done)
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT instruction FROM task").fetchall() == [("earlier work",)]


def test_profile_yaml_with_errors(cli_with_history: Cli, sim: Any) -> None:
    profiles = cli_with_history.home / "profiles"
    profiles.mkdir()
    (profiles / "categories.yaml").write_text("categories: [this, is: not valid\n")
    done = cli_with_history.run("run", str(INVOICE_FLOW), "--device", sim.serial,
                                STAREBRAIN_PROFILES_DIR=str(profiles))
    assert done.returncode == 2
    assert "categories.yaml" in one_error_line(done)
    still_there(cli_with_history)


def test_a_read_only_data_dir_still_shows_history(cli_with_history: Cli, sim: Any) -> None:
    home = cli_with_history.home
    paths = [str(p) for p in (home, *home.iterdir())]
    if subprocess.run(["chattr", "+i", *paths], capture_output=True).returncode != 0:
        subprocess.run(["chattr", "-i", *paths], capture_output=True)
        pytest.skip("chattr +i is not available on this filesystem")
    try:
        listed = cli_with_history.run("history")
        assert listed.returncode == 0 and "earlier work" in listed.stdout + listed.stderr, listed.stderr
        task_id = cli_with_history.json("history")[0]["id"]
        assert cli_with_history.run("show", task_id).returncode == 0
        done = cli_with_history.run("run", str(INVOICE_FLOW), "--device", sim.serial)
        assert done.returncode == 7
        assert "read-only" in one_error_line(done)
    finally:
        subprocess.run(["chattr", "-i", *paths], check=True)
    still_there(cli_with_history)
