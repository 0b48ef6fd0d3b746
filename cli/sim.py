"""`starebrain sim`: run a simulated phone, read its state, list its scenarios."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

app = typer.Typer(help="The simulated Android phone (driven through the real adb server).", no_args_is_help=True)


@app.command()
def start(
    port: Annotated[int, typer.Option(help="TCP port to listen on (0: a free one).")] = 0,
    serial: Annotated[str | None, typer.Option(help="emulator-N (listens on N+1) or 127.0.0.1:PORT.")] = None,
    scenario: Annotated[str, typer.Option(help="World scenario (see `starebrain sim scenarios`).")] = "default",
    seed: Annotated[int, typer.Option(help="Seed of the world's data.")] = 0,
    state_dir: Annotated[Path | None, typer.Option(help="Keep files and world state here.")] = None,
    timing: Annotated[str, typer.Option(help="fast | real-phone")] = "fast",
    locale: Annotated[str, typer.Option(help="Language of app labels and dialogs: en, de, es, ru, zh.")] = "en",
    adb_port: Annotated[int, typer.Option(envvar="ANDROID_ADB_SERVER_PORT", help="adb server port.")] = 5037,
    android: Annotated[int, typer.Option(help="Android release whose formats it speaks: 13, 14 or 15.")] = 14,
    ready_json: Annotated[bool, typer.Option(hidden=True)] = False,
) -> None:
    """Run a sim in the foreground, registered with the adb server (started if none runs)."""
    import asyncio
    import subprocess

    from starebrain.sim.foreground import ForegroundOptions, ensure_adb_server, port_for_serial, run_foreground
    from starebrain.sim.harness import SimConfig

    if timing not in ("fast", "real-phone"):
        raise typer.BadParameter("--timing must be fast or real-phone")
    if android not in (13, 14, 15):
        raise typer.BadParameter("--android must be 13, 14 or 15")
    from starebrain.sim.world.locale import locales

    if locale not in ("en", *locales()):
        raise typer.BadParameter(f"--locale must be one of en, {', '.join(locales())}")
    config = SimConfig(scenario=scenario, seed=seed, timing=timing, state_dir=state_dir, android=android,
                       locale=locale)
    options = ForegroundOptions(port=port, serial=serial, adb_port=adb_port, ready_json=ready_json, config=config)
    try:
        port_for_serial(serial, port)  # a bad --serial fails before any adb server is started
        ensure_adb_server(adb_port)
        asyncio.run(run_foreground(options))
    except (OSError, ValueError, subprocess.SubprocessError) as exc:  # port taken, bad --serial, adb failed
        typer.echo(f"starebrain sim start: {exc}", err=True)
        raise typer.Exit(2) from exc


@app.command()
def state(
    serial: Annotated[str | None, typer.Option(help="Serial of a running sim.")] = None,
    state_dir: Annotated[Path | None, typer.Option(help="State dir of a sim (running or not).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    adb_port: Annotated[int, typer.Option(envvar="ANDROID_ADB_SERVER_PORT", help="adb server port.")] = 5037,
) -> None:
    """Print a sim's world state: every side effect with its count, and app data."""
    from starebrain.sim.state_reader import read_sim_state

    data = read_sim_state(serial, state_dir, adb_port)
    if data is None:
        typer.echo("no state found (give --serial of a running sim or an existing --state-dir)", err=True)
        raise typer.Exit(4)
    if as_json:
        typer.echo(json.dumps(data, indent=2, sort_keys=True, default=str))
        return
    for key, value in sorted(data.items()):
        typer.echo(f"{key}: {json.dumps(value, default=str)}")


@app.command()
def scenarios() -> None:
    """List the world's scenarios (combine them with `+`)."""
    from starebrain.sim.world import scenario_names

    for name in scenario_names():
        typer.echo(name)
