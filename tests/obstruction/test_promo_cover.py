"""Full-window promo covers: a put-off beside a never-tap call to action, an image creative with a labelled close."""

from __future__ import annotations

from functools import cache

from starebrain.models.selector import Selector
from starebrain.obstruction import ObstructionKind, TapClearance, detect
from starebrain.obstruction.promo_cover import promo_cover
from starebrain.profiles import load_profiles
from starebrain.snapshot import ScreenSnapshot
from tests.obstruction import screens
from tests.snapshot.dumps import node

APP = "com.example.maps"
W, H = screens.W, screens.H


@cache
def profile():
    return load_profiles().device_profile("google")


def _window(*children: str) -> str:
    return screens.screen(node(cls="android.widget.FrameLayout", pkg=APP, bounds=f"[0,0][{W},{H}]",
                               children="".join(children)))


def _upsell(put_off: str = "SKIP", call: str = "Sign in", *extra: str) -> str:
    """A full-screen sign-in card: title, body, its call to action, and a text button in the top corner."""
    return _window(node("Make it your map", pkg=APP, bounds="[80,650][1000,760]"),
                   node("Sign in for quick access to your places", pkg=APP, bounds="[80,780][1000,900]"),
                   screens.button(call, "[420,1640][660,1760]", pkg=APP),
                   screens.button(put_off, "[760,150][1000,280]", pkg=APP), *extra)


def _creative(close_desc: str = "Close promotion", *extra: str, image: str = f"[0,0][{W},{H}]") -> str:
    """A story-style promo: one image filling the window, a close icon, paging halves and a call to action."""
    close = node(cls="android.view.ViewGroup", pkg=APP, desc=close_desc, bounds="[950,160][1030,240]",
                 clickable=True, children=node("\U000f0156", pkg=APP, bounds="[950,160][1030,240]"))
    return _window(node(cls="android.widget.ImageView", pkg=APP, desc="Promotion image", bounds=image), close,
                   node(cls="android.view.ViewGroup", pkg=APP, desc="Previous", bounds="[0,250][540,2190]",
                        clickable=True),
                   node(cls="android.view.ViewGroup", pkg=APP, desc="Next", bounds="[540,250][1080,2190]",
                        clickable=True),
                   screens.button("Fill in the form", "[40,2200][1040,2330]", pkg=APP), *extra)


def _verdict(xml: str):
    return detect(ScreenSnapshot.from_xml(xml), profile())


def _tapped(xml: str) -> str:
    found = _verdict(xml)
    assert found.kind is ObstructionKind.OVERLAY and isinstance(found.clearance, TapClearance), found.describe()
    return found.clearance.label


def test_a_full_screen_sign_in_card_is_skipped_never_signed_in():
    assert _tapped(_upsell()) == "SKIP"
    assert _tapped(_upsell("Not now", "Subscribe")) == "Not now"


def test_a_page_with_a_skip_beside_a_harmless_button_or_a_form_is_no_cover():
    snap = ScreenSnapshot.from_xml
    # onboarding: "Skip" beside "Next" / "Get started" is the app's own page
    assert promo_cover(snap(_upsell("Skip", "Next")), profile(), None) is None
    # a sign-in page: its fields make it the app's page
    field = node("", cls="android.widget.EditText", pkg=APP, bounds="[80,1000][1000,1100]", focusable=True)
    assert promo_cover(snap(_upsell("SKIP", "Sign in", field)), profile(), None) is None
    # a toolbar's back icon (a description, not a text button) beside "Sign in"
    back = node(cls="android.widget.ImageButton", pkg=APP, desc="Close", bounds="[0,150][140,280]", clickable=True)
    assert promo_cover(snap(_window(back, screens.button("Sign in", "[420,1640][660,1760]", pkg=APP))),
                       profile(), None) is None
    # the step itself targets the call to action
    assert promo_cover(snap(_upsell()), profile(), Selector(text="Sign in")) is None


def test_an_image_creative_is_closed_by_its_labelled_close_icon_in_any_language():
    assert _tapped(_creative()) == "Close promotion"
    assert _tapped(_creative("Закрыть акцию")) == "Закрыть акцию"


def test_a_photo_page_or_a_busy_screen_over_an_image_is_no_cover():
    snap = ScreenSnapshot.from_xml
    # the image is a banner, not the whole window
    assert promo_cover(snap(_creative(image=f"[0,0][{W},900]")), profile(), None) is None
    # a control in the corner that closes nothing ("Closet" starts with no dismiss word)
    assert promo_cover(snap(_creative("Closet")), profile(), None) is None
    # a screen with many controls over a background image (a counter, a feed)
    more = [screens.button(f"Item {i}", f"[40,{400 + 100 * i}][500,{480 + 100 * i}]", pkg=APP) for i in range(4)]
    assert promo_cover(snap(_creative("Close promotion", *more)), profile(), None) is None
