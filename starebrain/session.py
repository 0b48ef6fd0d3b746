"""One process's session on one phone: its lease, device and executor (built by `starebrain.engine`)."""

from __future__ import annotations

import logging
import os
import queue
import socket
import threading
from dataclasses import dataclass, field
from typing import Any

from starebrain.config import Settings
from starebrain.events import Event, EventBus
from starebrain.executor.task_executor import TaskExecutor
from starebrain.redaction import Scrubber

log = logging.getLogger(__name__)


def holder_name() -> str:
    """Who holds a lease: host and pid, so a dead holder can be recognised."""
    return f"{socket.gethostname()}:{os.getpid()}"


class StoreEventSink:
    """Writes every event to the event table so other processes (the TUI) see progress live.

    With `background=True` a thread writes them in batches, so a step never waits for an event's
    commit: recovery relies on the task, step and attempt rows, and an event lost to a SIGKILL is
    only a refresh the TUI misses. `close()` writes what is left.
    """

    def __init__(self, store: Any, *, background: bool = False, scrubber: Scrubber | None = None) -> None:
        self.store = store
        self.scrubber = scrubber or Scrubber()
        self._queue: queue.SimpleQueue[Event | None] | None = None
        self._thread: threading.Thread | None = None
        if background:
            self._queue = queue.SimpleQueue()
            self._thread = threading.Thread(target=self._drain, name="event-writer", daemon=True)
            self._thread.start()

    def __call__(self, event: Event) -> None:
        if self._queue is None:
            self.store.add_event(event.task_id, event.kind, self.scrubber.data(event.payload()))
        else:
            self._queue.put(event)

    def close(self, timeout_s: float = 5.0) -> None:
        """Write the events still queued (bounded wait)."""
        if self._queue is not None and self._thread is not None:
            self._queue.put(None)
            self._thread.join(timeout_s)

    def _drain(self) -> None:
        assert self._queue is not None
        while True:
            batch = [self._queue.get()]
            while not self._queue.empty() and len(batch) < 200:
                batch.append(self._queue.get())
            events = [e for e in batch if e is not None]
            if events:
                try:
                    self.store.add_events([(e.task_id, e.kind, self.scrubber.data(e.payload())) for e in events])
                except Exception:  # a log line never fails the work
                    log.exception("could not write %d events", len(events))
            if len(events) < len(batch):
                return


@dataclass
class Session:
    """One process's exclusive handle on one phone, for the length of a command."""

    settings: Settings
    store: Any
    serial: str
    events: EventBus
    device: Any = None
    executor: TaskExecutor | None = None
    lease: Any = None
    profiles: Any = None
    tracker: Any = None  # the person's context, fed by every observation, saved at close
    sink: StoreEventSink | None = None
    _renewer: threading.Event = field(default_factory=threading.Event)

    def close(self) -> None:
        """Release the lease and the device; the store stays open for the caller."""
        self._renewer.set()
        if self.tracker is not None:
            self.store.save_context(self.tracker.context)  # restored at LOW confidence (docs/architecture.md)
            self.tracker = None
        if self.sink is not None:
            self.sink.close()
            self.sink = None
        if self.lease is not None:
            self.store.release_lease(self.lease)
            self.lease = None
        if self.device is not None:
            self.device.close()
            self.device = None

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _keep_lease(session: Session) -> None:
    """Renew the lease in the background while the command runs."""
    interval = max(1.0, session.settings.lease_ttl_s / 3)

    def renew() -> None:
        while not session._renewer.wait(interval):
            if session.lease is not None:
                session.store.renew_lease(session.lease)

    threading.Thread(target=renew, name="lease-renewer", daemon=True).start()
