"""Persistence: SQLite through SQLModel, schema by Alembic, one transaction per call (docs/architecture.md)."""

from __future__ import annotations

from starebrain.store.events import StoredEvent
from starebrain.store.lease import Lease
from starebrain.store.repository import Store
from starebrain.store.schema import HEAD_REVISION

__all__ = ["HEAD_REVISION", "Lease", "Store", "StoredEvent"]
