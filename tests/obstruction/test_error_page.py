"""A React Native / Expo host's own error page goes to the person; the red box and the LogBox inspector are closed,
look-alikes are pages."""

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


def _log_box(title: str = "Log 1 of 1", *labels: str) -> ScreenSnapshot:
    """React Native's LogBox inspector as a development build draws it: JavaScript views with no ids."""
    footer = "".join(node(cls="android.view.ViewGroup", pkg=APP, clickable=True,
                          bounds=f"[{540 * i},2172][{540 * (i + 1)},2316]",
                          children=node(label, pkg=APP, bounds=f"[{540 * i + 200},2218][{540 * i + 340},2270]"))
                     for i, label in enumerate(labels or ("Dismiss", "Minimize")))
    return _page(node(title, pkg=APP, bounds="[449,154][631,206]"),
                 node("Console Error", pkg=APP, bounds="[42,300][600,380]"),
                 node("AuthApiError: Invalid Refresh Token", pkg=APP, bounds="[42,400][1038,520]"), footer)


def test_react_natives_log_box_is_dismissed_but_a_page_with_the_same_buttons_is_not():
    found = detect(_log_box(), profile())
    assert found.kind is ObstructionKind.OVERLAY and found.clearance is not None, found.describe()
    assert getattr(found.clearance, "label", "") == "Dismiss", found.describe()
    # without the inspector's "Log N of M" title, or without its Minimize, the words are the page's own
    for snap in (_log_box("Release notes"), _log_box("Log 1 of 1", "Dismiss", "Share")):
        found = detect(snap, profile())
        assert found.kind is ObstructionKind.READY, found.describe()
