"""A scripted OpenAI-compatible server on loopback, for tests and the demo (never a real LLM)."""

from __future__ import annotations

from starebrain.llmserver.script import (
    FORMAT,
    VERSION,
    Entry,
    Fault,
    Script,
    ScriptError,
    load_script,
    locate_answer,
    plan_step,
    selector_dict,
)
from starebrain.llmserver.server import ReceivedRequest, ScriptedLlmServer, completion_body

__all__ = [
    "FORMAT", "VERSION", "Entry", "Fault", "ReceivedRequest", "Script", "ScriptError", "ScriptedLlmServer",
    "completion_body", "load_script", "locate_answer", "plan_step", "selector_dict",
]
