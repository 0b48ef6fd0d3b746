"""`starebrain tui`: the step-history browser (textual is imported only when this command runs)."""

from __future__ import annotations

from typing import Annotated

import typer

from starebrain.cli.failures import one_line_errors


@one_line_errors
def tui(
    status: Annotated[str | None, typer.Option(help="Start filtered to this status.")] = None,
    device: Annotated[str | None, typer.Option("--device", "-s", help="Start filtered to this phone.")] = None,
    text: Annotated[str | None, typer.Option(help="Start filtered to tasks whose instruction contains this.")] = None,
) -> None:
    """Browse tasks, their steps, attempts and screenshots; approve, deny, retry or cancel live.

    Keys: Enter opens a task (Esc goes back), s shows the step's screenshot full size, a approves (after
    "are you sure" with the exact action), d denies, r retries, c cancels, / filters, f cycles the status.
    The command palette's "Screenshot" saves an SVG under <STAREBRAIN_HOME>/screenshots.
    """
    from starebrain.cli.wiring import EngineFactory
    from starebrain.tui.app import HistoryApp
    from starebrain.tui.filters import TaskFilter
    from starebrain.tui.task_actions import EngineTaskActions

    with EngineFactory(json_out=True) as engine:
        app = HistoryApp(engine.store, actions=EngineTaskActions(engine.settings),
                         task_filter=TaskFilter.parse_parts(status=status, device=device, text=text),
                         export_dir=engine.settings.data_dir / "screenshots")
        app.run()
