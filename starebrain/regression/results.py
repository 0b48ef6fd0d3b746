"""What a suite run came to: per step, per run of a flow (one task each), per flow, for the whole suite.

A retry is never hidden: a flow that failed and then passed is `flaky`, and every output says on
which retry it passed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Literal

RunStatus = Literal["passed", "failed", "error"]
Outcome = Literal["passed", "flaky", "failed", "error"]


@dataclass(frozen=True)
class StepLine:
    """One step of one run, as JUnit's system-out and the console show it."""

    index: int
    instruction: str
    status: str
    attempts: int
    obstructions: tuple[str, ...] = ()
    screenshot: str | None = None
    message: str = ""

    def render(self) -> str:
        """`step 3 COMPLETED attempts=1 obstructions=[…] screenshot=… — message`."""
        obstacles = "; ".join(self.obstructions)
        shot = self.screenshot or "-"
        why = f" — {self.message}" if self.message else ""
        return (f"step {self.index + 1} {self.status} attempts={self.attempts} obstructions=[{obstacles}] "
                f"screenshot={shot} :: {self.instruction}{why}")


@dataclass(frozen=True)
class FlowRun:
    """One run of a flow: one task on one device."""

    number: int  # 1 = the first run; 2 = retry 1, ...
    status: RunStatus
    reason: str = ""
    task_id: str | None = None
    task_status: str = ""
    failed_step: StepLine | None = None
    steps: tuple[StepLine, ...] = ()
    duration_s: float = 0.0

    @property
    def screenshots(self) -> list[str]:
        return [s.screenshot for s in self.steps if s.screenshot]


@dataclass
class FlowResult:
    """Every run of one flow file on the device its worker drove."""

    path: Path
    name: str
    device: str
    runs: list[FlowRun] = field(default_factory=list)
    load_error: str = ""

    @property
    def classname(self) -> str:
        return self.path.as_posix()

    @property
    def outcome(self) -> Outcome:
        if self.load_error or not self.runs:
            return "error"
        last = self.runs[-1]
        if last.status == "passed":
            return "flaky" if len(self.runs) > 1 else "passed"
        return last.status

    @property
    def retries(self) -> int:
        return max(0, len(self.runs) - 1)

    @property
    def passed_on_retry(self) -> int | None:
        """k when the flow passed only on its k-th retry; None otherwise."""
        return self.retries if self.outcome == "flaky" else None

    @property
    def final(self) -> FlowRun | None:
        return self.runs[-1] if self.runs else None

    @property
    def duration_s(self) -> float:
        return sum(r.duration_s for r in self.runs)

    @property
    def label(self) -> str:
        """The result as every output spells it, e.g. `flaky (passed on retry 1)`."""
        if self.outcome == "flaky":
            return f"flaky (passed on retry {self.passed_on_retry})"
        return self.outcome

    @property
    def reason(self) -> str:
        return self.load_error or (self.final.reason if self.final else "")


@dataclass
class SuiteResult:
    """All flows of a `starebrain test` run."""

    flows: list[FlowResult]
    started_at: datetime
    duration_s: float
    devices: list[str]

    @property
    def ok(self) -> bool:
        """True only if every flow passed (a flaky flow passed, and is reported as flaky)."""
        return all(f.outcome in ("passed", "flaky") for f in self.flows)

    def count(self, *outcomes: Outcome) -> int:
        return sum(1 for f in self.flows if f.outcome in outcomes)
