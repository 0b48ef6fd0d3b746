"""Large floating app windows: dialog-themed editors and filter panels, popup menus."""

from __future__ import annotations

from functools import cache

from starebrain.obstruction import BackClearance, ObstructionKind, TapClearance, detect
from starebrain.obstruction.floating import floating_window
from starebrain.profiles import load_profiles
from starebrain.snapshot import ScreenSnapshot
from tests.snapshot.dumps import hierarchy, node

# A floating window: inset from every edge of a 1080x2400 display.
LEFT, TOP, RIGHT = 100, 400, 980


@cache
def profile():
    return load_profiles().device_profile("google")


def _verdict(xml: str):
    return detect(ScreenSnapshot.from_xml(xml), profile())


def _floating(children: str, bottom: int) -> str:
    return hierarchy(node(cls="android.widget.FrameLayout", bounds=f"[{LEFT},{TOP}][{RIGHT},{bottom}]",
                          children=children))


def _items(*labels: str, left: int = LEFT, right: int = RIGHT, top: int = TOP) -> str:
    return "".join(node(cls="android.view.View", bounds=f"[{left},{top + 120 * i}][{right},{top + 120 * (i + 1)}]",
                        clickable=True, children=node(label, bounds=f"[{left + 40},{top + 120 * i + 30}]"
                                                                      f"[{right - 40},{top + 120 * i + 90}]"))
                   for i, label in enumerate(labels))


def _menu_labels() -> list[str]:
    return [f"Item {i}" for i in range(9)]


def test_a_long_popup_menu_is_closed_with_back():
    found = _verdict(_floating(_items(*_menu_labels()), TOP + 120 * 9))
    assert found.kind is ObstructionKind.OVERLAY and isinstance(found.clearance, BackClearance), found.describe()


def _icons(*labels: str, top: int = TOP) -> str:
    return "".join(node(desc=label, cls="android.widget.ImageButton", clickable=True,
                        bounds=f"[{LEFT + 200 * i},{top}][{LEFT + 200 * i + 180},{top + 100}]")
                   for i, label in enumerate(labels))


def test_a_browser_menu_with_a_row_of_icons_above_its_items_is_closed_with_back():
    found = _verdict(_floating(_icons("Forward", "Bookmark", "Refresh") + _items(*_menu_labels(), top=TOP + 120),
                               TOP + 120 * 10))
    assert found.kind is ObstructionKind.OVERLAY and isinstance(found.clearance, BackClearance), found.describe()


def test_icons_below_the_items_or_in_two_rows_make_no_menu():
    below = _items(*_menu_labels()) + _icons("Share", "Save", top=TOP + 120 * 9)
    two_rows = _icons("A", "B") + _icons("C", "D", top=TOP + 100) + _items(*_menu_labels(), top=TOP + 220)
    for children in (below, two_rows):
        assert _verdict(_floating(children, TOP + 120 * 11)).kind is ObstructionKind.READY


def test_a_large_filter_panel_is_cancelled():
    chips = "".join(node(f"Option {i}", cls="android.widget.CheckBox", bounds=f"[{LEFT},{TOP + 80 * i}]"
                                                                               f"[{RIGHT},{TOP + 80 * (i + 1)}]",
                         clickable=True, checkable=True) for i in range(8))
    buttons = (node("CANCEL", cls="android.widget.Button", bounds=f"[{LEFT},1100][540,1180]", clickable=True)
               + node("SEARCH", cls="android.widget.Button", bounds=f"[540,1100][{RIGHT},1180]", clickable=True))
    found = _verdict(_floating(chips + buttons, 1200))
    assert isinstance(found.clearance, TapClearance) and found.clearance.label == "CANCEL", found.describe()


def test_a_floating_window_of_many_controls_without_a_way_out_is_left_alone():
    grid = "".join(node(cls="android.view.View", desc=f"Seat {i}", clickable=True,
                        bounds=f"[{LEFT + 100 * (i % 4)},{TOP + 100 * (i // 4)}]"
                               f"[{LEFT + 100 * (i % 4) + 90},{TOP + 100 * (i // 4) + 90}]") for i in range(12))
    assert _verdict(_floating(grid, 800)).kind is ObstructionKind.READY


def test_a_full_screen_list_is_no_menu():
    rows = "".join(node(cls="android.view.View", bounds=f"[0,{200 + 120 * i}][1080,{320 + 120 * i}]", clickable=True,
                        children=node(f"Row {i}", bounds=f"[40,{230 + 120 * i}][1040,{290 + 120 * i}]"))
                   for i in range(9))
    page = hierarchy(node(cls="android.widget.FrameLayout", bounds="[0,0][1080,2400]",
                          children=node("Settings", bounds="[0,0][1080,180]") + rows))
    assert _verdict(page).kind is ObstructionKind.READY


def test_a_split_screen_half_with_a_cancel_button_is_no_floating_window():
    # (a half at the bottom edge is the sheet rule's business; this rule leaves windows against a side edge)
    rows = "".join(node(cls="android.view.View", bounds=f"[0,{1400 + 100 * i}][1080,{1500 + 100 * i}]", clickable=True,
                        children=node(f"Note {i}", bounds=f"[40,{1420 + 100 * i}][1040,{1480 + 100 * i}]"))
                   for i in range(8))
    cancel = node("Cancel", cls="android.widget.Button", bounds="[900,1260][1060,1380]", clickable=True)
    top = node(cls="android.widget.FrameLayout", pkg="com.example.other", bounds="[0,0][1080,1200]",
               children=node("Map", bounds="[0,0][1080,1200]", clickable=True))
    bottom = node(cls="android.widget.FrameLayout", bounds="[0,1250][1080,2400]", children=cancel + rows)
    assert floating_window(ScreenSnapshot.from_xml(hierarchy(top, bottom)), profile(), None) is None


def _home_screen(container: str) -> str:
    """Launcher3's drag layer holding a long-press popup whose shortcuts sit in `container`."""
    pkg, launcher = "com.android.launcher3", "com.android.launcher3:id/"
    row = node(cls="android.view.View", pkg=pkg, bounds="[610,2300][1000,2420]", clickable=True,
               children=node("App info", pkg=pkg, bounds="[700,2330][900,2390]"))
    popup = node(cls="android.view.View", rid=launcher + container, pkg=pkg, bounds="[610,2300][1000,2420]",
                 children=row)
    drag = node(cls="android.widget.FrameLayout", rid=launcher + "drag_layer", pkg=pkg, bounds="[0,0][1080,2400]",
                children=popup)
    return hierarchy(node(cls="android.widget.FrameLayout", pkg=pkg, bounds="[0,0][1080,2400]", children=drag))


def test_a_launcher_long_press_popup_is_closed_with_back():
    found = _verdict(_home_screen("system_shortcuts_container"))
    assert found.kind is ObstructionKind.OVERLAY and isinstance(found.clearance, BackClearance), found.describe()


def test_a_home_screen_row_in_another_container_is_ready():
    assert _verdict(_home_screen("workspace")).kind is ObstructionKind.READY
