"""The LLM adapter: the `Planner` protocol, its data, the OpenAI-compatible planner and its factory.

Importing this package does not import openai; `build_planner` imports it only when called.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from starebrain.llm.base import (
    GroundResult,
    Planner,
    PlanningContext,
    PlanResult,
    ReplanRequest,
    attach_calls,
    calls_of,
    renumber,
)
from starebrain.llm.tokens import estimate_messages_tokens, estimate_tokens

if TYPE_CHECKING:
    from collections.abc import Mapping
    from pathlib import Path

    from starebrain.redaction import Scrubber

__all__ = [
    "GroundResult", "PlanResult", "Planner", "PlanningContext", "ReplanRequest",
    "attach_calls", "build_planner", "calls_of", "estimate_messages_tokens",
    "estimate_tokens", "renumber",
]


def build_planner(settings: Any = None, *, record: Path | None = None, replay: Path | None = None,
                  secrets: Scrubber | Mapping[str, str] | None = None) -> Planner:
    """An `OpenAIPlanner` from settings; with `record`/`replay`, LLM exchanges go through a cassette.
    `secrets` are scrubbed from prompts and cassettes (None: every `STAREBRAIN_SECRET_*` set)."""
    from starebrain.llm.factory import build_planner as _build

    return _build(settings, record=record, replay=replay, secrets=secrets)
