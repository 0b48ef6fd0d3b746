"""Point selectors and the open_link action: what the models accept, and the one-line errors for the rest."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from starebrain.models import AgentStep, LongPress, OpenLink, ScrollTo, Selector, Tap, TypeText, WaitFor
from starebrain.models.action import action_text


def _error(**fields: object) -> str:
    with pytest.raises(ValidationError) as caught:
        Selector(**fields)  # type: ignore[arg-type]
    return str(caught.value)


def test_a_point_in_pixels_or_percent_names_a_pixel_and_describes_itself() -> None:
    assert Selector(point="50%,50%").describe() == 'point="50%,50%"'
    assert Selector(point="50%,50%").point_at(1080, 2400) == (540, 1200)
    assert Selector(point=" 540 , 1200 ").point_at(1080, 2400) == (540, 1200)
    assert Selector(point="100%,100%").point_at(1080, 2400) == (1079, 2399)  # on the screen, not past it
    assert Selector(text="Send").point_at(1080, 2400) is None


@pytest.mark.parametrize(("fields", "says"), [
    ({"point": "50%,50"}, '"x,y" in pixels or "x%,y%"'),
    ({"point": "left,top"}, '"x,y" in pixels or "x%,y%"'),
    ({"point": "-5,10"}, '"x,y" in pixels or "x%,y%"'),
    ({"point": "120%,10%"}, "at most 100%"),
    ({"point": "1,2", "text": "Send"}, "a point selector has no other field"),
    ({"point": "1,2", "index": 0}, "a point selector has no other field"),
    ({}, "at least one of"),
])
def test_a_bad_point_is_refused_with_the_forms_it_accepts(fields: dict[str, object], says: str) -> None:
    assert says in _error(**fields)


def test_only_taps_and_long_presses_act_at_a_point() -> None:
    at = Selector(point="10,10")
    Tap(selector=at)
    LongPress(selector=at)
    for build in (lambda: TypeText(selector=at, text="x"), lambda: ScrollTo(selector=at),
                  lambda: WaitFor(selector=at),
                  lambda: AgentStep(instruction="x", action=Tap(selector=at), expect=at)):
        with pytest.raises(ValidationError, match="cannot be a point selector"):
            build()


def test_open_link_takes_a_uri_with_a_scheme_and_a_package_name() -> None:
    link = OpenLink(url="mailto:dana@whitfieldstudio.com?subject=Hi", package="com.google.android.gm")
    assert link.scheme == "mailto"
    assert "mailto:dana@whitfieldstudio.com" in action_text(link)
    step = AgentStep.model_validate({"instruction": "mail Dana", "action": {"kind": "open_link",
                                                                           "url": "https://example.com/a"}})
    assert isinstance(step.action, OpenLink) and step.action.package is None
    for bad in ({"url": "no scheme here"}, {"url": "https://x.com/a b"}, {"url": "https://x.com/\n;reboot"},
                {"url": "https://x.com", "package": "com.x; reboot"}, {"url": "x:" + "a" * 2001}):
        with pytest.raises(ValidationError):
            OpenLink(**bad)  # type: ignore[arg-type]


def test_a_pixel_point_is_taken_as_given_and_a_percentage_stays_on_the_screen() -> None:
    assert Selector(point="5000,10").point_at(1080, 2400) == (5000, 10)  # the runner refuses it: off the screen
    assert Selector(point="0%,0%").point_at(1080, 2400) == (0, 0)
