"""Dialog surfaces: ids that make a whole window a dialog."""

from __future__ import annotations

from starebrain.obstruction import BackClearance, ObstructionKind, detect
from starebrain.profiles import load_profiles
from starebrain.snapshot import ScreenSnapshot
from tests.snapshot.dumps import hierarchy, node


def _window(list_id: str) -> str:
    """React Native's red box (`RedBoxContentView`): the error stack over "Dismiss (ESC)" / "Reload (R, R)"."""
    stack = node(cls="android.widget.ListView", rid=f"com.example.app:id/{list_id}", bounds="[0,63][1080,2169]",
                 scrollable=True, children=node("Unable to load script", bounds="[0,63][1080,400]"))
    buttons = node(cls="android.widget.LinearLayout", bounds="[0,2169][1080,2337]", children=node(
        "DISMISS\n(ESC)", cls="android.widget.Button", clickable=True, bounds="[11,2180][529,2326]") + node(
        "RELOAD\n(R, R)", cls="android.widget.Button", clickable=True, bounds="[551,2180][1069,2326]"))
    page = node(cls="android.widget.LinearLayout", bounds="[0,63][1080,2337]", children=stack + buttons)
    return hierarchy(node(cls="android.widget.FrameLayout", bounds="[0,0][1080,2400]", children=page))


def _verdict(xml: str):
    return detect(ScreenSnapshot.from_xml(xml), load_profiles().device_profile("google"))


def test_a_react_native_red_box_is_cancelled_with_back():
    found = _verdict(_window("rn_redbox_stack"))
    assert found.kind is ObstructionKind.OVERLAY and isinstance(found.clearance, BackClearance), found.describe()


def test_the_same_page_with_another_list_is_ready():
    assert _verdict(_window("results")).kind is ObstructionKind.READY


def _feed(holder: str) -> str:
    """A video feed whose layout keeps a full-screen `dialog_container` for dialogs it may mount later."""
    video = node(cls="androidx.viewpager.widget.ViewPager", desc="Video", scrollable=True, bounds="[0,0][1080,2200]",
                 children=node("@author", bounds="[40,1900][600,1960]") + node(
                     "Like", cls="android.widget.Button", clickable=True, bounds="[900,1200][1060,1360]"))
    page = node(cls="android.widget.FrameLayout", bounds="[0,0][1080,2337]", children=holder + video)
    return hierarchy(node(cls="android.widget.FrameLayout", bounds="[0,0][1080,2400]", children=page))


def test_an_empty_dialog_container_draws_nothing():
    empty = node(cls="android.view.ViewGroup", rid="com.example.app:id/dialog_container", bounds="[0,0][1080,2337]")
    assert _verdict(_feed(empty)).kind is ObstructionKind.READY


def test_a_dialog_container_holding_a_dialog_is_one():
    card = node(cls="android.widget.LinearLayout", bounds="[100,900][980,1400]", children=node(
        "Delete this video?", bounds="[140,940][940,1000]") + node(
        "Cancel", cls="android.widget.Button", clickable=True, bounds="[500,1280][720,1380]") + node(
        "Delete", cls="android.widget.Button", clickable=True, bounds="[740,1280][960,1380]"))
    held = node(cls="android.view.ViewGroup", rid="com.example.app:id/dialog_container", bounds="[0,0][1080,2337]",
                children=card)
    found = _verdict(_feed(held))
    assert found.kind is ObstructionKind.OVERLAY and found.clearance is not None, found.describe()


def _landscape_window(bounds: str) -> str:
    """A few controls in one app window of a landscape dump (rotation 1), with no system bars in it."""
    kids = (node("", cls="android.widget.ImageButton", desc="Navigate up", clickable=True, bounds="[75,84][233,219]")
            + node("New outgoing connection", bounds="[277,125][724,178]")
            + node("Name", cls="android.widget.EditText", clickable=True, bounds="[75,664][2181,790]")
            + node("URL", cls="android.widget.EditText", clickable=True, bounds="[75,821][2181,947]"))
    return hierarchy(node(cls="android.widget.FrameLayout", bounds=bounds, children=kids), rotation=1)


def test_an_activity_laid_out_beside_the_cutout_is_a_page_but_a_window_inset_from_the_top_is_a_dialog():
    # LAYOUT_IN_DISPLAY_CUTOUT_MODE_DEFAULT: in landscape the activity starts the notch's depth in from the left
    found = _verdict(_landscape_window("[75,0][2316,1080]"))
    assert found.kind is ObstructionKind.READY, found.describe()
    found = _verdict(_landscape_window("[75,120][2316,1080]"))
    assert found.kind is ObstructionKind.OVERLAY, found.describe()
