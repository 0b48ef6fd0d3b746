"""Flow format v2: what is expanded when the file is read, what is left for the phone, and the errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from starebrain.errors import BadInput, FlowInvalid
from starebrain.flows.flow_file import load_flow
from starebrain.flows.program import Check, Do, RepeatWhile, Retry, When
from starebrain.flows.variables import parse_assignments
from starebrain.models import OpenApp, OpenLink, Press, Selector, Tap, TypeText, WaitFor

HEAD = "format: starebrain-flow\nversion: 2\n"


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text)
    return path


def test_sub_flows_with_parameters_repeat_hooks_and_env_expand_into_one_step_list(tmp_path: Path) -> None:
    write(tmp_path, "open.yaml", HEAD + "env: {WHO: Nobody}\nsteps:\n"
          "  - open_app: com.google.android.apps.messaging\n"
          "  - tap: {text: '${WHO}'}\n    label: Open ${WHO}\n")
    main = write(tmp_path, "main.yaml", HEAD + """name: reply
tags: [messages, smoke]
env: {WHO: Mom, TEXT: hello}
on_start: [{press: home}]
steps:
  - run_flow: {file: open.yaml, params: {WHO: "${WHO}"}}
  - type: {text: "${TEXT}"}
  - repeat: {times: 2, steps: [{swipe: up}]}
  - assert_visible: {text: "${TEXT}", timeout_s: 2}
  - press: back
    when: {env: {WHO: Mom}}
  - press: home
    when: {env: {WHO: Dad}}
""")
    flow = load_flow(main, {"TEXT": "see you"})
    assert not flow.dynamic and flow.tags == ("messages", "smoke")
    kinds = [type(s.action) for s in flow.steps]
    assert kinds == [Press, OpenApp, Tap, TypeText, type(flow.steps[4].action), type(flow.steps[4].action),
                     WaitFor, Press]
    assert flow.steps[2].instruction == "Open Mom" and flow.steps[2].action.selector.text == "Mom"  # type: ignore[union-attr]
    assert flow.steps[3].action.text == "see you"  # type: ignore[union-attr]  (-e beats the file's env)
    assert flow.steps[6].action.timeout_s == 2  # type: ignore[union-attr]
    assert [s.index for s in flow.steps] == list(range(8))
    assert len({s.id for s in flow.steps}) == 8  # repeated steps are distinct steps
    assert flow.steps[2].target_package == "com.google.android.apps.messaging"


def test_screen_conditions_optional_retry_and_while_are_left_for_the_phone(tmp_path: Path) -> None:
    flow = load_flow(write(tmp_path, "f.yaml", HEAD + """steps:
  - open_app: com.android.settings
  - tap: {text: Later}
    optional: true
  - tap: {text: Wi-Fi}
    when: {visible: Wi-Fi}
  - retry: {max: 2, steps: [{tap: {text: About phone}}]}
  - repeat: {while: {not_visible: About phone}, max: 4, steps: [{swipe: up}]}
  - assert_not_visible: {text: Error}
"""))
    assert flow.dynamic and flow.steps == []
    do, optional, when, retry, loop, check = flow.program
    assert isinstance(do, Do) and isinstance(optional, Do) and optional.optional
    assert isinstance(when, When) and when.cond.visible is not None and when.cond.visible.text == "Wi-Fi"
    assert isinstance(retry, Retry) and retry.max_retries == 2
    assert isinstance(loop, RepeatWhile) and loop.max_times == 4
    assert isinstance(check, Check) and check.cond.not_visible is not None


def test_secrets_are_listed_so_they_are_checked_before_the_first_step(tmp_path: Path) -> None:
    flow = load_flow(write(tmp_path, "f.yaml", HEAD + "steps:\n  - type: {text: '{secret:bank_password}'}\n"
                           "  - retry: {steps: [{type: {text: '{secret:pin}'}}]}\n"))
    assert flow.secrets == ("bank_password", "pin")


@pytest.mark.parametrize("steps, words", [
    ("  - tap: {text: '${NOPE}'}\n", "variable NOPE is not set"),
    ("  - tap: {text: '${a + b}'}\n", "is not a variable name"),
    ("  - run_flow: {file: missing.yaml}\n", "cannot read flow file"),
    ("  - run_flow: {file: self.yaml}\n", "sub-flow cycle"),
    ("  - repeat: {times: many, steps: [{press: back}]}\n", "repeat times must be a whole number"),
    ("  - retry: {max: 99, steps: [{press: back}]}\n", "retry max must be between 0 and 10"),
    ("  - press: back\n    when: {colour: red}\n", "a condition is visible"),
    ("  - press: back\n    label: x\n    shout: yes\n", "unknown key 'shout'"),
])
def test_bad_v2_flows_give_one_clear_line(tmp_path: Path, steps: str, words: str) -> None:
    path = write(tmp_path, "self.yaml", HEAD + "steps:\n" + steps)
    with pytest.raises(FlowInvalid) as err:
        load_flow(path)
    assert words in str(err.value) and "\n" not in str(err.value)
    assert str(path) in str(err.value)


def test_v1_keeps_its_rules(tmp_path: Path) -> None:
    with pytest.raises(FlowInvalid, match="unknown key 'label'"):
        load_flow(write(tmp_path, "f.yaml", "format: starebrain-flow\nversion: 1\n"
                                            "steps: [{press: back, label: x}]\n"))


def test_command_line_assignments() -> None:
    assert parse_assignments(["A=1", "B=x=y", "C="]) == {"A": "1", "B": "x=y", "C": ""}
    with pytest.raises(BadInput, match="expected NAME=VALUE"):
        parse_assignments(["oops"])


def test_open_link_and_point_taps_in_a_starebrain_flow(tmp_path: Path) -> None:
    flow = load_flow(write(tmp_path, "f.yaml", HEAD + """steps:
  - open_link: https://example.com/
  - open_link: {url: "mailto:dana@whitfield.example", package: com.google.android.gm}
  - tap: {point: "50%,50%"}
"""))
    first, second, third = flow.steps
    assert first.action == OpenLink(url="https://example.com/") and first.target_package is None
    assert second.target_package == "com.google.android.gm"  # the guard judges the app the link opens in
    assert third.action == Tap(selector=Selector(point="50%,50%"))
