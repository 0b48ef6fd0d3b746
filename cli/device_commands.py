"""devices and doctor: what is attached, and whether this machine can drive it."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from typing import Annotated, Any

import typer

from starebrain.cli.device_label_command import label
from starebrain.cli.failures import one_line_errors

JsonOpt = Annotated[bool, typer.Option("--json", help="Machine-readable output.")]
app = typer.Typer(name="devices", pretty_exceptions_enable=False, add_completion=False)
app.command("label")(label)


@app.callback(invoke_without_command=True)
def devices_group(ctx: typer.Context, json_out: JsonOpt = False) -> None:
    """List attached phones (real, emulators and simulated) with their tags; `devices label` tags one."""
    if ctx.invoked_subcommand is None:
        devices(json_out=json_out)


@one_line_errors
def devices(json_out: JsonOpt = False) -> None:
    """List attached phones (real, emulators and simulated) with their tags."""
    from starebrain.cli.wiring import EngineFactory
    from starebrain.device.attached import describe_devices
    from starebrain.store.device_tags import DeviceTags

    with EngineFactory(json_out=json_out) as engine:
        found = describe_devices(timeout_s=engine.settings.device_timeout_s)
        tags = DeviceTags(engine.store).all_tags() if found else {}
    for d in found:
        d["tags"] = tags.get(d["serial"], {})
    if json_out:
        print(json.dumps(found, indent=2))
        return
    if not found:
        print("no phone attached", file=sys.stderr)
        return
    for d in found:
        print(f"{d['serial']}\t{d['state']}\t{d.get('model', '')}\t"
              + " ".join(f"{k}={v}" for k, v in sorted(d["tags"].items())))


@one_line_errors
def doctor(json_out: JsonOpt = False) -> None:
    """Check settings, database, profiles, the LLM endpoint (a real request), adb and phones; exit 2 if not ok."""
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


def _settings_file() -> str:
    """Which TOML settings file was read, or where one would be looked for (environment variables win)."""
    from starebrain.config import CONFIG_VARIABLE, settings_file_path

    path = settings_file_path()  # a STAREBRAIN_CONFIG naming no file fails this check with that sentence
    by = f"named by {CONFIG_VARIABLE}" if os.environ.get(CONFIG_VARIABLE) else "in the user config dir"
    if path.is_file():
        return f"read {path} ({by}); environment variables override its values"
    return f"none read: {path} does not exist ({by}; {CONFIG_VARIABLE}=FILE names another)"


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


def _llm() -> str:
    """Ask the endpoint for its models (or, if it has no such route, for one token) and say what is wrong."""
    import openai

    from starebrain.config import load_settings

    s = load_settings()
    key = s.openai_api_key.get_secret_value() if s.openai_api_key else ""
    where = s.openai_base_url or "https://api.openai.com/v1"
    if not key and not s.openai_base_url:
        raise RuntimeError("no API key: set OPENAI_API_KEY (or OPENAI_BASE_URL to a server that needs none)")
    client = openai.OpenAI(api_key=key or "unused", base_url=s.openai_base_url, max_retries=0,
                           timeout=min(s.llm_timeout_s, 15.0))
    try:
        try:
            offered = [m.id for m in client.models.list()]
        except openai.NotFoundError:  # some compatible servers have no /models: one token instead
            client.chat.completions.create(model=s.model, max_tokens=1,
                                           messages=[{"role": "user", "content": "ping"}])
            return f"{where} answers a 1-token request with model {s.model}"
    except openai.AuthenticationError:
        raise RuntimeError(f"{where} refused the API key (401): check OPENAI_API_KEY") from None
    except openai.PermissionDeniedError:
        raise RuntimeError(f"{where} denied access (403) with this key") from None
    except openai.APITimeoutError:
        raise RuntimeError(f"{where} did not answer within {min(s.llm_timeout_s, 15.0):g} s") from None
    except openai.APIConnectionError as exc:
        raise RuntimeError(f"cannot reach {where}: {exc.__cause__ or exc} (check OPENAI_BASE_URL and the "
                           f"network)") from None
    except openai.APIStatusError as exc:
        raise RuntimeError(f"{where} answered HTTP {exc.status_code}: {exc.message}") from None
    if offered and s.model not in offered:
        raise RuntimeError(f"{where} answers, but does not offer model {s.model} (STAREBRAIN_MODEL); it offers: "
                           f"{', '.join(offered[:8])}")
    return f"{where} answers; model {s.model} is offered"


CHECKS: list[tuple[str, Callable[[], Any]]] = [
    ("settings", _settings), ("settings file", _settings_file), ("database", _database), ("profiles", _profiles),
    ("LLM endpoint", _llm), ("phones", _adb),
]
