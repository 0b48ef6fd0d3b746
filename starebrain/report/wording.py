"""A step's action as a person reads it: "tap “Send SMS” in com.google.android.apps.messaging"."""

from __future__ import annotations

from starebrain.models import (
    AgentStep,
    ClearState,
    OpenApp,
    OpenLink,
    Press,
    Selector,
    StopApp,
    Swipe,
    TypeText,
    action_selector,
)


def target_words(sel: Selector | None) -> str:
    """The most readable name of what a selector points at."""
    if sel is None:
        return "the focused field"
    if sel.point is not None:
        return f"whatever is at the point {sel.point}"
    name = sel.text or sel.content_desc or sel.text_contains
    if name is None and sel.resource_id:
        name = sel.resource_id.rsplit("/", 1)[-1].replace("_", " ")
    words = f"“{name}”" if name else (sel.class_name or "the element")
    return words + (f" (match {sel.index + 1})" if sel.index else "")


def action_sentence(step: AgentStep) -> str:
    """What running the step does on the phone, concretely; a secret's value never appears."""
    action = step.action
    app = f" in {step.target_package}" if step.target_package else ""
    if isinstance(action, OpenApp):
        return f"open {action.package}" + (" from its first screen" if action.fresh else "")
    if isinstance(action, OpenLink):
        return f"open the link {action.url}" + (f" in {action.package}" if action.package else "")
    if isinstance(action, StopApp):
        return f"stop {action.package} (its data stays)"
    if isinstance(action, ClearState):
        return f"delete all the data of {action.package}"
    if isinstance(action, Press):
        return f"press {action.key}{app}"
    if isinstance(action, Swipe):
        return f"swipe {action.direction}{app}"
    if isinstance(action, TypeText):
        what = f"the secret {action.secret_name}" if action.secret_name else f"“{action.text}”"
        return f"type {what} into {target_words(action.selector)}{app}"
    verb = {"tap": "tap", "long_press": "long-press", "scroll_to": "scroll to", "wait_for": "wait for"}[action.kind]
    return f"{verb} {target_words(action_selector(action))}{app}"


def question(step: AgentStep) -> str:
    """The confirmation as one sentence: `Step 6, “Send the reply”: tap “Send SMS” in …?`."""
    gravity = " This cannot be undone." if step.irreversible or isinstance(step.action, ClearState) else ""
    return f"Step {step.index + 1}, “{step.instruction}”: {action_sentence(step)}?{gravity}"
