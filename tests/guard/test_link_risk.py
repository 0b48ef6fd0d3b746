"""Opening a link: the URL decides whether the person is asked, before and at act time."""

from __future__ import annotations

import pytest

from starebrain.guard import ConfirmationGuard
from starebrain.guard.concrete_action import concrete_action
from starebrain.guard.link_risk import judge_link
from starebrain.models import AgentStep, OpenLink
from starebrain.profiles import load_profiles
from starebrain.snapshot import ScreenSnapshot

GUARD = ConfirmationGuard(load_profiles())
EMPTY = ScreenSnapshot.from_xml('<?xml version="1.0"?><hierarchy rotation="0"><node index="0" text="" '
                                'resource-id="" class="android.widget.FrameLayout" package="com.android.launcher3" '
                                'content-desc="" bounds="[0,0][1080,2400]" /></hierarchy>')


@pytest.mark.parametrize(("url", "group"), [
    ("https://example.com/docs", ""),
    ("geo:52.52,13.40", ""),
    ("mailto:dana@whitfieldstudio.com?subject=Invoice", ""),
    ("sms:+15550100", ""),
    ("mailto:dana@whitfieldstudio.com?body=the%20door%20code%20is%204417", "send"),
    ("smsto:+15550100?body=hello", "send"),
    ("sms:+15550100?sms_body=hello", "send"),
    ("tel:+19005550199", "send"),
    ("market://details?id=com.evil.app", "install"),
    ("intent://scan/#Intent;scheme=zxing;end", "install"),
    ("https://cdn.example.com/free-game.apk", "install"),
    ("https://play.google.com/store/apps/details?id=x", "install"),
    ("upi://pay?pa=greg@bank&am=450", "money"),
    ("https://www.paypal.me/greg/450", "money"),
    ("https://online.kontorbank.eu/transfer", "money"),
    ("javascript:alert(1)", "unknown scheme"),
    ("content://com.android.contacts/data", "unknown scheme"),
])
def test_the_url_alone_says_what_opening_it_may_set_off(url: str, group: str) -> None:
    assert judge_link(url).group == group


@pytest.mark.parametrize(("url", "asks"), [
    ("mailto:dana@whitfieldstudio.com?subject=Hi", False),
    ("https://example.com", False),
    ("mailto:dana@whitfieldstudio.com?body=pay%20me", True),
    ("market://details?id=com.evil.app", True),
    ("upi://pay?pa=greg@bank&am=450", True),
    ("weird-scheme:whatever", True),
])
def test_planned_and_concrete_open_link_ask_alike(url: str, asks: bool) -> None:
    step = AgentStep(instruction="open it", action=OpenLink(url=url), target_package="com.google.android.apps.tasks")
    planned = GUARD.check(step)
    actual = GUARD.check_actual(step, concrete_action(step, EMPTY, None))
    assert planned.needs_confirmation is asks and actual.needs_confirmation is asks, (planned, actual)
    if asks:
        assert judge_link(url).why in planned.reason
    assert "open_link" in planned.reason


def test_an_approval_of_a_link_is_bound_to_its_url() -> None:
    one = concrete_action(AgentStep(instruction="x", action=OpenLink(url="upi://pay?am=10")), EMPTY, None)
    other = concrete_action(AgentStep(instruction="x", action=OpenLink(url="upi://pay?am=1000")), EMPTY, None)
    assert one.digest != other.digest
    assert "upi://pay?am=10" in one.describe()
