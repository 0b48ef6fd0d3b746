"""`ConfirmationGuard`: does a step need the person's confirmation before it runs?

`check` scores the planned step (before anything is touched); `check_actual` scores the concrete action
at act time: the element that will receive it, the app that owns its window as the phone reports it and
the payload. Nothing shown on the phone can lower a risk or approve a step: screen words only add risk.
"""

from __future__ import annotations

from starebrain.guard.concrete_action import ConcreteAction, scored_kind
from starebrain.guard.decision import GuardDecision
from starebrain.guard.link_risk import judge_link
from starebrain.guard.text import strongest
from starebrain.models.action import ClearState, OpenApp, OpenLink, Press, StopApp, action_selector, action_text
from starebrain.models.task import AgentStep
from starebrain.profiles import CategoryRule, Profiles

CONTENT_FACTOR = 0.3  # words inside a list row are content (a message, a payee) more than a label


class ConfirmationGuard:
    """Scores a step's risk from its app category, action kind, target words and `irreversible` flag."""

    def __init__(self, profiles: Profiles) -> None:
        self.profiles = profiles
        w = profiles.words
        self._never_tap = {e: 1.0 for e in (*w.never_tap, *w.never_tap_nag, *w.danger_text)}

    def check(self, step: AgentStep) -> GuardDecision:
        """Decide whether the planned `step` needs confirmation; deterministic and free of device input."""
        if isinstance(step.action, StopApp | ClearState):  # the app acted on, whichever is in front
            category = self.profiles.category_of(step.action.package)
            return self._app_state(step, category, *self._base_risk(step, category))
        category = self.profiles.category_of(step.target_package)
        risk, why = self._base_risk(step, category)
        if isinstance(step.action, OpenLink):
            return self._link(step, category, risk, why, step.action.package or step.target_package or "")
        return self._decide(step, category, risk, why, step.target_package or "no named app")

    def check_actual(self, step: AgentStep, concrete: ConcreteAction) -> GuardDecision:
        """Decide on the concrete action: its app's category comes from the phone, never from the plan."""
        category = self.profiles.category_of(concrete.app)
        rule = self.profiles.rule(category)
        risk, why = self._base_risk(step, category, words=False, kind=concrete.scored_as)
        if isinstance(step.action, OpenLink):
            return self._link(step, category, risk, why, concrete.app)
        if isinstance(step.action, StopApp | ClearState):
            return self._app_state(step, category, risk, why)
        weights = self.profiles.risk.actions[concrete.scored_as]  # type: ignore[index]
        words = self.profiles.words_for(category)
        factor = rule.word_weight * weights.word_factor
        label = self.profiles.categories.element_labels.get(_rid(concrete.element_words), "")
        scored = [(concrete.element_words + " " + label, 1.0, "it is"), (concrete.dialog_words, 1.0, "its dialog says"),
                  (concrete.content_words, CONTENT_FACTOR, "it shows")]
        if concrete.kind == "type":
            scored.append((concrete.payload, self.profiles.risk.actions["type"].word_factor / max(
                weights.word_factor, 0.01), "it types"))
        best, best_why = 0.0, ""
        for text, weight, verb in scored:
            word, found = strongest(text, words)
            if word and found * weight * factor > best:
                best, best_why = found * weight * factor, f'{verb} "{word}"'
        risk += best
        if best_why:
            why.append(best_why)
        risk, forced = self._forced(concrete, rule, category, label, risk, why)
        decision = self._decide(step, category, risk, why, concrete.app or "an unknown app")
        return _asking(decision) if forced else decision

    def _forced(self, concrete: ConcreteAction, rule: CategoryRule, category: str, label: str, risk: float,
                why: list[str]) -> tuple[float, bool]:
        """Rules that need the person whatever the score: unlabelled buttons, dangerous dialogs' yes."""
        forced = False
        if concrete.unlabelled and not label and rule.unlabelled_needs_person and concrete.touches:
            risk = max(risk, self.profiles.risk.unlabelled_risk)
            why.append(f"it has no label, and in a {category} app an unlabelled button may do anything")
            forced = True
        if concrete.kind == "press" and concrete.payload == "enter" and rule.unlabelled_needs_person:
            risk = max(risk, rule.threshold)
            why.append(f"enter may submit the form or send in a {category} app")
            forced = True
        if concrete.dialog_positive and self._dangerous_dialog(concrete.dialog_words, category):
            risk = max(risk, self.profiles.risk.irreversible_floor)
            why.append("it is the positive button of a dialog on the never-tap list or one that uses a risk word")
            forced = True
        return risk, forced

    def _link(self, step: AgentStep, category: str, risk: float, why: list[str], app: str) -> GuardDecision:
        """Opening a link: the URL decides (a message ready to send, an installer, money, an unknown scheme)."""
        assert isinstance(step.action, OpenLink)
        link = judge_link(step.action.url)
        if link.needs_person:
            risk = max(risk, self.profiles.risk.irreversible_floor)
            why.append(link.why)
        decision = self._decide(step, category, risk, why, app or "the app that handles the link")
        return _asking(decision) if link.needs_person else decision  # whatever a lenient category's threshold

    def _app_state(self, step: AgentStep, category: str, risk: float, why: list[str]) -> GuardDecision:
        """Stopping an app is harmless; clearing one deletes its data for good, which needs the person
        in a category that can pay, send or keep the person's data (unknown apps included)."""
        assert isinstance(step.action, StopApp | ClearState)
        app = step.action.package
        destroys = isinstance(step.action, ClearState) and self.profiles.rule(category).holds_data
        if destroys:
            risk = max(risk, self.profiles.risk.irreversible_floor)
            why.append(f"it deletes everything the {category} app keeps on the phone, which cannot be undone")
        decision = self._decide(step, category, risk, why, app)
        return _asking(decision) if destroys else decision

    def _dangerous_dialog(self, text: str, category: str) -> bool:
        """The dialog mentions the never-tap list (install, pay, agree, add account, ...) or any risk word."""
        return bool(strongest(text, self._never_tap)[0] or strongest(text, self.profiles.words_for(category))[0])

    def _decide(self, step: AgentStep, category: str, risk: float, why: list[str], app: str) -> GuardDecision:
        rule = self.profiles.rule(category)
        if step.irreversible:
            risk = max(risk, self.profiles.risk.irreversible_floor)
            why.append("the plan marks it irreversible")
        risk = round(min(1.0, risk), 3)
        needs = risk >= rule.threshold or (step.irreversible and self.profiles.risk.irreversible_always_confirms)
        return GuardDecision(needs, risk, category, _reason(step, category, app, risk, rule.threshold, needs, why))

    def _base_risk(self, step: AgentStep, category: str, *, words: bool = True,
                   kind: str | None = None) -> tuple[float, list[str]]:
        """Risk before the irreversible flag, and the words that explain it."""
        action = step.action
        weights = self.profiles.risk.actions[kind or scored_kind(action.kind)]  # type: ignore[index]
        rule = self.profiles.rule(category)
        risk = weights.base + rule.base_risk
        why: list[str] = []
        if isinstance(action, Press):
            risk += self.profiles.risk.press_keys.get(action.key, 0.0)
        if words:
            word, weight = strongest(action_text(action), self.profiles.words_for(category))
            if word and weights.word_factor > 0:
                risk += weight * rule.word_weight * weights.word_factor
                why.append(f'it touches "{word}"')
        if category == "unknown":
            why.append("the app is unknown, so the guard is as careful as with a bank")
        return risk, why


def riskier(planned: GuardDecision, actual: GuardDecision) -> GuardDecision:
    """The decision that asks, or the higher risk when both agree."""
    if planned.needs_confirmation != actual.needs_confirmation:
        return planned if planned.needs_confirmation else actual
    return planned if planned.risk > actual.risk else actual


def _asking(decision: GuardDecision) -> GuardDecision:
    """`decision`, needing the person whatever the category's threshold says."""
    if decision.needs_confirmation:
        return decision
    return GuardDecision(True, decision.risk, decision.category, decision.reason.replace(
        "no confirmation needed", "needs confirmation"))


def _rid(element_words: str) -> str:
    return next((w for w in element_words.split() if ":id/" in w), "")


def _reason(step: AgentStep, category: str, app: str, risk: float, threshold: float, needs: bool,
            why: list[str]) -> str:
    verdict = "needs confirmation" if needs else "no confirmation needed"
    sign = ">=" if risk >= threshold else "<"
    because = f" because {' and '.join(why)}" if why else ""
    score = f"(risk {risk:.2f} {sign} {threshold:.2f})"
    return f"{describe_action(step)} in {category} app {app}: {verdict} {score}{because}"


def describe_action(step: AgentStep) -> str:
    """`tap text="Send"`, `type "hello"`, `type {secret:PIN}`, `open_app com.x`, `press enter`."""
    action = step.action
    if isinstance(action, OpenApp | StopApp | ClearState):
        return f"{action.kind} {action.package}"
    if isinstance(action, OpenLink):
        return f"open_link {action.url[:80]}" + (f" in {action.package}" if action.package else "")
    if isinstance(action, Press):
        return f"press {action.key}"
    sel = action_selector(action)
    target = f" {sel.describe()}" if sel is not None else ""
    text = getattr(action, "text", None)
    typed = f' "{text[:40]}"' if text is not None else ""
    return f"{action.kind}{target}{typed}"
