"""`starebrain test`: flow files as a regression suite on one or many phones; JUnit and HTML for CI."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from starebrain.cli.failures import one_line_errors
from starebrain.cli.wiring import EngineFactory


@one_line_errors
def test(
    paths: Annotated[list[Path], typer.Argument(help="Flow files or folders (a folder = all its *.yaml flows).")],
    device: Annotated[list[str] | None, typer.Option(
        "--device", "-s", help="A phone to use (repeatable). Default: every attached phone.")] = None,
    parallel: Annotated[int | None, typer.Option(
        min=1, help="Phones driven at once, one worker each (default: all selected phones).")] = None,
    junit: Annotated[Path | None, typer.Option(help="Write JUnit XML here.")] = None,
    html: Annotated[Path | None, typer.Option(help="Write index.html and one report per run into this folder.")] = None,
    retries: Annotated[int, typer.Option(
        min=0, max=10, help="Run a failed flow again up to N times (a pass on a retry is reported as flaky).")] = 0,
    approve_irreversible: Annotated[bool, typer.Option(
        "--approve-irreversible", help="I approve every step that needs confirmation in this run "
                                       "(recorded as cli:--approve-irreversible). Without it such steps "
                                       "are not run, their flow fails, and flows tagged 'irreversible' "
                                       "are left out.")] = False,
    farm: Annotated[bool, typer.Option("--farm", help="Queue the suite for the farm's daemons instead "
                                                      "(`starebrain farm test` has its options).")] = False,
    env: Annotated[list[str] | None, typer.Option(
        "--env", "-e", help="NAME=VALUE for ${NAME} in the flows (repeatable; overrides their env:).")] = None,
    include_tags: Annotated[list[str] | None, typer.Option(
        "--include-tags", help="Run only flows with one of these tags (comma-separated, repeatable).")] = None,
    exclude_tags: Annotated[list[str] | None, typer.Option(
        "--exclude-tags", help="Leave out flows with any of these tags (comma-separated, repeatable).")] = None,
    resume: Annotated[bool, typer.Option(
        "--resume", help="Continue an interrupted run: a flow whose newest task completed is not run "
                         "again, an unfinished one continues on its phone (no confirmed step is repeated), "
                         "the others start.")] = False,
) -> None:
    """Run flows (StareBrain or Maestro files) as a regression suite; exit 0 only if every flow passed.

    Examples: `starebrain test flows/ --junit out/junit.xml`,
    `starebrain test flows/ -e USER=dana --include-tags smoke`, `starebrain test flows/ --resume`.
    """
    if farm:
        from starebrain.cli.farm_test_command import farm_test

        return farm_test(paths, junit=junit)
    from rich.console import Console

    from starebrain.flows import IRREVERSIBLE_TAG, SIM_SECRETS
    from starebrain.flows.variables import parse_assignments
    from starebrain.regression import SuiteOptions, SuiteRunner, discover_flows
    from starebrain.regression.console import print_summary, progress_line
    from starebrain.regression.discovery import select_by_tags

    console = Console(highlight=False)
    excluded = _words(exclude_tags) + ([] if approve_irreversible else [IRREVERSIBLE_TAG])
    variables = parse_assignments(env or [])
    specs, left_out = select_by_tags(discover_flows(paths, variables), _words(include_tags), excluded)
    if left_out:
        console.print(f"left out by tags: {', '.join(s.name for s in left_out)}"
                      + ("" if approve_irreversible else
                         f" (flows tagged '{IRREVERSIBLE_TAG}' run only with --approve-irreversible)"))
    if not specs:
        console.print("no flow left to run")
        raise typer.Exit(0)
    with EngineFactory(json_out=True) as engine:
        serials = _serials(engine, device)[: parallel or None]
        console.print(f"running {len(specs)} flow(s) on {', '.join(serials)}")
        options = SuiteOptions(approve_irreversible=approve_irreversible, retries=retries, resume=resume,
                               sim_secrets=SIM_SECRETS, env=variables)
        runner = SuiteRunner(_opener(engine), engine.store, options,
                             on_result=lambda flow: console.print(progress_line(flow)))
        suite = runner.run(specs, serials)
        _write_outputs(suite, engine.store, junit, html, console)
    print_summary(suite, console)
    raise typer.Exit(0 if suite.ok else 1)


def _words(values: list[str] | None) -> list[str]:
    return [w.strip() for v in values or [] for w in v.split(",") if w.strip()]


def _serials(engine: EngineFactory, wanted: list[str] | None) -> list[str]:
    from starebrain.device.attached import list_serials
    from starebrain.errors import DeviceNotFound

    attached = list_serials(timeout_s=engine.settings.device_timeout_s)
    chosen = list(dict.fromkeys(wanted)) if wanted else attached
    missing = [s for s in chosen if s not in attached]
    if missing or not chosen:
        shown = ", ".join(attached) or "none"
        raise DeviceNotFound(f"no phone {missing[0]!r} attached (attached: {shown})" if missing
                             else "no phone attached (check `starebrain devices`)")
    return chosen


def _opener(engine: EngineFactory) -> Any:
    """Sessions without the live view: parallel workers would interleave its lines."""
    from starebrain.engine import build_engine
    from starebrain.events import EventBus

    return lambda serial: build_engine(engine.settings, engine.store, serial, events=EventBus(),
                                       secrets=engine.secrets, scrubber=engine.scrubber)


def _write_outputs(suite: Any, store: Any, junit: Path | None, html: Path | None, console: Any) -> None:
    if junit is not None:
        from starebrain.report.junit import write_junit

        write_junit(suite, junit)
        console.print(f"JUnit: {junit}")
    if html is not None:
        from starebrain.report.suite_html import write_suite_html

        console.print(f"HTML: {write_suite_html(suite, store, html)}")
