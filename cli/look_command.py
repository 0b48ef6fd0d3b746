"""look: what StareBrain sees on the phone now — the screen's verdict, what would clear it, the planner's summary.

It only reads: the device it connects has a send gate that refuses every action, so nothing on the phone is
tapped, typed or dismissed, and no task or lease is touched. `--save` writes the hierarchy as StareBrain
read it (known secrets replaced by their `{secret:NAME}` references) for a bug report or the labelled corpus.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from starebrain.cli.device_commands import JsonOpt
from starebrain.cli.failures import one_line_errors
from starebrain.cli.task_commands import Serial
from starebrain.errors import BadInput, TaskStateError

if TYPE_CHECKING:
    from starebrain.device.base import Observation
    from starebrain.obstruction.kinds import Obstruction
    from starebrain.snapshot import ScreenSnapshot

SUMMARY_ITEMS = 20  # as many elements as the planner's first look shows


@one_line_errors
def look(device: Serial = None,
         save: Annotated[Path | None, typer.Option("--save", metavar="FILE", help="Also write the hierarchy to "
                                                   "FILE (known secrets replaced; other screen text stays: read "
                                                   "it before you share it).")] = None,
         json_out: JsonOpt = False) -> None:
    """Show what StareBrain sees on the phone now and what it would do about it; never acts on the phone."""
    from starebrain.cli.wiring import EngineFactory
    from starebrain.device.scrubbed import ScrubbedDevice
    from starebrain.device.u2_device import U2Device
    from starebrain.obstruction import detect
    from starebrain.profiles import load_profiles
    from starebrain.snapshot import ScreenSnapshot
    from starebrain.snapshot.opaque import unusable_reason

    if save is not None and (save.is_dir() or not save.parent.is_dir()):
        raise BadInput(f"--save {save}: not a file in an existing directory")
    factory = EngineFactory(json_out=json_out)
    serial = factory.pick_serial(device)
    phone = ScrubbedDevice(U2Device.connect(serial, timeout_s=factory.settings.device_timeout_s,
                                            send_permit=_read_only), factory.scrubber)
    obs = phone.observe()
    snap = ScreenSnapshot.from_xml(obs.hierarchy_xml)
    verdict = detect(snap, load_profiles(factory.settings.profiles_dir).device_profile(phone.brand()))
    if save is not None:
        save.write_text(obs.hierarchy_xml, encoding="utf-8")
    report = _report(serial, obs, snap, verdict, unusable_reason(snap), save)
    print(json.dumps(report, indent=2, ensure_ascii=False) if json_out else _text(report))


def _read_only() -> None:
    """The send gate of `look`'s device: every action is refused before it leaves."""
    raise TaskStateError("`starebrain look` only reads the screen; it never acts on the phone")


def _report(serial: str, obs: Observation, snap: ScreenSnapshot, verdict: Obstruction, opaque: str | None,
            saved: Path | None) -> dict[str, Any]:
    clearance = verdict.clearance
    return {
        "serial": serial, "package": obs.package, "activity": obs.activity, "width": obs.width,
        "height": obs.height, "nodes": len(snap.nodes),
        "screen": {"kind": verdict.kind.value, "detail": verdict.detail, "needs_person": verdict.needs_person,
                   "would_clear": clearance.describe() if clearance else None},
        "no_usable_hierarchy": opaque,
        "summary": snap.summary(max_items=SUMMARY_ITEMS),
        "saved": str(saved) if saved else None,
    }


def _text(r: dict[str, Any]) -> str:
    screen = r["screen"]
    way = screen["would_clear"] or ("nothing to clear" if screen["kind"] == "READY" else "it asks you")
    lines = [f"phone {r['serial']} · {r['package'] or 'no focused app'} · {r['width']}x{r['height']}, "
             f"{r['nodes']} nodes",
             f"screen: {screen['kind']} — {screen['detail']}; StareBrain would: {way}"]
    if r["no_usable_hierarchy"]:
        lines.append(f"no usable hierarchy: {r['no_usable_hierarchy']} (grounding asks a vision model)")
    lines += [f"what the planner sees (at most {SUMMARY_ITEMS} elements):", r["summary"]]
    if r["saved"]:
        lines.append(f"saved the hierarchy to {r['saved']} (known secrets replaced; read it before you share it)")
    return "\n".join(lines)
