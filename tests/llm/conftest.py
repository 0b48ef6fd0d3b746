"""Shared pieces for planner tests: the seed errand, a realistic screen, a planner on a loopback server."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path
from typing import Any

import openai
import pytest

from starebrain.llm import PlanningContext
from starebrain.llm.openai_planner import OpenAIPlanner, RetryPolicy
from starebrain.llmserver import ScriptedLlmServer, plan_step, selector_dict
from starebrain.models import AppSwitch

FIXTURES = Path(__file__).parent / "fixtures"
SEED_INSTRUCTION = "send the invoice to the client I just messaged, then mark the project as done"
PACKAGES = ["com.whatsapp", "com.google.android.gm", "com.example.invoices", "com.todoist"]


def whatsapp_xml() -> str:
    """A real hierarchy dump (WhatsApp chat, Portuguese), byte for byte from a public repository."""
    return (FIXTURES / "040_whatsapp_chat_pt.xml").read_text(encoding="utf-8")


def capped_summary(xml: str, cap: int = 10) -> str:
    """A prompt summary: package, first `cap` visible texts, first `cap` interactable ids."""
    nodes = list(ET.fromstring(xml.encode()).iter("node"))
    package = next((n.get("package") for n in nodes if n.get("package")), "unknown")
    texts = [n.get("text", "")[:80] for n in nodes if n.get("text")][:cap]
    ids = [n.get("resource-id", "") for n in nodes if n.get("clickable") == "true" and n.get("resource-id")][:cap]
    lines = [f"Current screen: {package}", "Visible text (first 10):", *[f"  - {t}" for t in texts],
             "Interactable elements (first 10):", *[f"  - {i}" for i in ids]]
    return "\n".join(lines)


def seed_context(**overrides: Any) -> PlanningContext:
    """The person just messaged Ana Souza on WhatsApp."""
    fields: dict[str, Any] = dict(
        current_package="com.whatsapp", current_activity=".Conversation",
        recent_switches=[AppSwitch(package="com.example.invoices"), AppSwitch(package="com.whatsapp")],
        screen_summary="Current screen: com.whatsapp\nVisible text:\n  - Ana Souza\n  - Can you send the invoice?",
        launchable_packages=PACKAGES, entities={"last_conversation_partner": "Ana Souza"})
    fields.update(overrides)
    return PlanningContext(**fields)


def seed_plan() -> dict[str, Any]:
    """What a good model answers for the seed instruction."""
    inv, todo = "com.example.invoices", "com.todoist"
    return {"explanation": "Share Ana's invoice by email, then complete the project.", "steps": [
        plan_step("Open the invoices app", {"kind": "open_app", "package": inv}, inv),
        plan_step("Open Ana Souza's invoice", {"kind": "tap", "selector": selector_dict(
            text_contains="Ana Souza")}, inv),
        plan_step("Tap Send invoice", {"kind": "tap", "selector": selector_dict(
            resource_id="com.example.invoices:id/send")}, inv, irreversible=True),
        plan_step("Open the tasks app", {"kind": "open_app", "package": todo}, todo),
        plan_step("Mark the project as done", {"kind": "tap", "selector": selector_dict(
            content_desc="Complete project")}, todo, irreversible=True),
    ]}


def replan_answer() -> dict[str, Any]:
    """Revised remaining steps after the send button was not found."""
    inv = "com.example.invoices"
    return {"explanation": "The invoice opens in a share sheet now.", "steps": [
        plan_step("Tap Share", {"kind": "tap", "selector": selector_dict(text="Share")}, inv),
        plan_step("Send by Gmail", {"kind": "tap", "selector": selector_dict(text="Gmail")}, inv,
                  irreversible=True),
    ]}


@pytest.fixture
def sleeps() -> list[float]:
    """Backoff delays the planner asked for, instead of sleeping them."""
    return []


@pytest.fixture
def make_planner(sleeps: list[float]) -> Callable[..., OpenAIPlanner]:
    """An OpenAIPlanner on the real openai client, pointed at a scripted server."""
    def build(srv: ScriptedLlmServer, *, timeout_s: float = 2.0, attempts: int = 3, **kw: Any) -> OpenAIPlanner:
        client = openai.OpenAI(api_key="sk-test-not-a-real-key", base_url=srv.base_url)
        return OpenAIPlanner(client, model="scripted-model", timeout_s=timeout_s,
                             retry=RetryPolicy(attempts=attempts, backoff_s=0.01, max_backoff_s=0.2),
                             sleep=sleeps.append, **kw)
    return build
