"""Replanning: only the remainder, with DONE steps, the failure and a capped screen."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from starebrain.errors import PlanInvalid
from starebrain.llm import ReplanRequest
from starebrain.llm.openai_planner import OpenAIPlanner
from starebrain.llm.prompts import (
    MAX_SCREEN_CHARS,
    replan_messages,
)
from starebrain.llmserver import ScriptedLlmServer
from starebrain.models import AgentStep, OpenApp, Selector, Tap, TypeText
from tests.llm.conftest import PACKAGES, SEED_INSTRUCTION, capped_summary, replan_answer, whatsapp_xml

MakePlanner = Callable[..., OpenAIPlanner]


def _request(summary: str) -> ReplanRequest:
    done = [
        AgentStep(index=0, instruction="Open the invoices app", action=OpenApp(package="com.example.invoices")),
        AgentStep(index=1, instruction="Type the client name", action=TypeText(
            selector=Selector(resource_id="com.example.invoices:id/search"), text="Ana Souza")),
    ]
    failed = AgentStep(index=2, instruction="Tap Send invoice", irreversible=True,
                       action=Tap(selector=Selector(resource_id="com.example.invoices:id/send")))
    return ReplanRequest(original_instruction=SEED_INSTRUCTION, completed_steps=done, failed_step=failed,
                         failure_reason="selector resource_id=com.example.invoices:id/send matched nothing",
                         screen_summary=summary, remaining_step_count=3, launchable_packages=PACKAGES,
                         current_package="com.whatsapp")


def test_replan_prompt_has_done_steps_failure_and_capped_screen_not_hierarchy(make_planner: MakePlanner) -> None:
    xml = whatsapp_xml()
    with ScriptedLlmServer([{"purpose": "replan", "content": replan_answer()}]) as srv:
        result = make_planner(srv).replan(_request(capped_summary(xml)))
    (request,) = srv.requests
    assert request.purpose == "replan"
    user = request.message_text("user")
    assert "1. Open the invoices app — open_app com.example.invoices [DONE]" in user
    assert "2. Type the client name — type resource_id=\"com.example.invoices:id/search\" " \
           "text='Ana Souza' [DONE]" in user
    assert "Failed step: Tap Send invoice" in user and "(irreversible)" in user
    assert "Failure reason: selector resource_id=com.example.invoices:id/send matched nothing" in user
    assert "<untrusted_screen>\nCurrent screen: com.whatsapp\nVisible text (first 10):" in user
    assert "Target approximately 3 steps." in user
    assert "Do not repeat completed steps." in user
    for hierarchy_only in ("<hierarchy", "<node", "bounds=", "checkable="):
        assert hierarchy_only not in request.raw
    assert [s.index for s in result.steps] == [2, 3]  # continues at the failed step's position
    assert result.steps[1].irreversible is True


def test_a_whole_dump_passed_as_summary_is_cut_down() -> None:
    user = replan_messages(_request(whatsapp_xml()), None)[1]["content"]
    assert "… (truncated)" in user and len(user) < MAX_SCREEN_CHARS + 2000


def test_replan_to_an_unknown_package_is_repaired_then_rejected(make_planner: MakePlanner) -> None:
    bad = {"purpose": "replan", "fault": {"kind": "unknown_package", "package": "com.nope"}, "repeat": 2}
    with ScriptedLlmServer([bad]) as srv:
        with pytest.raises(PlanInvalid, match="com.nope"):
            make_planner(srv).replan(_request("Current screen: com.whatsapp"))
    assert srv.count("replan") == 2


def test_replan_may_return_no_remaining_steps(make_planner: MakePlanner) -> None:
    done = {"purpose": "replan", "content": {"steps": [], "explanation": "the invoice was already sent"}}
    with ScriptedLlmServer([done]) as srv:
        result = make_planner(srv).replan(_request("Current screen: com.whatsapp"))
    assert result.steps == [] and "already sent" in result.explanation
