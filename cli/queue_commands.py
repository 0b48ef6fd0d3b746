"""`starebrain submit` and `starebrain wait`: queue a task for a daemon, then follow it.

`submit` (and `run --queue`, `do --queue`) records the task PENDING with its queue entry, for one
phone (`--device`) or for any phone whose labels match (`--label model=Pixel 8`), and prints its id;
a daemon next to that phone claims and runs it (a queued `do` is planned there first). `wait`
follows a task's progress from the store (any host, any process) until it ends or waits for the
person; its exit code is the one the foreground command would have given.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Annotated, Any

import typer

from starebrain.cli.failures import one_line_errors
from starebrain.cli.outcome import answer_hint, exit_for
from starebrain.cli.wiring import EngineFactory

Labels = Annotated[list[str] | None, typer.Option(
    "--label", "-l", help="key=value a phone must carry (model, android, brand, host, a daemon's --label, "
                          "or a tag from `devices label`).")]


@one_line_errors
def submit(flow: Annotated[Path, typer.Argument(help="A flow file (format: starebrain-flow).")],
           device: Annotated[str | None, typer.Option("--device", "-s", help="Run on this phone only.")] = None,
           label: Labels = None,
           json_out: Annotated[bool, typer.Option("--json", help="Print the queued task as JSON.")] = False) -> None:
    """Queue a flow for a daemon (one phone, or a pool by labels); prints the task id."""
    from starebrain.store.farm import parse_labels

    labels = parse_labels(label or [])
    with EngineFactory(json_out=True) as engine:
        print_queued(enqueue_flow(engine.store, flow, device, labels), device, labels, json_out)


def print_queued(task_id: str, device: str | None, labels: dict[str, str], json_out: bool) -> None:
    """The queued task's id (with --json: its id, phone and labels)."""
    if json_out:
        print(json.dumps({"id": task_id, "device": device, "labels": labels}))
    else:
        print(task_id)


def enqueue_flow(store: Any, flow: Path, device: str | None, labels: dict[str, str]) -> str:
    """Queue one run of a flow file; returns the task id."""
    from starebrain.flows.flow_file import load_flow
    from starebrain.models import AgentTask
    from starebrain.store.farm import FarmStore

    doc = load_flow(flow)
    task = AgentTask(instruction=doc.instruction, device_serial=device or "",
                     steps=[s.model_copy(deep=True) for s in doc.steps], source="flow")
    return FarmStore(store).enqueue(task, device, labels)


@one_line_errors
def wait(task_id: Annotated[str, typer.Argument(help="Task id (a unique prefix is enough).")],
         timeout: Annotated[float, typer.Option(min=0, help="Give up after this many seconds (0: never).")] = 0,
         quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print only the outcome.")] = False) -> None:
    """Follow a queued or running task until it ends or waits for you; exits like the task would."""
    with EngineFactory(json_out=True) as engine:
        task = follow(engine.store, task_id, timeout, None if quiet else _print_event)
    print(f"task {task.id} {task.status.value.lower()}" + (f": {task.status_reason}" if task.status_reason else ""))
    if task.status.value == "AWAITING_CONFIRMATION":
        print(answer_hint(task), file=sys.stderr)
    raise typer.Exit(exit_for(task))


def follow(store: Any, task_id: str, timeout_s: float, on_event: Any, poll_s: float = 0.3) -> Any:
    """The task once it is resolved or waits for the person (or PAUSED/at the timeout), printing events."""
    from starebrain.errors import StoreError

    task = store.load_task(task_id)
    last_event = 0
    deadline = time.monotonic() + timeout_s if timeout_s else None
    while True:
        try:
            for event in store.events_since(last_event, task_id=task.id):
                last_event = event.id
                if on_event is not None:
                    on_event(event)
            task = store.load_task(task.id)
        except StoreError as exc:  # the farm's database restarting: keep following
            print(f"database: {exc} (still following)", file=sys.stderr)
        if _settled(store, task) or (deadline is not None and time.monotonic() >= deadline):
            return task
        time.sleep(poll_s)


def _settled(store: Any, task: Any) -> bool:
    status = task.status.value
    if status == "AWAITING_CONFIRMATION":
        return store.pending_confirmation(task.id) is not None
    return bool(task.status.resolved)


def _print_event(event: Any) -> None:
    detail = ", ".join(f"{k}={v}" for k, v in event.payload.items() if k in ("step", "index", "outcome", "status",
                                                                           "reason", "instruction"))
    print(f"{event.created_at:%H:%M:%S} {event.kind}" + (f" {detail}" if detail else ""), flush=True)
