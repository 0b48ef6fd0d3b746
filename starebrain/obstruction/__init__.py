"""Obstruction detector: READY, LOADING, PERMISSION, OVERLAY, SYSTEM_DIALOG, KEYBOARD or UNKNOWN."""

from __future__ import annotations

from starebrain.obstruction.detect import detect
from starebrain.obstruction.kinds import (
    READY,
    BackClearance,
    Clearance,
    Obstruction,
    ObstructionKind,
    ScreenClass,
    TapClearance,
    WaitClearance,
)

__all__ = ["READY", "BackClearance", "Clearance", "Obstruction", "ObstructionKind", "ScreenClass", "TapClearance",
           "WaitClearance", "detect"]
