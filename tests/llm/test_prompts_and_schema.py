"""Prompt hygiene (delimiting, secret scrubbing) and the strict schema real endpoints demand."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from starebrain.llm import PlanningContext
from starebrain.llm.prompts import scrub, untrusted
from starebrain.llm.schema import GroundAnswer, PlanAnswer, strict_schema
from starebrain.models import AgentContext, AppSwitch, Confidence


@given(st.text())
def test_untrusted_text_never_escapes_its_delimiters(text: str) -> None:
    wrapped = untrusted("screen", text)
    assert wrapped.startswith("<untrusted_screen>\n") and wrapped.endswith("\n</untrusted_screen>")
    assert wrapped.count("<untrusted") == 1 and wrapped.count("</untrusted") == 1


@given(st.text(min_size=3, max_size=20), st.text(), st.text())
def test_scrub_removes_every_occurrence_of_a_secret(secret: str, before: str, after: str) -> None:
    reference = "{secret:PIN}"
    if secret in reference:  # a "secret" that is part of its own reference cannot be told apart from it
        return
    scrubbed = scrub(before + secret + after + secret, {"PIN": secret})
    assert secret not in scrubbed and reference in scrubbed


def _objects(node: Any) -> list[dict[str, Any]]:
    if isinstance(node, list):
        return [o for n in node for o in _objects(n)]
    if not isinstance(node, dict):
        return []
    found = [node] if node.get("type") == "object" else []
    return found + [o for v in node.values() for o in _objects(v)]


def test_schemas_meet_strict_structured_output_rules() -> None:
    for model in (PlanAnswer, GroundAnswer):
        schema = strict_schema(model)
        assert "oneOf" not in str(schema) and "discriminator" not in str(schema)
        for obj in _objects(schema):
            assert obj["additionalProperties"] is False
            assert sorted(obj["required"]) == sorted(obj["properties"])


def test_planning_context_from_agent_context_keeps_what_the_planner_needs() -> None:
    ctx = AgentContext(current_package="com.whatsapp", recent_switches=[AppSwitch(package="com.todoist")],
                       entities={"last_conversation_partner": "Ana"}, confidence=Confidence.LOW)
    planning = PlanningContext.from_agent_context(ctx, screen_summary="Chat", launchable_packages=["com.whatsapp"])
    assert planning.current_package == "com.whatsapp" and planning.confidence is Confidence.LOW
    assert planning.entities == {"last_conversation_partner": "Ana"}
    assert planning.recent_switches[0].package == "com.todoist" and planning.launchable_packages == ["com.whatsapp"]
