"""The schema version check and the Alembic upgrade, kept off the hot path.

Opening an up-to-date database reads `alembic_version` with plain SQL and compares it with
HEAD_REVISION; alembic (≈0.3 s of imports) is imported only when an upgrade is actually needed.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from starebrain.errors import SchemaTooNew, StoreError
from starebrain.store.database import create_engine, create_server_engine, is_server, reader

if TYPE_CHECKING:
    from alembic.config import Config

# Every revision in migrations/versions, oldest first; a test checks this against Alembic's view.
KNOWN_REVISIONS: tuple[str, ...] = ("0001_initial", "0002_fencing", "0003_farm", "0004_device_tags")
HEAD_REVISION: str = KNOWN_REVISIONS[-1]


def stored_revisions(conn: Connection) -> set[str] | None:
    """The revisions recorded in the file; None when there is no alembic_version table."""
    if is_server(conn):
        tables = set(sa.inspect(conn).get_table_names())
    else:
        tables = {r[0] for r in conn.exec_driver_sql("SELECT name FROM sqlite_master WHERE type='table'")}
    if "alembic_version" not in tables:
        if tables - {"sqlite_sequence"}:
            kind = "a PostgreSQL" if is_server(conn) else "an SQLite"
            raise StoreError(f"is {kind} database but not StareBrain's (no schema version); left untouched")
        return None
    return {r[0] for r in conn.exec_driver_sql("SELECT version_num FROM alembic_version")}


def check_not_newer(revisions: set[str] | None, path: Path | str) -> None:
    """SchemaTooNew if the file records a revision this StareBrain does not know."""
    unknown = sorted((revisions or set()) - set(KNOWN_REVISIONS))
    if unknown:
        raise SchemaTooNew(f"database {path} was written by a newer StareBrain (schema {unknown[0]}); "
                           f"this one knows up to {HEAD_REVISION}")


def ensure_schema(engine: Engine, path: Path | str, busy_timeout_ms: int, url: str | None = None) -> None:
    """Bring the file to HEAD_REVISION, upgrading through Alembic only if it is behind."""
    try:
        with reader(engine).connect() as conn:
            revisions = stored_revisions(conn)
    except StoreError as e:
        raise StoreError(f"database {path} {e.message}") from None
    check_not_newer(revisions, path)
    if revisions != {HEAD_REVISION}:
        upgrade(path, busy_timeout_ms, url)


def migrations_dir() -> Path:
    """The `starebrain.migrations` folder (source tree, editable or wheel install alike)."""
    from importlib.resources import files

    return Path(str(files("starebrain.migrations")))


def alembic_config(connection: Connection | None = None) -> Config:
    """An Alembic Config pointing at our migrations, never at the current directory."""
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(migrations_dir()))
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


def upgrade(path: Path | str, busy_timeout_ms: int, url: str | None = None) -> None:
    """Upgrade to head in one IMMEDIATE transaction, foreign keys off (batch copies), checked after.

    On PostgreSQL (`url`) the transaction holds an advisory lock instead: daemons starting together
    upgrade once, the others wait and then see head."""
    engine = create_server_engine(url, busy_timeout_ms) if url else create_engine(Path(path), busy_timeout_ms,
                                                                                    foreign_keys=False)
    try:
        with engine.begin() as conn:  # holds the write lock: a second process waits, then sees head
            if url:
                conn.execute(sa.select(sa.func.pg_advisory_xact_lock(UPGRADE_LOCK)))
            revisions = stored_revisions(conn)
            check_not_newer(revisions, path)
            if revisions == {HEAD_REVISION}:
                return
            _run_upgrade(conn, path)
    finally:
        engine.dispose()


UPGRADE_LOCK = 0x5742_0001  # the advisory lock key of schema upgrades on PostgreSQL


def _run_upgrade(conn: Connection, path: Path | str) -> None:
    from alembic import command

    try:
        command.upgrade(alembic_config(conn), "head")
    except Exception as e:  # raising rolls the whole upgrade back: nothing recorded is lost
        line = str(e).splitlines()[0] if str(e) else type(e).__name__
        raise StoreError(f"database {path}: upgrade to schema {HEAD_REVISION} failed ({line}); "
                         "rolled back, nothing changed") from e
    if is_server(conn):
        return  # PostgreSQL checks every reference as it goes
    bad = conn.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
    if bad:
        raise StoreError(f"database {path}: upgrade would break {len(bad)} references; rolled back")
