"""The `starebrain` typer application. Sub-commands import their heavy modules lazily."""

from __future__ import annotations

from typing import Annotated, Any

import typer
from typer.core import TyperCommand, TyperGroup

from starebrain.cli import (
    daemon_command,
    device_commands,
    do_command,
    farm_commands,
    look_command,
    queue_commands,
    read_commands,
    report_command,
    task_commands,
    test_command,
    tui_command,
)
from starebrain.cli.failures import fail

try:  # typer >= 0.20 carries its own copy of click
    from typer._click.exceptions import ClickException
except ImportError:  # pragma: no cover - older typer uses click itself
    from click.exceptions import ClickException  # type: ignore[assignment]

JSON_META = "starebrain.json"  # ctx.meta key: the command line asked for --json

# Shown at the end of `--help` (rich markup: no square brackets).
EXAMPLES = {
    "do": 'starebrain do "mark the Whitfield project as done in Tasks"\n'
          'starebrain do "send the invoice to the client I just messaged" --device emulator-5554 --json\n'
          'starebrain do "note the plumber\'s visit on Tuesday" --queue -l android=14   (a daemon plans it)',
    "run": "starebrain run flows/invoice.yaml\nstarebrain run login.yaml -e USER=dana -e PASSWORD=secret",
    "resume": "starebrain resume            (the newest unfinished task)\nstarebrain resume 3f2a9c01",
    "approve": "starebrain approve 3f2a9c01",
    "deny": "starebrain deny 3f2a9c01",
    "skip": "starebrain skip 3f2a9c01     (the step already happened: carry on)",
    "retry": "starebrain retry 3f2a9c01\nstarebrain retry 3f2a9c01 --from 2",
    "cancel": "starebrain cancel 3f2a9c01   (exit 9: the task is cancelled)",
    "history": "starebrain history --status FAILED\nstarebrain history --json | jq '.[0].id'",
    "show": "starebrain show 3f2a9c01\nstarebrain show 3f2a9c01 --json",
    "report": "starebrain report 3f2a9c01 --html report.html",
    "test": "starebrain test flows/ --junit out/junit.xml\nstarebrain test flows/ -e USER=dana --include-tags smoke",
    "doctor": "starebrain doctor\nstarebrain doctor --json",
    "devices": "starebrain devices\nstarebrain devices --json\nstarebrain devices label emulator-5554 bank=logged-in",
    "devices label": "starebrain devices label emulator-5554 bank=logged-in sim=prepaid\n"
                     "starebrain devices label emulator-5554            (print its tags)\n"
                     "starebrain devices label emulator-5554 --remove sim",
    "look": "starebrain look\nstarebrain look --device emulator-5554 --save screen.xml --json",
    "tui": "starebrain tui\nstarebrain tui --status AWAITING_CONFIRMATION --device emulator-5554",
    "daemon": "starebrain daemon\nstarebrain daemon --label room=lab --install-service",
    "submit": "starebrain submit flows/invoice.yaml\nstarebrain submit flows/invoice.yaml -s emulator-5554 --json",
    "wait": "starebrain wait 3f2a9c01\nstarebrain wait 3f2a9c01 --timeout 600 --quiet",
    "status": "starebrain status\nstarebrain status --json",
    "sim start": "starebrain sim start --serial emulator-5554\n"
                 "starebrain sim start --serial emulator-5556 --scenario app_crash --locale de",
    "sim state": "starebrain sim state --serial emulator-5554\nstarebrain sim state --state-dir sim-state --json",
    "sim scenarios": "starebrain sim scenarios",
    "farm status": "starebrain farm status\nstarebrain farm status --json",
    "farm test": "starebrain farm test flows/ --junit out/junit.xml\nstarebrain farm test flows/ -l os=14 --each-phone",
}


class _NoFlagTypes:
    """A flag takes no value, so its help shows no `<bool>` type."""

    def get_params(self, ctx: Any) -> list[Any]:
        params: list[Any] = super().get_params(ctx)  # type: ignore[misc]
        for param in params:
            if getattr(param, "is_flag", False) and param.metavar is None:
                param.metavar = ""
        return params


class Command(_NoFlagTypes, TyperCommand):
    """Every starebrain command."""


class Group(_NoFlagTypes, TyperGroup):
    """The starebrain group: with --json on the command line, a usage error is a JSON object too."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        ctx.meta[JSON_META] = "--json" in args
        return super().parse_args(ctx, args)

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except ClickException as exc:
            if not ctx.meta.get(JSON_META):
                raise
            fail(exc.format_message(), exc.exit_code, True, kind="UsageError")


app = typer.Typer(
    name="starebrain",
    help="Drive an Android phone from one instruction; resume after any interruption.",
    epilog="Run starebrain COMMAND -h for a command's options and examples.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
    cls=Group,
    context_settings={"help_option_names": ["-h", "--help"]},
)

for fn in (do_command.do, task_commands.run, task_commands.resume, task_commands.approve, task_commands.deny,
           task_commands.skip, task_commands.retry, task_commands.cancel, read_commands.history,
           read_commands.show, device_commands.doctor, look_command.look,
           tui_command.tui, report_command.report, test_command.test, daemon_command.daemon,
           queue_commands.submit, queue_commands.wait, farm_commands.status):
    examples = EXAMPLES.get(fn.__name__)
    app.command(cls=Command, epilog=f"Examples:\n{examples}" if examples else None)(fn)


def _print_version(value: bool) -> None:
    if value:
        from starebrain import __version__

        print(f"starebrain {__version__}")
        raise typer.Exit(0)


@app.callback()
def _options(version: Annotated[bool, typer.Option(
        "--version", "-V", is_eager=True, callback=_print_version,
        help="Print the version and exit.")] = False) -> None:
    """Drive an Android phone from one instruction; resume after any interruption."""


def _styled(group: typer.Typer, name: str) -> typer.Typer:
    """A sub-group whose commands look like the others: flags without `<bool>`, `-h`, examples."""
    for info in group.registered_commands:
        command = info.name or (info.callback.__name__.replace("_", "-") if info.callback else "")
        examples = EXAMPLES.get(f"{name} {command}")
        info.cls = Command
        info.epilog = f"Examples:\n{examples}" if examples else info.epilog
    return group


def _register_groups() -> None:
    from starebrain.cli import sim as sim_cli

    app.add_typer(_styled(sim_cli.app, "sim"), name="sim", cls=Group)
    app.add_typer(_styled(farm_commands.app, "farm"), name="farm", cls=Group)
    app.add_typer(_styled(device_commands.app, "devices"), name="devices", cls=Group,
                  epilog=f"Examples:\n{EXAMPLES['devices']}")


_register_groups()


def main() -> None:
    """Console-script entry point."""
    app()
