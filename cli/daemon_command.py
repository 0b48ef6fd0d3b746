"""`starebrain daemon`: session handoff without anyone typing `resume`.

Every few seconds it looks at the attached phones. A phone whose newest unfinished task is
IN_PROGRESS (the process was killed, or the phone was unplugged and is back) gets that task resumed
from its cursor — an approval the person already committed is honoured; a PAUSED task (Ctrl-C,
SIGTERM) waits for `starebrain resume`; a task that waits for the person is announced once with the
commands to answer it. Confirmation only comes from the person: the daemon never approves anything.
Like every command, it takes the phone's lease first and reads the task after.
"""

from __future__ import annotations

import signal
import sys
import time
from typing import Annotated, Any

import typer

from starebrain.cli.failures import one_line_errors
from starebrain.cli.wiring import EngineFactory


@one_line_errors
def daemon(interval: Annotated[float, typer.Option(min=0.2, max=3600, help="Seconds between looks.")] = 2.0,
           once: Annotated[bool, typer.Option(help="Look once and exit.")] = False) -> None:
    """Resume interrupted tasks when their phone is attached; announce pending confirmations."""
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # a clean stop: sessions close, leases released
    announced: set[tuple[str, int]] = set()
    with EngineFactory() as engine:
        _say(f"watching phones every {interval:g}s (Ctrl-C stops)")
        while True:
            for serial in _attached(engine):
                _handle(engine, serial, announced)
            if once:
                return
            time.sleep(interval)


def _attached(engine: EngineFactory) -> list[str]:
    from starebrain.device.attached import list_serials
    from starebrain.errors import DeviceError

    try:
        return list_serials(timeout_s=engine.settings.device_timeout_s)
    except DeviceError:
        return []  # no adb server right now; look again later


def _handle(engine: EngineFactory, serial: str, announced: set[tuple[str, int]]) -> None:
    from starebrain.models import TaskStatus

    task = engine.store.latest_unresolved(serial)
    if task is None:
        return
    if _interrupted(engine, task):
        task = _resume(engine, serial, task.id)
        if task is None:
            return
    if task.status == TaskStatus.AWAITING_CONFIRMATION and (task.id, task.cursor) not in announced:
        from starebrain.cli.outcome import answer_hint

        announced.add((task.id, task.cursor))
        _say(f"{serial}: task {task.id} waits for you: step {task.cursor + 1} ({task.status_reason}); "
             f"{answer_hint(task)}")
    elif task.status.resolved:
        _say(f"{serial}: task {task.id} {task.status.value.lower()}")


def _interrupted(engine: EngineFactory, task: Any) -> bool:
    """Stopped by a crash or a lost phone (not paused by the person), or holding an answer to apply."""
    from starebrain.models import TaskStatus

    if task.status == TaskStatus.IN_PROGRESS:
        return True
    return (task.status == TaskStatus.AWAITING_CONFIRMATION
            and engine.store.pending_confirmation(task.id) is None)


def _resume(engine: EngineFactory, serial: str, task_id: str) -> Any:
    """Lease first, then the task as it is now; None when another process drives the phone."""
    from functools import partial

    from starebrain.errors import DeviceBusy, DeviceError, StaleWrite
    from starebrain.flows.runtime import driver_for
    from starebrain.session import hold_lease

    try:
        keeper = hold_lease(engine.settings, engine.store, serial)
    except DeviceBusy:
        return None  # another starebrain process is driving this phone right now
    try:
        task = engine.load(task_id)  # lets the wiring give a do-task its (lazy) planner
        if not _interrupted(engine, task):
            return task
        with engine.session(serial, keeper=keeper) as session:
            assert session.executor is not None  # build_engine sets it; only close() clears it
            _say(f"{serial}: resuming task {task.id} at step {task.cursor + 1}")
            driver = driver_for(session, engine.store, task)  # a flow decided on the screen
            return driver.drive(partial(session.executor.run, task)) if driver else session.executor.run(task)
    except StaleWrite as exc:
        _say(f"{serial}: {exc}")
        return None
    except DeviceError as exc:
        _say(f"{serial}: {exc} (will try again)")
        return None
    finally:
        keeper.release()


def _say(text: str) -> None:
    print(f"[daemon] {text}", flush=True)
