"""Holding a device lease for the length of one command: renewed in the background, checked
right before every device action, and known to be gone the moment another process took it over."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from starebrain.errors import LeaseLost, StareBrainError
from starebrain.store.lease import Lease

if TYPE_CHECKING:
    from starebrain.store.protocol import SessionStore

log = logging.getLogger(__name__)

RETRY_S = 0.5  # after a transient renewal failure (a locked database), try again this soon


class LeaseKeeper:
    """One process's hold on one phone. `check()` raises LeaseLost once the hold is gone.

    The renewer thread renews every third of the TTL and retries transient errors (a locked
    database); only a renewal that finds another token ends the hold. `check()` trusts the last
    renewal while it is comfortably in date (a wall-clock comparison, nothing written) and renews
    synchronously otherwise — e.g. after the process was suspended past the TTL.
    """

    def __init__(self, store: SessionStore, serial: str, holder: str, ttl_s: float,
                 clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.ttl_s = ttl_s
        self._clock = clock
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self.lost: LeaseLost | None = None
        started = clock()
        self.lease: Lease = store.acquire_lease(serial, holder, ttl_s)
        self._valid_until = started + ttl_s
        self._thread = threading.Thread(target=self._renew_loop, name="lease-renewer", daemon=True)
        self._thread.start()

    @property
    def fence(self) -> int:
        return self.lease.fence

    def check(self) -> None:
        """LeaseLost unless this process still holds the lease (renewing it first if it is near its end)."""
        if self.lost is not None:
            raise self.lost
        if self._clock() < self._valid_until - self.ttl_s / 3:
            return
        try:
            self._renew()
        except LeaseLost:
            raise
        except StareBrainError as exc:  # e.g. a locked database: only fatal once the lease ran out
            if self._clock() >= self._valid_until:
                raise LeaseLost(f"lease on device {self.lease.serial} could not be renewed before it "
                                f"expired ({exc}); stopped before the next action") from None

    def release(self) -> None:
        """Stop renewing and give the phone up (never raises: the command is ending anyway)."""
        self._stop.set()
        try:
            self.store.release_lease(self.lease)
        except StareBrainError as exc:
            log.debug("lease release failed: %s", exc)

    def _renew(self) -> None:
        with self._lock:
            if self.lost is not None:
                raise self.lost
            started = self._clock()
            try:
                self.lease = self.store.renew_lease(self.lease, self.ttl_s)
            except LeaseLost as exc:
                self.lost = exc
                raise
            self._valid_until = started + self.ttl_s

    def _renew_loop(self) -> None:
        wait = max(0.2, self.ttl_s / 3)
        while not self._stop.wait(wait):
            try:
                self._renew()
                wait = max(0.2, self.ttl_s / 3)
            except LeaseLost:
                log.info("lease on %s lost: the driver stops before its next action", self.lease.serial)
                return
            except Exception as exc:  # noqa: BLE001 - transient (locked database, ...): try again soon
                log.debug("lease renewal failed, retrying: %s", exc)
                wait = RETRY_S
