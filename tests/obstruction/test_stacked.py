"""A whole-screen layer with a close button drawn over the page in the same window (Compose, React Native)."""

from __future__ import annotations

from functools import cache

import pytest

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


def _card_layer(ordered: bool, layer_order: str = "2", card: str = "[240,700][840,1400]",
                page_orders: tuple[str, str] = ("0", "1")) -> str:
    """A MAUI-style popup: a page-sized layer holding one card, listed before the page's two halves (as the
    accessibility location sort lists a taller sibling at the same corner first)."""
    order = (lambda o: {"drawing_order": o}) if ordered else (lambda o: {})
    left, top = card[1:].split("]")[0].split(",")
    kids = (node("Administrator access", bounds=f"[{int(left) + 20},{int(top) + 20}][800,{int(top) + 80}]")
            + node("Cancel", cls="android.widget.Button", clickable=True,
                   bounds=f"[{int(left) + 20},{int(top) + 500}][500,{int(top) + 580}]"))
    layer = node(cls="android.view.ViewGroup", bounds="[0,0][1080,2100]", **order(layer_order),
                 children=node(cls="android.view.ViewGroup", bounds=card, children=kids))
    halves = (node(cls="android.view.ViewGroup", bounds="[0,0][1080,1000]", **order(page_orders[0]),
                   children=node("Fresh milk", bounds="[40,700][1040,760]"))
              + node(cls="android.view.ViewGroup", bounds="[0,1000][1080,2100]", **order(page_orders[1]),
                     children=node("Stock 100 L", bounds="[40,1200][1040,1260]")))
    return _screen(layer + halves)


@pytest.mark.parametrize("ordered", [False, True])
def test_a_card_layer_over_the_page_is_cancelled(ordered):
    found = _verdict(_card_layer(ordered=ordered))
    assert isinstance(found.clearance, TapClearance) and found.clearance.label == "Cancel", found.describe()


def test_a_card_layer_drawn_under_the_page_is_no_dialog():
    assert _verdict(_card_layer(ordered=True, layer_order="0")).kind is ObstructionKind.READY


def test_a_card_layer_in_a_webview_whose_nodes_all_say_drawing_order_0_is_cancelled():
    # Chromium's virtual nodes report drawing-order 0 throughout: that orders nothing, so document order counts.
    found = _verdict(_card_layer(ordered=True, layer_order="0", page_orders=("0", "0")))
    assert isinstance(found.clearance, TapClearance) and found.clearance.label == "Cancel", found.describe()


def test_a_layer_whose_content_reaches_its_edges_is_the_page():
    found = _verdict(_card_layer(ordered=False, card="[0,650][1080,1400]"))
    assert found.kind is ObstructionKind.READY, found.describe()
