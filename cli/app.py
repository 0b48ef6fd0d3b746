"""The `starebrain` typer application. Sub-commands import their heavy modules lazily."""

from __future__ import annotations

import typer

app = typer.Typer(
    name="starebrain",
    help="Drive an Android phone from one instruction; resume after any interruption.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)


def _register() -> None:
    from cli import sim as sim_cli

    app.add_typer(sim_cli.app, name="sim")


def main() -> None:
    """Console-script entry point."""
    _register()
    app()
