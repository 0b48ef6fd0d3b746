"""devices and doctor: what is attached, and whether this machine can drive it."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Annotated, Any

import typer

from starebrain.cli.failures import one_line_errors

JsonOpt = Annotated[bool, typer.Option("--json", help="Machine-readable output.")]


@one_line_errors
def devices(json_out: JsonOpt = False) -> None:
    """List attached phones (real, emulators and simulated)."""
    from starebrain.config import load_settings
    from starebrain.device.attached import describe_devices

    found = describe_devices(timeout_s=load_settings().device_timeout_s)
    if json_out:
        print(json.dumps(found, indent=2))
        return
    if not found:
        print("no phone attached", file=sys.stderr)
        return
    for d in found:
        print(f"{d['serial']}\t{d['state']}\t{d.get('model', '')}")


@one_line_errors
def doctor(json_out: JsonOpt = False) -> None:
    """Check settings, database, profiles, adb and attached phones; exit 2 if something is wrong."""
    results = [_check(name, fn) for name, fn in CHECKS]
    if json_out:
        print(json.dumps([{"check": n, "ok": ok, "detail": d} for n, ok, d in results], indent=2))
    else:
        for name, ok, detail in results:
            print(f"{'ok  ' if ok else 'FAIL'} {name}: {detail}")
    raise typer.Exit(0 if all(ok for _, ok, _ in results) else 2)


def _check(name: str, fn: Callable[[], str]) -> tuple[str, bool, str]:
    try:
        return name, True, fn()
    except Exception as exc:  # doctor reports every failure as a line, whatever it is
        return name, False, str(exc).splitlines()[0] if str(exc) else type(exc).__name__


def _settings() -> str:
    from starebrain.config import load_settings

    s = load_settings()
    return f"data dir {s.data_dir}, model {s.model}, endpoint {s.openai_base_url or 'default'}"


def _database() -> str:
    from starebrain.config import load_settings
    from starebrain.store import Store

    s = load_settings()
    store = Store.open(settings=s)
    try:
        return f"{s.db_path} ({len(store.list_tasks(limit=1000))} recent tasks)"
    finally:
        store.close()


def _profiles() -> str:
    from starebrain.config import load_settings
    from starebrain.profiles import load_profiles

    profiles = load_profiles(load_settings().profiles_dir)
    return f"{len(profiles.categories.categories)} app categories, {len(profiles.categories.packages)} known apps"


def _adb() -> str:
    from starebrain.config import load_settings
    from starebrain.device.attached import describe_devices

    found = describe_devices(timeout_s=load_settings().device_timeout_s)
    usable = [d["serial"] for d in found if d["state"] == "device"]
    if not usable:
        raise RuntimeError("adb server reachable, but no phone in state 'device'")
    return f"{len(usable)} phone(s): {', '.join(usable)}"


CHECKS: list[tuple[str, Callable[[], Any]]] = [
    ("settings", _settings), ("database", _database), ("profiles", _profiles), ("phones", _adb),
]
