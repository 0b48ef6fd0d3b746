"""The store the executor, CLI and TUI call: pydantic models in and out, one transaction per call.

Every write method commits (synchronous=FULL, WAL) before it returns, so what it wrote survives
a SIGKILL the moment after. Nothing is deleted from history here; artifacts have `prune_artifacts`.

Writes of a task are compare-and-set on its `version` (StaleWrite for an outdated copy). A driver
uses `store.fenced(lease)`: every write transaction of that view first checks the device lease
still carries the driver's token (LeaseLost otherwise), so nothing a stale process wrote commits.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from starebrain.errors import CancelRequested, DatabaseReadOnly, StoreError, TaskStateError
from starebrain.models import (
    AgentContext,
    AgentTask,
    Attempt,
    AttemptOutcome,
    Confirmation,
    Decision,
    LlmCall,
    TaskStatus,
    utcnow,
)
from starebrain.store import database, history, lease, tasks
from starebrain.store.convert import context_from_row, context_to_row, row_values
from starebrain.store.events import StoredEvent, insert_event, read_events
from starebrain.store.retention import prune_artifacts
from starebrain.store.schema import HEAD_REVISION, ensure_schema, stored_revisions
from starebrain.store.tables import AgentContextRow, CancelRequestRow

if TYPE_CHECKING:
    from starebrain.config import Settings

CONTEXT = AgentContextRow.__table__  # type: ignore[attr-defined]
CANCEL = CancelRequestRow.__table__  # type: ignore[attr-defined]


class Store:
    """StareBrain's SQLite database. Open with `Store.open()`; safe to share between threads."""

    def __init__(self, engine: Engine, path: Path | str, busy_timeout_ms: int,
                 settings: Settings | None = None) -> None:
        self._engine = engine
        self._reader = database.reader(engine)
        self.path = path
        self.busy_timeout_ms = busy_timeout_ms
        self.settings = settings
        self.fence: lease.Lease | None = None  # set on a driver's view (`fenced`)
        self.read_only = ""  # why writes are refused, when the file cannot be written

    @classmethod
    def open(cls, path: Path | str | None = None, *, settings: Settings | None = None) -> Store:
        """Open (creating and upgrading as needed) the database; its pragmas are checked first."""
        if settings is None:
            from starebrain.config import load_settings

            settings = load_settings()
        url = str(path) if path is not None and "://" in str(path) else settings.db_url if path is None else None
        if url is not None:
            return cls._open_server(url, settings.db_busy_timeout_ms, settings)
        db = Path(path).expanduser() if path is not None else settings.db_path
        busy = settings.db_busy_timeout_ms
        database.check_header(db)
        try:
            database.check_writable(db)
        except DatabaseReadOnly as refused:
            if not db.is_file():
                raise
            return cls._open_read_only(db, busy, settings, refused)
        engine = database.create_engine(db, busy)
        try:
            with database.translated(db, busy):
                ensure_schema(engine, db, busy)
                with database.reader(engine).connect() as conn:
                    database.check_pragmas(conn, db, busy)
        except BaseException:
            engine.dispose()
            raise
        return cls(engine, db, busy, settings)

    @classmethod
    def _open_read_only(cls, db: Path, busy: int, settings: Settings, refused: DatabaseReadOnly) -> Store:
        """A database we cannot write: `history`/`show` still read it; every write says why not."""
        for mode in database.READ_ONLY_MODES:
            engine = database.create_engine(db, busy, read_only=mode)
            try:
                with database.translated(db, busy), database.reader(engine).connect() as conn:
                    revisions = stored_revisions(conn)
            except StoreError:
                engine.dispose()
                continue  # e.g. no shared-memory file and no right to create one: try immutable
            if revisions != {HEAD_REVISION}:
                engine.dispose()
                raise DatabaseReadOnly(f"{refused.message}, and it needs an upgrade to schema {HEAD_REVISION}")
            store = cls(engine, db, busy, settings)
            store.read_only = refused.message
            return store
        raise refused

    def close(self) -> None:
        """Release every connection; the store is unusable afterwards."""
        self._engine.dispose()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @classmethod
    def _open_server(cls, url: str, busy: int, settings: Settings) -> Store:
        """A PostgreSQL store (a farm's shared one): same schema, through the same Alembic revisions."""
        shown = database.display_url(url)
        engine = database.create_server_engine(url, busy)
        try:
            with database.translated(shown, busy):
                ensure_schema(engine, shown, busy, url)
        except BaseException:
            engine.dispose()
            raise
        return cls(engine, shown, busy, settings)

    @property
    def is_server(self) -> bool:
        """Whether this store is PostgreSQL (shared by a farm's hosts) rather than an SQLite file."""
        return database.is_server(self._engine)

    def fenced(self, held: lease.Lease) -> Store:
        """A view of this store whose every write first checks `held` is still the device's lease."""
        view = copy.copy(self)
        view.fence = held
        return view

    @contextmanager
    def _write(self, *, fenced: bool = True) -> Iterator[Connection]:
        # BEGIN IMMEDIATE ... COMMIT; any error rolls back and is translated to our tree.
        if self.read_only:
            raise DatabaseReadOnly(f"{self.read_only}; nothing was written")
        with database.translated(self.path, self.busy_timeout_ms), self._engine.begin() as conn:
            if fenced and self.fence is not None:
                lease.check_current(conn, self.fence)
            yield conn

    def _save(self, conn: Connection, task: AgentTask, now: datetime) -> int:
        # The caller adopts the returned version only after its transaction commits.
        task.updated_at = now
        return tasks.write_task(conn, task, now)

    @contextmanager
    def _read(self) -> Iterator[Connection]:
        with database.translated(self.path, self.busy_timeout_ms), self._reader.begin() as conn:
            yield conn

    def create_task(self, task: AgentTask) -> None:
        """Record a new task with its steps; TaskStateError if the id is taken."""
        self.save_plan(task, [], new=True)

    def save_plan(self, task: AgentTask, calls: list[LlmCall], *, new: bool) -> None:
        """A task as planning left it (`new`: create it) with the LLM calls it took, in one transaction:
        a kill leaves it either unplanned or planned and holding its calls."""
        with self._write() as conn:
            if new and tasks.task_exists(conn, task.id):
                raise TaskStateError(f"task {task.id} already exists", task_id=task.id)
            version = self._save(conn, task, task.updated_at if new else utcnow())
            for call in calls:
                call.task_id = task.id
                history.insert_llm_call(conn, call)
                tasks.add_tokens(conn, task.id, call.prompt_tokens, call.completion_tokens)
        task.version = version

    def load_task(self, task_id: str) -> AgentTask:
        """A task with its live steps, by id or unique id prefix; TaskNotFound otherwise."""
        with self._read() as conn:
            return tasks.read_task(conn, task_id)

    def save_task(self, task: AgentTask) -> None:
        """Upsert the task and all its steps; steps a replan dropped are kept, marked superseded."""
        with self._write() as conn:
            version = self._save(conn, task, utcnow())
        task.version = version

    def list_tasks(self, status: TaskStatus | Iterable[TaskStatus] | None = None, serial: str | None = None,
                   limit: int = 50) -> list[AgentTask]:
        """Tasks, newest created first, optionally filtered by status(es) and device serial."""
        statuses = None if status is None else [s.value for s in _as_list(status)]
        with self._read() as conn:
            return tasks.read_tasks(conn, conn.execute(tasks.select_tasks(statuses, serial, limit)))

    def latest_unresolved(self, serial: str | None = None) -> AgentTask | None:
        """The most recently updated IN_PROGRESS or AWAITING_CONFIRMATION task, if any."""
        query = tasks.select_tasks(tasks.UNRESOLVED, serial, 1, newest_by="updated_at")
        with self._read() as conn:
            found = tasks.read_tasks(conn, conn.execute(query))
        return found[0] if found else None

    def begin_attempt(self, task: AgentTask, attempt: Attempt) -> None:
        """Write-ahead: commit the task (step already IN_PROGRESS) and the new attempt before acting."""
        history.check_attempt_start(task, attempt)
        now = utcnow()
        with self._write() as conn:
            _refuse_if_cancelled(conn, task.id)  # the step boundary where a cancel request is honoured
            version = self._save(conn, task, now)
            history.interrupt_running(conn, task.id, attempt.id, now)
            history.insert_attempt(conn, attempt)
        task.version = version

    def finish_attempt(self, task: AgentTask, attempt: Attempt) -> None:
        """Commit the attempt's outcome and the task/steps (e.g. step COMPLETED, cursor i+1) together."""
        if attempt.outcome is AttemptOutcome.RUNNING:
            raise TaskStateError(f"attempt {attempt.id} cannot finish as RUNNING; set its outcome",
                                 task_id=task.id, step_id=attempt.step_id)
        now = utcnow()
        if attempt.ended_at is None:
            attempt.ended_at = now
        with self._write() as conn:
            version = self._save(conn, task, now)
            history.save_attempt(conn, attempt)
        task.version = version

    def attempts(self, task_id: str, step_id: str | None = None) -> list[Attempt]:
        """Every attempt of a task (or of one of its steps), in the order they started."""
        with self._read() as conn:
            return history.read_attempts(conn, tasks.resolve_task_id(conn, task_id), step_id)

    def next_attempt_number(self, task_id: str, step_id: str) -> int:
        """The number the next attempt of this step should carry."""
        with self._read() as conn:
            return history.next_attempt_number(conn, task_id, step_id)

    def add_confirmation(self, c: Confirmation, task: AgentTask | None = None) -> None:
        """Record a question put to the person; with `task`, save it (AWAITING_CONFIRMATION) atomically."""
        with self._write() as conn:
            version = self._save(conn, task, utcnow()) if task is not None else 0
            history.insert_confirmation(conn, c)
        if task is not None:
            task.version = version

    def decide_confirmation(self, confirmation_id: str, decision: Decision | str,
                            decided_by: str) -> Confirmation:
        """Record the person's decision; a second, different decision is refused (TaskStateError)."""
        if not decided_by:
            raise TaskStateError("a decision needs `decided_by` (cli, tui or approve)")
        with self._write() as conn:
            return history.decide(conn, confirmation_id, Decision(decision), decided_by, utcnow())

    def decide(self, task: AgentTask, confirmation_id: str, decision: Decision | str,
               decided_by: str) -> Confirmation:
        """The person's decision and the task it moves (status, cursor, step) in one transaction."""
        if not decided_by:
            raise TaskStateError("a decision needs `decided_by` (cli, tui or approve)")
        now = utcnow()
        with self._write() as conn:
            decided = history.decide(conn, confirmation_id, Decision(decision), decided_by, now)
            version = self._save(conn, task, now)
        task.version = version
        return decided

    def request_cancel(self, task_id: str, requested_by: str) -> None:
        """Ask the process driving a task to cancel it at its next step boundary."""
        with self._write() as conn:
            full = tasks.resolve_task_id(conn, task_id)
            tasks.upsert(conn, CANCEL, {"task_id": full, "requested_by": requested_by,
                                        "requested_at": utcnow()}, ("task_id",))

    def cancel_requested(self, task_id: str) -> str | None:
        """Who asked to cancel this task (None when nobody did)."""
        with self._read() as conn:
            row = conn.execute(sa.select(CANCEL.c.requested_by).where(CANCEL.c.task_id == task_id)).first()
        return row[0] if row else None

    def pending_confirmation(self, task_id: str) -> Confirmation | None:
        """The newest undecided confirmation of a task, if any."""
        with self._read() as conn:
            pending = history.read_confirmations(conn, task_id, pending_only=True)
        return pending[-1] if pending else None

    def confirmations(self, task_id: str) -> list[Confirmation]:
        """Every confirmation of a task, oldest first."""
        with self._read() as conn:
            return history.read_confirmations(conn, task_id)

    def add_llm_call(self, call: LlmCall) -> None:
        """Record an LLM call and add its tokens to its task's totals, in one transaction."""
        with self._write() as conn:
            if call.task_id is not None and not tasks.task_exists(conn, call.task_id):
                raise TaskStateError(f"LLM call {call.id} names task {call.task_id}, which is not saved; "
                                     "create_task first", task_id=call.task_id)
            history.insert_llm_call(conn, call)
            if call.task_id is not None:
                tasks.add_tokens(conn, call.task_id, call.prompt_tokens, call.completion_tokens)

    def llm_calls(self, task_id: str) -> list[LlmCall]:
        """Every LLM call of a task, oldest first."""
        with self._read() as conn:
            return history.read_llm_calls(conn, task_id)

    def save_context(self, ctx: AgentContext) -> None:
        """Keep the device's latest context, downgraded to LOW confidence."""
        if not ctx.device_serial:
            raise StoreError("cannot save an AgentContext without device_serial")
        row = context_to_row(ctx.for_persistence(), utcnow())
        with self._write() as conn:
            tasks.upsert(conn, CONTEXT, row_values(row), ("device_serial",))

    def load_context(self, serial: str) -> AgentContext | None:
        """The last saved context of a device (confidence LOW), or None."""
        with self._read() as conn:
            row = conn.execute(sa.select(CONTEXT).where(CONTEXT.c.device_serial == serial)).first()
        return context_from_row(AgentContextRow(**row._mapping)) if row else None

    def add_event(self, task_id: str | None, kind: str, payload: dict[str, Any] | None = None) -> int:
        """Append an event for live views; returns its id."""
        with self._write(fenced=False) as conn:
            return insert_event(conn, task_id, kind, payload or {}, utcnow())

    def add_events(self, events: list[tuple[str | None, str, dict[str, Any]]]) -> None:
        """Append several events (task_id, kind, payload) in one transaction."""
        with self._write(fenced=False) as conn:
            now = utcnow()
            for task_id, kind, payload in events:
                insert_event(conn, task_id, kind, payload, now)

    def events_since(self, event_id: int = 0, *, task_id: str | None = None,
                     limit: int = 1000) -> list[StoredEvent]:
        """Events recorded after `event_id`, oldest first."""
        with self._read() as conn:
            return read_events(conn, event_id, task_id, limit)

    def acquire_lease(self, serial: str, holder: str, ttl_s: float | None = None) -> lease.Lease:
        """Take the device; DeviceBusy naming the holder if another live process has it."""
        ttl = ttl_s if ttl_s is not None else self._lease_ttl()
        with self._write(fenced=False) as conn:
            held = lease.acquire(conn, serial, holder, ttl, utcnow())
        return _bind(held, self)

    def renew_lease(self, held: lease.Lease, ttl_s: float | None = None) -> lease.Lease:
        """Extend a held lease; DeviceBusy if it was lost."""
        ttl = ttl_s if ttl_s is not None else self._lease_ttl()
        with self._write(fenced=False) as conn:
            renewed = lease.renew(conn, held, ttl, utcnow())
        return _bind(renewed, self)

    def release_lease(self, held: lease.Lease) -> None:
        """Give the device up (no-op if the lease is no longer ours)."""
        with self._write(fenced=False) as conn:
            lease.release(conn, held, utcnow())

    def lease_of(self, serial: str) -> lease.Lease | None:
        """Who holds (or last held, if expired) a device's lease."""
        with self._read() as conn:
            return lease.current(conn, serial)

    def prune_artifacts(self, older_than_days: float | None = None, *,
                        now: datetime | None = None) -> list[Path]:
        """Delete artifact files past retention (never of unresolved tasks); rows are kept."""
        days = older_than_days
        if days is None:
            days = self.settings.artifact_retention_days if self.settings is not None else 0
        if days <= 0 or self.settings is None:
            return []
        with self._read() as conn:
            unresolved = [r[0] for r in conn.execute(
                sa.select(tasks.TASK.c.id).where(tasks.TASK.c.status.in_(tasks.UNRESOLVED)))]
        return prune_artifacts(self.settings.artifacts_dir, timedelta(days=days), unresolved, now or utcnow())

    def info(self) -> dict[str, Any]:
        """What `doctor` shows: path, schema revision, pragmas, row counts."""
        with self._read() as conn:
            if self.is_server:
                pragmas = {"server_version": conn.exec_driver_sql("SHOW server_version").scalar()}
            else:
                pragmas = {p: conn.exec_driver_sql(f"PRAGMA {p}").scalar()
                           for p in ("journal_mode", "synchronous", "busy_timeout", "foreign_keys")}
            revision = conn.exec_driver_sql("SELECT version_num FROM alembic_version").scalar()
            counts = {t: conn.exec_driver_sql(f"SELECT count(*) FROM {t}").scalar()
                      for t in ("task", "attempt", "confirmation", "llm_call", "event")}
        return {"path": str(self.path), "schema": revision, "pragmas": pragmas, "rows": counts}

    def _lease_ttl(self) -> float:
        return self.settings.lease_ttl_s if self.settings is not None else 30.0


def _refuse_if_cancelled(conn: Connection, task_id: str) -> None:
    row = conn.execute(sa.select(CANCEL.c.requested_by).where(CANCEL.c.task_id == task_id)).first()
    if row is not None:
        raise CancelRequested(f"task {task_id} was cancelled by the person ({row[0]})", task_id=task_id)


def _as_list(status: TaskStatus | Iterable[TaskStatus]) -> list[TaskStatus]:
    return [status] if isinstance(status, TaskStatus) else [TaskStatus(s) for s in status]


def _bind(held: lease.Lease, store: Store) -> lease.Lease:
    from dataclasses import replace

    return replace(held, store=store)
