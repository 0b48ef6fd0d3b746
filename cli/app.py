"""The `starebrain` typer application. Sub-commands import their heavy modules lazily."""

from __future__ import annotations

import typer

from cli import (
    daemon_command,
    device_commands,
    do_command,
    farm_commands,
    queue_commands,
    read_commands,
    report_command,
    task_commands,
    test_command,
    tui_command,
)

app = typer.Typer(
    name="starebrain",
    help="Drive an Android phone from one instruction; resume after any interruption.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)

for fn in (do_command.do, task_commands.run, task_commands.resume, task_commands.approve, task_commands.deny,
           task_commands.skip, task_commands.retry, task_commands.cancel, read_commands.history,
           read_commands.show, device_commands.devices, device_commands.doctor,
           tui_command.tui, report_command.report, test_command.test, daemon_command.daemon,
           queue_commands.submit, queue_commands.wait, farm_commands.status):
    app.command()(fn)


def _register_groups() -> None:
    from cli import sim as sim_cli

    app.add_typer(sim_cli.app, name="sim")
    app.add_typer(farm_commands.app, name="farm")


def main() -> None:
    """Console-script entry point."""
    _register_groups()
    app()
