"""An append-only event log that live views (TUI, `show --follow`) poll by id."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import sqlalchemy as sa
from pydantic import BaseModel, Field
from pydantic_core import to_jsonable_python
from sqlalchemy.engine import Connection

from starebrain.store import prepared
from starebrain.store.tables import EventRow

EVENT = EventRow.__table__  # type: ignore[attr-defined]
PG_INSERT = "INSERT INTO event (task_id, kind, payload, created_at) VALUES (?, ?, ?, ?) RETURNING id"


class StoredEvent(BaseModel):
    """One recorded event; ids only grow, so `events_since(last.id)` never misses or repeats one."""

    id: int
    task_id: str | None = None
    kind: str
    payload: dict[str, Any] = Field(default_factory=dict)
    created_at: datetime


def insert_event(conn: Connection, task_id: str | None, kind: str, payload: dict[str, Any],
                 now: datetime) -> int:
    """Append an event (payload made JSON-safe: datetimes, enums, models); returns its id."""
    safe = to_jsonable_python(payload, fallback=str)
    sql = prepared.table_sql(EVENT, conn)
    values = sql.bind({"id": None, "task_id": task_id, "kind": kind, "payload": safe, "created_at": now},
                      sql.insert)
    cur = prepared.cursor(conn)
    if conn.dialect.name == "postgresql":  # a serial column takes no NULL: leave the id out
        return int(cur.execute(PG_INSERT, values[1:]).fetchone()[0])
    cur.execute(sql.insert, values)  # id NULL: AUTOINCREMENT assigns the next, never reused
    return int(cur.lastrowid)


def read_events(conn: Connection, after_id: int, task_id: str | None, limit: int) -> list[StoredEvent]:
    """Events with an id above `after_id`, oldest first."""
    query = sa.select(EVENT).where(EVENT.c.id > after_id)
    if task_id is not None:
        query = query.where(EVENT.c.task_id == task_id)
    rows = conn.execute(query.order_by(EVENT.c.id).limit(limit))
    return [StoredEvent.model_validate(dict(r._mapping)) for r in rows]
