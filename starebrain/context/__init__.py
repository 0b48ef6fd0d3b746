"""Host-side capture of the person's context (`AgentContext`) from what the phone shows."""

from __future__ import annotations

from starebrain.context.capture import capture_context
from starebrain.context.screen_facts import (
    conversation_partner,
    is_messaging_package,
    most_recent_thread,
    opened_document,
    toolbar_title,
)
from starebrain.context.tracker import DOCUMENT, PARTNER, PARTNER_APP, ContextTracker

__all__ = [
    "DOCUMENT", "PARTNER", "PARTNER_APP", "ContextTracker", "capture_context", "conversation_partner",
    "is_messaging_package", "most_recent_thread", "opened_document", "toolbar_title",
]
