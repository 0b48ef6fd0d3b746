"""Typed actions a step performs on the device."""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, field_validator

from starebrain.models.selector import Selector

SECRET_REF = re.compile(r"^\{secret:([A-Za-z0-9_.-]+)\}$")
# A URI with a scheme and no whitespace or control characters (it travels in one shell argument).
_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:[^\s\x00-\x1f\x7f]+$")
_PACKAGE = re.compile(r"^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+$")
MAX_URL_CHARS = 2000


def no_point(selector: Selector | None, where: str) -> Selector | None:
    """`selector`, unless it is a point: only a tap or a long press acts at a point."""
    if selector is not None and selector.point is not None:
        raise ValueError(f"{where} cannot be a point selector (only tap and long_press act at a point)")
    return selector


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


def _package_name(value: str) -> str:
    """`value`, if it is an Android package name (it travels in a shell command line)."""
    if not _PACKAGE.match(value):
        raise ValueError(f"package {value!r} is not an Android package name (e.g. com.google.android.gm)")
    return value


PackageName = Annotated[str, AfterValidator(_package_name)]


class StopApp(_Action):
    """Force-stop an app (`am force-stop PKG`): it leaves the screen, its data stays."""

    kind: Literal["stop_app"] = "stop_app"
    package: PackageName


class ClearState(_Action):
    """Delete an app's data (`pm clear PKG`): it is stopped and starts as newly installed; cannot be undone."""

    kind: Literal["clear_state"] = "clear_state"
    package: PackageName


class OpenLink(_Action):
    """Open `url` with a VIEW intent (`am start -a android.intent.action.VIEW -d URL`), in `package` if given."""

    kind: Literal["open_link"] = "open_link"
    url: str
    package: PackageName | None = None

    @field_validator("url")
    @classmethod
    def _url(cls, value: str) -> str:
        if len(value) > MAX_URL_CHARS or not _URL.match(value):
            raise ValueError(f"url {value[:80]!r} is not a URI with a scheme (e.g. https://..., mailto:...) "
                             f"of at most {MAX_URL_CHARS} characters without spaces")
        return value

    @property
    def scheme(self) -> str:
        """The URL's scheme, lower-cased (`mailto`, `https`, ...)."""
        return self.url.split(":", 1)[0].lower()


class TypeText(_Action):
    """Type into `selector` (or the focused field). `text` may be a `{secret:NAME}` reference."""

    kind: Literal["type"] = "type"
    selector: Selector | None = None
    text: str

    @field_validator("selector")
    @classmethod
    def _field(cls, value: Selector | None) -> Selector | None:
        return no_point(value, "the field to type into")

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

    @field_validator("selector")
    @classmethod
    def _element(cls, value: Selector) -> Selector | None:
        return no_point(value, "scroll_to's target")


class WaitFor(_Action):
    kind: Literal["wait_for"] = "wait_for"
    selector: Selector
    timeout_s: float = Field(default=10.0, gt=0, le=300)

    @field_validator("selector")
    @classmethod
    def _element(cls, value: Selector) -> Selector | None:
        return no_point(value, "wait_for's target")


Action = Annotated[
    OpenApp | OpenLink | StopApp | ClearState | Tap | LongPress | TypeText | Press | Swipe | ScrollTo | WaitFor,
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
    if isinstance(action, OpenApp | StopApp | ClearState):
        words.append(action.package)
    if isinstance(action, OpenLink):
        words += [action.url, action.package or ""]
    return " ".join(w for w in words if w)
