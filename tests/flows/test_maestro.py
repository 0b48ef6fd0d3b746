"""Maestro flow files: each supported command's StareBrain step, and one line for what is not supported."""

from __future__ import annotations

from pathlib import Path

import pytest

from starebrain.errors import FlowInvalid
from starebrain.flows import examples_dir
from starebrain.flows.flow_file import load_flow
from starebrain.flows.program import Check, Do, Finally, RepeatWhile, Retry, When
from starebrain.models import (
    ClearState,
    LongPress,
    OpenApp,
    OpenLink,
    Press,
    ScrollTo,
    Selector,
    StopApp,
    Swipe,
    Tap,
    TypeText,
    WaitFor,
)
from starebrain.regression.discovery import discover_flows

APP = "com.example.app"


def flow_of(tmp_path: Path, commands: str, header: str = "") -> Path:
    path = tmp_path / "flow.yaml"
    path.write_text(f"appId: {APP}\n{header}---\n{commands}")
    return path


def test_the_plain_commands_map_onto_engine_steps(tmp_path: Path) -> None:
    flow = load_flow(flow_of(tmp_path, """\
- launchApp
- tapOn: Sign in
- tapOn:
    id: password
- inputText: secret words
- longPressOn:
    text: Item
    index: 1
- eraseText
- scroll
- scrollUntilVisible:
    element:
      id: footer
- swipe:
    direction: LEFT
- back
- hideKeyboard
- pressKey: Enter
- assertVisible: Welcome
- extendedWaitUntil:
    visible: Done
    timeout: 3000
- launchApp:
    appId: com.other
    stopApp: false
"""))
    assert flow.dialect == "maestro" and not flow.dynamic
    actions = [s.action for s in flow.steps]
    assert actions[0] == OpenApp(package=APP, fresh=True)
    assert isinstance(actions[1], Tap) and actions[1].selector.text == "Sign in"
    typed = actions[2]  # tapOn a field then inputText: one type step into that field
    assert isinstance(typed, TypeText) and typed.text == "secret words"
    assert typed.selector is not None and typed.selector.resource_id == f"{APP}:id/password"
    assert isinstance(actions[3], LongPress) and actions[3].selector.index == 1
    assert actions[4] == TypeText(text="")
    assert actions[5] == Swipe(direction="up")
    assert isinstance(actions[6], ScrollTo) and actions[6].selector.resource_id == f"{APP}:id/footer"
    assert actions[7] == Swipe(direction="left")
    assert [a.key for a in actions[8:11]] == ["back", "back", "enter"]  # type: ignore[union-attr]
    assert isinstance(actions[11], WaitFor) and actions[11].selector.text == "Welcome"
    assert actions[12] == WaitFor(selector=actions[12].selector, timeout_s=3.0)  # type: ignore[union-attr]
    assert actions[13] == OpenApp(package="com.other", fresh=False)
    assert flow.steps[9].instruction == "Hide the keyboard"


def test_stop_app_and_clear_state_are_steps_anywhere_in_a_flow(tmp_path: Path) -> None:
    flow = load_flow(flow_of(tmp_path, "- launchApp\n- stopApp\n- back\n- clearState: com.other\n"
                                       "- stopApp:\n    appId: com.third\n- clearState\n- launchApp\n"))
    assert [s.action for s in flow.steps] == [
        OpenApp(package=APP, fresh=True), StopApp(package=APP), Press(key="back"), ClearState(package="com.other"),
        StopApp(package="com.third"), ClearState(package=APP), OpenApp(package=APP, fresh=True)]
    assert [s.instruction for s in flow.steps][3:6] == ["Clear the data of com.other", "Stop com.third",
                                                         f"Clear the data of {APP}"]
    assert flow.steps[3].target_package == "com.other"  # the guard judges the app whose data goes


def test_launch_app_with_clear_state_clears_the_data_then_opens_the_app(tmp_path: Path) -> None:
    flow = load_flow(flow_of(tmp_path, "- launchApp:\n    appId: com.other\n    clearState: true\n"
                                       "    label: Fresh start\n    optional: true\n- launchApp:\n"
                                       "    stopApp: false\n"))
    nodes = [n for n in flow.program if isinstance(n, Do)]
    assert [n.step.action for n in nodes] == [ClearState(package="com.other"), OpenApp(package="com.other", fresh=True),
                                              OpenApp(package=APP, fresh=False)]
    assert nodes[1].step.instruction == "Fresh start"
    assert [n.optional for n in nodes] == [True, True, False]


def test_stop_app_and_clear_state_refuse_bad_arguments(tmp_path: Path) -> None:
    with pytest.raises(FlowInvalid, match=r"flow.yaml:3: stopApp option 'keepData' is not supported"):
        load_flow(flow_of(tmp_path, "- stopApp:\n    keepData: true\n"))
    with pytest.raises(FlowInvalid, match=r"clear_state\): package: .*'not a package'.* is not an Android package"):
        load_flow(flow_of(tmp_path, "- clearState: not a package\n"))
    with pytest.raises(FlowInvalid, match=r"flow.yaml:3: Maestro command 'killApp' is not supported"):
        load_flow(flow_of(tmp_path, "- killApp\n"))


def test_a_tap_checked_by_the_next_assertion_expects_that_screen(tmp_path: Path) -> None:
    flow = load_flow(flow_of(tmp_path, "- tapOn: Send\n- assertVisible:\n    id: sent\n"))
    assert flow.steps[0].expect is not None and flow.steps[0].expect.resource_id == f"{APP}:id/sent"


def test_control_flow_hooks_env_and_labels(tmp_path: Path) -> None:
    (tmp_path / "sub.yaml").write_text(f"appId: {APP}\nenv:\n  WHO: nobody\n---\n- tapOn: ${{WHO}}\n")
    path = flow_of(tmp_path, """\
- runFlow:
    file: sub.yaml
    env:
      WHO: ${NAME}
- runFlow:
    when:
      visible: Banner
    commands:
      - tapOn: Close
- runFlow:
    when:
      platform: iOS
    commands:
      - tapOn: iOS only
- repeat:
    times: 2
    commands:
      - tapOn: Next
- repeat:
    while:
      notVisible: End
    commands:
      - scroll
- retry:
    maxRetries: 2
    commands:
      - tapOn: Flaky
- tapOn:
    text: Maybe
    optional: true
    label: Dismiss the tip
- assertNotVisible: Error
- takeScreenshot: end
- waitForAnimationToEnd
""", header="name: tour\ntags:\n  - smoke\nenv:\n  NAME: Dana\nonFlowStart:\n  - pressKey: Home\n"
         "onFlowComplete:\n  - back\n")
    flow = load_flow(path, {"NAME": "Marco"})
    assert flow.name == "tour" and flow.tags == ("smoke",) and flow.dynamic
    assert len(flow.program) == 1 and isinstance(flow.program[0], Finally)  # onFlowComplete runs even on failure
    nodes = [*flow.program[0].body, *flow.program[0].after]
    assert isinstance(nodes[0], Do) and nodes[0].step.action == Press(key="home")  # onFlowStart
    assert isinstance(nodes[1], Do) and nodes[1].step.action.selector.text == "Marco"  # type: ignore[union-attr]
    assert isinstance(nodes[2], When) and nodes[2].cond.visible.text == "Banner"  # type: ignore[union-attr]
    taps = [n.step.action.selector.text for n in nodes[3:5]]  # type: ignore[union-attr]
    assert taps == ["Next", "Next"]  # iOS-only runFlow dropped, repeat times unrolled
    assert isinstance(nodes[5], RepeatWhile) and nodes[5].cond.not_visible.text == "End"  # type: ignore[union-attr]
    assert isinstance(nodes[6], Retry) and nodes[6].max_retries == 2
    assert isinstance(nodes[7], Do) and nodes[7].optional and nodes[7].step.instruction == "Dismiss the tip"
    assert isinstance(nodes[8], Check)
    assert nodes[9] == ("snap", "end") and nodes[10] == ("settle", 5.0)
    assert isinstance(nodes[11], Do) and nodes[11].step.action == Press(key="back")  # onFlowComplete
    assert nodes[11].step.instruction == "on_complete: Press back"  # a report shows why it ran


@pytest.mark.parametrize("commands, words", [
    ("- launchApp\n- evalScript: ${output.x = 1}\n", ":4: Maestro command 'evalScript' is not supported"),
    ("- launchApp\n- back\n- runScript: s.js\n", ":5: Maestro command 'runScript' is not supported"),
    ("- repeat:\n    times: 2\n    commands:\n      - tapOn: A\n      - killApp\n",
     ":7: Maestro command 'killApp' is not supported"),
    ("- tapOn:\n    point: 50%,50%\n    text: Send\n", ":3: a point with text, id or index (a point inside an "
     "element) is not supported"),
    ("- assertVisible:\n    point: 50%,50%\n", ":3: a point selects a place only in tapOn and longPressOn"),
    ("- tapOn:\n    point: 50%\n", "point '50%' is not \"x,y\" in pixels"),
    ("- openLink:\n    link: https://example.com\n    browser: true\n", ":3: openLink browser: true is not "
     "supported"),
    ("- tapOn:\n    below: Title\n", "selector key 'below' is not supported"),
    ("- pressKey: Volume Up\n", "pressKey 'Volume Up' is not supported"),
    ("- swipe:\n    start: 90%, 50%\n    end: 10%, 50%\n", "swipe is supported with a direction only"),
    ("- flyTo: Moon\n", "unknown Maestro command 'flyTo'"),
    ("- runFlow:\n    when:\n      true: ${1 == 1}\n    commands: [back]\n", "needs JavaScript"),
])
def test_what_is_not_supported_is_one_line_naming_the_command_and_its_line(
        tmp_path: Path, commands: str, words: str) -> None:
    path = flow_of(tmp_path, commands)
    with pytest.raises(FlowInvalid) as err:
        load_flow(path)
    assert f"{path}{words}" in str(err.value) if words.startswith(":") else words in str(err.value)
    assert "\n" not in str(err.value)


def test_the_example_maestro_suite_loads_and_uses_every_listed_command() -> None:
    folder = examples_dir() / "maestro"
    specs = discover_flows([folder])
    assert len(specs) >= 10 and all(s.flow is not None for s in specs), [s.error for s in specs]
    text = "\n".join(p.read_text() for p in folder.rglob("*.yaml"))
    for command in ("launchApp", "tapOn", "inputText", "eraseText", "assertVisible", "assertNotVisible",
                    "scrollUntilVisible", "swipe", "back", "pressKey", "hideKeyboard", "extendedWaitUntil",
                    "waitForAnimationToEnd", "runFlow", "repeat", "retry", "optional", "label",
                    "takeScreenshot", "onFlowStart", "onFlowComplete", "env", "stopApp", "clearState", "longPressOn",
                    "point", "openLink"):
        assert command in text, command
    assert '"Quarterly tax.*"' in text  # a text regex


def test_points_and_links_map_onto_point_taps_and_open_link(tmp_path: Path) -> None:
    flow = load_flow(flow_of(tmp_path, """\
- tapOn:
    point: "50%, 46%"
- longPressOn:
    point: 540,1300
- tapOn:
    point: 10,20
- inputText: hello
- openLink: "mailto:marco@rossi.design?subject=Hi"
- openLink:
    link: https://example.com/a
    autoVerify: true
- assertVisible: Hi
"""))
    steps = flow.steps
    assert not flow.dynamic and [s.action for s in steps[:3]] == [
        Tap(selector=Selector(point="50%, 46%")), LongPress(selector=Selector(point="540,1300")),
        Tap(selector=Selector(point="10,20"))]
    assert steps[3].action == TypeText(text="hello")  # a tap at a point is not merged into the typing
    assert steps[4].action == OpenLink(url="mailto:marco@rossi.design?subject=Hi")
    assert steps[4].instruction == "Open the link mailto:marco@rossi.design?subject=Hi"
    assert steps[5].action == OpenLink(url="https://example.com/a")
    assert steps[5].expect == Selector(text="Hi")  # a link cut short by a crash is known done by its screen
