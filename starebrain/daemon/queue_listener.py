"""On PostgreSQL, a submit wakes the idle workers at once (LISTEN/NOTIFY) instead of their next look.

`FarmStore.enqueue` notifies the channel in the submit's transaction (delivered at its commit); this
thread holds one extra connection that listens, and reconnects (waking everyone once, for what it
may have missed) when the server restarts. Workers still look at the queue every `--interval`.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import sqlalchemy as sa

from starebrain.daemon.background import Follower
from starebrain.store.farm import QUEUE_CHANNEL


class QueueListener(Follower):
    """Calls `wake()` from its own thread whenever a task is queued."""

    name = "queue listener"

    def __init__(self, url: str, wake: Callable[[], None], stopping: threading.Event,
                 on_error: Callable[[str], None] = lambda _msg: None) -> None:
        self._conninfo = sa.make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
        self._wake = wake
        super().__init__(stopping, on_error)

    def follow(self) -> None:
        import psycopg

        with psycopg.connect(self._conninfo, autocommit=True, connect_timeout=10) as conn:
            conn.execute(f"LISTEN {QUEUE_CHANNEL}")
            self._wake()  # anything queued while nobody listened
            while not self._stopping.is_set():
                for _ in conn.notifies(timeout=1.0, stop_after=1):
                    self._wake()
