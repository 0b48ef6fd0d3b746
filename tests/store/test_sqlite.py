"""SQLite settings (docs/architecture.md), and errors translated without losing what was recorded."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from sqlalchemy import event

from starebrain.config import Settings, load_settings
from starebrain.errors import DatabaseLocked, DatabaseReadOnly, StoreError, TaskNotFound
from starebrain.models import TaskStatus
from starebrain.store import Store
from starebrain.store.database import translate
from tests.store.sample import make_task

pytestmark = pytest.mark.sqlite_only  # about SQLite itself; PostgreSQL's counterparts: test_postgres.py


def test_pragmas_are_set_on_every_connection(store: Store) -> None:
    assert store.info()["pragmas"] == {"journal_mode": "wal", "synchronous": 2, "busy_timeout": 2000, "foreign_keys": 1}


def test_writes_begin_immediate_and_reads_deferred(store: Store) -> None:
    statements: list[str] = []
    event.listen(store._engine, "before_cursor_execute",
                 lambda conn, cur, stmt, *a: statements.append(stmt))
    store.create_task(make_task())
    store.list_tasks()
    begins = [s for s in statements if s.startswith("BEGIN")]
    assert begins == ["BEGIN IMMEDIATE", "BEGIN DEFERRED"]


def test_locked_database_raises_within_busy_timeout(tmp_path: Path) -> None:
    settings = load_settings(home=tmp_path, db_busy_timeout_ms=300)
    store = Store.open(settings=settings)
    task = make_task()
    store.create_task(task)
    other = sqlite3.connect(settings.db_path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        assert store.load_task(task.id) == task  # WAL: readers are not blocked by a writer
        with Store.open(settings=settings) as late:  # nor is opening (e.g. `history` during `do`)
            assert late.list_tasks() == [task]
        task.status = TaskStatus.CANCELLED
        with pytest.raises(DatabaseLocked, match="locked by another writer"):
            store.save_task(task)
    finally:
        other.execute("ROLLBACK")
        other.close()
    store.save_task(task)
    assert store.load_task(task.id).status is TaskStatus.CANCELLED
    store.close()


def test_garbage_file_is_a_clear_error_and_left_untouched(tmp_path: Path) -> None:
    db = tmp_path / "starebrain.db"
    junk = b"this is my thesis, not a database\n" * 200
    db.write_bytes(junk)
    with pytest.raises(StoreError, match="not a StareBrain database") as info:
        Store.open(db, settings=load_settings(home=tmp_path))
    assert "\n" not in str(info.value)
    assert db.read_bytes() == junk
    assert not (tmp_path / "starebrain.db-wal").exists()


def test_foreign_sqlite_database_is_refused_untouched(tmp_path: Path) -> None:
    db = tmp_path / "other.db"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE notes (body TEXT)")
        conn.execute("INSERT INTO notes VALUES ('keep me')")
    conn.close()
    with pytest.raises(StoreError, match="not StareBrain's"):
        Store.open(db, settings=load_settings(home=tmp_path))
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT body FROM notes").fetchall() == [("keep me",)]
        assert conn.execute("SELECT name FROM sqlite_master WHERE name='task'").fetchall() == []
    conn.close()


def test_readonly_driver_error_translates(tmp_path: Path) -> None:
    db = tmp_path / "ro.db"
    sqlite3.connect(db).close()
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    with pytest.raises(sqlite3.OperationalError) as info:
        conn.execute("CREATE TABLE t (x)")
    conn.close()
    assert isinstance(translate(info.value, db, 100), DatabaseReadOnly)


@contextmanager
def read_only(folder: Path) -> Iterator[None]:
    """Make a folder and its files unwritable, even for root (immutable flag), then restore."""
    paths = [folder, *folder.iterdir()]
    if os.geteuid() != 0:
        modes = {p: p.stat().st_mode for p in paths}
        for p in paths:
            p.chmod(0o555 if p.is_dir() else 0o444)
        try:
            yield
        finally:
            for p, m in modes.items():
                p.chmod(m)
        return
    if shutil.which("chattr") is None:
        pytest.skip("running as root without chattr: cannot make a file read-only")
    done = subprocess.run(["chattr", "+i", *map(str, paths)], capture_output=True)
    if done.returncode != 0:
        subprocess.run(["chattr", "-i", *map(str, paths)], capture_output=True)
        pytest.skip(f"chattr +i not supported here: {done.stderr.decode().strip()}")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", *map(str, paths)], check=True)


def test_a_read_only_database_can_be_read_and_loses_nothing(tmp_path: Path) -> None:
    settings: Settings = load_settings(home=tmp_path / "home")
    store = Store.open(settings=settings)
    task = make_task()
    store.create_task(task)
    store.close()
    before = settings.db_path.read_bytes()
    with read_only(settings.data_dir), Store.open(settings=settings) as reading:
        assert reading.load_task(task.id) == task  # reading commands (history, show) still work
        with pytest.raises(DatabaseReadOnly, match="read-only") as info:
            reading.save_task(task)
        assert "\n" not in str(info.value) and "nothing was written" in str(info.value)
    assert settings.db_path.read_bytes() == before
    with Store.open(settings=settings) as again:
        assert again.load_task(task.id) == task


def test_a_database_that_cannot_use_wal_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # ":memory:" is a path SQLite refuses to put in WAL mode
    with pytest.raises(StoreError, match="cannot enable WAL journal mode"):
        Store.open(":memory:", settings=load_settings(home=tmp_path))


def test_a_value_the_database_cannot_take_is_a_store_error(store: Store) -> None:
    from datetime import datetime

    task = make_task()
    task.created_at = datetime(2026, 1, 1)  # naive: refused, never silently shifted
    with pytest.raises(StoreError, match="naive datetime refused"):
        store.create_task(task)
    with pytest.raises(TaskNotFound):
        store.load_task(task.id)  # the failed transaction left nothing behind


def test_a_path_with_url_characters_is_used_as_is(tmp_path: Path) -> None:
    db = tmp_path / "odd ?name#1" / "starebrain.db"
    with Store.open(db, settings=load_settings(home=tmp_path)) as store:
        store.create_task(make_task())
    assert db.is_file()
