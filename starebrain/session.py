"""Assembles the engine for one phone: store, lease, device, guard, runner, executor, sinks."""

from __future__ import annotations

import logging
import os
import queue
import socket
import threading
from dataclasses import dataclass
from typing import Any

from starebrain.config import Settings
from starebrain.device.base import Observation
from starebrain.errors import StareBrainError
from starebrain.events import Event, EventBus
from starebrain.executor.artifacts import ArtifactWriter
from starebrain.executor.replan_policy import ReplanPolicy
from starebrain.executor.step_runner import RunnerSettings, StepRunner
from starebrain.executor.task_executor import TaskExecutor
from starebrain.snapshot import ScreenSnapshot
from starebrain.store.lease_keeper import LeaseKeeper

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

    def __init__(self, store: Any, *, background: bool = False) -> None:
        self.store = store
        self._queue: queue.SimpleQueue[Event | None] | None = None
        self._thread: threading.Thread | None = None
        if background:
            self._queue = queue.SimpleQueue()
            self._thread = threading.Thread(target=self._drain, name="event-writer", daemon=True)
            self._thread.start()

    def __call__(self, event: Event) -> None:
        if self._queue is None:
            self.store.add_event(event.task_id, event.kind, event.payload())
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
                    self.store.add_events([(e.task_id, e.kind, e.payload()) for e in events])
                except Exception as exc:  # a log line never fails the work; one line, no traceback
                    log.warning("could not write %d events: %s", len(events), exc)
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
    keeper: LeaseKeeper | None = None  # the device lease, renewed while the command runs
    profiles: Any = None
    tracker: Any = None  # the person's context, fed by every observation, saved at close
    sink: StoreEventSink | None = None
    owns_keeper: bool = True  # False when the caller took the lease first and releases it itself

    @property
    def lease(self) -> Any:
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
            self.store.save_context(tracker.context)  # persisted LOW (design §4)

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


def hold_lease(settings: Settings, store: Any, serial: str) -> LeaseKeeper:
    """Take the phone's lease (DeviceBusy if another live process has it) and keep it renewed."""
    return LeaseKeeper(store, serial, holder_name(), settings.lease_ttl_s)


def open_session(settings: Settings, store: Any, serial: str, *, planner: Any = None,
                 replanner: Any = None, events: EventBus | None = None,
                 keeper: LeaseKeeper | None = None) -> Session:
    """Lease the phone (unless `keeper` already holds it), connect to it and build the executor.

    Every write of the executor is fenced by the lease, and every action the device sends is
    checked against it just before it leaves (the send gate). Raises DeviceBusy/DeviceNotFound."""
    from starebrain.device.u2_device import U2Device
    from starebrain.guard import ConfirmationGuard
    from starebrain.profiles import load_profiles

    bus = events or EventBus()
    sink = StoreEventSink(store, background=True)
    bus.subscribe(sink)
    session = Session(settings=settings, store=store, serial=serial, events=bus, sink=sink,
                      owns_keeper=keeper is None)
    try:
        session.keeper = keeper or hold_lease(settings, store, serial)
        session.device = U2Device.connect(serial, timeout_s=settings.device_timeout_s)
        session.device.send_permit = session.keeper.check
        profiles = session.profiles = load_profiles(settings.profiles_dir)
        profile = profiles.device_profile(session.device.brand())
        runner = StepRunner(session.device, profile, bus, artifacts=ArtifactWriter(settings.artifacts_dir),
                            planner=planner, settings=RunnerSettings())
        session.tracker = _tracker(store, serial, runner)
        fenced = store.fenced(session.keeper.lease)
        session.executor = TaskExecutor(runner, fenced, ConfirmationGuard(profiles), bus, planner=planner,
                                        policy=ReplanPolicy(max_replans=settings.replan_cap),
                                        replanner=replanner)
    except BaseException:
        session.close()
        raise
    return session


def _tracker(store: Any, serial: str, runner: StepRunner) -> Any:
    """Context across app switches: restored (LOW) from the store, refreshed by each observation."""
    from starebrain.context.tracker import ContextTracker

    tracker = ContextTracker(serial, initial=store.load_context(serial))
    def observe(obs: Observation, snap: ScreenSnapshot) -> None:
        tracker.fold(obs.package, obs.activity, snap)

    runner.observers.append(observe)
    return tracker
