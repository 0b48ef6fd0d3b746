"""The farm's fixtures: one real PostgreSQL server for the module, the tests' sim host."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.postgres import PgServer, require_postgres


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "farm(hosts=3, phones=2, timing='fast'): the test's farm")


@pytest.fixture(scope="session")
def farm_pg() -> Iterator[PgServer]:
    server = PgServer(require_postgres()).start()
    try:
        yield server
    finally:
        server.close()
