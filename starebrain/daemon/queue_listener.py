"""On PostgreSQL, a submit wakes the idle workers at once (LISTEN/NOTIFY) instead of their next look.

`FarmStore.enqueue` notifies the channel in the submit's transaction (delivered at its commit); this
thread holds one extra connection that listens, and reconnects (waking everyone once, for what it
may have missed) when the server restarts. Workers still look at the queue every `--interval`.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import sqlalchemy as sa

from starebrain.store.farm import QUEUE_CHANNEL


class QueueListener:
    """Calls `wake()` from its own thread whenever a task is queued."""

    def __init__(self, url: str, wake: Callable[[], None], stopping: threading.Event,
                 on_error: Callable[[str], None] = lambda _msg: None) -> None:
        self._conninfo = sa.make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
        self._wake, self._stopping, self._on_error = wake, stopping, on_error
        self._thread = threading.Thread(target=self._loop, name="queue-listener", daemon=True)

    def start(self) -> QueueListener:
        self._thread.start()
        return self

    def _loop(self) -> None:
        import psycopg

        while not self._stopping.is_set():
            try:
                with psycopg.connect(self._conninfo, autocommit=True, connect_timeout=10) as conn:
                    conn.execute(f"LISTEN {QUEUE_CHANNEL}")
                    self._wake()  # anything queued while nobody listened
                    while not self._stopping.is_set():
                        for _ in conn.notifies(timeout=1.0, stop_after=1):
                            self._wake()
            except psycopg.Error as exc:
                self._on_error(f"queue listener: {str(exc).splitlines()[0] if str(exc) else exc} (reconnecting)")
                self._stopping.wait(1.0)
