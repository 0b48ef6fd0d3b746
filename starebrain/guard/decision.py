"""What the guard decided about one step."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class GuardDecision:
    """`needs_confirmation` comes with the risk (0..1), the app category and the reason in human words."""

    needs_confirmation: bool
    risk: float
    category: str
    reason: str
