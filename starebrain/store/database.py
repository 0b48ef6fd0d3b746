"""The SQLite engine: pragmas of docs/architecture.md, `BEGIN IMMEDIATE` writes, and error translation;
and the PostgreSQL engine of a farm (`create_server_engine`), which needs none of the SQLite parts.

Writes take the write lock at BEGIN (IMMEDIATE) so two writers queue on busy_timeout instead of
failing half-way through a transaction; reads use a deferred BEGIN so they never wait on a writer
(WAL lets readers run beside one writer).
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

import sqlalchemy as sa
from sqlalchemy import event, exc
from sqlalchemy.engine import Connection, Engine

from starebrain.config import PRIVATE_DIR_MODE, private_file
from starebrain.errors import DatabaseLocked, DatabaseReadOnly, DatabaseUnavailable, StoreError

BEGIN_OPTION = "starebrain_begin"  # execution option: "IMMEDIATE" (default) or "DEFERRED"


READ_ONLY_MODES = {"ro": {"mode": "ro"}, "immutable": {"mode": "ro", "immutable": "1"}}


def create_engine(path: Path, busy_timeout_ms: int, *, foreign_keys: bool = True,
                  read_only: str = "") -> Engine:
    """An engine whose every connection has our pragmas and whose BEGIN we emit ourselves.

    `read_only` ("ro" or "immutable") opens a database we may not write: reading commands still
    work, every write fails as DatabaseReadOnly. "immutable" is for a WAL file in a folder where
    SQLite cannot create its shared-memory file (nobody can write there either)."""
    if read_only:
        url = sa.URL.create("sqlite", database=f"file:{quote(str(path))}",
                            query={**READ_ONLY_MODES[read_only], "uri": "true"})
    else:
        url = sa.URL.create("sqlite", database=str(path))  # not an f-string: '?' or '#' in a path
    engine = sa.create_engine(url, connect_args={"timeout": busy_timeout_ms / 1000})
    event.listen(engine, "connect", _on_connect(busy_timeout_ms, foreign_keys, read_only))
    event.listen(engine, "begin", _on_begin)
    return engine


def _on_connect(busy_timeout_ms: int, foreign_keys: bool, read_only: str = "") -> Any:
    def on_connect(dbapi_connection: sqlite3.Connection, _record: object) -> None:
        # Documented SQLAlchemy recipe: stop pysqlite emitting BEGIN, so `_on_begin` controls it.
        dbapi_connection.isolation_level = None
        cur = dbapi_connection.cursor()
        try:
            cur.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            if read_only:
                cur.execute("PRAGMA query_only = ON")
                return
            # journal_mode cannot change inside a transaction, so it is set here, per connection
            # (a no-op once the file is WAL; WAL is persistent in the file).
            mode = cur.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                raise sqlite3.OperationalError(f"cannot enable WAL journal mode (got {mode!r})")
            cur.execute(f"PRAGMA foreign_keys = {'ON' if foreign_keys else 'OFF'}")
            cur.execute("PRAGMA synchronous = FULL")
        finally:
            cur.close()

    return on_connect


def _on_begin(conn: Connection) -> None:
    mode = conn.get_execution_options().get(BEGIN_OPTION, "IMMEDIATE")
    conn.exec_driver_sql(f"BEGIN {'DEFERRED' if mode == 'DEFERRED' else 'IMMEDIATE'}")


def reader(engine: Engine) -> Engine:
    """The same engine, beginning its transactions DEFERRED (for reads only)."""
    return engine.execution_options(**{BEGIN_OPTION: "DEFERRED"})


def create_server_engine(url: str, busy_timeout_ms: int) -> Engine:
    """A PostgreSQL engine: connections checked before use, so a restarted server is reconnected to.

    `lock_timeout` plays busy_timeout's part: a writer waits that long for a row another holds."""
    options = f"-c lock_timeout={int(busy_timeout_ms)} -c statement_timeout={max(int(busy_timeout_ms) * 6, 30000)}"
    engine = sa.create_engine(url, pool_pre_ping=True, pool_size=4, max_overflow=8,
                              connect_args={"connect_timeout": 10, "options": options})
    event.listen(engine, "do_connect", _connect_retrying(busy_timeout_ms * 3 / 1000))
    return engine


def _connect_retrying(window_s: float) -> Any:
    """Connecting is retried for `window_s`: a server restarting (or failing over) is waited for,
    so a transaction that had not begun when it went down simply begins once it is back."""
    def do_connect(dialect: Any, _record: object, cargs: Any, cparams: Any) -> Any:
        import psycopg

        deadline = time.monotonic() + window_s
        while True:
            try:
                return dialect.dbapi.connect(*cargs, **cparams)
            except psycopg.OperationalError:
                if time.monotonic() >= deadline:
                    raise
                time.sleep(0.25)

    return do_connect


def is_server(engine: Engine | Connection) -> bool:
    """Whether this is a PostgreSQL store (no pragmas, no BEGIN IMMEDIATE, row locks instead)."""
    return engine.dialect.name == "postgresql"


def display_url(url: str) -> str:
    """The URL without its password, for messages."""
    return sa.make_url(url).render_as_string(hide_password=True)


def check_pragmas(conn: Connection, path: Path, busy_timeout_ms: int, foreign_keys: bool = True) -> None:
    """Read back every pragma we rely on; a mismatch is a StoreError naming it."""
    want: dict[str, object] = {
        "journal_mode": "wal", "synchronous": 2, "busy_timeout": int(busy_timeout_ms),
        "foreign_keys": 1 if foreign_keys else 0,
    }
    for name, expected in want.items():
        got = conn.exec_driver_sql(f"PRAGMA {name}").scalar()
        got = got.lower() if isinstance(got, str) else got
        if got != expected:
            raise StoreError(f"database {path}: PRAGMA {name} is {got!r}, expected {expected!r}")


SQLITE_HEADER = b"SQLite format 3\x00"


def check_header(path: Path) -> None:
    """A StoreError, before SQLite touches it, if an existing non-empty file is not SQLite at all."""
    try:
        with path.open("rb") as f:
            head = f.read(len(SQLITE_HEADER))
    except FileNotFoundError:
        return
    except OSError as e:
        raise StoreError(f"cannot read database {path}: {e.strerror or e}") from None
    if head and head != SQLITE_HEADER:
        raise StoreError(f"{path} is not a StareBrain database (not an SQLite file); left untouched")


def check_writable(path: Path) -> None:
    """DatabaseReadOnly before any SQL if the file or its folder cannot be written (WAL needs both)."""
    folder = path.parent
    if not folder.exists():
        try:
            folder.mkdir(mode=PRIVATE_DIR_MODE, parents=True, exist_ok=True)
        except OSError as e:
            raise DatabaseReadOnly(f"database {path}: cannot create its folder {folder}: "
                                   f"{e.strerror or e}") from None
    if path.exists() and not os.access(path, os.W_OK):
        raise DatabaseReadOnly(f"database {path} is read-only; StareBrain needs to write to it")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise DatabaseReadOnly(f"database {path}: its folder {folder} is read-only "
                               "(SQLite WAL needs to create files beside it)")
    # SQLite gives its -wal and -shm files the mode of the database file: 0600 for all three.
    for own in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        if own == path or own.exists():
            private_file(own)


def translate(error: BaseException, path: Path | str, busy_timeout_ms: int) -> Exception:
    """Our error for a driver error: locked, read-only, not a database, or a one-line StoreError."""
    orig = getattr(error, "orig", error)
    if type(orig).__module__.startswith("psycopg"):
        return _translate_server(orig, path)
    name = getattr(orig, "sqlite_errorname", "") or ""
    text = str(orig).splitlines()[0] if str(orig) else type(orig).__name__
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or "database is locked" in text:
        return DatabaseLocked(f"database {path} is locked by another writer "
                              f"(waited {busy_timeout_ms} ms); try again")
    if name.startswith("SQLITE_READONLY") or "readonly database" in text:
        return DatabaseReadOnly(f"database {path} is read-only; nothing was written ({text})")
    if name == "SQLITE_NOTADB" or "not a database" in text:
        return StoreError(f"{path} is not a StareBrain database (not an SQLite file)")
    if "cannot enable WAL" in text:
        return StoreError(f"database {path}: {text}; is it on a network or read-only filesystem?")
    if name.startswith("SQLITE_CANTOPEN"):
        return StoreError(f"cannot open database {path}: {text}")
    return StoreError(f"database {path}: {text}")


def _translate_server(orig: BaseException, where: Path | str) -> Exception:
    import psycopg

    text = str(orig).splitlines()[0] if str(orig) else type(orig).__name__
    sqlstate = getattr(orig, "sqlstate", None) or ""
    if sqlstate in ("55P03", "40P01", "40001", "57014"):  # lock timeout, deadlock, serialization, cancel
        return DatabaseLocked(f"database {where} is busy ({text}); try again")
    if isinstance(orig, psycopg.OperationalError) or sqlstate.startswith(("08", "57P")):
        return DatabaseUnavailable(f"database {where} is unreachable ({text}); nothing was written")
    if sqlstate == "25006":
        return DatabaseReadOnly(f"database {where} is read-only; nothing was written ({text})")
    return StoreError(f"database {where}: {text}")


@contextmanager
def translated(path: Path | str, busy_timeout_ms: int) -> Iterator[None]:
    """Run a block, turning driver errors into our error tree (the transaction is already rolled back)."""
    try:
        yield
    except (exc.StatementError, sqlite3.Error, exc.InterfaceError) as e:  # StatementError has every DBAPIError
        raise translate(e, path, busy_timeout_ms) from e
