"""Maestro's text matching: a regex against the whole text, description or hint, ignoring case."""

from __future__ import annotations

from pathlib import Path

import pytest

from starebrain.errors import FlowInvalid
from starebrain.flows.flow_file import load_flow
from starebrain.flows.program import Check, Do, Finally
from starebrain.flows.text_pattern import TextPattern, is_literal
from starebrain.models import Selector, Tap
from starebrain.snapshot.snapshot import ScreenSnapshot
from tests.flows.test_maestro import flow_of

SCREEN = ScreenSnapshot.from_xml(
    '<hierarchy><node package="com.a" bounds="[0,0][100,400]">'
    '<node text="Send" resource-id="com.a:id/send" clickable="true" bounds="[0,0][50,50]"/>'
    '<node text="Sender settings" bounds="[0,50][50,100]"/>'
    '<node text="Two&#10;lines" bounds="[0,100][50,150]"/>'
    '<node content-desc="Search mail" bounds="[0,150][50,200]"/>'
    '<node text="Total (3)" bounds="[0,200][50,250]"/>'
    '<node text="Send" bounds="[0,250][50,300]"/>'
    "</node></hierarchy>")


@pytest.mark.parametrize("regex, found", [
    ("Sen.*", "Send"),  # the whole text must match; the first match in document order
    ("sender SETTINGS", "Sender settings"),  # case is ignored, as in Maestro
    ("Sen", None),  # a part of a text is not a match
    ("Two lines", "Two\nlines"),  # a line break reads as a space
    ("Two.lines", "Two\nlines"),  # `.` matches a line break (DOTALL)
    ("Total (3)", "Total (3)"),  # the expression written out matches its text
    ("Search.*", "Search mail"),  # the description counts too
    ("[", None),  # an invalid expression is plain text, which no element has
])
def test_a_regex_matches_whole_texts_and_descriptions_like_maestro(regex: str, found: str | None) -> None:
    node = TextPattern(regex).find(SCREEN)
    assert (node.text or node.content_desc if node else None) == found


def test_the_selector_for_a_found_element_names_that_very_element() -> None:
    second = TextPattern("Send", index=1)
    node = second.find(SCREEN)
    assert node is not None
    sel = second.selector_for(SCREEN, node)
    assert sel == Selector(text="Send", index=1) and SCREEN.resolve(sel) == node
    first = TextPattern("S.nd")
    node = first.find(SCREEN)
    assert node is not None and first.selector_for(SCREEN, node) == Selector(text="Send", resource_id="com.a:id/send")
    desc = TextPattern("search MAIL")
    node = desc.find(SCREEN)
    assert node is not None and desc.selector_for(SCREEN, node) == Selector(content_desc="Search mail")
    assert TextPattern("Sen.*").accepts(Selector(text="Send"))
    assert not TextPattern("Sen.*").accepts(Selector(text="Inbox"))


def test_only_text_with_regex_syntax_is_a_regex() -> None:
    assert is_literal("I'll call you tonight") and is_literal("Network & internet")
    assert not is_literal("alex.chen@example.com") and not is_literal("Sen.*")


def test_maestro_texts_compile_to_plain_text_when_literal_and_to_screen_lookups_when_regex(tmp_path: Path) -> None:
    flow = load_flow(flow_of(tmp_path, """\
- tapOn: Network & internet
- tapOn: "Net.*"
- tapOn:
    id: title
    text: "About.*"
    index: 1
- assertVisible: "Wi.?Fi"
- runFlow:
    when:
      visible: "Net.*"
    commands: [back]
- extendedWaitUntil:
    visible: ".*phone"
    timeout: 2000
"""))
    plain, found, with_id, asserted, when, waited = flow.program
    assert isinstance(plain, Do) and plain.pattern is None
    assert plain.step.action == Tap(selector=Selector(text="Network & internet"))
    assert isinstance(found, Do) and found.pattern == TextPattern("Net.*")
    assert found.step.instruction == "Tap text~/Net.*/"
    assert isinstance(with_id, Do) and with_id.pattern == TextPattern("About.*", "com.example.app:id/title", 1)
    assert isinstance(asserted, Check) and asserted.cond.visible == TextPattern("Wi.?Fi")
    assert when.cond.visible == TextPattern("Net.*")  # type: ignore[union-attr]
    assert isinstance(waited, Check) and waited.timeout_s == 2.0 and waited.cond.visible == TextPattern(".*phone")
    assert flow.dynamic


def test_a_regex_cannot_be_scrolled_to_and_says_so(tmp_path: Path) -> None:
    with pytest.raises(FlowInvalid, match="a text regex cannot be scrolled to"):
        load_flow(flow_of(tmp_path, "- scrollUntilVisible:\n    element: 'About.*'\n"))


def test_on_flow_complete_is_kept_apart_to_run_after_a_failure_too(tmp_path: Path) -> None:
    flow = load_flow(flow_of(tmp_path, "- launchApp\n", header="onFlowComplete:\n  - back\n"))
    (hooked,) = flow.program
    assert isinstance(hooked, Finally) and len(hooked.body) == 1
    assert [n.step.instruction for n in hooked.after] == ["on_complete: Press back"]  # type: ignore[union-attr]
    assert flow.dynamic  # the executor alone would stop at a failure
