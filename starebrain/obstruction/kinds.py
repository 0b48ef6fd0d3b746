"""What the detector says about a screen: a kind, human words, and a deterministic way past."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Literal


class ObstructionKind(StrEnum):
    READY = "READY"
    LOADING = "LOADING"
    PERMISSION = "PERMISSION"
    OVERLAY = "OVERLAY"
    SYSTEM_DIALOG = "SYSTEM_DIALOG"
    KEYBOARD = "KEYBOARD"
    UNKNOWN = "UNKNOWN"


@dataclass(frozen=True)
class TapClearance:
    """Tap this point; `label` and `resource_id` say what the person would see being pressed."""

    x: int
    y: int
    label: str
    resource_id: str = ""
    action: Literal["tap"] = "tap"

    @property
    def point(self) -> tuple[int, int]:
        return self.x, self.y

    def describe(self) -> str:
        return f'tap "{self.label}" at ({self.x},{self.y})'


@dataclass(frozen=True)
class BackClearance:
    """Press the back key once."""

    action: Literal["back"] = "back"

    def describe(self) -> str:
        return "press back"


@dataclass(frozen=True)
class WaitClearance:
    """Wait, then look again; `delays_s` is the whole bounded backoff schedule."""

    delays_s: tuple[float, ...]
    action: Literal["wait"] = "wait"

    @property
    def wait_s(self) -> float:
        """The first wait; look again after it and use `delays_s[n]` for the n-th wait."""
        return self.delays_s[0] if self.delays_s else 0.0

    def describe(self) -> str:
        return f"wait up to {sum(self.delays_s):g}s ({len(self.delays_s)} looks)"


Clearance = TapClearance | BackClearance | WaitClearance


@dataclass(frozen=True)
class Obstruction:
    """The detector's verdict. `clearance` is None when the screen is READY or needs a person."""

    kind: ObstructionKind
    detail: str
    clearance: Clearance | None = None

    @property
    def needs_person(self) -> bool:
        """True when something is in the way and must not be handled automatically."""
        return self.kind is not ObstructionKind.READY and self.clearance is None

    def describe(self) -> str:
        """One line for attempt records and logs, e.g. `OVERLAY: rate-us prompt -> tap "Not now"`."""
        way = self.clearance.describe() if self.clearance else ("nothing to do" if self.kind == "READY"
                                                                 else "needs a person")
        return f"{self.kind.value}: {self.detail} -> {way}"


READY = Obstruction(ObstructionKind.READY, "nothing in the way")
ScreenClass = ObstructionKind  # the name the executor first used for the verdict kinds
