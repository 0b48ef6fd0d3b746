"""The Mobile Ads SDK's test interstitial (a WebView creative under its "Test Ad" badge) is closed with back."""

from __future__ import annotations

from functools import cache

from starebrain.models.selector import Selector
from starebrain.obstruction import BackClearance, ObstructionKind, detect
from starebrain.obstruction.ad_interstitial import ad_interstitial
from starebrain.profiles import load_profiles
from starebrain.snapshot import ScreenSnapshot
from tests.obstruction import screens
from tests.snapshot.dumps import hierarchy, node

APP = "com.example.player"
W, H = screens.W, screens.H


@cache
def profile():
    return load_profiles().device_profile("google")


def _ad(*extra: str, badge: str = "Test Ad") -> str:
    """AdActivity's layout: a RelativeLayout holding the creative's frame, its WebView and the SDK's badge."""
    creative = (node(cls="android.webkit.WebView", pkg=APP, bounds=f"[0,80][{W},{H - 100}]", clickable=True, NAF=True)
                + node(badge, pkg=APP, bounds=f"[{W // 2 - 80},80][{W // 2 + 80},140]") + "".join(extra))
    frame = node(cls="android.widget.FrameLayout", pkg=APP, bounds=f"[0,80][{W},{H - 100}]", children=creative)
    content = node(cls="android.widget.FrameLayout", pkg=APP, rid="android:id/content", bounds=f"[0,0][{W},{H}]",
                   children=node(cls="android.widget.RelativeLayout", pkg=APP, bounds=f"[0,0][{W},{H}]",
                                 children=frame))
    return hierarchy(node(cls="android.widget.FrameLayout", pkg=APP, bounds=f"[0,0][{W},{H}]", children=content))


def _verdict(xml: str):
    return detect(ScreenSnapshot.from_xml(xml), profile())


def test_a_test_interstitial_whose_close_control_is_inside_the_creative_is_closed_with_back():
    found = _verdict(_ad())
    assert found.kind is ObstructionKind.OVERLAY and isinstance(found.clearance, BackClearance), found.describe()


def test_a_web_page_or_an_ad_with_its_own_exposed_controls_is_not_taken_for_it():
    # an app's own WebView page: words of its own beside (or instead of) the badge
    assert ad_interstitial(ScreenSnapshot.from_xml(_ad(badge="Test Administration"))) is None
    assert ad_interstitial(ScreenSnapshot.from_xml(_ad(node("Welcome", pkg=APP, bounds="[0,200][500,260]")))) is None
    # a control outside the creative (the app's, or an exposed close button) is left to the other rules
    close = screens.button("", f"[{W - 120},90][{W - 20},190]", pkg=APP)
    assert ad_interstitial(ScreenSnapshot.from_xml(_ad(close))) is None
    # the step itself targets the creative
    assert ad_interstitial(ScreenSnapshot.from_xml(_ad()), Selector(class_name="android.webkit.WebView")) is None
