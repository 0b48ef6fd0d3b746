"""Live progress of a running task in the terminal: a subscriber of executor events.

On a terminal a status line with a spinner and the elapsed time shows while the LLM plans and while a
step runs (waits for its effect); piped output gets the plain lines only.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from rich.console import Console

from starebrain.events import (
    ConfirmationDecided,
    ConfirmationRequested,
    Event,
    Grounded,
    ObstructionHandled,
    Replanned,
    StepFinished,
    StepRecovered,
    StepStarted,
    TaskFinished,
)

MARKS = {"COMPLETED": "[green]✓[/]", "FAILED": "[red]✗[/]", "SKIPPED": "[yellow]↷[/]",
         "IN_PROGRESS": "[yellow]interrupted[/]", "PENDING": "[yellow]not run[/]"}
LOST = ("IN_PROGRESS", "PENDING")  # a step that ended so was cut off by a lost phone


class _Ticking:
    """A renderable whose text is recomputed at every refresh (the elapsed seconds move)."""

    def __init__(self, text: Callable[[], str]) -> None:
        self.text = text

    def __rich__(self) -> str:
        return self.text()


@contextmanager
def elapsed(console: Console, what: str) -> Iterator[None]:
    """`with elapsed(console, "planning…"):` shows a spinner and the seconds while the block runs."""
    if not console.is_terminal:
        yield
        return
    t0 = time.monotonic()
    with console.status(_Ticking(lambda: f"{what} {time.monotonic() - t0:.1f} s")):
        yield


class LiveView:
    """Prints one line per event that a person cares about (to stderr, so --json stays clean)."""

    def __init__(self, console: Console | None = None) -> None:
        self.console = console or Console(stderr=True, highlight=False)
        self._running: Any = None

    def __call__(self, event: Event) -> None:
        if self._running is not None:
            self._running.__exit__(None, None, None)
            self._running = None
        line = self.render(event)
        if line:
            self.console.print(line)
        if isinstance(event, StepStarted):  # until it finishes: the spinner and the seconds it takes
            self._running = elapsed(self.console, f"     step {event.index + 1} running…")
            self._running.__enter__()

    def render(self, event: Event) -> str | None:
        """The line for one event, or None for events not shown."""
        match event:
            case StepStarted():
                retry = f" (attempt {event.attempt})" if event.attempt > 1 else ""
                return f"  [bold]{event.index + 1}.[/] {event.instruction}{retry} …"
            case StepFinished():
                mark = MARKS.get(event.status, event.status)
                why = f" — {event.message}" if event.message else ""
                hint = (f"\n     the phone was lost; task {event.task_id} is kept — when the phone is back: "
                        f"[bold]starebrain resume {event.task_id}[/]") if event.status in LOST else ""
                return f"     {mark} {event.duration_ms:.0f} ms{why}{hint}"
            case ObstructionHandled():
                return f"     [cyan]cleared[/] {event.kind}: {event.detail} ({event.action})"
            case Grounded():
                return f"     [cyan]grounded[/] to {event.selector}"
            case ConfirmationRequested():
                return f"  [bold yellow]waiting for you[/] before step {event.index + 1}: {event.instruction}"
            case ConfirmationDecided():
                return f"     {event.decision.lower()} by {event.decided_by}"
            case StepRecovered():
                return f"  [cyan]recovered[/] step {event.index + 1} after an interruption: {event.how}"
            case Replanned():
                return f"  [magenta]replanned[/] from step {event.cursor + 1}: {event.removed} → {event.added} steps"
            case TaskFinished():
                colour = {"COMPLETED": "green", "FAILED": "red"}.get(event.status, "yellow")
                why = f": {event.reason}" if event.reason else ""
                return f"[bold {colour}]{event.status}[/] ({event.cursor}/{event.steps} steps){why}"
        return None


ANSWERS = {"y": "y", "yes": "y", "n": "n", "no": "n", "s": "s", "skip": "s"}


def ask_confirmation(step: Any, reason: str, *, resuming: bool, read: Callable[[str], str] = input,
                     console: Console | None = None, evidence: Callable[[], str] | None = None) -> str:
    """Ask once, as a sentence; returns "y", "n" or "s". Accepts y/yes/n/no/s/skip in any case;
    `e` shows the evidence (why it is asked, the screen the step last saw) and asks again."""
    from starebrain.report.wording import question

    out = console or Console(stderr=True, highlight=False)
    lead = "This step was interrupted and may already have happened. " if resuming else ""
    out.print(f"[bold]{lead}{question(step)}[/]")
    out.print("  [b]y[/]es: run it now · [b]n[/]o: do not run it, the task stops · "
              "[b]s[/]kip: do not run it but carry on with the next step (e.g. you already did it yourself) · "
              "[b]e[/]: why am I asked?")
    while True:
        typed = read("  your answer [y/n/s/e]: ").strip().lower()
        if typed in ("e", "evidence", "why"):
            out.print(f"  why you are asked: {reason}", highlight=False)
            if evidence is not None:
                out.print(f"  {evidence()}", highlight=False)
            continue
        answer = ANSWERS.get(typed)
        if answer is not None:
            return answer
        out.print("  please answer y (yes), n (no), s (skip) or e (why)")
