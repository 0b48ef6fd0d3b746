"""Alembic environment. The store passes an open connection (already inside BEGIN IMMEDIATE);
run standalone (`alembic -x db=PATH upgrade head`) it opens the file itself."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import context

from starebrain.store.tables import METADATA

config = context.config


def _run(connection: sa.Connection) -> None:
    # render_as_batch: SQLite cannot ALTER most things; batch mode copies the table instead.
    context.configure(
        connection=connection, target_metadata=METADATA, render_as_batch=True, transactional_ddl=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    """Upgrade over the store's connection, or over a file named by `-x db=PATH`."""
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    db = context.get_x_argument(as_dictionary=True).get("db") or config.get_main_option("sqlalchemy.url")
    url = db if db and "://" in db else f"sqlite:///{db}"
    engine = sa.create_engine(url)
    with engine.connect() as conn:
        _run(conn)
    engine.dispose()


if context.is_offline_mode():
    raise SystemExit("offline (--sql) migrations are not supported")
run_migrations_online()
