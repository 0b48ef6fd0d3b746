"""App dialogs handled by `overlay.handle`: a refusal is the safe answer, never the "OK" beside it."""

from __future__ import annotations

from functools import cache

from starebrain.obstruction import ObstructionKind, TapClearance, detect
from starebrain.profiles import load_profiles
from starebrain.snapshot import ScreenSnapshot
from tests.snapshot.dumps import hierarchy, node


@cache
def profile():
    return load_profiles().device_profile("google")


def _dialog(*labels: str) -> str:
    """An in-window dialog behind a "Close" barrier asking to sync contacts, with `labels` as its buttons."""
    buttons = "".join(node(label, cls="android.widget.Button", bounds=f"[{160 + 390 * i},1200][{540 + 390 * i},1330]",
                           clickable=True) for i, label in enumerate(labels))
    card = node("Find friends by syncing your contacts", bounds="[210,840][860,1140]") + buttons
    barrier = node(desc="Close", cls="android.view.View", bounds="[0,0][1080,2028]", clickable=True, children=card)
    return hierarchy(node(cls="android.widget.FrameLayout", bounds="[0,0][1080,2028]", children=barrier))


def test_a_dialog_is_refused_rather_than_acknowledged():
    found = detect(ScreenSnapshot.from_xml(_dialog("Don\u2019t allow", "OK")), profile())
    assert isinstance(found.clearance, TapClearance) and found.clearance.label == "Don\u2019t allow", found.describe()


def test_an_allow_button_still_goes_to_the_person():
    found = detect(ScreenSnapshot.from_xml(_dialog("Allow", "OK")), profile())
    assert found.kind is ObstructionKind.UNKNOWN and found.clearance is None, found.describe()


def test_a_dialog_asking_only_to_turn_something_on_is_cancelled_never_switched_on():
    found = detect(ScreenSnapshot.from_xml(_dialog("Cancel", "Turn on")), profile())
    assert isinstance(found.clearance, TapClearance) and found.clearance.label == "Cancel", found.describe()
    zh = detect(ScreenSnapshot.from_xml(_dialog("取消", "去开启")), profile())
    assert isinstance(zh.clearance, TapClearance) and zh.clearance.label == "取消", zh.describe()
    # "Not turning it on for now" holds the switch word, yet it is the refusal.
    later = detect(ScreenSnapshot.from_xml(_dialog("暂不开启", "立即开启")), profile())
    assert isinstance(later.clearance, TapClearance) and later.clearance.label == "暂不开启", later.describe()


def test_a_dialog_offering_more_than_a_switch_still_goes_to_the_person():
    # Look-alikes: a payment beside the switch, a switch with no cancel word but an "OK", a subscription text.
    for labels in (("Cancel", "Turn on", "Subscribe"), ("OK", "Turn on")):
        found = detect(ScreenSnapshot.from_xml(_dialog(*labels)), profile())
        assert found.kind is ObstructionKind.UNKNOWN and found.clearance is None, (labels, found.describe())
    paid = _dialog("Cancel", "Turn on").replace("Find friends by syncing your contacts", "Turn on the subscription")
    found = detect(ScreenSnapshot.from_xml(paid), profile())
    assert found.kind is ObstructionKind.UNKNOWN and found.clearance is None, found.describe()
