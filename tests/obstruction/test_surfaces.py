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
