"""Commands that move a task: run, resume, approve, deny, skip, retry, cancel.

Every command about an existing task takes the phone's lease first and loads the task after it
(`_leased`): a copy read before the lease could be outdated by the time it is written. Writes are
then fenced by the lease and compare-and-set on the task's version (see starebrain/store).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Annotated, Any

import typer

from starebrain.cli.failures import nothing_recorded_yet, one_line_errors
from starebrain.cli.outcome import exit_for, print_outcome
from starebrain.cli.wiring import EngineFactory

Serial = Annotated[str | None, typer.Option("--device", "-s", help="Device serial (default: the only one attached).")]
TaskArg = Annotated[str, typer.Argument(help="Task id (a unique prefix is enough).")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print the final task as JSON.")]
FromOpt = Annotated[int | None, typer.Option("--from", min=1, help=(
    "Move the cursor back to this step (1-based) first and re-run the reversible steps since; "
    "refused across an irreversible step that is done."))]


@one_line_errors
def run(flow: Annotated[Path, typer.Argument(help="A flow file: StareBrain (format: starebrain-flow) or Maestro.")],
        device: Serial = None, json_out: JsonOpt = False,
        env: Annotated[list[str] | None, typer.Option(
            "--env", "-e", help="NAME=VALUE for ${NAME} in the flow (repeatable).")] = None,
        queue: Annotated[bool, typer.Option("--queue", help="Queue it for a daemon (prints the task id; "
                                                           "without --device any phone).")] = False) -> None:
    """Run a flow file's steps on the phone."""
    from starebrain.flows import runtime
    from starebrain.flows.flow_file import load_flow
    from starebrain.flows.variables import parse_assignments

    if queue:
        from starebrain.cli.queue_commands import submit

        return submit(flow, device=device, label=None, json_out=json_out)
    variables = parse_assignments(env or [])
    flow_doc = load_flow(flow, variables)
    with EngineFactory(json_out) as engine:
        serial = engine.pick_serial(device)
        task = runtime.new_task(flow_doc, serial, flow, variables)
        with nothing_recorded_yet():
            session = engine.session(serial)
        with session:
            task, driver = runtime.start(session, engine.store, flow_doc, task)
            task = confirm_interactively(session, task, driver=driver)
            runtime.save_final_screen(session, task)
        finish(task, json_out)


@one_line_errors
def resume(task_id: Annotated[str | None, typer.Argument(help="Task id; default: the newest unfinished.")] = None,
           json_out: JsonOpt = False) -> None:
    """Continue an interrupted task, or re-ask its pending confirmation."""
    from starebrain.models import TaskStatus

    with EngineFactory(json_out) as engine:
        found = engine.load_or_latest(task_id)
        if found is None:
            print("nothing to resume", file=sys.stderr)
            if json_out:
                print('{"task": null, "message": "nothing to resume", "exit_code": 0}')
            return
        if found.status.resolved:
            finish(found, json_out)
        with _leased(engine, found.id) as (keeper, task):
            if task.status.resolved:
                finish(task, json_out)
            _refuse_unplanned(task)
            with engine.session(task.device_serial, keeper=keeper) as session:
                assert session.executor is not None  # build_engine sets it; only close() clears it
                driver = _driver(session, engine, task)
                if task.status != TaskStatus.AWAITING_CONFIRMATION:
                    task = _call(driver, partial(session.executor.run, task))
                task = confirm_interactively(session, task, resuming=True, driver=driver)
        finish(task, json_out)


def _refuse_unplanned(task: Any) -> None:
    """A `do --queue` task has no steps until a daemon plans it: running it here would do nothing."""
    from starebrain.agent.do_task import TaskPlanner
    from starebrain.errors import TaskStateError

    if TaskPlanner.unplanned(task):
        raise TaskStateError(f"task {task.id} is queued for a daemon, which plans it first; "
                             f"follow it with `starebrain wait {task.id}`", task_id=task.id)


@one_line_errors
def approve(task_id: TaskArg, json_out: JsonOpt = False) -> None:
    """Approve the step a task waits on; it runs now, then the task continues."""
    _decide(task_id, "approve", json_out)


@one_line_errors
def skip(task_id: TaskArg, json_out: JsonOpt = False) -> None:
    """Do not run the step a task waits on, or the failed step (e.g. it already happened), and continue."""
    _decide(task_id, "skip", json_out)


@one_line_errors
def deny(task_id: TaskArg, json_out: JsonOpt = False) -> None:
    """Refuse the step a task waits on; nothing happens and the task fails."""
    with EngineFactory(json_out) as engine, _leased(engine, task_id) as (keeper, task):
        task = _offline(engine, keeper).deny(task, decided_by="cli")
        finish(task, json_out)


@one_line_errors
def retry(task_id: TaskArg, from_step: FromOpt = None, json_out: JsonOpt = False) -> None:
    """Re-run the failed step under the cursor (it is never skipped), or from an earlier step."""
    with EngineFactory(json_out) as engine, _leased(engine, task_id) as (keeper, task):
        with engine.session(task.device_serial, keeper=keeper) as session:
            assert session.executor is not None  # build_engine sets it; only close() clears it
            driver = _driver(session, engine, task)
            task = _call(driver, partial(session.executor.retry, task, from_step))
            task = confirm_interactively(session, task, driver=driver)
        finish(task, json_out)


@one_line_errors
def cancel(task_id: TaskArg, json_out: JsonOpt = False) -> None:
    """Stop a task for good; its history stays. A task another process drives stops at its next step."""
    with EngineFactory(json_out) as engine:
        finish(_cancel(engine, task_id), json_out)


def _decide(task_id: str, verb: str, json_out: bool) -> None:
    with EngineFactory(json_out) as engine, _leased(engine, task_id) as (keeper, task):
        with engine.session(task.device_serial, keeper=keeper) as session:
            executor = session.executor
            assert executor is not None  # build_engine sets it; only close() clears it
            driver = _driver(session, engine, task)
            task = _call(driver, lambda: executor.approve(task, "cli") if verb == "approve"
                         else executor.skip(task, "cli"))
            task = confirm_interactively(session, task, driver=driver)
        finish(task, json_out)


def _driver(session: Any, engine: Any, task: Any) -> Any:
    """The flow driver of a task whose flow depends on the screen (starebrain/flows/runtime.py)."""
    from starebrain.flows.runtime import driver_for

    return driver_for(session, engine.store, task)


def _call(driver: Any, call: Any) -> Any:
    return driver.drive(call) if driver is not None else call()


@contextmanager
def _leased(engine: EngineFactory, task_id: str) -> Iterator[tuple[Any, Any]]:
    """The phone's lease first, then the task as it is now (the lease is released at the end)."""
    from starebrain.executor.crash_points import crash_point
    from starebrain.session import hold_lease

    serial = engine.store.load_task(task_id).device_serial  # only the phone: it never changes
    crash_point("before_lease", -1)
    keeper = hold_lease(engine.settings, engine.store, serial)
    try:
        yield keeper, engine.load(task_id)
    finally:
        keeper.release()


def _offline(engine: EngineFactory, keeper: Any) -> Any:
    """An executor for decisions that touch no phone, its writes fenced by `keeper`'s lease."""
    return engine.offline_executor(fence=keeper.lease)


def _canceller(engine: EngineFactory, keeper: Any) -> Any:
    """An executor that cancels without live lines: the closed question is recorded as DENIED, which a
    live line would show as "denied by cli"; `finish` says "cancelled by the person (cli)", exit 9."""
    from starebrain.engine import build_offline_executor
    from starebrain.events import EventBus

    return build_offline_executor(engine.store.fenced(keeper.lease), EventBus(), engine.scrubber)


def _cancel(engine: EngineFactory, task_id: str) -> Any:
    """Cancel with the lease; while another process drives the task, ask it to and wait for it."""
    from starebrain.errors import DeviceBusy

    task = engine.store.load_task(task_id)
    deadline = time.monotonic() + max(30.0, 3 * engine.settings.lease_ttl_s)
    asked = False
    while True:
        try:
            with _leased(engine, task.id) as (keeper, task):
                if asked and task.status.resolved:
                    return task  # the driver honoured the request (or finished first)
                return _canceller(engine, keeper).cancel(task, decided_by="cli")
        except DeviceBusy:
            if not asked:
                engine.store.request_cancel(task.id, "cli")
                asked = True
                print(f"task {task.id} is driven by another process: it stops at its next step",
                      file=sys.stderr)
            task = engine.store.load_task(task.id)
            if task.status.resolved:
                return task
            if time.monotonic() >= deadline:
                raise DeviceBusy(f"task {task.id} is still driven by another process; the cancel is "
                                 f"recorded and honoured at its next step", task_id=task.id) from None
            time.sleep(0.2)


def confirm_interactively(session: Any, task: Any, *, resuming: bool = False, driver: Any = None) -> Any:
    """While the task waits and a person is at the terminal, ask them; otherwise leave it waiting."""
    from starebrain.cli.live_view import ask_confirmation
    from starebrain.models import TaskStatus

    while task.status == TaskStatus.AWAITING_CONFIRMATION and sys.stdin.isatty():
        step = task.current_step
        answer = ask_confirmation(step, task.status_reason, resuming=resuming or step.status.value == "IN_PROGRESS",
                                  evidence=partial(_last_screen, session, task))
        executor = session.executor
        if answer == "y":
            task = _call(driver, partial(executor.approve, task, "cli"))
        elif answer == "s":
            task = _call(driver, partial(executor.skip, task, "cli"))
        else:
            task = executor.deny(task, "cli")
        resuming = False
    return task


def _last_screen(session: Any, task: Any) -> str:
    """Where to look: the last screenshot recorded for this task."""
    shots = [a.screenshot_path for a in session.store.attempts(task.id) if a.screenshot_path]
    return f"the phone's screen before this question: {shots[-1]}" if shots else "no screenshot recorded yet"


def finish(task: Any, json_out: bool) -> None:
    """Print the outcome and exit with the documented code."""
    print_outcome(task, json_out)
    raise typer.Exit(exit_for(task))
