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


def test_an_apps_own_permission_prompt_is_refused_never_allowed():
    # The app's rationale dialog (not the system's permission controller): "Deny" grants nothing.
    found = detect(ScreenSnapshot.from_xml(_dialog("Deny", "Allow")), profile())
    assert isinstance(found.clearance, TapClearance) and found.clearance.label == "Deny", found.describe()
    de = detect(ScreenSnapshot.from_xml(_dialog("Ablehnen", "Zulassen")), profile())
    assert isinstance(de.clearance, TapClearance) and de.clearance.label == "Ablehnen", de.describe()
    # Look-alikes: an "Allow" beside a payment, or over a text about a subscription, stays with the person.
    for labels in (("Deny", "Allow", "Buy"),):
        found = detect(ScreenSnapshot.from_xml(_dialog(*labels)), profile())
        assert found.kind is ObstructionKind.UNKNOWN and found.clearance is None, (labels, found.describe())
    paid = _dialog("Deny", "Allow").replace("Find friends by syncing your contacts", "Allow the subscription")
    found = detect(ScreenSnapshot.from_xml(paid), profile())
    assert found.kind is ObstructionKind.UNKNOWN and found.clearance is None, found.describe()


def _alert(title: str, message: str, *buttons: str) -> str:
    """An AppCompat AlertDialog in its own window: alertTitle, message and `buttons` as button1, button2..."""
    keys = "".join(node(label, rid=f"android:id/button{i + 1}", cls="android.widget.Button",
                        bounds=f"[{810 - 200 * i},1214][{978 - 200 * i},1356]", clickable=True)
                   for i, label in enumerate(buttons))
    panel = (node(title, rid="android:id/alertTitle", bounds="[133,978][947,1056]")
             + node(message, rid="android:id/message", bounds="[70,1077][1010,1193]") + keys)
    return hierarchy(node(cls="android.widget.FrameLayout", rid="android:id/content", bounds="[70,931][1010,1367]",
                          children=node(cls="android.widget.LinearLayout", rid="android:id/parentPanel",
                                        bounds="[70,931][1010,1367]", children=panel)))


def test_a_notice_with_a_lone_ok_is_acknowledged_even_about_a_subscription():
    found = detect(ScreenSnapshot.from_xml(_alert("Subscription Error", "The store could not be reached.", "OK")),
                   profile())
    assert isinstance(found.clearance, TapClearance) and found.clearance.label == "OK", found.describe()


def test_a_subscription_dialog_with_a_choice_or_terms_still_goes_to_the_person():
    # Look-alikes: the same notice offering a second button, and a lone "OK" that would accept terms.
    for screen in (_alert("Subscription", "Renew your subscription now?", "OK", "Later"),
                   _alert("Subscription", "By continuing you accept the Terms of Service.", "OK")):
        found = detect(ScreenSnapshot.from_xml(screen), profile())
        assert found.kind is ObstructionKind.UNKNOWN and found.clearance is None, found.describe()


def test_a_switch_word_naming_what_it_turns_on_is_cancelled_too():
    for labels, cancel in ((("Cancel", "Turn on notifications"), "Cancel"), (("取消", "开启青少年模式"), "取消")):
        found = detect(ScreenSnapshot.from_xml(_dialog(*labels)), profile())
        # The barrier described "Close" is the dialog's own dismiss control; the switch is never pressed.
        assert isinstance(found.clearance, TapClearance) and found.clearance.label in (cancel, "Close"), \
            found.describe()
    # Look-alikes: what follows the switch word is itself risky (a never-tap word or a danger text).
    for labels in (("Cancel", "Confirm and pay"), ("Cancel", "Enable subscription"), ("Cancel", "Turn on and buy"),
                   ("Not now", "Allow access to account")):
        found = detect(ScreenSnapshot.from_xml(_dialog(*labels)), profile())
        assert found.kind is ObstructionKind.UNKNOWN and found.clearance is None, (labels, found.describe())
