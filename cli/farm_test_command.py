"""`starebrain farm test` (also `starebrain test --farm`): a suite through the farm's queue.

Each flow is queued once for the pool of phones matching the labels (or, with `--each-phone`,
once for every matching phone); the daemons of every host claim and run them side by side; this
command follows every task and writes one JUnit file for the whole suite. It drives no phone.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any

import typer

from starebrain.cli.failures import one_line_errors
from starebrain.cli.wiring import EngineFactory


@one_line_errors
def farm_test(
    paths: Annotated[list[Path], typer.Argument(help="Flow files or folders (a folder = all its *.yaml flows).")],
    label: Annotated[list[str] | None, typer.Option("--label", "-l", help="key=value a phone must carry.")] = None,
    each_phone: Annotated[bool, typer.Option("--each-phone", help="Run every flow on every matching phone.")] = False,
    junit: Annotated[Path | None, typer.Option(help="Write JUnit XML here.")] = None,
    timeout: Annotated[float, typer.Option(min=1, help="Seconds to wait for the whole suite.")] = 1800,
) -> None:
    """Queue a suite across every matching phone on every host; exit 0 only if every flow passed."""
    from rich.console import Console

    from starebrain.regression import discover_flows
    from starebrain.regression.console import print_summary, progress_line
    from starebrain.store.farm import parse_labels

    console = Console(highlight=False)
    labels = parse_labels(label or [])
    specs = discover_flows(paths)
    with EngineFactory(json_out=True) as engine:
        phones = matching_phones(engine.store, labels)
        started, t0 = datetime.now(UTC), time.monotonic()
        targets: list[str | None] = list(phones) if each_phone else [None]
        queued = enqueue_suite(engine.store, specs, targets, labels)
        console.print(f"queued {len(queued)} run(s) of {len(specs)} flow(s) for {len(phones)} phone(s) in the farm")
        suite = collect(engine.store, queued, started, t0, timeout, on_result=lambda f: console.print(progress_line(f)))
        if junit is not None:
            from starebrain.report.junit import write_junit

            write_junit(suite, junit)
            console.print(f"JUnit: {junit}")
    print_summary(suite, console)
    raise typer.Exit(0 if suite.ok else 1)


def matching_phones(store: Any, labels: dict[str, str]) -> list[str]:
    """Present phones of live hosts whose labels match; DeviceNotFound when there is none."""
    from starebrain.errors import DeviceNotFound
    from starebrain.store.farm import FarmStore, labels_match

    view = FarmStore(store).view()
    live = {h["name"] for h in view.hosts if h["state"] == "up"}
    phones = [d["serial"] for d in view.devices
              if d["present"] and d["host"] in live and labels_match(labels, d["labels"] or {})]
    if not phones:
        wanted = " ".join(f"{k}={v}" for k, v in labels.items()) or "any"
        raise DeviceNotFound(f"no phone in the farm matches {wanted} (see `starebrain farm status`)")
    return phones


def enqueue_suite(store: Any, specs: list[Any], serials: list[str | None],
                  labels: dict[str, str]) -> list[tuple[Any, str | None]]:
    """One queued task per (flow, phone); a flow that could not be loaded has no task."""
    from starebrain.models import AgentTask
    from starebrain.store.farm import FarmStore

    farm = FarmStore(store)
    queued: list[tuple[Any, str | None]] = []
    for serial in serials:
        for spec in specs:
            if spec.flow is None:
                queued.append((spec, None))
                continue
            task = AgentTask(instruction=spec.flow.instruction, device_serial=serial or "",
                             steps=[s.model_copy(deep=True) for s in spec.flow.steps], source="flow")
            queued.append((spec, farm.enqueue(task, serial, labels)))
    return queued


def collect(store: Any, queued: list[tuple[Any, str | None]], started: datetime, t0: float, timeout_s: float,
            on_result: Any) -> Any:
    """Follow every task to its end and gather the suite's result (a task still running at the
    timeout is an error, and stays queued)."""
    from starebrain.cli.queue_commands import follow
    from starebrain.regression import FlowResult, FlowRun, SuiteResult
    from starebrain.regression.summary import summarize_run

    flows: list[FlowResult] = []
    for spec, task_id in queued:
        if task_id is None:
            result = FlowResult(path=spec.path, name=spec.name, device="", load_error=spec.error)
        else:
            left = max(1.0, timeout_s - (time.monotonic() - t0))
            task = follow(store, task_id, left, None)
            took = (task.updated_at - task.created_at).total_seconds()
            if task.status.resolved:
                run = summarize_run(store, task, 1, took, "")
            else:
                run = FlowRun(number=1, status="error", task_id=task.id, task_status=task.status.value,
                              reason=f"not finished: {task.status.value} {task.status_reason}".strip())
            result = FlowResult(path=spec.path, name=spec.name, device=task.device_serial, runs=[run])
        flows.append(result)
        on_result(result)
    devices = sorted({f.device for f in flows if f.device})
    return SuiteResult(flows=flows, started_at=started, duration_s=time.monotonic() - t0, devices=devices)
