"""Each phone language of obstruction_languages.yaml clears a dialog with its own words and never
presses its own grant/pay/install/agree words."""

from __future__ import annotations

from functools import cache

import pytest

from starebrain.obstruction import ObstructionKind, TapClearance, detect
from starebrain.obstruction.lexicon import languages, lexicon, word_of
from starebrain.profiles import load_profiles
from starebrain.snapshot import ScreenSnapshot
from tests.obstruction import screens

# The 15 most used phone languages must be there (more are welcome).
REQUIRED = ("en", "zh", "es", "hi", "ar", "pt", "bn", "ru", "ja", "de", "fr", "id", "tr", "vi", "ko")


@cache
def profile():
    return load_profiles().device_profile("google")


def test_the_most_used_phone_languages_are_all_there():
    assert set(REQUIRED) <= set(languages())


@pytest.mark.parametrize("lang", sorted(languages()))
def test_every_language_names_a_bottom_sheets_drag_handle(lang):
    # Without its own label a modal sheet on a phone in that language is not known by its handle.
    assert languages()[lang].drag_handle, f"{lang} has no drag_handle label"


def _verdict(*labels: str, title: str = "Notice", pkg: str = screens.APP):
    xml = screens.screen(screens.app_window(), screens.dialog_window(title, "", *labels, pkg=pkg))
    return detect(ScreenSnapshot.from_xml(xml), profile())


@pytest.mark.parametrize("lang", sorted(languages()))
def test_a_dialog_is_dismissed_with_the_languages_own_dismiss_word(lang):
    words = languages()[lang]
    found = _verdict(words.acknowledge[0], words.dismiss[0])
    assert found.kind is ObstructionKind.OVERLAY, found.describe()
    assert isinstance(found.clearance, TapClearance)
    assert word_of(found.clearance.label, words.dismiss), found.describe()


@pytest.mark.parametrize("lang", sorted(languages()))
def test_an_information_dialog_is_acknowledged_in_the_languages_words(lang):
    words = languages()[lang]
    found = _verdict(words.acknowledge[0])
    assert isinstance(found.clearance, TapClearance), found.describe()
    assert word_of(found.clearance.label, words.acknowledge)


@pytest.mark.parametrize("lang", sorted(languages()))
def test_a_dialog_offering_a_grant_pay_install_or_agree_goes_to_the_person(lang):
    words = languages()[lang]
    for risky in words.never_tap:
        found = _verdict(risky, words.dismiss[0])
        # A switch, or an app's own "Allow" before the system's prompt: cancelled with the dismiss word, never pressed
        if risky in words.setting or risky in words.grant:
            assert isinstance(found.clearance, TapClearance), (risky, found.describe())
            assert word_of(found.clearance.label, words.dismiss), (risky, found.describe())
            continue
        assert found.kind is ObstructionKind.UNKNOWN and found.clearance is None, (risky, found.describe())


@pytest.mark.parametrize("lang", sorted(languages()))
def test_a_system_prompt_is_cancelled_never_confirmed(lang):
    # The Vietnamese USB dialog ("HỦY" / "OK") was answered with OK, which changed a USB setting.
    words = languages()[lang]
    found = _verdict("OK", words.dismiss[-1], title="USB", pkg="android")
    assert found.kind is ObstructionKind.SYSTEM_DIALOG, found.describe()
    assert isinstance(found.clearance, TapClearance)
    assert word_of(found.clearance.label, lexicon(profile().words).dismiss)


@pytest.mark.parametrize("lang", sorted(languages()))
def test_a_vpn_consent_goes_to_the_person_in_every_language(lang):
    # AOSP VpnDialogs' ConfirmDialog ("Connection request" / CANCEL / OK): an app may watch all network traffic.
    # Its CANCEL refuses, yet the consent is the person's, like the screen-capture consent.
    words = languages()[lang]
    assert words.access_grant, f"{lang} has no access_grant phrase"
    for phrase in words.access_grant:
        xml = screens.screen(screens.app_window(), screens.dialog_window(
            "VPN", f"KiloProxy … {phrase}.", words.dismiss[0], "OK", pkg="com.android.vpndialogs",
            ids=("android:id/button2", "android:id/button1")))
        found = detect(ScreenSnapshot.from_xml(xml), profile())
        assert found.kind is ObstructionKind.PERMISSION and found.clearance is None, (phrase, found.describe())


def test_the_vietnamese_usb_dialog_is_cancelled():
    found = _verdict("OK", "HỦY", title="Dùng USB để", pkg="android")
    assert isinstance(found.clearance, TapClearance) and found.clearance.label == "HỦY"
