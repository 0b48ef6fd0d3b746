"""Live progress of a running task in the terminal: a subscriber of executor events."""

from __future__ import annotations

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
         "IN_PROGRESS": "[yellow]?[/]", "PENDING": "[yellow]…[/]"}


class LiveView:
    """Prints one line per event that a person cares about (to stderr, so --json stays clean)."""

    def __init__(self, console: Console | None = None) -> None:
        self.console = console or Console(stderr=True, highlight=False)

    def __call__(self, event: Event) -> None:
        line = self.render(event)
        if line:
            self.console.print(line)

    def render(self, event: Event) -> str | None:
        """The line for one event, or None for events not shown."""
        match event:
            case StepStarted():
                retry = f" (attempt {event.attempt})" if event.attempt > 1 else ""
                return f"  [bold]{event.index + 1}.[/] {event.instruction}{retry} …"
            case StepFinished():
                mark = MARKS.get(event.status, event.status)
                why = f" — {event.message}" if event.message else ""
                return f"     {mark} {event.duration_ms:.0f} ms{why}"
            case ObstructionHandled():
                return f"     [cyan]cleared[/] {event.kind}: {event.detail} ({event.action})"
            case Grounded():
                return f"     [cyan]grounded[/] to {event.selector}"
            case ConfirmationRequested():
                return f"  [bold yellow]confirm[/] step {event.index + 1}: {event.instruction} ({event.reason})"
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
