"""A whole-screen layer with a close button drawn over the page in the same window (Compose, React Native)."""

from __future__ import annotations

from functools import cache

from starebrain.obstruction import ObstructionKind, TapClearance, detect
from starebrain.profiles import load_profiles
from starebrain.snapshot import ScreenSnapshot
from tests.snapshot.dumps import hierarchy, node


@cache
def profile():
    return load_profiles().device_profile("google")


def _verdict(xml: str):
    return detect(ScreenSnapshot.from_xml(xml), profile())


def _page() -> str:
    return node(cls="android.view.View", bounds="[0,0][1080,2100]", drawing_order="0", children=(
        node("Go faster", bounds="[300,480][780,580]")
        + node("Monthly", cls="android.widget.Button", bounds="[100,1800][500,1950]", clickable=True)
        + node("Yearly", cls="android.widget.Button", bounds="[560,1800][980,1950]", clickable=True)))


def _layer(*buttons: str, title: str = "Welcome back", title_bounds: str = "[300,520][780,640]") -> str:
    kids = node(desc=buttons[0], cls="android.view.View", bounds="[900,100][1040,240]", clickable=True)
    kids += "".join(node(label, cls="android.widget.Button", bounds=f"[100,{900 + 200 * i}][980,{1050 + 200 * i}]",
                         clickable=True) for i, label in enumerate(buttons[1:]))
    return node(cls="android.view.View", bounds="[0,0][1080,2100]", drawing_order="1",
                children=node(title, bounds=title_bounds) + kids)


def _screen(*layers: str) -> str:
    return hierarchy(node(cls="android.widget.FrameLayout", bounds="[0,0][1080,2400]",
                          children=node(cls="android.view.View", bounds="[0,0][1080,2400]", children="".join(layers))))


def test_a_layer_with_a_close_button_over_the_page_is_closed():
    found = _verdict(_screen(_page(), _layer("Close", "Show me")))
    assert isinstance(found.clearance, TapClearance) and found.clearance.label == "Close", found.describe()


def test_a_layer_that_signs_in_with_an_account_goes_to_the_person():
    found = _verdict(_screen(_page(), _layer("Close", "Continue with Google")))
    assert found.kind is ObstructionKind.UNKNOWN and found.needs_person, found.describe()


def test_same_size_layers_without_a_close_button_are_one_screen():
    assert _verdict(_screen(_page(), _layer("Search", "Show me"))).kind is ObstructionKind.READY


def test_a_close_button_in_a_layer_beside_the_page_texts_is_no_overlay():
    layer = _layer("Close", "Show me", title="Notes", title_bounds="[40,2000][300,2080]")
    found = _verdict(_screen(_page(), layer))
    assert found.kind is ObstructionKind.READY, found.describe()
