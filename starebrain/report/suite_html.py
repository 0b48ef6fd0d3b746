"""`starebrain test --html DIR`: index.html for the suite plus one task report per run of each flow."""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import Any

from starebrain.models import utcnow
from starebrain.regression.results import FlowResult, FlowRun, SuiteResult
from starebrain.report.html_report import REPORT_VERSION, badge, render_task_html, when
from starebrain.report.record import load_record
from starebrain.report.style import CSS


def write_suite_html(suite: SuiteResult, store: Any, folder: Path) -> Path:
    """Write every run's report and the index linking them; returns the index path."""
    folder.mkdir(parents=True, exist_ok=True)
    for flow in suite.flows:
        for run in flow.runs:
            if run.task_id:
                page = render_task_html(load_record(store, run.task_id), banner=run_banner(flow, run),
                                        generated_at=utcnow())
                (folder / run_file(run)).write_text(page, encoding="utf-8")
    index = folder / "index.html"
    index.write_text(render_index(suite), encoding="utf-8")
    return index


def run_file(run: FlowRun) -> str:
    """The report file name of one run."""
    return f"task-{run.task_id}.html"


def run_banner(flow: FlowResult, run: FlowRun) -> str:
    """What a run's page says about its place in the flow: retries are never hidden."""
    retry = f" (retry {run.number - 1})" if run.number > 1 else ""
    text = f"{flow.classname}: run {run.number} of {len(flow.runs)}{retry}, {run.status}; flow result: {flow.label}"
    return text + (f" — {run.reason}" if run.reason else "")


FIRST = {"error": 0, "failed": 1, "flaky": 2, "passed": 3}  # what needs a look comes first


def render_index(suite: SuiteResult) -> str:
    """The suite page: counts, then one row per flow (failures first), each run linked."""
    rows = "".join(_row(flow) for flow in sorted(suite.flows, key=lambda f: FIRST[f.outcome]))
    verdict = "passed" if suite.ok else "failed"
    counts = "".join(f'<div><dt>{name}</dt><dd id="count-{name}">{suite.count(name)}</dd></div>'
                     for name in ("passed", "flaky", "failed", "error"))
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
            f'<meta name="starebrain-report-version" content="{REPORT_VERSION}">'
            f"<title>starebrain test</title><style>{CSS}</style></head><body>"
            f"<header><h1>starebrain test {badge(verdict)}</h1><div class=\"meta\">"
            f"<span>{len(suite.flows)} flows</span>"
            f"<span>{suite.duration_s:.1f} s on {len(suite.devices)} phone(s)</span>"
            f"<span>started {when(suite.started_at)}</span></div></header><main>"
            f'<dl class="summary" id="counts">{counts}</dl><h2>Flows</h2>'
            "<table id=\"flows\"><tr><th>flow</th><th>device</th><th>result</th><th>steps</th><th>duration</th>"
            f"<th>retries</th><th>runs</th><th>reason</th></tr>{rows}</table></main></body></html>")


def _row(flow: FlowResult) -> str:
    final = flow.final
    steps = f"{sum(1 for s in final.steps if s.status == 'COMPLETED')}/{len(final.steps)}" if final else "-"
    links = " ".join(f'<a href="{run_file(r)}">run {r.number}: {escape(r.status)}</a>'
                     for r in flow.runs if r.task_id)
    reason = "" if flow.outcome == "passed" else escape(flow.reason if flow.outcome != "flaky" else
                                                         "; ".join(r.reason for r in flow.runs[:-1]))
    return (f'<tr data-outcome="{flow.outcome}"><td>{escape(flow.classname)}</td><td>{escape(flow.device)}</td>'
            f"<td>{badge(flow.outcome, flow.label)}</td><td>{steps}</td><td>{flow.duration_s:.1f} s</td>"
            f"<td>{flow.retries}</td><td>{links}</td><td>{reason}</td></tr>")
