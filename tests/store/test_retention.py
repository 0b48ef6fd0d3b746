"""Artifacts are the only thing ever deleted, only past retention, never for unresolved tasks."""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

from starebrain.config import load_settings
from starebrain.models import TaskStatus, utcnow
from starebrain.store import Store
from starebrain.store.schema import HEAD_REVISION
from tests.store.sample import make_task


def _artifact(root: Path, task_id: str, name: str, age_days: float) -> Path:
    path = root / task_id / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"\x89PNG...")
    old = (utcnow() - timedelta(days=age_days)).timestamp()
    os.utime(path, (old, old))
    return path


def test_prune_removes_only_old_files_of_resolved_tasks(tmp_path: Path) -> None:
    settings = load_settings(home=tmp_path, artifact_retention_days=30)
    with Store.open(settings=settings) as store:
        done, running = make_task(), make_task()
        done.status, running.status = TaskStatus.COMPLETED, TaskStatus.IN_PROGRESS
        store.create_task(done)
        store.create_task(running)
        root = settings.artifacts_dir
        old_done = _artifact(root, done.id, "step01-attempt1.png", 40)
        new_done = _artifact(root, done.id, "step02-attempt1.png", 1)
        old_running = _artifact(root, running.id, "step01-attempt1.xml", 40)
        assert store.prune_artifacts() == [old_done]
        assert not old_done.exists() and new_done.exists() and old_running.exists()
        assert store.load_task(done.id) == done  # rows untouched


def test_prune_removes_emptied_folders_and_keeps_forever_at_zero(tmp_path: Path) -> None:
    settings = load_settings(home=tmp_path, artifact_retention_days=0)
    with Store.open(settings=settings) as store:
        old = _artifact(settings.artifacts_dir, "gone-task", "a.png", 400)
        assert store.prune_artifacts() == []
        assert old.exists()
        assert store.prune_artifacts(older_than_days=7) == [old]
        assert not old.parent.exists() and settings.artifacts_dir.exists()


def test_prune_without_artifacts_dir_is_a_no_op(tmp_path: Path) -> None:
    with Store.open(settings=load_settings(home=tmp_path)) as store:
        assert store.prune_artifacts(older_than_days=1) == []
        assert not (tmp_path / "artifacts").exists()


def test_info_reports_schema_and_pragmas(store: Store) -> None:
    info = store.info()
    assert info["schema"] == HEAD_REVISION
    assert info["pragmas"].get("journal_mode", "wal") == "wal"  # PostgreSQL has no pragmas
    assert ("server_version" in info["pragmas"]) is store.is_server
    assert info["rows"]["task"] == 0
