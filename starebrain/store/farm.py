"""The farm's shared state: hosts and their heartbeats, phones and their labels, the task queue.

Claiming takes the oldest queued task a phone may run with `SELECT ... FOR UPDATE SKIP LOCKED`
on PostgreSQL (daemons on several hosts never wait for, nor take, one another's candidates); on
SQLite the write transaction is BEGIN IMMEDIATE, which already lets one claimer in at a time.
A claimed task is bound to its phone (`task.device_serial` and the queue row's `serial`) for good:
if that phone's host dies the task waits for it, it never moves to another phone.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from starebrain.errors import BadInput
from starebrain.models import AgentTask, TaskStatus, utcnow
from starebrain.store import tasks
from starebrain.store.device_tags import tags_of
from starebrain.store.tables import FarmDeviceRow, FarmHostRow, TaskQueueRow

if TYPE_CHECKING:
    from starebrain.store.repository import Store

HOST = FarmHostRow.__table__  # type: ignore[attr-defined]
DEVICE = FarmDeviceRow.__table__  # type: ignore[attr-defined]
QUEUE = TaskQueueRow.__table__  # type: ignore[attr-defined]
TASK = tasks.TASK
QUEUED, CLAIMED, DONE = "QUEUED", "CLAIMED", "DONE"
UP, STOPPED, DEAD = "UP", "STOPPED", "DEAD"
QUEUE_CHANNEL = "starebrain_queue"  # NOTIFY'd on PostgreSQL when a task is queued (daemons LISTEN)
CLAIM_WINDOW = 32  # queued rows looked at per claim (label matching is done on these in Python)


@dataclass(frozen=True)
class Claim:
    """A task a phone's worker took from the queue."""

    task_id: str
    serial: str
    waited_s: float  # from submit to claim


@dataclass(frozen=True)
class FarmView:
    """What `starebrain farm status` shows."""

    hosts: list[dict[str, Any]]
    devices: list[dict[str, Any]]
    queued: int
    running: list[dict[str, Any]]


def labels_match(wanted: dict[str, str], labels: dict[str, str]) -> bool:
    """Every wanted label is on the phone with the same value."""
    return all(labels.get(k) == v for k, v in wanted.items())


def parse_labels(pairs: list[str]) -> dict[str, str]:
    """`key=value` strings as a dict; BadInput naming a malformed one."""
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise BadInput(f"label {pair!r} is not key=value")
        out[key.strip()] = value.strip()
    return out


class FarmStore:
    """Hosts, devices and the queue, in the store's own transactions (fenced writes stay in Store)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    # hosts ------------------------------------------------------------------------------------
    def register_host(self, name: str, pid: int) -> None:
        """This host's daemon is up (a restart takes the row over)."""
        now = utcnow()
        with self.store._write(fenced=False) as conn:
            tasks.upsert(conn, HOST, {"name": name, "pid": pid, "started_at": now, "heartbeat_at": now,
                                      "state": UP}, ("name",))

    def heartbeat(self, name: str, present: dict[str, dict[str, str]]) -> None:
        """The host is alive and sees exactly these phones (serial -> labels)."""
        now = utcnow()
        with self.store._write(fenced=False) as conn:
            conn.execute(sa.update(HOST).where(HOST.c.name == name).values(heartbeat_at=now, state=UP))
            _sync_devices(conn, name, present, now)

    def stop_host(self, name: str) -> None:
        """A clean stop: the host's phones are absent until it comes back."""
        now = utcnow()
        with self.store._write(fenced=False) as conn:
            conn.execute(sa.update(HOST).where(HOST.c.name == name).values(heartbeat_at=now, state=STOPPED))
            conn.execute(sa.update(DEVICE).where(DEVICE.c.host == name).values(present=False))

    def mark_dead_hosts(self, ttl_s: float) -> list[str]:
        """UP hosts whose heartbeat is older than `ttl_s` become DEAD and their phones absent; returns
        the hosts found dead by this call (a later heartbeat brings a host back UP)."""
        cutoff = utcnow() - timedelta(seconds=ttl_s)
        with self.store._write(fenced=False) as conn:
            dead = [r[0] for r in conn.execute(sa.select(HOST.c.name).where(
                HOST.c.state == UP, HOST.c.heartbeat_at < cutoff).order_by(HOST.c.name))]
            if dead:
                conn.execute(sa.update(HOST).where(HOST.c.name.in_(dead)).values(state=DEAD))
                conn.execute(sa.update(DEVICE).where(DEVICE.c.host.in_(dead), DEVICE.c.present.is_(True))
                             .values(present=False))
        return dead

    # queue ------------------------------------------------------------------------------------
    def enqueue(self, task: AgentTask, serial: str | None, labels: dict[str, str]) -> str:
        """Record a PENDING task and queue it for one phone, or for any phone with these labels."""
        task.status = TaskStatus.PENDING
        task.device_serial = serial or ""
        now = utcnow()
        with self.store._write(fenced=False) as conn:
            version = self.store._save(conn, task, now)
            conn.execute(sa.insert(QUEUE).values(task_id=task.id, serial=serial, labels=labels, state=QUEUED,
                                                 enqueued_at=now))
            if conn.dialect.name == "postgresql":  # delivered at commit: idle daemons look at once
                conn.execute(sa.select(sa.func.pg_notify(QUEUE_CHANNEL, task.id)))
        task.version = version
        return task.id

    def claim(self, host: str, serial: str, labels: dict[str, str]) -> Claim | None:
        """The oldest queued task this phone may run, now bound to it; None when there is none.

        `labels` (what the daemon read) are merged with the phone's tags as they are now."""
        now = utcnow()
        with self.store._write(fenced=False) as conn:
            labels = {**labels, **tags_of(conn, [serial]).get(serial, {})}
            query = (sa.select(QUEUE.c.task_id, QUEUE.c.labels, QUEUE.c.enqueued_at)
                     .where(QUEUE.c.state == QUEUED, sa.or_(QUEUE.c.serial == serial, QUEUE.c.serial.is_(None)))
                     .order_by(QUEUE.c.enqueued_at, QUEUE.c.task_id).limit(CLAIM_WINDOW))
            if conn.dialect.name == "postgresql":
                query = query.with_for_update(skip_locked=True, of=QUEUE)
            row = next((r for r in conn.execute(query) if labels_match(r.labels or {}, labels)), None)
            if row is None:
                return None
            conn.execute(sa.update(QUEUE).where(QUEUE.c.task_id == row.task_id)
                         .values(state=CLAIMED, serial=serial, claimed_at=now, claimed_by=host))
            # the task row learns its phone too (a pool task had none); its version moves on
            conn.execute(sa.update(TASK).where(TASK.c.id == row.task_id)
                         .values(device_serial=serial, version=TASK.c.version + 1, updated_at=now))
        return Claim(row.task_id, serial, (now - row.enqueued_at).total_seconds())

    def claimed_unfinished(self, serial: str) -> list[str]:
        """Tasks claimed for this phone whose queue entry is not DONE, oldest first (after a crash)."""
        with self.store._read() as conn:
            rows = conn.execute(sa.select(QUEUE.c.task_id).where(QUEUE.c.serial == serial, QUEUE.c.state == CLAIMED)
                                .order_by(QUEUE.c.claimed_at, QUEUE.c.task_id))
            return [r[0] for r in rows]

    def is_queued_task(self, task_id: str) -> bool:
        """Whether the daemons own this task (it came through the queue)."""
        with self.store._read() as conn:
            return conn.execute(sa.select(QUEUE.c.task_id).where(QUEUE.c.task_id == task_id)).first() is not None

    def mark_done(self, task_id: str) -> None:
        """The task reached a state only the person moves on from (or ended): leave the queue."""
        with self.store._write(fenced=False) as conn:
            conn.execute(sa.update(QUEUE).where(QUEUE.c.task_id == task_id).values(state=DONE))

    # reading ----------------------------------------------------------------------------------
    def view(self, host: str | None = None, stale_after_s: float = 30.0) -> FarmView:
        """Hosts (alive or not), phones, queue depth and running tasks; one host's with `host`."""
        now = utcnow()
        with self.store._read() as conn:
            hq = sa.select(HOST).order_by(HOST.c.name)
            dq = sa.select(DEVICE).order_by(DEVICE.c.host, DEVICE.c.serial)
            if host is not None:
                hq, dq = hq.where(HOST.c.name == host), dq.where(DEVICE.c.host == host)
            hosts = [_host_dict(r, now, stale_after_s) for r in conn.execute(hq)]
            devices = [dict(r._mapping) for r in conn.execute(dq)]
            tags = tags_of(conn, [d["serial"] for d in devices])
            queued = conn.execute(sa.select(sa.func.count()).select_from(QUEUE).where(QUEUE.c.state == QUEUED)).scalar()
            running = [dict(r._mapping) for r in conn.execute(
                sa.select(TASK.c.id, TASK.c.device_serial, TASK.c.status, TASK.c.cursor, QUEUE.c.claimed_by)
                .join(QUEUE, QUEUE.c.task_id == TASK.c.id)
                .where(QUEUE.c.state == CLAIMED).order_by(TASK.c.device_serial))]
        for d in devices:  # the row keeps what the daemon read; tags are merged as they are now
            d["tags"] = tags.get(d["serial"], {})
            d["labels"] = {**d["labels"], **d["tags"]}
        serials = {d["serial"] for d in devices}
        if host is not None:
            running = [r for r in running if r["device_serial"] in serials or r["claimed_by"] == host]
        return FarmView(hosts, devices, int(queued or 0), running)


def _host_dict(row: Any, now: datetime, stale_after_s: float) -> dict[str, Any]:
    age = (now - row.heartbeat_at).total_seconds()
    alive = row.state == UP and age <= stale_after_s
    state = "up" if alive else ("stopped" if row.state == STOPPED else "dead (no heartbeat)")  # DEAD, or stale
    return {"name": row.name, "pid": row.pid, "state": state, "heartbeat_age_s": round(age, 1)}


def _sync_devices(conn: Connection, host: str, present: dict[str, dict[str, str]], now: datetime) -> None:
    conn.execute(sa.update(DEVICE).where(DEVICE.c.host == host, DEVICE.c.serial.not_in(list(present)))
                 .values(present=False))
    for serial, labels in sorted(present.items()):  # one order for every host: no deadlock between them
        tasks.upsert(conn, DEVICE, {"serial": serial, "host": host, "present": True, "labels": labels,
                                    "seen_at": now}, ("serial",))
