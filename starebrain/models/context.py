"""What the person is doing on the phone, across app switches."""

from __future__ import annotations

from datetime import datetime, timedelta
from enum import StrEnum

from pydantic import BaseModel, Field

from starebrain.models.task import utcnow

STALE_AFTER = timedelta(minutes=5)


class Confidence(StrEnum):
    HIGH = "HIGH"
    MEDIUM = "MEDIUM"
    LOW = "LOW"


class AppSwitch(BaseModel):
    package: str
    activity: str = ""
    at: datetime = Field(default_factory=utcnow)


class AgentContext(BaseModel):
    device_serial: str = ""
    current_package: str = ""
    current_activity: str = ""
    recent_switches: list[AppSwitch] = Field(default_factory=list)
    entities: dict[str, str] = Field(default_factory=dict)  # e.g. last_conversation_partner
    captured_at: datetime = Field(default_factory=utcnow)
    confidence: Confidence = Confidence.HIGH

    def for_persistence(self) -> AgentContext:
        """Saved contexts are LOW: we cannot know how long until they are read again."""
        return self.model_copy(update={"confidence": Confidence.LOW})

    def is_stale(self, now: datetime | None = None) -> bool:
        return ((now or utcnow()) - self.captured_at) > STALE_AFTER
