"""Dialogs are cancelled without choosing: a "Back" button in any language, else the back key."""

from __future__ import annotations

from functools import cache

import pytest

from starebrain.obstruction import BackClearance, ObstructionKind, TapClearance, detect
from starebrain.profiles import load_profiles
from starebrain.snapshot import ScreenSnapshot
from tests.obstruction import screens


@cache
def profile():
    return load_profiles().device_profile("google")


def _verdict(*labels: str, title: str = "Account exit"):
    dialog = screens.dialog_window(title, "You can exit and keep your data on this device.", *labels,
                                   ids=("android:id/button2", "android:id/button1", "android:id/button3"))
    return detect(ScreenSnapshot.from_xml(screens.screen(screens.app_window(), dialog)), profile())


def test_a_dialog_without_a_cancel_word_is_cancelled_with_back():
    found = _verdict("Keep on device", "Exit")
    assert found.kind is ObstructionKind.OVERLAY and isinstance(found.clearance, BackClearance), found.describe()


def test_a_dialog_that_offers_something_risky_still_goes_to_the_person():
    found = _verdict("Later maybe", "Install", title="A new plugin is ready")
    assert found.kind is ObstructionKind.UNKNOWN and found.clearance is None, found.describe()


@pytest.mark.parametrize("back", ["Back", "Voltar", "Zurück", "Retour", "Atrás", "Назад", "返回", "戻る"])
def test_a_back_button_in_any_language_cancels_the_dialog(back):
    found = _verdict(back, "Yes, discard", title="Discard changes?")
    assert isinstance(found.clearance, TapClearance) and found.clearance.label == back, found.describe()


def test_a_cancel_word_is_preferred_to_back():
    found = _verdict("Back", "Cancel", "Yes, discard", title="Discard changes?")
    assert isinstance(found.clearance, TapClearance) and found.clearance.label == "Cancel", found.describe()
