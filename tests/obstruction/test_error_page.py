"""A React Native / Expo host's own error page goes to the person; the red box and look-alikes do not."""

from __future__ import annotations

from functools import cache

from starebrain.models.selector import Selector
from starebrain.obstruction import ObstructionKind, detect
from starebrain.profiles import load_profiles
from starebrain.snapshot import ScreenSnapshot
from tests.obstruction import screens
from tests.snapshot.dumps import node

APP = screens.APP
W, H = screens.W, screens.H


@cache
def profile():
    return load_profiles().device_profile("google")


def _page(*children: str) -> ScreenSnapshot:
    frame = node(cls="android.widget.FrameLayout", pkg=APP, bounds=f"[0,0][{W},{H}]", children="".join(children))
    return ScreenSnapshot.from_xml(screens.screen(frame))


def _frame_row(method: str, file: str, top: int, prefix: str = "") -> str:
    rid = f"{prefix or APP}:id/rn_frame_"
    return node(cls="android.widget.LinearLayout", pkg=APP, bounds=f"[47,{top}][1033,{top + 116}]", children=(
        node(method, pkg=APP, rid=f"{rid}method", bounds=f"[47,{top}][1033,{top + 60}]")
        + node(file, pkg=APP, rid=f"{rid}file", bounds=f"[47,{top + 60}][1033,{top + 116}]")))


def _buttons() -> str:
    return (node("Reload", cls="android.widget.Button", pkg=APP, bounds="[42,2043][1038,2169]", clickable=True)
            + node("Go to home", cls="android.widget.Button", pkg=APP, bounds="[42,2169][1038,2295]", clickable=True))


def test_a_development_builds_error_page_with_react_natives_stack_rows_goes_to_the_person():
    snap = _page(node("There was a problem loading the project.", pkg=APP, bounds="[47,212][1033,358]"),
                 _frame_row("doFrame", "ReactChoreographer.java", 631), _buttons())
    found = detect(snap, profile())
    assert found.kind is ObstructionKind.UNKNOWN and found.needs_person, found.describe()
    # a step that targets the page's own "Reload" is not obstructed by it
    assert detect(snap, profile(), target=Selector(text="Reload")).kind is not ObstructionKind.UNKNOWN


def test_expo_gos_error_activity_goes_to_the_person():
    pager = node(cls="androidx.viewpager.widget.ViewPager", pkg=APP, rid=f"{APP}:id/error_viewPager",
                 bounds=f"[0,0][{W},{H}]", scrollable=True, children=(
                     node("Something went wrong.", pkg=APP, bounds="[81,810][742,895]")
                     + node("", cls="android.widget.ImageButton", pkg=APP, bounds="[147,1422][540,1517]",
                            clickable=True)))
    assert detect(_page(pager), profile()).kind is ObstructionKind.UNKNOWN


def test_a_page_that_only_talks_about_errors_or_a_red_box_is_not_this_page():
    plain = _page(node("There was a problem loading the project.", pkg=APP, bounds="[47,212][1033,358]"),
                  node("doFrame", pkg=APP, rid=f"{APP}:id/method_name", bounds="[47,631][1033,691]"), _buttons())
    assert detect(plain, profile()).kind is ObstructionKind.READY
    red_box = _page(node(cls="android.widget.ListView", pkg=APP, rid=f"{APP}:id/rn_redbox_stack",
                         bounds="[0,0][1080,2000]", scrollable=True,
                         children=_frame_row("doFrame", "ReactChoreographer.java", 100)), _buttons())
    assert detect(red_box, profile()).kind is not ObstructionKind.UNKNOWN
