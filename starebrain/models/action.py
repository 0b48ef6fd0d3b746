"""Typed actions a step performs on the device."""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from starebrain.models.selector import Selector

SECRET_REF = re.compile(r"^\{secret:([A-Za-z0-9_.-]+)\}$")


class _Action(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class OpenApp(_Action):
    """Launch an app; `fresh` force-stops it first, so it starts on its first screen."""

    kind: Literal["open_app"] = "open_app"
    package: str
    fresh: bool = False


class Tap(_Action):
    kind: Literal["tap"] = "tap"
    selector: Selector


class LongPress(_Action):
    kind: Literal["long_press"] = "long_press"
    selector: Selector


class TypeText(_Action):
    """Type into `selector` (or the focused field). `text` may be a `{secret:NAME}` reference."""

    kind: Literal["type"] = "type"
    selector: Selector | None = None
    text: str

    @property
    def secret_name(self) -> str | None:
        m = SECRET_REF.match(self.text)
        return m.group(1) if m else None


class Press(_Action):
    kind: Literal["press"] = "press"
    key: Literal["back", "home", "enter", "recents"]


class Swipe(_Action):
    kind: Literal["swipe"] = "swipe"
    direction: Literal["up", "down", "left", "right"]


class ScrollTo(_Action):
    kind: Literal["scroll_to"] = "scroll_to"
    selector: Selector
    max_swipes: int = Field(default=10, ge=1, le=50)


class WaitFor(_Action):
    kind: Literal["wait_for"] = "wait_for"
    selector: Selector
    timeout_s: float = Field(default=10.0, gt=0, le=300)


Action = Annotated[
    OpenApp | Tap | LongPress | TypeText | Press | Swipe | ScrollTo | WaitFor,
    Field(discriminator="kind"),
]


def action_selector(action: Action) -> Selector | None:
    """The selector an action targets, if any."""
    return getattr(action, "selector", None)


def action_text(action: Action) -> str:
    """Words that describe what the action touches, for risk scoring (never a secret's value)."""
    sel = action_selector(action)
    words = []
    if sel is not None:
        words += [sel.text or "", sel.text_contains or "", sel.content_desc or "", sel.resource_id or ""]
    if isinstance(action, TypeText) and action.secret_name is None:
        words.append(action.text)
    if isinstance(action, OpenApp):
        words.append(action.package)
    return " ".join(w for w in words if w)
