"""Fixtures for the store tests: a fresh database per test."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from starebrain.config import Settings, load_settings
from starebrain.store import Store


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return load_settings(home=tmp_path / "home", db_busy_timeout_ms=2000)


@pytest.fixture
def store(settings: Settings) -> Iterator[Store]:
    s = Store.open(settings=settings)
    yield s
    s.close()
