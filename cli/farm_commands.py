"""`starebrain status` (this host) and `starebrain farm status` (every host): daemons, phones, queue."""

from __future__ import annotations

import json
import socket
from typing import Annotated, Any

import typer

from starebrain.cli.failures import one_line_errors
from starebrain.cli.farm_test_command import farm_test
from starebrain.cli.wiring import EngineFactory

app = typer.Typer(name="farm", help="The farm: hosts sharing one PostgreSQL store.", no_args_is_help=True,
                  pretty_exceptions_enable=False, add_completion=False)
JsonOpt = Annotated[bool, typer.Option("--json", help="Print as JSON.")]
app.command("test")(farm_test)


@one_line_errors
def status(host_name: Annotated[str | None, typer.Option(help="This host's name (default: the hostname).")] = None,
           json_out: JsonOpt = False) -> None:
    """Is this host's daemon up, its phones, what each is doing, and the queue."""
    _show(host_name or socket.gethostname(), json_out)


@app.command("status")
@one_line_errors
def farm_status(json_out: JsonOpt = False) -> None:
    """Every host (alive, stopped or dead), every phone, queue depth and running tasks."""
    _show(None, json_out)


def _show(host: str | None, json_out: bool) -> None:
    from starebrain.store.farm import FarmStore

    with EngineFactory(json_out=True) as engine:
        view = FarmStore(engine.store).view(host)
    if json_out:
        print(json.dumps({"hosts": view.hosts, "devices": view.devices, "queued": view.queued,
                          "running": view.running}, default=str, indent=2))
        return
    if host is not None and not view.hosts:
        print(f"no daemon has run on {host} (start one: starebrain daemon)")
    for h in view.hosts:
        print(f"host {h['name']}: daemon {h['state']} (pid {h['pid']}, heartbeat {h['heartbeat_age_s']}s ago)")
    doing = {r["device_serial"]: r for r in view.running}
    for d in view.devices:
        print(f"  {d['serial']} on {d['host']}: {'present' if d['present'] else 'absent'}"
              f"{_labels(d['labels'])}  {_doing(doing.get(d['serial']))}")
    print(f"queue: {view.queued} waiting, {len(view.running)} claimed")


def _labels(labels: dict[str, Any]) -> str:
    shown = " ".join(f"{k}={v}" for k, v in sorted(labels.items()) if v and k != "host")
    return f" [{shown}]" if shown else ""


def _doing(run: dict[str, Any] | None) -> str:
    if run is None:
        return "idle"
    return f"task {run['id']} {str(run['status']).lower()} at step {int(run['cursor']) + 1}"
