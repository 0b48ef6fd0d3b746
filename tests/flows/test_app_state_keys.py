"""The native flow keys `stop_app` and `clear_state`: a package (short form or mapping), the step's app is the
one it names, and a bad package is one line naming the step."""

from __future__ import annotations

from pathlib import Path

import pytest

from starebrain.errors import FlowInvalid
from starebrain.flows.flow_file import load_flow
from starebrain.models import ClearState, OpenApp, StopApp

KEEP = "com.google.android.keep"


def _flow(tmp_path: Path, steps: str, version: int = 2) -> Path:
    path = tmp_path / "flow.yaml"
    path.write_text(f"format: starebrain-flow\nversion: {version}\nname: reset\nsteps:\n{steps}")
    return path


@pytest.mark.parametrize("version", [1, 2])
def test_both_keys_make_their_steps(tmp_path: Path, version: int) -> None:
    flow = load_flow(_flow(tmp_path, f"  - open_app: {KEEP}\n  - stop_app: {KEEP}\n"
                                     f"  - clear_state: {{package: com.google.android.gm}}\n", version))
    assert [s.action for s in flow.steps] == [OpenApp(package=KEEP), StopApp(package=KEEP),
                                              ClearState(package="com.google.android.gm")]
    assert [s.instruction for s in flow.steps][1:] == [f"Stop {KEEP}", "Clear the data of com.google.android.gm"]
    assert flow.steps[2].target_package == "com.google.android.gm"


def test_a_bad_package_is_one_line_naming_the_step(tmp_path: Path) -> None:
    with pytest.raises(FlowInvalid, match=r"step 1 \(clear_state\): package: .*is not an Android package name"):
        load_flow(_flow(tmp_path, "  - clear_state: keep\n"))
    with pytest.raises(FlowInvalid, match=r"step 1 \(stop_app\)"):
        load_flow(_flow(tmp_path, "  - stop_app: {package: com.a.b, fresh: true}\n"))
