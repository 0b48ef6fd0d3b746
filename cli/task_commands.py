"""Commands that move a task: run, resume, approve, deny, skip, retry, cancel."""

from __future__ import annotations

import sys
from functools import partial
from pathlib import Path
from typing import Annotated, Any

import typer

from starebrain.cli.failures import one_line_errors
from starebrain.cli.outcome import exit_for, print_outcome
from starebrain.cli.wiring import EngineFactory

Serial = Annotated[str | None, typer.Option("--device", "-s", help="Device serial (default: the only one attached).")]
TaskArg = Annotated[str, typer.Argument(help="Task id (a unique prefix is enough).")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print the final task as JSON.")]


@one_line_errors
def run(flow: Annotated[Path, typer.Argument(help="A flow file: StareBrain (format: starebrain-flow) or Maestro.")],
        device: Serial = None, json_out: JsonOpt = False,
        env: Annotated[list[str] | None, typer.Option(
            "--env", "-e", help="NAME=VALUE for ${NAME} in the flow (repeatable).")] = None) -> None:
    """Run a flow file's steps on the phone."""
    from starebrain.flows import runtime
    from starebrain.flows.flow_file import load_flow
    from starebrain.flows.variables import parse_assignments

    variables = parse_assignments(env or [])
    flow_doc = load_flow(flow, variables)
    with EngineFactory(json_out) as engine:
        serial = engine.pick_serial(device)
        task = runtime.new_task(flow_doc, serial, flow, variables)
        with engine.session(serial) as session:
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
        task = engine.load_or_latest(task_id)
        if task is None:
            print("nothing to resume", file=sys.stderr)
            return
        if task.status.resolved:
            finish(task, json_out)
        with engine.session(task.device_serial) as session:
            driver = _driver(session, engine, task)
            if task.status != TaskStatus.AWAITING_CONFIRMATION:
                task = _call(driver, lambda: session.executor.run(task))
            task = confirm_interactively(session, task, resuming=True, driver=driver)
        finish(task, json_out)


@one_line_errors
def approve(task_id: TaskArg, json_out: JsonOpt = False) -> None:
    """Approve the step a task waits on; it runs now, then the task continues."""
    _decide(task_id, "approve", json_out)


@one_line_errors
def skip(task_id: TaskArg, json_out: JsonOpt = False) -> None:
    """Do not run the step a task waits on (e.g. it already happened) and continue."""
    _decide(task_id, "skip", json_out)


@one_line_errors
def deny(task_id: TaskArg, json_out: JsonOpt = False) -> None:
    """Refuse the step a task waits on; nothing happens and the task fails."""
    with EngineFactory(json_out) as engine:
        task = engine.load(task_id)
        task = engine.offline_executor().deny(task, decided_by="cli")
        finish(task, json_out)


@one_line_errors
def retry(task_id: TaskArg, json_out: JsonOpt = False) -> None:
    """Re-run the failed step under the cursor (it is never skipped)."""
    with EngineFactory(json_out) as engine:
        task = engine.load(task_id)
        with engine.session(task.device_serial) as session:
            driver = _driver(session, engine, task)
            task = _call(driver, lambda: session.executor.retry(task))
            task = confirm_interactively(session, task, driver=driver)
        finish(task, json_out)


@one_line_errors
def cancel(task_id: TaskArg, json_out: JsonOpt = False) -> None:
    """Stop a task for good; its history stays."""
    with EngineFactory(json_out) as engine:
        task = engine.offline_executor().cancel(engine.load(task_id), decided_by="cli")
        finish(task, json_out)


def _decide(task_id: str, verb: str, json_out: bool) -> None:
    with EngineFactory(json_out) as engine:
        task = engine.load(task_id)
        with engine.session(task.device_serial) as session:
            executor = session.executor
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
