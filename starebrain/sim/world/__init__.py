"""The app world of the simulated phone: `build_phone()` gives a `SimPhone` for a named scenario."""

from __future__ import annotations

import copy
import pathlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from starebrain.sim.phone import SimPhone
    from starebrain.sim.world.world_phone import WorldPhone

__all__ = ["build_phone", "scenario_names", "read_state"]

DEFAULT_DISPLAY = (1080, 2400)


def _props(serial: str) -> dict[str, str]:
    return {
        "ro.serialno": serial, "ro.product.model": "StareBrain Sim", "ro.product.brand": "starebrain",
        "ro.product.name": "starebrain_sim", "ro.product.device": "sim", "ro.product.manufacturer": "StareBrain",
        "ro.build.version.sdk": "34", "ro.build.version.release": "14", "ro.product.cpu.abi": "arm64-v8a",
        "ro.build.characteristics": "default", "ro.debuggable": "1", "sys.boot_completed": "1",
        "ro.build.fingerprint": "starebrain/sim/sim:14/SB1A.260101.001/1:user/release-keys",
    }


def build_phone(scenario: str = "default", seed: int = 0, serial: str = "",
                state_dir: pathlib.Path | None = None, timing: str = "fast", locale: str = "") -> WorldPhone:
    """A simulated phone in a scenario's initial state (state reloaded from `state_dir` if present).

    `locale` (or a scenario's `locale:`) shows labels in another language; apps with `preinstalled: false`
    are there only when a scenario lists them in `install:`.
    """
    from starebrain.sim.world.locale import localize
    from starebrain.sim.world.resources import app_specs, dialog_specs
    from starebrain.sim.world.scenario import initial_data, load_scenario, patch_apps
    from starebrain.sim.world.state import WorldState
    from starebrain.sim.world.timing import timing_profile
    from starebrain.sim.world.world_phone import WorldPhone

    spec = load_scenario(scenario)
    apps = {pkg: copy.deepcopy(app) for pkg, app in app_specs().items()
            if app.get("preinstalled", True) or pkg in spec.get("install", [])}
    if spec.get("recorded_apps"):  # apps made of real recorded screens (world/recorded_screens.py)
        from starebrain.sim.world.recorded_screens import recorded_app_specs

        apps.update(copy.deepcopy(recorded_app_specs(spec["recorded_apps"])))
    patch_apps(apps, spec.get("patch_apps", {}))
    dialogs = copy.deepcopy(dialog_specs())
    for specs in (apps, dialogs):
        localize(specs, locale or spec.get("locale", ""))
    world = WorldState(initial_data(apps, spec, seed), pathlib.Path(state_dir) if state_dir else None)
    world.load()
    serial = serial or "starebrain-sim"
    phone = WorldPhone(apps, dialogs, world, serial=serial, timing=timing_profile(timing),
                       display=tuple(spec.get("display", DEFAULT_DISPLAY)), props=_props(serial))
    for name, value in spec.get("faults", {}).items():
        setattr(phone.faults, name, value)
    for note in spec.get("notifications", []):
        phone.notify({**note, "heads_up": note.get("heads_up", False)})
    for trigger in spec.get("triggers", []):
        if not _already_opened(trigger, world.opened):
            phone.arm(trigger)
    if spec.get("start"):
        phone.start_app(spec["start"])
    return phone


def _already_opened(trigger: dict[str, object], opened: set[str]) -> bool:
    """A one-shot "first open" trigger is spent if a persisted state says the app was opened before."""
    when = str(trigger.get("when", ""))
    return trigger.get("times", 1) == 1 and when.startswith("open ") and when[5:] in opened


def scenario_names() -> list[str]:
    """Names of every scenario (they combine with `+`)."""
    from starebrain.sim.world.scenario import scenario_names as names

    return names()


def read_state(state_dir: pathlib.Path) -> dict[str, object] | None:
    """The persisted world state in `state_dir` (for `starebrain sim state --state-dir`)."""
    from starebrain.sim.world.state import read_state as read

    return read(state_dir)


def _conforms(phone: WorldPhone) -> SimPhone:
    """Static check (mypy) that WorldPhone implements the wire side's contract."""
    return phone
