"""Reading commands: history and show. Each has --json."""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any

import typer

from starebrain.cli.failures import one_line_errors
from starebrain.cli.wiring import EngineFactory

JsonOpt = Annotated[bool, typer.Option("--json", help="Machine-readable output.")]


@one_line_errors
def history(status: Annotated[str | None, typer.Option(help="Only tasks with this status.")] = None,
            device: Annotated[str | None, typer.Option("--device", "-s", help="Only this phone.")] = None,
            limit: Annotated[int, typer.Option(min=1, max=1000)] = 20, json_out: JsonOpt = False) -> None:
    """List recent tasks, newest first."""
    from starebrain.errors import BadInput
    from starebrain.models import TaskStatus

    try:
        wanted = TaskStatus(status.upper()) if status else None
    except ValueError:
        raise BadInput(f"unknown status {status!r} (one of {', '.join(s.value for s in TaskStatus)})") from None
    with EngineFactory(json_out) as engine:
        tasks = engine.store.list_tasks(status=wanted, serial=device, limit=limit)
        if json_out:
            print(json.dumps([_task_line(t) for t in tasks], indent=2))
            return
        _print_history(tasks)


@one_line_errors
def show(task_id: Annotated[str, typer.Argument(help="Task id (a unique prefix is enough).")],
         json_out: JsonOpt = False) -> None:
    """One task in full: steps, attempts, obstructions, confirmations, LLM calls."""
    with EngineFactory(json_out) as engine:
        store = engine.store
        task = store.load_task(task_id)
        detail = {
            "task": task.model_dump(mode="json"),
            "attempts": [a.model_dump(mode="json") for a in store.attempts(task.id)],
            "confirmations": [c.model_dump(mode="json") for c in store.confirmations(task.id)],
            "llm_calls": [c.model_dump(mode="json") for c in store.llm_calls(task.id)],
        }
        if json_out:
            print(json.dumps(detail, indent=2))
            return
        _print_detail(task, detail)


def _task_line(task: Any) -> dict[str, Any]:
    done = sum(1 for s in task.steps if s.status.value in ("COMPLETED", "SKIPPED"))
    return {"id": task.id, "status": task.status.value, "device": task.device_serial,
            "instruction": task.instruction, "steps_done": done, "steps": len(task.steps),
            "cursor": task.cursor, "reason": task.status_reason,
            "tokens": task.prompt_tokens + task.completion_tokens, "updated_at": task.updated_at.isoformat()}


def _print_history(tasks: list[Any]) -> None:
    """A table on a terminal; piped, one tab-separated line per task with every field whole."""
    from rich.console import Console
    from rich.table import Table

    rows = [(t.id, t.status.value, t.device_serial, f"{d['steps_done']}/{d['steps']}", t.instruction,
             t.updated_at.strftime("%Y-%m-%d %H:%M:%S")) for t in tasks for d in [_task_line(t)]]
    if not sys.stdout.isatty():
        for row in rows:
            print("\t".join(row))
        return
    table = Table("id", "status", "device", "steps", "instruction", "updated")
    table.columns[0].no_wrap, table.columns[0].min_width = True, 12  # ids are pasted into commands
    for row in rows:
        words = row[4] if len(row[4]) <= 60 else row[4][:59] + "…"
        table.add_row(*row[:4], words, row[5])
    Console().print(table)


def _print_detail(task: Any, detail: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    piped = not sys.stdout.isatty()
    console = Console(width=100_000, soft_wrap=True) if piped else Console()  # piped: no wrapping
    console.print(f"[bold]{task.id}[/] {task.status.value} on {task.device_serial}: {task.instruction}")
    if task.status_reason:
        console.print(f"  {task.status_reason}")
    attempts: dict[str, list[dict[str, Any]]] = {}
    for a in detail["attempts"]:
        attempts.setdefault(a["step_id"], []).append(a)
    table = Table("#", "status", "step", "attempts", "obstructions", "result")
    for s in task.steps:
        tries = attempts.get(s.id, [])
        obstructions = "; ".join(o for a in tries for o in a["obstructions"])
        cursor = "▶ " if s.index == task.cursor and not task.status.resolved else ""
        table.add_row(f"{cursor}{s.index + 1}", s.status.value, s.instruction, str(len(tries)),
                      obstructions, s.result.message if s.result else "")
    console.print(table)
    for c in detail["confirmations"]:
        console.print(f"  confirmation for step {c['step_id']}: {c['decision'] or 'open'} ({c['reason']})")
    tokens = sum(c["prompt_tokens"] + c["completion_tokens"] for c in detail["llm_calls"])
    console.print(f"  LLM calls: {len(detail['llm_calls'])}, tokens: {tokens}")
