"""`starebrain report`: a task's self-contained HTML report; `--prune-artifacts` applies retention."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from starebrain.cli.failures import one_line_errors
from starebrain.cli.wiring import EngineFactory


@one_line_errors
def report(
    task_id: Annotated[str | None, typer.Argument(help="Task id (a unique prefix is enough).")] = None,
    html: Annotated[Path | None, typer.Option("--html", help="Write the HTML report to this file.")] = None,
    prune_artifacts: Annotated[bool, typer.Option(
        "--prune-artifacts", help="Delete screenshots/hierarchies older than the retention "
                                  "(STAREBRAIN_ARTIFACT_RETENTION_DAYS); rows are kept.")] = False,
    older_than_days: Annotated[float | None, typer.Option(
        "--older-than-days", min=0.0, help="Retention for --prune-artifacts (default: the setting).")] = None,
) -> None:
    """Write one task's HTML report (screenshots inline, no network), or prune old artifacts."""
    from starebrain.errors import BadInput

    if task_id is None and not prune_artifacts:
        raise BadInput("give a task id with --html FILE, or --prune-artifacts")
    if task_id is not None and html is None:
        raise BadInput("say where to write the report: --html FILE")
    with EngineFactory(json_out=True) as engine:
        if prune_artifacts:
            _prune(engine, older_than_days)
        if task_id is not None and html is not None:
            _write(engine, task_id, html)


def _prune(engine: EngineFactory, older_than_days: float | None) -> None:
    removed = engine.store.prune_artifacts(older_than_days)
    days = older_than_days if older_than_days is not None else engine.settings.artifact_retention_days
    keep = "kept forever (retention 0)" if not days else f"older than {days:g} days"
    print(f"pruned {len(removed)} artifact file(s) {keep} from {engine.settings.artifacts_dir}", file=sys.stderr)


def _write(engine: EngineFactory, task_id: str, html: Path) -> None:
    from starebrain.models import utcnow
    from starebrain.report import load_record, render_task_html

    record = load_record(engine.store, task_id)
    html.parent.mkdir(parents=True, exist_ok=True)
    html.write_text(render_task_html(record, generated_at=utcnow()), encoding="utf-8")
    print(f"wrote {html} (task {record.task.id}, {record.task.status.value})", file=sys.stderr)
