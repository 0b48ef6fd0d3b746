"""A first-run page whose way forward waits for an "I agree" tick goes to the person; an optional tick, a
setting, a sign-up form or a ticked box leaves the page usable."""

from __future__ import annotations

from functools import cache

import pytest

from starebrain.models.selector import Selector
from starebrain.obstruction import ObstructionKind, detect
from starebrain.obstruction.lexicon import languages
from starebrain.profiles import load_profiles
from starebrain.snapshot import ScreenSnapshot
from tests.obstruction import screens
from tests.snapshot.dumps import node

APP = screens.APP
W, H = screens.W, screens.H


@cache
def profile():
    return load_profiles().device_profile("google")


def _page(says: str, *, checked: bool = False, start_enabled: bool = False, field: bool = False,
          cls: str = "android.widget.CheckBox", target: Selector | None = None, flutter: bool = False):
    """Compose's first-run page: a title, a tick box with its label beside it (not inside), a "Get started"."""
    title = node("Welcome", pkg=APP, bounds="[42,317][532,392]")
    box = node(cls=cls, pkg=APP, bounds="[43,579][169,705]", checkable=True, checked=checked, clickable=True)
    label = node(says, pkg=APP, bounds="[189,578][851,639]")
    entry = node("", cls="android.widget.EditText", pkg=APP, bounds="[42,900][1038,1000]", editable=True) \
        if field else ""
    start = node(cls="android.view.View", pkg=APP, bounds="[42,1211][312,1337]", clickable=True,
                 enabled=start_enabled, children=node("Get started", pkg=APP, bounds="[105,1248][249,1300]"))
    if flutter:  # a disabled Flutter button: no tap action, so not clickable; its label in its description
        start = node(cls="android.widget.Button", pkg=APP, desc="Get started", bounds="[42,1211][312,1337]",
                     enabled=start_enabled)
    page = node(cls="android.view.View", pkg=APP, bounds=f"[0,0][{W},{H}]",
                children=title + box + label + entry + start)
    return detect(ScreenSnapshot.from_xml(screens.screen(page)), profile(), target=target)


def test_a_page_waiting_for_an_agree_tick_goes_to_the_person_in_any_language():
    for says in ("I have read and agree to the Terms of Service", "我已閱讀並同意服務條款",
                 "Li e concordo com os termos", "Ich stimme den Nutzungsbedingungen zu"):
        found = _page(says)
        assert found.kind is ObstructionKind.UNKNOWN and found.clearance is None, (says, found.describe())
    assert _page("I agree to the Terms", flutter=True).kind is ObstructionKind.UNKNOWN


def test_an_optional_tick_a_setting_a_form_or_a_ticked_box_leaves_the_page_usable():
    agree = "I agree to the Terms of Service"
    for found in (_page(agree, start_enabled=True),                  # nothing waits for the tick
                  _page(agree, checked=True),                        # ticked: the button waits for something else
                  _page(agree, field=True),                          # a sign-up form: the step types into it
                  _page(agree, cls="android.widget.Switch"),         # a switch is a setting, not a box to accept
                  _page("Enable automatic backups"),                 # a setting's words, not an agreement
                  _page(agree, flutter=True, start_enabled=True),    # an enabled Flutter button
                  _page(agree, target=Selector(text="Welcome"))):    # the step works on this page
        assert found.kind is ObstructionKind.READY, found.describe()


@pytest.mark.parametrize("lang", sorted(languages()))
def test_each_languages_first_agree_word_beside_the_box_goes_to_the_person(lang):
    says = languages()[lang].agree[0]
    assert _page(says).kind is ObstructionKind.UNKNOWN, (lang, says)


def _consent_page(label: str, *, field: bool = False, target: Selector | None = None):
    """A first-run privacy page filling the app's window: its text, "Disagree" top right and one wide button."""
    kids = (node("Disagree", pkg=APP, bounds="[870,63][1038,136]", clickable=True)
            + node("A note about privacy", pkg=APP, bounds="[42,627][1038,708]")
            + node("By continuing you agree to our Privacy Statement.", pkg=APP, bounds="[63,1938][1017,2032]")
            + (node("", cls="android.widget.EditText", pkg=APP, bounds="[42,900][1038,1000]", editable=True)
               if field else "")
            + node(label, cls="android.widget.Button", pkg=APP, bounds="[63,2106][1017,2232]", clickable=True))
    page = node(cls="android.widget.LinearLayout", pkg=APP, bounds=f"[0,0][{W},{H}]", children=kids)
    return detect(ScreenSnapshot.from_xml(screens.screen(page)), profile(), target=target)


def test_a_page_whose_button_says_agree_goes_to_the_person_but_a_form_or_another_verb_does_not():
    for label in ("AGREE", "同意", "Acepto"):
        found = _consent_page(label)
        assert found.kind is ObstructionKind.UNKNOWN and found.clearance is None, (label, found.describe())
    for found in (_consent_page("AGREE", field=True),                      # a form: the step fills it
                  _consent_page("Agreements"),                             # a page about agreements, no consent
                  _consent_page("Continue"),                               # no agree word on the button
                  _consent_page("AGREE", target=Selector(text="AGREE"))):  # the step presses it itself
        assert found.kind is ObstructionKind.READY, found.describe()


def test_a_box_named_after_the_terms_gates_the_page_as_an_agree_box_does():
    # Flutter's semantics label on the box itself: "Terms of Service and Privacy Policy acceptance checkbox"
    for says in ("Terms of Service and Privacy Policy acceptance checkbox", "服务条款"):
        found = _page(says, flutter=True)
        assert found.kind is ObstructionKind.UNKNOWN and found.clearance is None, (says, found.describe())
    # a box about anything else, even before a disabled button, is the page's own option
    assert _page("Send me product news and offers", flutter=True).kind is ObstructionKind.READY


def _disclaimer(way_on: str):
    """React Native's onboarding step: a box and a disabled Pressable (a plain ViewGroup, not clickable)."""
    box = node(cls="android.widget.CheckBox", pkg=APP, desc="I understand this is not a medical diagnosis.",
               checkable=True, clickable=True, bounds="[40,1032][114,1100]")
    label = node("I understand this is not a medical diagnosis.", pkg=APP, bounds="[138,1040][650,1090]")
    button = node(cls="android.view.ViewGroup", pkg=APP, desc=f"{way_on} to medical disclaimer", enabled=False,
                  bounds="[40,1183][680,1284]", children=node(way_on, pkg=APP, bounds="[312,1213][408,1254]"))
    page = node(cls="android.view.ViewGroup", pkg=APP, bounds=f"[0,0][{W},{H}]",
                children=node("Important: This Is Not Medical Advice", pkg=APP, bounds="[51,413][669,524]")
                + box + label + button)
    return detect(ScreenSnapshot.from_xml(screens.screen(page)), profile())


def test_a_disabled_i_agree_waiting_for_any_box_goes_to_the_person_but_a_disabled_continue_does_not():
    found = _disclaimer("I Agree")
    assert found.kind is ObstructionKind.UNKNOWN and found.clearance is None, found.describe()
    assert _disclaimer("Continue").kind is ObstructionKind.READY
