"""PostgreSQL as the store (a farm's shared database): what differs from an SQLite file."""

from __future__ import annotations

from pathlib import Path

import psycopg
import pytest

from starebrain.config import load_settings
from starebrain.errors import DatabaseUnavailable, StaleWrite, StoreError
from starebrain.models import Confirmation, TaskStatus
from starebrain.store import Store
from starebrain.store.schema import HEAD_REVISION
from tests.postgres import PgServer
from tests.store.processes import start_python
from tests.store.sample import make_task

OPEN = """
    from starebrain.config import load_settings
    from starebrain.store import Store
    Store.open({url!r}, settings=load_settings()).close()
"""


def test_foreign_keys_are_enforced(store: Store) -> None:
    with pytest.raises(StoreError, match="(?i)foreign key"):
        store.add_confirmation(Confirmation(task_id="none", step_id="none", approved_hash="h", reason="r"))


def test_three_processes_migrating_one_fresh_database_all_succeed(pg_server: PgServer, tmp_path: Path) -> None:
    url = pg_server.create_database()
    procs = [start_python(OPEN.format(url=url), cwd=tmp_path) for _ in range(3)]
    outs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0], [err for _, err in outs]
    with Store.open(url, settings=load_settings(home=tmp_path)) as store:
        assert store.info()["schema"] == HEAD_REVISION and store.list_tasks() == []


def test_a_foreign_postgres_database_is_refused_untouched(pg_server: PgServer, tmp_path: Path) -> None:
    url = pg_server.create_database()
    with psycopg.connect(url.replace("+psycopg", ""), autocommit=True) as conn:
        conn.execute("CREATE TABLE notes (body text)")
        conn.execute("INSERT INTO notes VALUES ('keep me')")
    with pytest.raises(StoreError, match="PostgreSQL database but not StareBrain's"):
        Store.open(url, settings=load_settings(home=tmp_path))
    with psycopg.connect(url.replace("+psycopg", "")) as conn:
        assert conn.execute("SELECT body FROM notes").fetchall() == [("keep me",)]
        assert conn.execute("SELECT to_regclass('task')").fetchone() == (None,)


def test_an_unreachable_server_is_one_line_and_no_password_shown(tmp_path: Path) -> None:
    from starebrain.sim.adb_server import free_port

    url = f"postgresql+psycopg://farm:s3cret@127.0.0.1:{free_port()}/starebrain"
    with pytest.raises(DatabaseUnavailable, match="unreachable") as info:
        Store.open(url, settings=load_settings(home=tmp_path))
    assert "\n" not in str(info.value) and "s3cret" not in str(info.value)


def test_a_restarted_server_is_reconnected_and_nothing_is_lost(pg_server: PgServer, pg_template: str,
                                                               tmp_path: Path) -> None:
    url = pg_server.create_database(template=pg_template)
    with Store.open(url, settings=load_settings(home=tmp_path)) as store:
        task = make_task()
        store.create_task(task)
        pg_server.stop("immediate")  # a crash: the pool's connections are dead
        with pytest.raises(DatabaseUnavailable):
            store.load_task(task.id)
        pg_server.start()
        task.status = TaskStatus.CANCELLED
        store.save_task(task)  # a fresh connection: the pool checks each before use
        assert store.load_task(task.id).status is TaskStatus.CANCELLED


def test_two_writers_of_one_task_compare_and_set_on_the_server(store: Store, settings: object) -> None:
    task = make_task()
    store.create_task(task)
    with Store.open(settings=settings) as other:  # type: ignore[arg-type]
        theirs = other.load_task(task.id)
        theirs.status = TaskStatus.CANCELLED
        other.save_task(theirs)
    task.status = TaskStatus.FAILED
    with pytest.raises(StaleWrite):
        store.save_task(task)
    assert store.load_task(task.id).status is TaskStatus.CANCELLED
