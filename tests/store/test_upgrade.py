"""An upgrade keeps every recorded row, and a failed one leaves the database as it was.

Uses a copy of the migrations with one extra revision that rebuilds the `step` table (what batch
mode does for most SQLite ALTERs) while attempts and confirmations point at it.
"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from starebrain.config import load_settings
from starebrain.errors import StoreError
from starebrain.models import Attempt, Confirmation, StepStatus
from starebrain.store import Store, schema
from tests.store.sample import make_task

REAL_REVISIONS = schema.KNOWN_REVISIONS
REAL_HEAD = schema.HEAD_REVISION
REVISION = '''
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "9999_test"
down_revision = "{head}"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("step", recreate="always") as batch:
        batch.add_column(sa.Column("note", sa.String(), nullable=True))
    {extra}


def downgrade() -> None:
    pass
'''


def _scripts(tmp_path: Path, extra: str = "") -> Path:
    scripts = tmp_path / "scripts"
    shutil.copytree(schema.migrations_dir(), scripts, ignore=shutil.ignore_patterns("__pycache__"))
    (scripts / "versions" / "9999_test.py").write_text(
        REVISION.replace("{extra}", extra or "pass").replace("{head}", REAL_HEAD))
    return scripts


def _recorded(tmp_path: Path) -> tuple[Path, str]:
    settings = load_settings(home=tmp_path / "home")
    with Store.open(settings=settings) as store:
        task = make_task()
        store.create_task(task)
        task.steps[0].status = StepStatus.IN_PROGRESS
        store.begin_attempt(task, Attempt(task_id=task.id, step_id=task.steps[0].id))
        store.add_confirmation(Confirmation(task_id=task.id, step_id=task.steps[2].id,
                                            approved_hash="h", reason="r"))
    return settings.db_path, task.id


def _use(monkeypatch: pytest.MonkeyPatch, scripts: Path) -> None:
    monkeypatch.setattr(schema, "KNOWN_REVISIONS", (*REAL_REVISIONS, "9999_test"))
    monkeypatch.setattr(schema, "HEAD_REVISION", "9999_test")
    monkeypatch.setattr(schema, "migrations_dir", lambda: scripts)


def _version(db: Path) -> str:
    with sqlite3.connect(db) as conn:
        version = conn.execute("SELECT version_num FROM alembic_version").fetchone()[0]
    conn.close()
    return str(version)


def test_upgrade_rebuilding_a_referenced_table_keeps_every_row(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    db, task_id = _recorded(tmp_path)
    with Store.open(db, settings=load_settings()) as before:
        task, attempts, asked = before.load_task(task_id), before.attempts(task_id), before.confirmations(task_id)
    _use(monkeypatch, _scripts(tmp_path))
    with Store.open(db, settings=load_settings()) as after:
        assert after.load_task(task_id) == task
        assert after.attempts(task_id) == attempts
        assert after.confirmations(task_id) == asked
        assert after.info()["pragmas"]["foreign_keys"] == 1
    assert _version(db) == "9999_test"


def test_a_failing_upgrade_rolls_back_completely(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db, task_id = _recorded(tmp_path)
    _use(monkeypatch, _scripts(tmp_path, extra='raise RuntimeError("migration bug")'))
    with pytest.raises(StoreError, match=r"upgrade to schema 9999_test failed \(migration bug\); rolled back"):
        Store.open(db, settings=load_settings())
    assert _version(db) == REAL_HEAD
    monkeypatch.undo()
    with Store.open(db, settings=load_settings()) as store:
        assert store.load_task(task_id).id == task_id
        assert len(store.attempts(task_id)) == 1
