from __future__ import annotations

from starebrain.snapshot import ScreenSnapshot
from tests.snapshot.dumps import dump, hierarchy, node, status_bar


def app(title: str = "Inbox", *, keyboard: bool = False, heads_up: str | None = None,
        clock: str = "12:00", battery: str = "80") -> ScreenSnapshot:
    windows = [status_bar(clock, battery), node(cls="android.widget.FrameLayout", pkg="com.google.android.gm",
                                               bounds="[0,0][1080,2400]",
                                               children=node(title, pkg="com.google.android.gm",
                                                             bounds="[40,100][600,200]"))]
    if heads_up:
        windows.append(node(cls="android.widget.FrameLayout", pkg="com.android.systemui", bounds="[0,0][1080,300]",
                            children=node(heads_up, pkg="com.android.systemui", bounds="[20,40][1060,260]")))
    if keyboard:
        windows.append(node(cls="android.widget.FrameLayout", pkg="com.google.android.inputmethod.latin",
                            bounds="[0,1600][1080,2400]"))
    return ScreenSnapshot.from_xml(hierarchy(*windows))


def test_clock_and_battery_ticking_is_not_a_screen_change():
    assert app(clock="12:00", battery="80").hash == app(clock="12:01", battery="79").hash


def test_heads_up_notification_is_not_a_screen_change():
    assert app().hash == app(heads_up="New message from Bob").hash


def test_app_text_and_keyboard_are_screen_changes():
    base = app().hash
    assert app("Sent").hash != base
    assert app(keyboard=True).hash != base


def test_hash_is_stable_across_parses_and_formats():
    raw = dump("046").data
    assert ScreenSnapshot.from_xml(raw).hash == ScreenSnapshot.from_xml(raw.decode("utf-8")).hash
    assert ScreenSnapshot.from_xml(raw).hash != ScreenSnapshot.from_xml(dump("040").data).hash
