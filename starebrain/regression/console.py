"""The console side of `starebrain test`: a line per finished flow and the summary table."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from starebrain.regression.results import FlowResult, SuiteResult

COLOURS = {"passed": "green", "flaky": "yellow", "failed": "red", "error": "red"}


def progress_line(flow: FlowResult) -> str:
    """`✓ mail-read on emulator-5554: passed (4.2 s)`, with the reason when it did not pass."""
    mark = {"passed": "✓", "flaky": "~", "failed": "✗", "error": "!"}[flow.outcome]
    colour = COLOURS[flow.outcome]
    why = f" — {flow.reason}" if flow.outcome in ("failed", "error") and flow.reason else ""
    device = f" on {flow.device}" if flow.device else ""
    return f"[{colour}]{mark}[/] {flow.name}{device}: [{colour}]{flow.label}[/] ({flow.duration_s:.1f} s){why}"


def summary_table(suite: SuiteResult) -> Table:
    """Flow, device, result, steps, duration, retries — one row per flow."""
    table = Table("flow", "device", "result", "steps", "duration", "retries", title="starebrain test")
    for flow in suite.flows:
        final = flow.final
        steps = f"{sum(1 for s in final.steps if s.status in ('COMPLETED', 'SKIPPED'))}/{len(final.steps)}" \
            if final else "-"
        colour = COLOURS[flow.outcome]
        table.add_row(flow.name, flow.device or "-", f"[{colour}]{flow.label}[/]", steps,
                      f"{flow.duration_s:.1f} s", str(flow.retries))
    return table


def totals_line(suite: SuiteResult) -> str:
    """`12 flows: 11 passed, 1 flaky, 0 failed, 0 errors in 41.2 s on 4 phones`."""
    verdict = "[green]OK[/]" if suite.ok else "[red]FAILED[/]"
    return (f"{verdict} {len(suite.flows)} flows: {suite.count('passed')} passed, {suite.count('flaky')} flaky, "
            f"{suite.count('failed')} failed, {suite.count('error')} errors in {suite.duration_s:.1f} s "
            f"on {len(suite.devices)} phone(s)")


def print_summary(suite: SuiteResult, console: Console) -> None:
    """The table, the failures with their reasons, and the totals."""
    console.print(summary_table(suite))
    for flow in suite.flows:
        if flow.outcome in ("failed", "error", "flaky"):
            step = flow.final.failed_step if flow.final and flow.outcome != "flaky" else None
            where = f" at step {step.index + 1} ({step.instruction})" if step else ""
            shot = f"\n    screenshot: {step.screenshot}" if step and step.screenshot else ""
            why = flow.reason if flow.outcome != "flaky" else _flaky_note(flow)
            console.print(f"  [{COLOURS[flow.outcome]}]{flow.label}[/] {flow.classname}{where}: {why}{shot}",
                          highlight=False)
    console.print(totals_line(suite))


def _flaky_note(flow: FlowResult) -> str:
    failed = [r for r in flow.runs if r.status != "passed"]
    return "; ".join(f"run {r.number} failed: {r.reason}" for r in failed)
