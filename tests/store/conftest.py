"""Fixtures for the store tests: a fresh database per test, on SQLite and on PostgreSQL.

`settings` and `store` are parametrized over both backends; a test about SQLite itself (pragmas,
the file, WAL) carries `@pytest.mark.sqlite_only`. The PostgreSQL server is real (tests/postgres.py),
started once per session; every test gets its own database, copied from a migrated template.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from starebrain.config import Settings, load_settings
from starebrain.store import Store
from tests.postgres import PgServer, require_postgres

BACKENDS = ("sqlite", "postgresql")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "sqlite_only: about SQLite itself; not run on PostgreSQL")


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """One real PostgreSQL server for the session's store tests."""
    server = PgServer(require_postgres()).start()
    try:
        yield server
    finally:
        server.close()


@pytest.fixture(scope="session")
def pg_template(pg_server: PgServer, tmp_path_factory: pytest.TempPathFactory) -> str:
    """A database migrated to head once; each test's database is a copy of it."""
    url = pg_server.create_database()
    Store.open(url, settings=load_settings(home=tmp_path_factory.mktemp("pg-template"))).close()
    return url.rsplit("/", 1)[1]


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    if request.param == "postgresql" and request.node.get_closest_marker("sqlite_only"):
        pytest.skip("about SQLite itself")
    return str(request.param)


@pytest.fixture
def db_url(backend: str, request: pytest.FixtureRequest) -> str | None:
    """A fresh PostgreSQL database's URL, or None on SQLite (the file under the test's home)."""
    if backend != "postgresql":
        return None
    server: PgServer = request.getfixturevalue("pg_server")
    return server.create_database(template=request.getfixturevalue("pg_template"))


@pytest.fixture
def settings(tmp_path: Path, db_url: str | None) -> Settings:
    extra = {"db_file": db_url} if db_url else {}
    return load_settings(home=tmp_path / "home", db_busy_timeout_ms=2000, **extra)


@pytest.fixture
def store(settings: Settings) -> Iterator[Store]:
    s = Store.open(settings=settings)
    yield s
    s.close()
