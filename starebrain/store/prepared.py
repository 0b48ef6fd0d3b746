"""Prepared SQL for the per-step hot path: fixed statement text on the driver cursor.

Building a Core statement per call (and an SQLModel row per value set) cost milliseconds of CPU on
every step; here each statement's text is built once and its values go through the columns' own
SQLAlchemy bind processors, so what lands in the file is byte for byte what Core would write. The
statements run inside the caller's transaction (BEGIN IMMEDIATE ... COMMIT is unchanged).

Statement texts use `?` marks; on PostgreSQL (psycopg) the cursor rewrites them to `%s` once per
text, and the processors are psycopg's (real booleans and datetimes instead of SQLite's text).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import sqlalchemy as sa
from sqlalchemy import exc
from sqlalchemy.dialects.sqlite.pysqlite import SQLiteDialect_pysqlite
from sqlalchemy.engine import Connection, Dialect

_DIALECT = SQLiteDialect_pysqlite()  # the default dialect; processors depend on it

Processor = Callable[[Any], Any] | None


@dataclass(frozen=True)
class TableSql:
    """One table's column order, bind processors and statement texts."""

    table: sa.Table
    columns: tuple[str, ...]
    processors: tuple[Processor, ...]
    greatest: str = "max"  # SQLite's two-argument max(); PostgreSQL spells it greatest()

    def bind(self, values: Mapping[str, Any], sql: str = "") -> tuple[Any, ...]:
        """Column values in column order, as the driver takes them (datetimes, JSON, booleans)."""
        try:
            return tuple(p(values[c]) if p is not None else values[c]
                         for c, p in zip(self.columns, self.processors, strict=True))
        except (ValueError, TypeError) as e:  # as Core reports it: translated to a StoreError upstream
            raise exc.StatementError(str(e), sql, None, e) from e

    def process(self, column: str, value: Any) -> Any:
        """One column's value as the driver takes it."""
        processor = self.processors[self.columns.index(column)]
        return processor(value) if processor is not None else value

    @property
    def insert(self) -> str:
        return _insert(self)

    def upsert(self, keys: Sequence[str], keep_max: Iterable[str] = ()) -> str:
        """INSERT, or on a key conflict UPDATE every other column (`keep_max` ones never decrease)."""
        return _upsert(self, tuple(keys), tuple(keep_max))


def table_sql(table: sa.Table, conn: Connection | None = None) -> TableSql:
    """The prepared description of a table for the connection's dialect (built once per process)."""
    dialect = conn.dialect if conn is not None and conn.dialect.name != "sqlite" else _DIALECT
    return _table_sql(table, dialect.name, dialect)


@cache
def _table_sql(table: sa.Table, _name: str, dialect: Dialect) -> TableSql:
    columns = tuple(c.name for c in table.columns)
    processors = tuple(c.type.dialect_impl(dialect).bind_processor(dialect) for c in table.columns)
    return TableSql(table, columns, processors, "max" if dialect.name == "sqlite" else "greatest")


@cache
def _insert(t: TableSql) -> str:
    names = ", ".join(t.columns)
    marks = ", ".join("?" for _ in t.columns)
    return f"INSERT INTO {t.table.name} ({names}) VALUES ({marks})"


@cache
def _upsert(t: TableSql, keys: tuple[str, ...], keep_max: tuple[str, ...]) -> str:
    sets = [f"{c} = {t.greatest}({t.table.name}.{c}, excluded.{c})" if c in keep_max else f"{c} = excluded.{c}"
            for c in t.columns if c not in keys]
    return f"{_insert(t)} ON CONFLICT ({', '.join(keys)}) DO UPDATE SET {', '.join(sets)}"


def cursor(conn: Connection) -> Any:
    """The driver cursor of the connection's open transaction (sqlite3 caches the prepared texts)."""
    driver = conn.connection.driver_connection
    if isinstance(driver, sqlite3.Connection):
        return driver.cursor()
    return MarkedCursor(driver.cursor())  # type: ignore[union-attr]


class MarkedCursor:
    """A psycopg cursor taking the `?` marks the statement texts are written with."""

    def __init__(self, cur: Any) -> None:
        self._cur = cur

    def execute(self, sql: str, params: Sequence[Any] = ()) -> MarkedCursor:
        self._cur.execute(_pyformat(sql), params)
        return self

    def fetchone(self) -> Any:
        return self._cur.fetchone()

    def fetchall(self) -> list[Any]:
        return list(self._cur.fetchall())


@cache
def _pyformat(sql: str) -> str:
    return sql.replace("?", "%s")  # no statement text holds a literal '?' or '%'
