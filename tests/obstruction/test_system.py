"""The lock screen (bouncer, Android 14+ device-entry icon) needs its person; a shade that merely carries
keyguard containers is closed with back."""

from __future__ import annotations

from functools import cache

from starebrain.obstruction import BackClearance, ObstructionKind, detect
from starebrain.profiles import load_profiles
from starebrain.snapshot import ScreenSnapshot
from tests.obstruction import screens
from tests.snapshot.dumps import node

UI = "com.android.systemui"
W, H = screens.W, screens.H


@cache
def profile():
    return load_profiles().device_profile("google")


def _verdict(xml: str):
    return detect(ScreenSnapshot.from_xml(xml), profile())


def _id(name: str) -> str:
    return f"{UI}:id/{name}"


def _notifications() -> str:
    """The shared part of shade and lock screen: a scrim, the keyguard root and a few notifications."""
    rows = "".join(node(f"Notification {i}", pkg=UI, rid=_id("title"),
                        bounds=f"[40,{600 + 200 * i}][1040,{760 + 200 * i}]") for i in range(6))
    return (node(cls="android.view.View", pkg=UI, rid=_id("scrim_behind"), bounds=f"[0,0][{W},{H}]")
            + node(cls="android.view.View", pkg=UI, rid=_id("keyguard_long_press"), bounds=f"[0,0][{W},{H}]")
            + node(cls="android.view.ViewGroup", pkg=UI, rid=_id("keyguard_root_view"), bounds=f"[0,0][{W},{H}]")
            + node(cls="android.widget.ScrollView", pkg=UI, rid=_id("notification_stack_scroller"),
                   bounds=f"[0,500][{W},1900]", children=rows))


def _shade_window(*children: str) -> str:
    return node(cls="android.widget.FrameLayout", pkg=UI, bounds=f"[0,0][{W},{H}]",
                children=_notifications() + "".join(children))


def test_the_pin_bouncer_is_the_lock_screen():
    def key(i: int) -> str:
        x, y = 60 + 320 * (i % 3), 1400 + 200 * (i // 3)
        return node("", cls="android.view.ViewGroup", pkg=UI, rid=_id(f"key{i}"), desc=str(i), clickable=True,
                    bounds=f"[{x},{y}][{x + 320},{y + 190}]")
    keys = "".join(key(i) for i in range(10))
    bouncer = node(cls="android.widget.FrameLayout", pkg=UI, rid=_id("keyguard_host_view"), bounds=f"[0,0][{W},{H}]",
                   children=node(cls="android.widget.FrameLayout", pkg=UI, rid=_id("keyguard_security_container"),
                                 bounds=f"[60,540][1020,{H}]",
                                 children=node("Face not recognised", pkg=UI, rid=_id("keyguard_message_area"),
                                               bounds="[120,800][960,900]") + keys))
    found = _verdict(screens.screen(_shade_window(bouncer)))
    assert found.kind is ObstructionKind.SYSTEM_DIALOG and found.clearance is None, found.describe()


def test_the_device_entry_icon_marks_the_lock_screen_but_a_shade_is_closed_with_back():
    icon = node(cls="android.widget.FrameLayout", pkg=UI, rid=_id("device_entry_icon_view"), clickable=True,
                bounds="[470,1980][610,2120]",
                children=node(cls="android.widget.ImageView", pkg=UI, rid=_id("device_entry_icon_fg"),
                              desc="Fingerprint sensor", bounds="[470,1980][610,2120]"))
    locked = _verdict(screens.screen(_shade_window(icon)))
    assert locked.kind is ObstructionKind.SYSTEM_DIALOG and locked.clearance is None, locked.describe()
    # The same keyguard containers without the icon or the bouncer: the shade pulled over an unlocked phone.
    shade = _verdict(screens.screen(screens.app_window(), _shade_window()))
    assert shade.kind is ObstructionKind.SYSTEM_DIALOG and isinstance(shade.clearance, BackClearance), shade.describe()
