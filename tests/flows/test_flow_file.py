"""Flow files: what a person writes, and the one-line errors they get when it is wrong."""

from __future__ import annotations

from pathlib import Path

import pytest

from starebrain.errors import FlowInvalid
from starebrain.flows.flow_file import load_flow, parse_flow
from starebrain.models import OpenApp, Press, Tap, TypeText

GOOD = """
format: starebrain-flow
version: 1
name: demo
instruction: Send a hello
steps:
  - open_app: com.google.android.apps.messaging
  - tap: {text: Dana Whitfield}
    expect: {resource_id: "com.google.android.apps.messaging:id/compose_message_text"}
  - type: {selector: {resource_id: "com.google.android.apps.messaging:id/compose_message_text"}, text: hi}
  - tap: {content_desc: Send}
    irreversible: true
  - press: back
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "flow.yaml"
    path.write_text(text)
    return path


def test_good_flow_parses_into_typed_steps(tmp_path: Path) -> None:
    flow = load_flow(write(tmp_path, GOOD))
    kinds = [type(s.action) for s in flow.steps]
    assert kinds == [OpenApp, Tap, TypeText, Tap, Press]
    assert [s.index for s in flow.steps] == [0, 1, 2, 3, 4]
    assert flow.steps[3].irreversible and not flow.steps[1].irreversible
    # target_package defaults to the last app opened
    assert {s.target_package for s in flow.steps} == {"com.google.android.apps.messaging"}
    assert flow.steps[1].expect is not None
    assert flow.steps[0].instruction == "Open com.google.android.apps.messaging"


def test_typed_text_never_appears_in_derived_instruction(tmp_path: Path) -> None:
    flow = parse_flow({"format": "starebrain-flow", "version": 1,
                       "steps": [{"type": {"text": "hunter2-secret"}}]})
    assert "hunter2" not in flow.steps[0].instruction


@pytest.mark.parametrize("text, words", [
    ("format: starebrain-flow\nversion: 3\nsteps: [{press: back}]", "version 3 is not supported"),
    ("format: other\nversion: 1\nsteps: []", "'format' must be"),
    ("format: starebrain-flow\nversion: 1\nsteps: []", "non-empty list"),
    ("format: starebrain-flow\nversion: 1\nsteps: [{press: sideways}]", "step 1 (press)"),
    ("format: starebrain-flow\nversion: 1\nsteps: [{tap: {}}]", "step 1 (tap)"),
    ("format: starebrain-flow\nversion: 1\nsteps: [{press: back, tap: {text: x}}]", "exactly one action"),
    ("format: starebrain-flow\nversion: 1\nsteps: [{press: back, colour: red}]", "unknown key 'colour'"),
    ("format: starebrain-flow\nversion: 1\nsteps: [{press: back}\n", "not valid YAML"),
    ("- just\n- a list\n", "a flow is a mapping"),
])
def test_bad_flows_give_one_clear_line(tmp_path: Path, text: str, words: str) -> None:
    with pytest.raises(FlowInvalid) as err:
        load_flow(write(tmp_path, text))
    message = str(err.value)
    assert words in message
    assert "\n" not in message
    assert str(tmp_path / "flow.yaml") in message


def test_missing_file_is_bad_input(tmp_path: Path) -> None:
    with pytest.raises(FlowInvalid, match="cannot read"):
        load_flow(tmp_path / "nope.yaml")


def test_open_app_fresh_in_the_mapping_form() -> None:
    flow = parse_flow({"format": "starebrain-flow", "version": 1,
                       "steps": [{"open_app": {"package": "com.android.settings", "fresh": True}},
                                 {"open_app": "com.android.settings"}]})
    assert [s.action.fresh for s in flow.steps] == [True, False]  # type: ignore[union-attr]
