"""`starebrain daemon`: the host service (see starebrain/daemon).

It tracks the phones of this host's adb server as they come and go (track-devices events), runs one
worker thread per phone: a phone whose newest unfinished task is IN_PROGRESS (the process was
killed, or the phone was unplugged and is back) gets that task resumed from its cursor — an
approval the person already committed is honoured; a PAUSED task from a foreground command (Ctrl-C)
waits for `starebrain resume`; a task that waits for the person is announced once with the commands
to answer it; otherwise the worker claims the next queued task for its phone (`starebrain submit`).
Confirmation only comes from the person: the daemon never approves anything. Like every command, a
worker takes the phone's lease first and reads the task after. SIGTERM: each task pauses at its next
step boundary (resumable by the next daemon), leases are released, exit 0.
"""

from __future__ import annotations

import signal
import socket
from pathlib import Path
from typing import Annotated, Any

import typer

from starebrain.cli.failures import one_line_errors
from starebrain.cli.wiring import EngineFactory


@one_line_errors
def daemon(
    interval: Annotated[float, typer.Option(min=0.05, max=3600, help="Idle seconds between queue looks.")] = 1.0,
    host_name: Annotated[str | None, typer.Option(help="This host's name in the farm (default: the hostname).")] = None,
    label: Annotated[list[str] | None, typer.Option(help="key=value on every phone here (repeatable).")] = None,
    heartbeat: Annotated[float, typer.Option(min=0.1, max=600, help="Seconds between heartbeats.")] = 2.0,
    dead_after: Annotated[float, typer.Option(min=1, max=3600, help="A host silent this long is dead.")] = 15.0,
    install_service: Annotated[bool, typer.Option(
        "--install-service", help="Write a systemd user unit running this daemon, then exit.")] = False,
    unit_dir: Annotated[Path, typer.Option(help="Where --install-service writes the unit.")] = Path(
        "~/.config/systemd/user"),
) -> None:
    """Run this host's phones: resume interrupted tasks, run queued ones, one worker per phone."""
    from starebrain.daemon import Daemon, DaemonOptions
    from starebrain.store.farm import parse_labels

    labels = parse_labels(label or [])
    if install_service:
        _install(unit_dir, host_name, label or [], interval)
        return
    with EngineFactory(json_out=True) as engine:
        options = DaemonOptions(host=host_name or socket.gethostname(), poll_s=interval, heartbeat_s=heartbeat,
                                dead_after_s=dead_after, labels=tuple(labels.items()))
        service = Daemon(engine.store, engine.settings, options, _opener(engine), _lease_holder(engine),
                         _hint)
        stop = lambda *_: service.stop()  # noqa: E731
        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        service.run()


def _opener(engine: EngineFactory) -> Any:
    """Sessions without the live view (workers run side by side); a do-task gets a lazy planner
    (built from the daemon's settings, secrets scrubbed as in `do`)."""
    from starebrain.engine import build_engine, planner_for
    from starebrain.events import EventBus

    def open_for(serial: str, task: Any, keeper: Any, store: Any) -> Any:
        planner = planner_for(engine.settings, task, serial, secrets=engine.scrubber)  # plans queued do-tasks too
        return build_engine(engine.settings, store, serial, planner=planner,
                            events=EventBus(), keeper=keeper, secrets=engine.secrets, scrubber=engine.scrubber)

    return open_for


def _lease_holder(engine: EngineFactory) -> Any:
    from starebrain.session import hold_lease

    return lambda serial: hold_lease(engine.settings, engine.store, serial)


def _hint(task: Any) -> str:
    from starebrain.cli.outcome import answer_hint

    return answer_hint(task)


def _install(unit_dir: Path, host_name: str | None, labels: list[str], interval: float) -> None:
    from starebrain.daemon.unit import UNIT_NAME, install

    args = ["--interval", f"{interval:g}", *(["--host-name", host_name] if host_name else []),
            *[a for pair in labels for a in ("--label", pair)]]
    path = install(unit_dir.expanduser(), args)
    print(f"wrote {path}")
    print(f"next: systemctl --user daemon-reload && systemctl --user enable --now {UNIT_NAME}")
    print("farm: put STAREBRAIN_DB=postgresql+psycopg://... in ~/.config/starebrain/daemon.env (chmod 600)")
