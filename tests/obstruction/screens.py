"""Synthetic screens of the simulated phone's obstructions, built as u2-style dumps."""

from __future__ import annotations

from tests.snapshot.dumps import hierarchy, node, status_bar

APP = "com.google.android.apps.tasks"
W, H = 1080, 2400


def app_window(*children: str, pkg: str = APP) -> str:
    """A full-screen app window with a title and a list, plus `children`."""
    base = (node("My Tasks", pkg=pkg, bounds="[40,120][600,220]")
            + node("Buy milk", pkg=pkg, bounds="[40,300][1040,400]", clickable=True)
            + node("Call the bank", pkg=pkg, bounds="[40,420][1040,520]", clickable=True)
            + node("", pkg=pkg, cls="android.widget.ImageButton", desc="Add task",
                   bounds="[880,2100][1040,2260]", clickable=True))
    return node(cls="android.widget.FrameLayout", pkg=pkg, bounds=f"[0,0][{W},{H}]", children=base + "".join(children))


def button(label: str, bounds: str, *, pkg: str = APP, rid: str = "", desc: str = "") -> str:
    return node(label, cls="android.widget.Button", pkg=pkg, rid=rid, desc=desc, bounds=bounds, clickable=True)


def dialog_window(title: str, message: str, *labels: str, pkg: str = APP, ids: tuple[str, ...] = ()) -> str:
    """A floating AlertDialog-like window with `labels` as buttons."""
    buttons = "".join(button(lab, f"[{100 + 300 * i},1400][{380 + 300 * i},1500]", pkg=pkg,
                             rid=ids[i] if i < len(ids) else "") for i, lab in enumerate(labels))
    body = (node(title, pkg=pkg, bounds="[100,900][980,1000]")
            + node(message, pkg=pkg, bounds="[100,1020][980,1300]") + buttons)
    return node(cls="android.widget.FrameLayout", pkg=pkg, bounds="[60,850][1020,1550]", children=body)


def screen(*windows: str) -> str:
    return hierarchy(status_bar(), *windows)


def spinner_screen() -> str:
    bar = node(cls="android.widget.ProgressBar", bounds="[480,1140][600,1260]")
    return screen(node(cls="android.widget.FrameLayout", pkg=APP, bounds=f"[0,0][{W},{H}]",
                       children=node("My Tasks", pkg=APP, bounds="[40,120][600,220]") + bar))


def rate_us_screen() -> str:
    return screen(app_window(), dialog_window("Enjoying Tasks?", "Rate us on Google Play", "Rate now", "Not now"))


def rate_us_in_window_screen() -> str:
    card = node(cls="android.widget.FrameLayout", pkg=APP, bounds="[0,600][1080,1800]", children=(
        node("Enjoying Tasks? Rate us!", pkg=APP, bounds="[100,700][980,800]")
        + button("Rate now", "[100,1400][500,1500]") + button("Not now", "[580,1400][980,1500]")))
    return screen(node(cls="android.widget.FrameLayout", pkg=APP, bounds=f"[0,0][{W},{H}]", children=card))


def whats_new_screen() -> str:
    page = (node("What's new in Tasks", pkg=APP, bounds="[100,300][980,400]")
            + node("Subtasks and due times", pkg=APP, bounds="[100,450][980,600]")
            + button("Skip", "[60,2200][360,2300]") + button("Next", "[720,2200][1020,2300]"))
    return screen(node(cls="android.widget.FrameLayout", pkg=APP, bounds=f"[0,0][{W},{H}]", children=page))


PERM = "com.android.permissioncontroller"


_NOTIFICATIONS = (("While using the app", "permission_allow_foreground_only_button"),
                  ("Only this time", "permission_allow_one_time_button"), ("Don’t allow", "permission_deny_button"))
# Android 14 asking an app that holds a limited photos grant for more (GrantPermissionsViewHandlerImpl's
# ALLOW_SELECTED_BUTTON, ALLOW_ALL_BUTTON, DONT_ALLOW_MORE_SELECTED_BUTTON).
MORE_PHOTOS = (("Allow limited access", "permission_allow_selected_button"),
               ("Allow all", "permission_allow_all_button"),
               ("Don’t select more", "permission_dont_allow_more_selected_button"))


def permission_screen(buttons_and_ids: tuple[tuple[str, str], ...] = _NOTIFICATIONS,
                      message: str = "Allow Tasks to send you notifications?") -> str:
    buttons = "".join(button(label, f"[100,{1500 + 120 * i}][980,{1600 + 120 * i}]", pkg=PERM, rid=f"{PERM}:id/{rid}")
                      for i, (label, rid) in enumerate(buttons_and_ids))
    body = node(message, pkg=PERM, rid=f"{PERM}:id/permission_message",
                bounds="[100,1200][980,1400]") + buttons
    dialog = node(cls="android.widget.FrameLayout", pkg=PERM, bounds="[40,1100][1040,1900]", children=node(
        cls="android.widget.LinearLayout", pkg=PERM, rid=f"{PERM}:id/grant_dialog", bounds="[40,1100][1040,1900]",
        children=body))
    return screen(app_window(), dialog)


def anr_screen() -> str:
    return screen(app_window(), dialog_window("Tasks isn't responding", "", "Close app", "Wait", pkg="android",
                                              ids=("android:id/aerr_close", "android:id/aerr_wait")))


def keyboard_window() -> str:
    keys = "".join(node("", cls="android.widget.FrameLayout", pkg="com.google.android.inputmethod.latin",
                        desc=k, bounds=f"[{100 * i},1700][{100 * i + 100},1850]", clickable=True)
                   for i, k in enumerate("qwertyuiop"))
    return node(cls="android.widget.FrameLayout", pkg="com.google.android.inputmethod.latin",
                bounds=f"[0,1600][{W},{H}]", children=keys)


def keyboard_screen() -> str:
    return screen(app_window(), keyboard_window())


def heads_up_screen(text: str, *labels: str) -> str:
    sysui = "com.android.systemui"
    kids = node(text, pkg=sysui, bounds="[40,60][1040,200]") + "".join(
        button(lab, f"[{60 + 300 * i},220][{340 + 300 * i},300]", pkg=sysui) for i, lab in enumerate(labels))
    return screen(app_window(), node(cls="android.widget.FrameLayout", pkg=sysui, bounds="[0,40][1080,320]",
                                     children=kids))


def danger_overlay_screen(title: str, danger: str, dismiss: str = "Not now") -> str:
    return screen(app_window(), dialog_window(title, "", danger, dismiss))


def slider_and_determinate_screen() -> str:
    extra = (node("45.0", cls="android.widget.ProgressBar", bounds="[480,1140][600,1260]")
             + node("0.5", cls="android.widget.SeekBar", bounds="[100,1300][980,1360]", focusable=True)
             + node("", cls="android.widget.ProgressBar", bounds="[100,1400][980,1420]"))
    return screen(app_window(extra))


def settings_allow_screen() -> str:
    pkg = "com.android.settings"
    rows = (node("Notifications", pkg=pkg, bounds="[40,120][1040,220]")
            + node("Allow notification access", pkg=pkg, bounds="[40,300][800,400]")
            + node("ON", cls="android.widget.Switch", pkg=pkg, bounds="[880,300][1040,400]", clickable=True,
                   checkable=True, checked=True)
            + node("Allow", cls="android.widget.Button", pkg=pkg, bounds="[40,500][500,600]", clickable=True))
    return screen(node(cls="android.widget.FrameLayout", pkg=pkg, bounds=f"[0,0][{W},{H}]", children=rows))


def interstitial_ad_screen() -> str:
    ad = (node("Sponsored", pkg=APP, bounds="[40,200][400,260]")
          + node("Mega Sale: 70% off sneakers", pkg=APP, bounds="[40,600][1040,1400]", clickable=True)
          + node("", cls="android.widget.ImageButton", pkg=APP, rid=f"{APP}:id/ad_close_button", desc="Close ad",
                 bounds="[960,80][1060,180]", clickable=True))
    return screen(node(cls="android.widget.FrameLayout", pkg=APP, bounds=f"[0,0][{W},{H}]", children=ad))
