"""Screens without a usable hierarchy: a drawing surface that the dump names as a plain View."""

from __future__ import annotations

from starebrain.snapshot import ScreenSnapshot
from starebrain.snapshot.opaque import unusable_reason
from tests.snapshot.dumps import hierarchy, node

GAME = "com.example.game"
W, H = 2400, 1080  # landscape


def _app(*children: str, pkg: str = GAME) -> str:
    frame = node(cls="android.widget.FrameLayout", pkg=pkg, rid="android:id/content", bounds=f"[0,0][{W},{H}]",
                 children="".join(children))
    return hierarchy(node(cls="android.widget.FrameLayout", pkg=pkg, bounds=f"[0,0][{W},{H}]", children=frame),
                     rotation=1)


def test_a_game_surface_named_as_a_plain_view_has_no_usable_hierarchy():
    # Unity's SurfaceView keeps View's accessibility class name: the dump shows android.view.View "Game view".
    surface = node(cls="android.view.View", pkg=GAME, rid=f"{GAME}:id/unitySurfaceView", desc="Game view",
                   bounds=f"[0,0][{W},{H}]", focusable=True)
    assert "fills the screen" in unusable_reason(ScreenSnapshot.from_xml(_app(surface)))


def test_compose_screens_of_plain_views_stay_usable():
    # A Compose page: plain Views, but the leaves are small and labelled, and the full-window one has children.
    rows = "".join(node(f"Item {i}", cls="android.view.View", pkg=GAME, bounds=f"[0,{100 * i}][{W},{100 * i + 90}]",
                        clickable=True) for i in range(5))
    page = node(cls="android.view.View", pkg=GAME, bounds=f"[0,0][{W},{H}]", children=rows)
    assert unusable_reason(ScreenSnapshot.from_xml(_app(page))) == ""
    # An unlabelled plain View leaf over half the window (a drawing) beside one button is not the screen.
    half = node(cls="android.view.View", pkg=GAME, bounds=f"[0,0][{W // 2},{H}]")
    button = node("Continue", cls="android.widget.Button", pkg=GAME, bounds="[1500,800][2200,950]", clickable=True)
    assert unusable_reason(ScreenSnapshot.from_xml(_app(half, button))) == ""
    # A full-window clickable View ("tap anywhere to continue") is something to act on.
    tap_anywhere = node(cls="android.view.View", pkg=GAME, bounds=f"[0,0][{W},{H}]", clickable=True)
    hint = node("Tap anywhere to continue", pkg=GAME, bounds="[800,900][1600,980]")
    assert unusable_reason(ScreenSnapshot.from_xml(_app(tap_anywhere, hint))) == ""


def test_a_dump_of_only_the_status_bar_has_no_usable_hierarchy_but_a_bar_over_an_app_does():
    # SystemUI status_bar.xml: a flat strip; alone in the dump it fills the display the dump implies.
    bar = node(cls="android.widget.FrameLayout", pkg="com.android.systemui", rid="com.android.systemui:id/status_bar",
               bounds="[0,0][720,45]", children="".join(
                   node("", cls="android.widget.ImageView", pkg="com.android.systemui", desc=f"Notification {i}",
                        bounds=f"[{40 * i},0][{40 * i + 36},44]") for i in range(12)))
    assert "system bars" in unusable_reason(ScreenSnapshot.from_xml(hierarchy(bar)))
    page = node(cls="android.widget.FrameLayout", pkg=GAME, bounds="[0,0][720,1600]",
                children=node("Home", pkg=GAME, bounds="[40,100][300,200]"))
    assert unusable_reason(ScreenSnapshot.from_xml(hierarchy(bar, page))) == ""


def test_an_app_window_with_nothing_on_screen_has_no_usable_hierarchy():
    # Only the root, with empty bounds (a window dumped before layout): nothing in the dump is on screen.
    empty = hierarchy(node(cls="", pkg=GAME, bounds="[0,0][0,0]", enabled=False))
    assert "no node on screen" in unusable_reason(ScreenSnapshot.from_xml(empty))
    # A laid-out page with one label is usable.
    page = hierarchy(node(cls="android.widget.FrameLayout", pkg=GAME, bounds="[0,0][720,1600]",
                          children=node("Home", pkg=GAME, bounds="[40,100][300,200]")))
    assert unusable_reason(ScreenSnapshot.from_xml(page)) == ""


def _web_page(*extra: str) -> str:
    web = node(cls="android.webkit.WebView", pkg=GAME, bounds=f"[0,200][{W},{H}]", clickable=True, focused=True)
    return _app(web, *extra)


def test_a_canvas_beside_one_icon_button_with_its_label_inside_has_no_usable_hierarchy():
    # A Compose IconButton: the clickable holds its icon's contentDescription in a child.
    icon = node(cls="android.view.View", pkg=GAME, bounds="[2260,40][2380,160]", clickable=True,
                children=node(cls="android.view.View", pkg=GAME, desc="Dark theme", bounds="[2290,70][2350,130]"))
    assert "fills the screen" in unusable_reason(ScreenSnapshot.from_xml(_web_page(icon)))


def test_a_canvas_beside_a_panel_of_labelled_buttons_stays_usable():
    # A clickable panel holding several labels is no single control.
    labels = "".join(node(f"Option {i}", pkg=GAME, bounds=f"[800,{300 + 120 * i}][1600,{400 + 120 * i}]",
                          clickable=True) for i in range(3))
    panel = node(cls="android.widget.LinearLayout", pkg=GAME, bounds="[700,250][1700,800]", clickable=True,
                 children=labels)
    assert unusable_reason(ScreenSnapshot.from_xml(_web_page(panel))) == ""
    # two separate buttons are two handles
    two = (node("Back", cls="android.widget.Button", pkg=GAME, bounds="[0,0][200,150]", clickable=True)
           + node("Share", cls="android.widget.Button", pkg=GAME, bounds="[2200,0][2400,150]", clickable=True))
    assert unusable_reason(ScreenSnapshot.from_xml(_web_page(two))) == ""


def _merged(desc: str) -> str:
    """Flutter with one tappable widget over the page: its descendants' labels merged into one clickable View."""
    page = node(cls="android.view.View", pkg=GAME, desc=desc, bounds=f"[0,0][{W},{H}]", clickable=True)
    return _app(node(cls="android.view.View", pkg=GAME, bounds=f"[0,0][{W},{H}]", scrollable=True, children=page))


def test_a_page_merged_into_one_node_with_many_labels_has_no_usable_hierarchy():
    # semantics.dart joins the merged labels with newlines: a score board's names, counts and clock.
    reason = unusable_reason(ScreenSnapshot.from_xml(_merged("Dealer\nPlayer 1\n16 cards\n0 points\n21:04")))
    assert "merging all its labels" in reason


def test_a_tap_anywhere_page_with_one_or_two_labels_stays_usable():
    # "Tap to continue", or a title and its subtitle, is one thing to press, not a page merged away.
    assert unusable_reason(ScreenSnapshot.from_xml(_merged("Tap to continue"))) == ""
    assert unusable_reason(ScreenSnapshot.from_xml(_merged("Welcome\nTap to continue"))) == ""
    # Labels on one line (a button whose description lists what it does) are no merged page either.
    assert unusable_reason(ScreenSnapshot.from_xml(_merged("Play, Pause, Next track"))) == ""


def test_a_merged_node_beside_other_controls_stays_usable():
    page = node(cls="android.view.View", pkg=GAME, desc="Dealer\nPlayer 1\n16 cards", bounds=f"[0,0][{W},{H}]",
                clickable=True)
    buttons = "".join(node(label, cls="android.widget.Button", pkg=GAME, clickable=True,
                           bounds=f"[{300 * i},900][{300 * i + 250},1000]") for i, label in enumerate(("Hit", "Stand")))
    assert unusable_reason(ScreenSnapshot.from_xml(_app(page, buttons))) == ""
