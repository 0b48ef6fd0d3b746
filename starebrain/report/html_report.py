"""`starebrain report TASK --html FILE`: one self-contained, versioned HTML page per task.

Images are inlined as data: URIs and the CSS is inline, so the file opens anywhere with no
network. The format version is in `<meta name="starebrain-report-version">`.
"""

from __future__ import annotations

from datetime import datetime
from html import escape
from pathlib import Path

from starebrain.models import AgentStep, Attempt, Confirmation
from starebrain.report.images import file_state, image_data_uri
from starebrain.report.record import TaskRecord
from starebrain.report.style import CSS

REPORT_VERSION = 2  # 2: summary, contents, before/after screens, final screen


def when(moment: datetime | None) -> str:
    """A UTC timestamp as people read it, or an em dash."""
    return moment.strftime("%Y-%m-%d %H:%M:%S UTC") if moment else "—"


def badge(status: str, text: str | None = None) -> str:
    """A coloured status label."""
    return f'<span class="badge {escape(status)}">{escape(text or status)}</span>'


def render_task_html(record: TaskRecord, *, banner: str = "", generated_at: datetime | None = None,
                     embed_images: bool = True) -> str:
    """The whole report page for one task: summary, contents, steps with before/after screens, final screen."""
    task = record.task
    title = f"StareBrain report: {task.instruction}"
    sections = [
        ("summary", "Summary", _summary(record)),
        ("steps", f"Steps ({len(task.steps)})", _timeline(record, embed_images)),
        ("final", "Final screen", _final(record, embed_images)),
        ("taken", "Screenshots the flow took", _taken(record, embed_images)),
        ("superseded", "Attempts of replaced steps", _superseded(record, embed_images)),
        ("replanning", "Replans", _replans(record)),
        ("llm", "LLM calls", _llm_calls(record)),
    ]
    shown = [(anchor, name, body) for anchor, name, body in sections if body]
    toc = "".join(f'<a href="#{a}">{escape(n)}</a>' for a, n, _ in shown)
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f'<meta name="starebrain-report-version" content="{REPORT_VERSION}">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(title)}</title><style>{CSS}</style></head><body>",
        _header(record, banner),
        f'<nav id="toc"><b>Contents</b>{toc}</nav>',
        "<main>",
        *(f'<section id="{a}-section"><h2 id="{a}">{escape(n)}</h2>{body}</section>' for a, n, body in shown),
        "</main>",
        f'<footer>starebrain report format {REPORT_VERSION} · generated {escape(when(generated_at))}</footer>',
        "</body></html>",
    ]
    return "\n".join(p for p in parts if p)


def _header(record: TaskRecord, banner: str) -> str:
    task = record.task
    reason = f'<div class="reason" id="task-reason">{escape(task.status_reason)}</div>' if task.status_reason else ""
    flag = f'<div class="banner" id="banner">{escape(banner)}</div>' if banner else ""
    return (f'<header><h1>{escape(task.instruction)}</h1>'
            f'<div><span class="badge {task.status.value}" id="task-status">{task.status.value}</span> '
            f'<span class="meta">task <code>{escape(task.id)}</code> on {escape(task.device_serial)}</span></div>'
            f'{flag}{reason}</header>')


def _summary(record: TaskRecord) -> str:
    task = record.task
    starts = [a.started_at for a in record.attempts]
    ends = [a.ended_at or a.started_at for a in record.attempts]
    first, last = (min(starts), max(ends)) if starts else (task.created_at, task.updated_at)
    seconds = (last - first).total_seconds()
    cleared = sum(len(a.obstructions) for a in record.attempts)
    decided = [c for c in record.confirmations if c.decision is not None]
    rows = [
        ("status", badge(task.status.value)),
        ("duration", f"{seconds:.1f} s ({when(first)} → {when(last)})"),
        ("steps", f"{record.steps_done} of {len(task.steps)} done"
                  + (f", {record.retried_steps} retried" if record.retried_steps else "")),
        ("obstructions cleared", str(cleared)),
        ("confirmations", f"{len(decided)} decided" + (f", {len(record.confirmations) - len(decided)} waiting"
                                                        if len(record.confirmations) > len(decided) else "")),
        ("LLM calls", f"{len(record.llm_calls)} · {record.tokens} tokens ({task.prompt_tokens} prompt + "
                      f"{task.completion_tokens} completion)"),
        ("replans", str(task.replan_count)),
        ("device", escape(task.device_serial)),
        ("task", f"<code>{escape(task.id)}</code>"),
    ]
    cells = "".join(f"<div><dt>{k}</dt><dd>{v}</dd></div>" for k, v in rows)
    return f'<dl class="summary" id="summary-table">{cells}</dl>'


def _timeline(record: TaskRecord, embed: bool) -> str:
    steps = record.task.steps
    firsts = [_first_shot(record, s) for s in steps] + [final_screen(record)]
    # The screen after a step is the next look at the phone: the next step that ran, else the final screen.
    afters = [next((shot for shot in firsts[i + 1:] if shot), None) for i in range(len(steps))]
    return "\n".join(_step(record, s, after, embed) for s, after in zip(steps, afters, strict=True))


def _first_shot(record: TaskRecord, step: AgentStep) -> str | None:
    shots = [a.screenshot_path for a in record.attempts_of(step) if a.screenshot_path]
    return shots[0] if shots else None


def final_screen(record: TaskRecord) -> str | None:
    """The screen after the last step (`final.*` beside the attempts' screenshots), if it was saved."""
    shots = [a.screenshot_path for a in record.attempts if a.screenshot_path]
    folders = {Path(p).parent for p in shots}
    for folder in folders:
        for name in ("final.jpg", "final.png"):
            if (folder / name).is_file():
                return str(folder / name)
    return None


def _step(record: TaskRecord, step: AgentStep, after: str | None, embed: bool) -> str:
    attempts = record.attempts_of(step)
    result = step.result.message if step.result else ""
    retried = f' <span class="retry">retried: {len(attempts)} attempts</span>' if len(attempts) > 1 else ""
    flags = " · irreversible" if step.irreversible else ""
    settled = step.result.settled_by if step.result else None
    idle = "a decision of the flow, read from the screen; nothing was run" if settled and \
        settled.startswith("flow:") else "not run"
    cards = "".join(_attempt(a, embed) for a in attempts) or f'<div class="missing">{idle}</div>'
    confirmations = record.confirmations_of(step)
    decided = next((c for c in reversed(confirmations) if c.decision is not None), None)
    css = f"step confirmed {decided.decision.value}" if decided and decided.decision else "step"
    after_card = _screen("after", after, embed) if attempts and step.status.value in ("COMPLETED", "SKIPPED") \
        else ""
    return (f'<article class="{css}" id="step-{step.index + 1}" data-status="{step.status.value}">'
            f'<div class="step-text"><h3>{step.index + 1}. <span class="step-name">{escape(step.instruction)}</span> '
            f'{badge(step.status.value)}{retried}</h3>'
            f'<div class="action">{escape(_describe_action(step))}{flags}</div>'
            f'<div class="result">{escape(result)}</div>{_decision(decided)}'
            f'{_confirmations(confirmations)}</div><div class="attempts">{cards}{after_card}</div></article>')


def _decision(c: Confirmation | None) -> str:
    """The highlighted line: who decided a question about this step, how and when."""
    if c is None or c.decision is None:
        return ""
    verb = {"APPROVED": "Approved", "DENIED": "Denied", "SKIPPED": "Skipped"}[c.decision.value]
    return (f'<div class="decision">{verb} by <b>{escape(c.decided_by or "?")}</b> at '
            f'{when(c.decided_at)} <span class="meta">(asked {when(c.asked_at)}: {escape(c.reason)})</span></div>')


def _describe_action(step: AgentStep) -> str:
    from starebrain.flows.flow_file import describe_action

    return describe_action(step.action)


def _attempt(attempt: Attempt, embed: bool) -> str:
    label = f"attempt {attempt.number}" + (" (retry)" if attempt.number > 1 else "")
    took = sum(attempt.phases_ms.values())
    error = f'<div class="error-text">{escape(attempt.error)}</div>' if attempt.error else ""
    obstructions = "".join(f"<li>{escape(o)}</li>" for o in attempt.obstructions)
    handled = f'<div>obstructions handled:<ul class="obstructions">{obstructions}</ul></div>' if obstructions else ""
    return (f'<div class="attempt" data-outcome="{attempt.outcome.value}"><b>before · {label}</b> '
            f'{badge(attempt.outcome.value)}<div class="meta">{when(attempt.started_at)} · {took:.0f} ms</div>'
            f'{error}{handled}{_screenshot(attempt.screenshot_path, embed, f"screen before attempt {attempt.number}")}'
            f'</div>')


def _screen(kind: str, path: str | None, embed: bool) -> str:
    """The screen after a step: the next step's first look, or the final screen."""
    return (f'<div class="attempt {kind}"><b>{kind}</b>'
            f'{_screenshot(path, embed, f"screen {kind} the step", missing="not recorded")}</div>')


def _final(record: TaskRecord, embed: bool) -> str:
    path = final_screen(record)
    if path is None:
        return '<p class="missing">the screen after the last step was not saved</p>'
    return f'<div class="final">{_screenshot(path, embed, "final screen")}</div>'


def flow_screenshots(record: TaskRecord) -> list[Path]:
    """The screenshots a flow's takeScreenshot saved (`screenshot-NAME.*` beside the attempts'), by name."""
    folders = {Path(a.screenshot_path).parent for a in record.attempts if a.screenshot_path}
    return sorted((p for f in folders for p in f.glob("screenshot-*") if p.suffix in (".png", ".jpg")),
                  key=lambda p: p.name)


def _taken(record: TaskRecord, embed: bool) -> str:
    cards = "".join(f'<figure class="attempt"><figcaption>{escape(p.stem.removeprefix("screenshot-"))}'
                    f'</figcaption>{_screenshot(str(p), embed, f"screenshot {p.stem}")}</figure>'
                    for p in flow_screenshots(record))
    return f'<div class="attempts">{cards}</div>' if cards else ""


def _screenshot(path: str | None, embed: bool, alt: str, missing: str = "") -> str:
    gone = file_state(path)
    uri = image_data_uri(path) if embed and not gone else None
    if uri is None:
        why = (missing if missing and not path else gone) or ("screenshot not embedded" if not embed
                                                            else "screenshot unreadable")
        return f'<div class="missing">{escape(why)}</div>'
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
    return f'<div class="attempts">{cards}</div>'


def _replans(record: TaskRecord) -> str:
    replans = record.events_of("Replanned")
    if not replans:
        return ""
    rows = "".join(f"<tr><td>{when(e.created_at)}</td><td>{e.payload.get('cursor', 0) + 1}</td>"
                   f"<td>{e.payload.get('removed', 0)} → {e.payload.get('added', 0)}</td>"
                   f"<td>{escape(str(e.payload.get('reason', '')))}</td></tr>" for e in replans)
    return ("<table id=\"replans\"><tr><th>when</th><th>from step</th><th>steps</th>"
            f"<th>why</th></tr>{rows}</table>")


def _llm_calls(record: TaskRecord) -> str:
    if not record.llm_calls:
        return '<p id="llm-calls">none (0 tokens)</p>'
    rows = "".join(f"<tr><td>{when(c.created_at)}</td><td>{c.purpose.value}</td><td>{escape(c.model)}</td>"
                   f"<td>{c.prompt_tokens}</td><td>{c.completion_tokens}</td><td>{c.latency_ms:.0f}</td>"
                   f"<td>{escape(c.outcome)}</td></tr>" for c in record.llm_calls)
    return ('<table id="llm-calls"><tr><th>when</th><th>purpose</th><th>model</th>'
            f"<th>prompt</th><th>completion</th><th>ms</th><th>outcome</th></tr>{rows}</table>")
