"""The per-device lease (docs/architecture.md, Persistence and the lease): two processes never drive one phone at once.

A lease row names its holder's pid and host and expires unless renewed. Another process may take
it over only when it has expired, or when its holder is provably dead on this host.

Every change of holder adds one to the row's `fence` (the fencing token); a released row is kept
(holder emptied, already expired) so the number never goes back. A driver's writes check, in their
own transaction, that the row still carries its token (`check_current`): a process that was
suspended past its lease and woke up after another took over cannot write anything.
"""

from __future__ import annotations

import os
import socket
import uuid
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from starebrain.errors import DeviceBusy, LeaseLost
from starebrain.store.tables import DeviceLeaseRow
from starebrain.store.tasks import upsert

if TYPE_CHECKING:
    from starebrain.store.repository import Store

LEASE = DeviceLeaseRow.__table__  # type: ignore[attr-defined]


@dataclass(frozen=True)
class Lease:
    """A held device lease; `renew()` before `expires_at`, `release()` when done."""

    serial: str
    holder: str
    token: str
    pid: int
    host: str
    acquired_at: datetime
    expires_at: datetime
    fence: int = 0
    store: Store | None = field(default=None, repr=False, compare=False)

    def renew(self, ttl_s: float | None = None) -> Lease:
        """Extend this lease; DeviceBusy if it was lost meanwhile."""
        assert self.store is not None, "lease not bound to a store"
        return self.store.renew_lease(self, ttl_s)

    def release(self) -> None:
        """Give the device up (idempotent)."""
        if self.store is not None:
            self.store.release_lease(self)

    def __enter__(self) -> Lease:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def process_started(pid: int) -> str | None:
    """The start time of a process (Linux /proc), telling a pid apart from a later reuse of it."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    if fields and fields[0] == "Z":  # a zombie has already died
        return None
    return fields[19] if len(fields) > 19 else None


def pid_alive(pid: int) -> bool:
    """Whether a process with this pid exists on this host (and is not a zombie)."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    if os.path.exists(f"/proc/{pid}/stat"):
        return process_started(pid) is not None
    return True


def holder_alive(row: Any, host: str) -> bool:
    """A holder on another host counts as alive: we cannot see its processes."""
    if row.host != host:
        return True
    if not pid_alive(row.pid):
        return False
    return row.pid_started is None or process_started(row.pid) in (None, row.pid_started)


def _busy(row: Any) -> DeviceBusy:
    until = row.expires_at.strftime("%H:%M:%SZ")
    return DeviceBusy(f"device {row.serial} is busy: held by {row.holder} (pid {row.pid} on {row.host}), "
                      f"lease until {until}")


def acquire(conn: Connection, serial: str, holder: str, ttl_s: float, now: datetime) -> Lease:
    """Take the device's lease in the caller's IMMEDIATE transaction, or raise DeviceBusy."""
    host, pid = socket.gethostname(), os.getpid()
    if conn.dialect.name == "postgresql":  # acquirers of one phone queue here (SQLite: BEGIN IMMEDIATE)
        conn.execute(sa.select(sa.func.pg_advisory_xact_lock(sa.func.hashtext("lease:" + serial))))
    row = conn.execute(sa.select(LEASE).where(LEASE.c.serial == serial)).first()
    mine = False
    if row is not None and row.holder != "":  # a released row keeps only its fence
        mine = row.host == host and row.pid == pid and row.holder == holder
        if not mine and row.expires_at > now and holder_alive(row, host):
            raise _busy(row)
    token = row.token if mine and row is not None else uuid.uuid4().hex
    fence = (row.fence if mine else row.fence + 1) if row is not None else 1
    lease = Lease(serial=serial, holder=holder, token=token, pid=pid, host=host, acquired_at=now,
                  expires_at=now + timedelta(seconds=ttl_s), fence=fence)
    values = {k: getattr(lease, k) for k in ("serial", "holder", "token", "pid", "host", "acquired_at",
                                              "expires_at", "fence")}
    upsert(conn, LEASE, {**values, "pid_started": process_started(pid)}, ("serial",))
    return lease


def renew(conn: Connection, lease: Lease, ttl_s: float, now: datetime) -> Lease:
    """Push the expiry out; DeviceBusy if another process has taken the lease over."""
    expires = now + timedelta(seconds=ttl_s)
    result = conn.execute(
        sa.update(LEASE).where(LEASE.c.serial == lease.serial, LEASE.c.token == lease.token)
        .values(expires_at=expires)
    )
    if result.rowcount == 0:
        raise _lost(lease)
    return replace(lease, expires_at=expires)


def _lost(lease: Lease) -> LeaseLost:
    return LeaseLost(f"lease on device {lease.serial} was lost (fence {lease.fence}: it expired and "
                     f"another process took the phone over); stopped before the next action")


def check_current(conn: Connection, lease: Lease) -> None:
    """LeaseLost unless the device's lease row still carries this holding's token (in the caller's
    transaction, so the check and the write it guards commit or fail together)."""
    query = sa.select(LEASE.c.token).where(LEASE.c.serial == lease.serial)
    if conn.dialect.name == "postgresql":  # a takeover's UPDATE waits until this write commits
        query = query.with_for_update(read=True)
    row = conn.execute(query).first()
    if row is None or row.token != lease.token:
        raise _lost(lease)


def release(conn: Connection, lease: Lease, now: datetime) -> None:
    """Give the lease up if it is still ours; the row stays (expired, no holder) to keep its fence."""
    conn.execute(sa.update(LEASE).where(LEASE.c.serial == lease.serial, LEASE.c.token == lease.token)
                 .values(holder="", pid=0, expires_at=now))


def current(conn: Connection, serial: str) -> Lease | None:
    """The lease of a device, if one is held (expired or not)."""
    row = conn.execute(sa.select(LEASE).where(LEASE.c.serial == serial)).first()
    if row is None or row.holder == "":
        return None
    return Lease(serial=row.serial, holder=row.holder, token=row.token, pid=row.pid, host=row.host,
                 acquired_at=row.acquired_at, expires_at=row.expires_at, fence=row.fence)
