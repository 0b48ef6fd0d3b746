"""Context-aware confirmation (docs/architecture.md): `ConfirmationGuard(profiles).check(step) -> GuardDecision`."""

from __future__ import annotations

from starebrain.guard.decision import GuardDecision
from starebrain.guard.guard import ConfirmationGuard

__all__ = ["ConfirmationGuard", "GuardDecision"]
