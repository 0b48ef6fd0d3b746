"""Which app each planned step acts in, decided from the plan itself rather than taken on the model's word.

The guard scores a step by the category of its `target_package`. A model that obeyed text on the screen
could label a "Send" tap in Messages as a step in Notes (where "send" is just content) and slip past it.
So a step's app is the one the plan brings to the front (the last `open_app`, else the app in front when
planning began); the model's claim is kept only when the guard finds it riskier.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from starebrain.models import AgentStep, ClearState, OpenApp, OpenLink, StopApp

if TYPE_CHECKING:
    from starebrain.executor.seams import Guard


def assign_target_packages(steps: list[AgentStep], start_package: str, guard: Guard) -> list[AgentStep]:
    """Copies of `steps` whose `target_package` is the riskier of the model's claim and the plan's app."""
    in_front = start_package or None
    assigned = []
    for step in steps:
        if isinstance(step.action, OpenApp):
            in_front = step.action.package
        elif isinstance(step.action, OpenLink):
            in_front = step.action.package  # None: whichever app takes the link, decided on the phone
        elif isinstance(step.action, StopApp | ClearState) and step.action.package == in_front:
            in_front = None  # the app left the screen: what is in front now is decided on the phone
        package = _riskier(step, in_front, guard)
        assigned.append(step.model_copy(update={"target_package": package}))
    return assigned


def _riskier(step: AgentStep, derived: str | None, guard: Guard) -> str | None:
    claimed = step.target_package
    if not claimed or claimed == derived or derived is None:
        return derived or claimed
    risk_claimed = guard.check(step).risk
    risk_derived = guard.check(step.model_copy(update={"target_package": derived})).risk
    return claimed if risk_claimed > risk_derived else derived
