"""A SQLite store never loads SQLAlchemy's PostgreSQL dialect: every command that opens the store (resume
first) would pay for importing it, and only a PostgreSQL engine, which has loaded it already, uses it."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from starebrain.store import Store

PROJECT_ROOT = Path(__file__).resolve().parents[2]

# Every write kind of the resume path: a task with its steps (upsert), a lease taken, renewed and released.
WRITES = """
    import sys
    from starebrain.store import Store
    from tests.store.sample import make_task

    with Store.open(sys.argv[1]) as store:
        task = make_task()
        store.create_task(task)
        store.save_task(store.load_task(task.id))
        held = store.acquire_lease(task.device_serial, "probe")
        store.release_lease(store.renew_lease(held))
        assert store.load_task(task.id).steps
    print("sqlalchemy.dialects.sqlite" in sys.modules, "sqlalchemy.dialects.postgresql" in sys.modules)
"""


def test_a_sqlite_store_writes_without_loading_the_postgresql_dialect(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite"
    Store.open(db).close()  # at the current schema, as after any earlier run (creating it runs alembic)
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(WRITES), str(db)],
                          cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["True", "False"]  # SQLite's dialect did the writes; PostgreSQL's never loaded
