"""Property: whatever a dialog offers, the detector never taps install/pay/agree/account buttons."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from starebrain.obstruction import ObstructionKind, TapClearance, detect
from starebrain.profiles import DangerPolicy, load_profiles
from starebrain.profiles.words import mentions
from starebrain.snapshot import ScreenSnapshot
from tests.obstruction import screens

PROFILES = load_profiles()
WORDS = PROFILES.words
LABELS = st.sampled_from([*WORDS.untappable, *WORDS.dismiss, *WORDS.acknowledge, "Rate now", "Next", "Open",
                          "Pay ₹500", "Install update", "Accept all cookies"])
TITLES = st.sampled_from(["Enjoying Tasks?", "What's new", "Special offer", "Notice", "Terms of service"])


@settings(max_examples=150, deadline=None)
@given(TITLES, st.lists(LABELS, min_size=1, max_size=3, unique=True), st.sampled_from(["google", "samsung", "xiaomi"]),
       st.sampled_from(list(DangerPolicy)))
def test_a_tap_clearance_never_presses_a_dangerous_button(title, labels, brand, policy):
    xml = screens.screen(screens.app_window(), screens.dialog_window(title, "", *labels))
    profile = PROFILES.device_profile(brand)
    profile = profile.model_copy(update={"words": profile.words.model_copy(update={"danger_policy": policy})})
    found = detect(ScreenSnapshot.from_xml(xml), profile)
    offered_danger = any(mentions(lab, WORDS.never_tap) for lab in labels)
    if offered_danger and policy is DangerPolicy.ASK_PERSON:
        assert found.kind is ObstructionKind.UNKNOWN and found.clearance is None
    if isinstance(found.clearance, TapClearance):
        assert not mentions(found.clearance.label, WORDS.untappable)
        assert found.clearance.label in labels
