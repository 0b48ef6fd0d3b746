"""`ScrubbedDevice`: a `Device` whose observations never carry a secret value.

Whatever reads the screen (step runner, planner context, context tracker, summaries sent to the
LLM, events, saved dumps) gets the hierarchy with every known secret replaced by its
`{secret:NAME}` reference: a secret typed into a plain field is visible on the phone, never in what
StareBrain keeps or sends. Everything else passes straight through to the wrapped device.
"""

from __future__ import annotations

from typing import Any

from starebrain.device.base import Device, Observation
from starebrain.redaction import Scrubber


class ScrubbedDevice:
    """Wraps a `Device`; `observe` returns scrubbed observations."""

    def __init__(self, inner: Device, scrubber: Scrubber) -> None:
        self.inner = inner
        self.scrubber = scrubber

    def observe(self, *, screenshot: bool = False) -> Observation:
        """The wrapped device's observation, scrubbed."""
        return self.scrubber.observation(self.inner.observe(screenshot=screenshot))

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)
