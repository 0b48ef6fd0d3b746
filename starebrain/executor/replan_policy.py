"""When a failed step deserves a new plan for the remaining steps (docs/architecture.md, Obstructions)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from starebrain.models import AgentStep, AgentTask


@dataclass
class ReplanPolicy:
    """Rules: never for a confirmed step, not the same instruction after two failures, a cap per
    task, and a loop stop (the same action three times with no screen change)."""

    max_replans: int = 3
    max_same_instruction_failures: int = 2
    loop_repeats: int = 3
    history: list[tuple[str, str]] = field(default_factory=list)  # (action json, screen hash)
    failures: Counter[str] = field(default_factory=Counter)  # instruction -> failures in this run

    def record_action(self, step: AgentStep, screen_hash_after: str | None) -> None:
        """Remember what was done and what the screen became, for loop detection."""
        self.history.append((step.action.model_dump_json(), screen_hash_after or ""))

    def in_loop(self) -> bool:
        """The same action `loop_repeats` times in a row, each leaving the same screen."""
        tail = self.history[-self.loop_repeats:]
        return len(tail) == self.loop_repeats and len(set(tail)) == 1

    def should_replan(self, task: AgentTask, step: AgentStep, *, blocked: bool = False) -> tuple[bool, str]:
        """(yes/no, why) for a step that just failed on a reachable screen; counts the failure.

        `blocked`: an obstruction only a person may clear (install, pay, terms, account) or one that
        would not go away is in the way; a new plan cannot get past it, and asking the LLM about
        such a screen only invites it to press the dangerous button.
        """
        self.failures[step.instruction] += 1
        failures_of_instruction = self.failures[step.instruction]
        if blocked:
            return False, "what is in the way needs a person"
        if step.result is not None and step.result.confirmed_by:
            return False, "a step the person confirmed failed; that is not a planning problem"
        if task.replan_count >= self.max_replans:
            return False, f"replan limit reached ({self.max_replans})"
        if failures_of_instruction >= self.max_same_instruction_failures:
            return False, f"'{step.instruction}' failed {failures_of_instruction} times"
        if self.in_loop():
            return False, "the same action kept leaving the same screen"
        return True, ""

