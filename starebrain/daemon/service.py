"""The daemon: registers its host, tracks its phones (adb track-devices), one worker thread each,
a heartbeat that also marks dead hosts' phones absent, and a graceful stop.

It opens no network port: it talks to the local adb server and to the store (an SQLite file, or a
farm's PostgreSQL by its URL) only.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from starebrain.daemon.log import say
from starebrain.daemon.queue_listener import QueueListener
from starebrain.daemon.tracker import DeviceTracker, device_labels
from starebrain.daemon.worker import PhoneWorker, SessionOpener, WorkerContext
from starebrain.errors import StoreError
from starebrain.models import AgentTask
from starebrain.store.farm import FarmStore


@dataclass(frozen=True)
class DaemonOptions:
    host: str  # this host's name in the farm
    poll_s: float = 0.5  # how often an idle worker looks at the queue
    heartbeat_s: float = 2.0
    dead_after_s: float = 15.0  # a host silent this long is dead: its phones are marked absent
    labels: tuple[tuple[str, str], ...] = ()  # extra labels on every phone of this host


class Daemon:
    """Run with `run()` until `stop()` (SIGTERM): workers pause their tasks at a step boundary."""

    def __init__(self, store: Any, settings: Any, options: DaemonOptions, opener: SessionOpener,
                 hold_lease: Callable[[str], Any], answer_hint: Callable[[AgentTask], str]) -> None:
        self.options = options
        self.stopping = threading.Event()
        self.farm = FarmStore(store)
        self.ctx = WorkerContext(host=options.host, store=store, farm=self.farm, settings=settings, opener=opener,
                                 stopping=self.stopping, poll_s=options.poll_s, hold_lease=hold_lease,
                                 answer_hint=answer_hint)
        self.workers: dict[str, PhoneWorker] = {}
        self._lock = threading.Lock()
        self._changed = threading.Event()

    def _say(self, text: str, serial: str | None = None) -> None:
        say(self.options.host, text, serial)

    def stop(self) -> None:
        """Ask every worker to pause at its next step boundary and the daemon to exit."""
        self.stopping.set()
        self._changed.set()
        for worker in list(self.workers.values()):
            worker.wake()

    def run(self) -> None:
        """Until stopped: track phones, run workers, heartbeat. Returns after every worker ended."""
        self._register()
        self._say(f"up (pid {os.getpid()}); tracking phones through the adb server")
        DeviceTracker(self._on_change, self.stopping, on_error=self._say).start()
        url = getattr(self.ctx.settings, "db_url", None)
        if url:
            QueueListener(url, self._wake_workers, self.stopping, on_error=self._say).start()
        while not self.stopping.is_set():
            self._beat()
            self._changed.wait(self.options.heartbeat_s)  # a phone came or went: tell the farm now
            self._changed.clear()
        for worker in list(self.workers.values()):
            worker.thread.join()
        try:
            self.farm.stop_host(self.options.host)
        except StoreError as exc:
            self._say(f"database: {exc}")
        self._say("stopped")

    def _wake_workers(self) -> None:
        for worker in list(self.workers.values()):
            worker.wake()

    def _register(self) -> None:
        while True:
            try:
                self.farm.register_host(self.options.host, os.getpid())
                return
            except StoreError as exc:  # the database is not up yet: a service starts anyway
                self._say(f"database: {exc} (will try again)")
                if self.stopping.wait(self.options.heartbeat_s):
                    return

    def _beat(self) -> None:
        with self._lock:
            present = {s: w.labels for s, w in self.workers.items() if w.attached.is_set()}
        try:
            self.farm.heartbeat(self.options.host, present)
            for host in self.farm.mark_dead_hosts(self.options.dead_after_s):
                if host != self.options.host:
                    self._say(f"host {host} has no heartbeat: its phones are marked absent")
        except StoreError as exc:
            self._say(f"database: {exc} (will try again)")

    def _on_change(self, serial: str, ready: bool) -> None:
        with self._lock:
            worker = self.workers.get(serial)
            if not ready:
                if worker is not None:
                    worker.detach()
                    del self.workers[serial]
                self._say("phone gone", serial)
                self._changed.set()
                return
            if worker is not None and worker.thread.is_alive():
                return
        labels = {**device_labels(serial, self.ctx.settings.device_timeout_s), "host": self.options.host,
                  **dict(self.options.labels)}
        self._say(f"phone attached ({', '.join(f'{k}={v}' for k, v in labels.items() if v)})", serial)
        worker = PhoneWorker(self.ctx, serial, labels)
        with self._lock:
            if self.stopping.is_set():
                return
            self.workers[serial] = worker
        worker.start()
        self._changed.set()
