"""One process's session on one phone: its lease, device and executor (built by `starebrain.engine`)."""

from __future__ import annotations

import logging
import os
import queue
import socket
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING

from starebrain.config import Settings
from starebrain.errors import StareBrainError
from starebrain.events import Event, EventBus
from starebrain.executor.task_executor import TaskExecutor
from starebrain.redaction import Scrubber
from starebrain.store.lease_keeper import LeaseKeeper

if TYPE_CHECKING:
    from starebrain.context.tracker import ContextTracker
    from starebrain.device.base import Device
    from starebrain.profiles import Profiles
    from starebrain.store.lease import Lease
    from starebrain.store.protocol import SessionStore

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

    def __init__(self, store: SessionStore, *, background: bool = False, scrubber: Scrubber | None = None) -> None:
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
                except Exception as exc:  # a log line never fails the work; one line, no traceback
                    log.warning("could not write %d events: %s", len(events), exc)
            if len(events) < len(batch):
                return


@dataclass
class Session:
    """One process's exclusive handle on one phone, for the length of a command."""

    settings: Settings
    store: SessionStore
    serial: str
    events: EventBus
    device: Device | None = None
    executor: TaskExecutor | None = None
    keeper: LeaseKeeper | None = None  # the device lease, renewed while the command runs
    profiles: Profiles | None = None
    tracker: ContextTracker | None = None  # the person's context, fed by every observation, saved at close
    sink: StoreEventSink | None = None
    owns_keeper: bool = True  # False when the caller took the lease first and releases it itself

    @property
    def lease(self) -> Lease | None:
        return self.keeper.lease if self.keeper is not None else None

    def close(self) -> None:
        """Release the lease (if this session took it) and the device; the store stays open.

        Each part is closed even if another fails (e.g. a locked database): the error that ended
        the command is the one the person sees."""
        for part in (self._save_context, self._close_sink, self._release, self._close_device):
            try:
                part()
            except StareBrainError as exc:
                log.debug("closing the session: %s", exc)

    def _save_context(self) -> None:
        tracker, self.tracker = self.tracker, None
        if tracker is not None:
            self.store.save_context(tracker.context)  # restored at LOW confidence (docs/architecture.md)

    def _close_sink(self) -> None:
        sink, self.sink = self.sink, None
        if sink is not None:
            sink.close()

    def _release(self) -> None:
        keeper, self.keeper = self.keeper, None
        if keeper is not None and self.owns_keeper:
            keeper.release()

    def _close_device(self) -> None:
        device, self.device = self.device, None
        if device is not None:
            device.close()

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def hold_lease(settings: Settings, store: SessionStore, serial: str) -> LeaseKeeper:
    """Take the phone's lease (DeviceBusy if another live process has it) and keep it renewed."""
    return LeaseKeeper(store, serial, holder_name(), settings.lease_ttl_s)
