"""`starebrain report TASK --html FILE`: one self-contained, versioned HTML page per task.

Images are inlined as data: URIs and the CSS is inline, so the file opens anywhere with no
network. The format version is in `<meta name="starebrain-report-version">`.
"""

from __future__ import annotations

from datetime import datetime
from html import escape

from starebrain.models import AgentStep, Attempt, Confirmation
from starebrain.report.images import file_state, image_data_uri
from starebrain.report.record import TaskRecord
from starebrain.report.style import CSS

REPORT_VERSION = 1


def when(moment: datetime | None) -> str:
    """A UTC timestamp as people read it, or an em dash."""
    return moment.strftime("%Y-%m-%d %H:%M:%S UTC") if moment else "—"


def badge(status: str, text: str | None = None) -> str:
    """A coloured status label."""
    return f'<span class="badge {escape(status)}">{escape(text or status)}</span>'


def render_task_html(record: TaskRecord, *, banner: str = "", generated_at: datetime | None = None,
                     embed_images: bool = True) -> str:
    """The whole report page for one task."""
    task = record.task
    title = f"StareBrain report: {task.instruction}"
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f'<meta name="starebrain-report-version" content="{REPORT_VERSION}">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(title)}</title><style>{CSS}</style></head><body>",
        _header(record, banner),
        "<main>",
        _timeline(record, embed_images),
        _superseded(record, embed_images),
        _replans(record),
        _llm_calls(record),
        "</main>",
        f'<footer>starebrain report format {REPORT_VERSION} · generated {escape(when(generated_at))}</footer>',
        "</body></html>",
    ]
    return "\n".join(p for p in parts if p)


def _header(record: TaskRecord, banner: str) -> str:
    task = record.task
    tokens = f"{record.tokens} tokens ({task.prompt_tokens} prompt + {task.completion_tokens} completion)"
    meta = [f"task <code>{escape(task.id)}</code>", f"device {escape(task.device_serial)}",
            f"steps {record.steps_done}/{len(task.steps)}", tokens, f"replans {task.replan_count}",
            f"created {when(task.created_at)}", f"updated {when(task.updated_at)}"]
    reason = f'<div class="reason" id="task-reason">{escape(task.status_reason)}</div>' if task.status_reason else ""
    flag = f'<div class="banner" id="banner">{escape(banner)}</div>' if banner else ""
    spans = "".join(f"<span>{m}</span>" for m in meta)
    return (f'<header><h1>{escape(task.instruction)}</h1>'
            f'<div>{badge(task.status.value)} <span id="task-status">{escape(task.status.value)}</span></div>'
            f'{flag}<div class="meta">{spans}</div>{reason}</header>')


def _timeline(record: TaskRecord, embed: bool) -> str:
    steps = "\n".join(_step(record, s, embed) for s in record.task.steps)
    return f'<h2>Steps</h2><section id="timeline">{steps}</section>'


def _step(record: TaskRecord, step: AgentStep, embed: bool) -> str:
    attempts = record.attempts_of(step)
    result = step.result.message if step.result else ""
    by = step.result.confirmed_by if step.result else None
    confirmed = f" · confirmed by {escape(by)}" if by else ""
    retried = f' <span class="retry">retried: {len(attempts)} attempts</span>' if len(attempts) > 1 else ""
    flags = " · irreversible" if step.irreversible else ""
    cards = "".join(_attempt(a, embed) for a in attempts) or '<div class="missing">not run</div>'
    return (f'<article class="step" id="step-{step.index + 1}" data-status="{step.status.value}">'
            f'<h3>{step.index + 1}. <span class="step-name">{escape(step.instruction)}</span> '
            f'{badge(step.status.value)}{retried}</h3>'
            f'<div class="action">{escape(_describe_action(step))}{flags}</div>'
            f'<div class="result">{escape(result)}{confirmed}</div>'
            f'{_confirmations(record.confirmations_of(step))}<div class="attempts">{cards}</div></article>')


def _describe_action(step: AgentStep) -> str:
    from starebrain.flows.flow_file import describe_action

    return describe_action(step.action)


def _attempt(attempt: Attempt, embed: bool) -> str:
    label = f"attempt {attempt.number}" + (" (retry)" if attempt.number > 1 else "")
    took = sum(attempt.phases_ms.values())
    error = f'<div class="error-text">{escape(attempt.error)}</div>' if attempt.error else ""
    obstructions = "".join(f"<li>{escape(o)}</li>" for o in attempt.obstructions)
    handled = f'<div>obstructions handled:<ul class="obstructions">{obstructions}</ul></div>' if obstructions else ""
    return (f'<div class="attempt" data-outcome="{attempt.outcome.value}"><b>{label}</b> '
            f'{badge(attempt.outcome.value)}<div class="meta">{when(attempt.started_at)} · {took:.0f} ms</div>'
            f'{error}{handled}{_screenshot(attempt, embed)}</div>')


def _screenshot(attempt: Attempt, embed: bool) -> str:
    missing = file_state(attempt.screenshot_path)
    uri = image_data_uri(attempt.screenshot_path) if embed and not missing else None
    if uri is None:
        why = missing or ("screenshot not embedded" if not embed else "screenshot unreadable")
        return f'<div class="missing">{escape(why)}</div>'
    alt = f"screen seen by attempt {attempt.number}"
    return f'<img class="screenshot" alt="{escape(alt)}" src="{uri}">'


def _confirmations(confirmations: list[Confirmation]) -> str:
    if not confirmations:
        return ""
    rows = "".join(
        f"<li>asked {when(c.asked_at)}: {escape(c.reason)} → "
        f"{badge(c.decision.value) if c.decision else badge('PENDING', 'waiting')}"
        f"{' by ' + escape(c.decided_by) if c.decided_by else ''}"
        f"{' at ' + when(c.decided_at) if c.decided_at else ''}</li>" for c in confirmations)
    return f'<div class="confirmations">confirmations:<ul>{rows}</ul></div>'


def _superseded(record: TaskRecord, embed: bool) -> str:
    attempts = record.superseded_attempts()
    if not attempts:
        return ""
    cards = "".join(_attempt(a, embed) for a in attempts)
    return f'<h2>Attempts of steps a replan replaced</h2><div class="attempts">{cards}</div>'


def _replans(record: TaskRecord) -> str:
    replans = record.events_of("Replanned")
    if not replans:
        return ""
    rows = "".join(f"<tr><td>{when(e.created_at)}</td><td>{e.payload.get('cursor', 0) + 1}</td>"
                   f"<td>{e.payload.get('removed', 0)} → {e.payload.get('added', 0)}</td>"
                   f"<td>{escape(str(e.payload.get('reason', '')))}</td></tr>" for e in replans)
    return ("<h2>Replans</h2><table id=\"replans\"><tr><th>when</th><th>from step</th><th>steps</th>"
            f"<th>why</th></tr>{rows}</table>")


def _llm_calls(record: TaskRecord) -> str:
    if not record.llm_calls:
        return '<h2>LLM calls</h2><p id="llm-calls">none (0 tokens)</p>'
    rows = "".join(f"<tr><td>{when(c.created_at)}</td><td>{c.purpose.value}</td><td>{escape(c.model)}</td>"
                   f"<td>{c.prompt_tokens}</td><td>{c.completion_tokens}</td><td>{c.latency_ms:.0f}</td>"
                   f"<td>{escape(c.outcome)}</td></tr>" for c in record.llm_calls)
    return ('<h2>LLM calls</h2><table id="llm-calls"><tr><th>when</th><th>purpose</th><th>model</th>'
            f"<th>prompt</th><th>completion</th><th>ms</th><th>outcome</th></tr>{rows}</table>")
