"""`ConfirmationGuard`: does a step need the person's confirmation before it runs?

The guard sees only the planned step, never the screen: nothing shown on the phone (a notification, a
dialog, text an app displays) can lower a risk or approve a step.
"""

from __future__ import annotations

from starebrain.guard.decision import GuardDecision
from starebrain.guard.words import strongest_word
from starebrain.models.action import OpenApp, Press, action_selector, action_text
from starebrain.models.task import AgentStep
from starebrain.profiles import Profiles


class ConfirmationGuard:
    """Scores a step's risk from its app category, action kind, target words and `irreversible` flag."""

    def __init__(self, profiles: Profiles) -> None:
        self.profiles = profiles

    def check(self, step: AgentStep) -> GuardDecision:
        """Decide whether `step` needs confirmation; deterministic and free of device input."""
        category = self.profiles.category_of(step.target_package)
        rule = self.profiles.rule(category)
        risk, why = self._base_risk(step, category)
        if step.irreversible:
            risk = max(risk, self.profiles.risk.irreversible_floor)
            why.append("the plan marks it irreversible")
        risk = round(min(1.0, risk), 3)
        needs = risk >= rule.threshold or (step.irreversible and self.profiles.risk.irreversible_always_confirms)
        return GuardDecision(needs, risk, category, self._reason(step, category, risk, rule.threshold, needs, why))

    def _base_risk(self, step: AgentStep, category: str) -> tuple[float, list[str]]:
        """Risk before the irreversible flag, and the words that explain it."""
        action = step.action
        weights = self.profiles.risk.actions[action.kind]
        rule = self.profiles.rule(category)
        risk = weights.base + rule.base_risk
        why: list[str] = []
        if isinstance(action, Press):
            risk += self.profiles.risk.press_keys.get(action.key, 0.0)
        word, weight = strongest_word(action_text(action), self.profiles.risk.words_for(category))
        if word and weights.word_factor > 0:
            risk += weight * rule.word_weight * weights.word_factor
            why.append(f'it touches "{word}"')
        if category == "unknown":
            why.append("the app is unknown, so the guard is cautious")
        return risk, why

    def _reason(self, step: AgentStep, category: str, risk: float, threshold: float, needs: bool,
                why: list[str]) -> str:
        what = describe_action(step)
        app = step.target_package or "no named app"
        verdict = "needs confirmation" if needs else "no confirmation needed"
        sign = ">=" if risk >= threshold else "<"
        because = f" because {' and '.join(why)}" if why else ""
        return f"{what} in {category} app {app}: {verdict} (risk {risk:.2f} {sign} {threshold:.2f}){because}"


def describe_action(step: AgentStep) -> str:
    """`tap text="Send"`, `type "hello"`, `type {secret:PIN}`, `open_app com.x`, `press enter`."""
    action = step.action
    if isinstance(action, OpenApp):
        return f"open_app {action.package}"
    if isinstance(action, Press):
        return f"press {action.key}"
    sel = action_selector(action)
    target = f" {sel.describe()}" if sel is not None else ""
    text = getattr(action, "text", None)
    typed = f' "{text[:40]}"' if text is not None else ""
    return f"{action.kind}{target}{typed}"
