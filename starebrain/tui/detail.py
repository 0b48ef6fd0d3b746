"""What the detail pane shows for a task and for the step under the cursor (rich renderables)."""

from __future__ import annotations

from datetime import datetime

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from starebrain.models import AgentStep, AgentTask, Attempt, Confirmation
from starebrain.report.record import TaskRecord
from starebrain.tui.screenshot_view import screenshot_text

STATUS_STYLE = {"COMPLETED": "green", "SUCCEEDED": "green", "APPROVED": "green", "FAILED": "red",
                "DENIED": "red", "CANCELLED": "yellow", "SKIPPED": "yellow", "INTERRUPTED": "yellow",
                "AWAITING_CONFIRMATION": "bold magenta", "IN_PROGRESS": "cyan", "RUNNING": "cyan"}


def styled(status: str) -> Text:
    """A status word in its colour."""
    return Text(status, style=STATUS_STYLE.get(status, ""))


def short_time(moment: datetime | None) -> str:
    return moment.strftime("%Y-%m-%d %H:%M:%S") if moment else "—"


def age(moment: datetime, now: datetime) -> str:
    """`42s`, `5m`, `3h`, `2d`: how long ago."""
    seconds = max(0, int((now - moment).total_seconds()))
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds >= size:
            return f"{seconds // size}{unit}"
    return f"{seconds}s"


def task_summary(record: TaskRecord) -> RenderableType:
    """Header of the pane: instruction, status and reason, tokens, confirmations and LLM calls."""
    task = record.task
    head = Text.assemble((task.id, "bold"), " ", styled(task.status.value), f" on {task.device_serial}\n",
                         (task.instruction, "bold"))
    lines: list[RenderableType] = [head]
    if task.status_reason:
        lines.append(Text(f"reason: {task.status_reason}", style="red" if task.status.value == "FAILED" else ""))
    lines.append(Text(f"steps {record.steps_done}/{len(task.steps)} · cursor {task.cursor + 1} · "
                      f"replans {task.replan_count} · tokens {record.tokens} "
                      f"({task.prompt_tokens} prompt + {task.completion_tokens} completion)", style="dim"))
    lines += [confirmation_line(c, task) for c in record.confirmations]
    lines += [Text(f"LLM {c.purpose.value} {c.model}: {c.prompt_tokens}+{c.completion_tokens} tokens, "
                   f"{c.latency_ms:.0f} ms, {c.outcome}", style="dim") for c in record.llm_calls]
    return Group(*lines)


def confirmation_line(c: Confirmation, task: AgentTask) -> Text:
    """`confirm step 3: APPROVED by tui at …` or `… waiting`."""
    index = next((s.index + 1 for s in task.steps if s.id == c.step_id), "?")
    decided = (Text.assemble(styled(c.decision.value), f" by {c.decided_by} at {short_time(c.decided_at)}")
               if c.decision else Text("waiting for the person", style="bold magenta"))
    return Text.assemble(f"confirm step {index} (asked {short_time(c.asked_at)}): ", decided)


def steps_rows(record: TaskRecord) -> list[tuple[str, Text, str, str, str]]:
    """#, status, step, attempts, obstructions — one row per step."""
    rows = []
    for step in record.task.steps:
        attempts = record.attempts_of(step)
        cursor = "▶" if step.index == record.task.cursor and not record.task.status.resolved else " "
        obstructions = str(sum(len(a.obstructions) for a in attempts))
        rows.append((f"{cursor}{step.index + 1}", styled(step.status.value), step.instruction,
                     str(len(attempts)), obstructions))
    return rows


def step_detail(record: TaskRecord, step: AgentStep, *, image_width: int = 28) -> RenderableType:
    """Attempts of one step (outcome, error, obstructions, phases), its questions and its screenshot."""
    attempts = record.attempts_of(step)
    parts: list[RenderableType] = [Text(f"step {step.index + 1}: {step.instruction}", style="bold")]
    if step.result is not None and step.result.message:
        parts.append(Text(f"result: {step.result.message}", style="" if step.result.ok else "red"))
    parts.append(_attempts_table(attempts) if attempts else Text("not run yet", style="dim"))
    parts += [confirmation_line(c, record.task) for c in record.confirmations_of(step)]
    last_shot = next((a.screenshot_path for a in reversed(attempts) if a.screenshot_path), None)
    if attempts:
        parts.append(screenshot_text(last_shot, image_width))
    return Group(*parts)


def _attempts_table(attempts: list[Attempt]) -> Table:
    table = Table("try", "outcome", "at", "ms", "error / obstructions", box=None, padding=(0, 1))
    for a in attempts:
        notes = "; ".join([a.error] * bool(a.error) + [f"cleared {o}" for o in a.obstructions])
        label = f"{a.number}" + (" retry" if a.number > 1 else "")
        table.add_row(label, styled(a.outcome.value), a.started_at.strftime("%H:%M:%S"),
                      f"{sum(a.phases_ms.values()):.0f}", notes)
    return table
