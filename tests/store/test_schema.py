"""Schema only through Alembic: created from empty, checked without Alembic on the hot path."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from starebrain.config import load_settings
from starebrain.errors import SchemaTooNew
from starebrain.store import HEAD_REVISION, Store
from starebrain.store.schema import KNOWN_REVISIONS, alembic_config
from starebrain.store.tables import METADATA
from tests.store.processes import run_python, start_python
from tests.store.sample import make_task

OPEN_AND_REPORT = """
    import json, sys, time
    started = time.monotonic()
    from starebrain.config import load_settings
    from starebrain.store import Store
    store = Store.open(sys.argv[1] if len(sys.argv) > 1 else {db!r}, settings=load_settings())
    store.latest_unresolved()
    print(json.dumps({{"alembic": "alembic" in sys.modules, "seconds": time.monotonic() - started}}))
"""


def test_known_revisions_match_the_migration_scripts() -> None:
    from alembic.script import ScriptDirectory

    script = ScriptDirectory.from_config(alembic_config())
    assert script.get_current_head() == HEAD_REVISION
    assert tuple(r.revision for r in reversed(list(script.walk_revisions()))) == KNOWN_REVISIONS


def test_migration_from_empty_matches_the_tables(store: Store) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    with store._read() as conn:
        assert conn.exec_driver_sql("SELECT version_num FROM alembic_version").scalar() == HEAD_REVISION
        assert compare_metadata(MigrationContext.configure(conn), METADATA) == []


def test_newer_schema_is_refused_with_one_clear_line(tmp_path: Path) -> None:
    settings = load_settings(home=tmp_path)
    Store.open(settings=settings).close()
    with sqlite3.connect(settings.db_path) as conn:
        conn.execute("UPDATE alembic_version SET version_num = '0099_from_the_future'")
    conn.close()
    with pytest.raises(SchemaTooNew) as info:
        Store.open(settings=settings)
    assert str(info.value) == (f"database {settings.db_path} was written by a newer StareBrain "
                               f"(schema 0099_from_the_future); this one knows up to {HEAD_REVISION}")
    with sqlite3.connect(settings.db_path) as conn:  # not "upgraded" or stamped over
        assert conn.execute("SELECT version_num FROM alembic_version").fetchall() == [
            ("0099_from_the_future",)]
    conn.close()


def test_opening_an_up_to_date_database_does_not_import_alembic(tmp_path: Path) -> None:
    db = tmp_path / "data" / "starebrain.db"
    code = OPEN_AND_REPORT.format(db=str(db))
    first = run_python(code, cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    assert json.loads(first.stdout)["alembic"] is True  # creating the schema needs it
    assert first.stderr == ""  # migrating prints and logs nothing
    second = run_python(code, cwd=tmp_path)
    assert second.returncode == 0, second.stderr
    assert json.loads(second.stdout)["alembic"] is False


def test_works_from_another_directory_with_a_decoy_migrations_package(tmp_path: Path) -> None:
    decoy = tmp_path / "migrations"
    decoy.mkdir()
    (decoy / "__init__.py").write_text("raise RuntimeError('decoy migrations imported')\n")
    (decoy / "env.py").write_text("raise RuntimeError('decoy env.py run')\n")
    db = tmp_path / "elsewhere" / "starebrain.db"
    result = run_python(OPEN_AND_REPORT.format(db=str(db)), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    with Store.open(db, settings=load_settings(home=tmp_path)) as store:
        store.create_task(make_task())


def test_two_processes_creating_one_database_both_succeed(tmp_path: Path) -> None:
    db = tmp_path / "race" / "starebrain.db"
    code = OPEN_AND_REPORT.format(db=str(db))
    procs = [start_python(code, cwd=tmp_path) for _ in range(3)]
    outs = [p.communicate(timeout=60) for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0], [err for _, err in outs]
    with Store.open(db, settings=load_settings(home=tmp_path)) as store:
        assert store.list_tasks() == []
