"""System windows: status bar, soft keyboard, heads-up notification, shade and recents."""

from __future__ import annotations

from typing import Any

from starebrain.sim.phone import UiNode
from starebrain.sim.world.app_window import STATUS_H
from starebrain.sim.world.frame import Frame, Target
from starebrain.sim.world.navigation import LAUNCHER
from starebrain.sim.world.nodes import add, make_node

SYSTEMUI = "com.android.systemui"
IME = "com.google.android.inputmethod.latin"
KEYBOARD_SHARE = 0.4
KEY_ROWS = ("qwertyuiop", "asdfghjkl", "zxcvbnm")


def keyboard_top(display: tuple[int, int]) -> int:
    """The y where the soft keyboard starts (it takes the bottom ~40% of the screen)."""
    return round(display[1] * (1 - KEYBOARD_SHARE))


def status_bar(display: tuple[int, int], wifi: bool, icons: list[str]) -> UiNode:
    """The systemui status bar window with clock, notification icons, Wi-Fi and battery."""
    width = display[0]
    root = make_node("frame", SYSTEMUI, (0, 0, width, STATUS_H))
    bar = make_node("frame", SYSTEMUI, (0, 0, width, STATUS_H), rid=f"{SYSTEMUI}:id/status_bar")
    add(root, bar)
    add(bar, make_node("text", SYSTEMUI, (55, 14, 181, 70), text="9:41", rid=f"{SYSTEMUI}:id/clock"))
    for i, label in enumerate(icons[:4]):
        add(bar, make_node("image", SYSTEMUI, (190 + 50 * i, 22, 230 + 50 * i, 62), desc=f"{label} notification"))
    wifi_desc = "Wi-Fi signal full." if wifi else "Wi-Fi off."
    add(bar, make_node("frame", SYSTEMUI, (881, 14, 941, 70), rid=f"{SYSTEMUI}:id/wifi_combo", desc=wifi_desc))
    add(bar, make_node("linear", SYSTEMUI, (941, 14, 1025, 70), rid=f"{SYSTEMUI}:id/battery",
                       desc="Battery 82 percent."))
    return root


def _key(frame: Frame, box: tuple[int, int, int, int], name: str, desc: str, rid: str) -> UiNode:
    node = make_node("frame", IME, box, rid=f"{IME}:id/{rid}", desc=desc, clickable=True)
    frame.styles[id(node)] = "key"
    return frame.bind(node, Target("key", name=name, window="keyboard"))


def keyboard(frame: Frame, display: tuple[int, int], action: str = "Enter") -> UiNode:
    """The Gboard window: a header strip and four rows of keys."""
    width, height = display
    top = keyboard_top(display)
    root = make_node("frame", IME, (0, top, width, height))
    panel = make_node("frame", IME, (0, top, width, height), rid=f"{IME}:id/keyboard_holder")
    add(root, panel)
    row_h = (height - top - 121 - 48) // 4
    add(panel, make_node("frame", IME, (6, top, 134, top + 121), desc="Open features menu",
                         rid=f"{IME}:id/key_pos_header_access_points_menu"))
    for r, letters in enumerate(KEY_ROWS):
        key_w = width // 10
        y = top + 121 + r * row_h
        x0 = (width - key_w * len(letters)) // 2
        for c, letter in enumerate(letters):
            box = (x0 + c * key_w, y, x0 + (c + 1) * key_w, y + row_h)
            add(panel, _key(frame, box, letter, letter, f"key_pos_{r}_{c}"))
    y = top + 121 + 2 * row_h
    add(panel, _key(frame, (6, y, 150, y + row_h), "shift", "Shift", "key_pos_shift"))
    add(panel, _key(frame, (width - 150, y, width - 6, y + row_h), "del", "Delete", "key_pos_del"))
    y += row_h
    bottom = [("symbols", "Symbol keyboard", "key_pos_switch_to_symbol", 0, 160),
              ("@", "@", "key_pos_bottom_symbol_1", 160, 270), ("space", "Space", "key_pos_space", 270, 800),
              (".", ".", "key_pos_bottom_symbol_2", 800, 910), ("enter", action, "key_pos_ime_action", 910, width)]
    for name, desc, rid, left, right in bottom:
        add(panel, _key(frame, (left, y, right, y + row_h), name, desc, rid))
    return root


def heads_up(frame: Frame, display: tuple[int, int], note: dict[str, Any]) -> UiNode:
    """A heads-up notification card at the top of the screen (systemui window)."""
    width = display[0]
    box = (24, STATUS_H + 12, width - 24, STATUS_H + 292)
    root = make_node("frame", SYSTEMUI, box)
    row = make_node("frame", SYSTEMUI, box, rid=f"{SYSTEMUI}:id/expandableNotificationRow",
                    desc=f"{note.get('app', '')} notification: {note.get('title', '')}", clickable=True,
                    focusable=True)
    add(root, row)
    left, top, right, _ = box
    add(row, make_node("text", SYSTEMUI, (left + 40, top + 20, right - 40, top + 70),
                       text=note.get("app", ""), rid="android:id/app_name_text"))
    add(row, make_node("text", SYSTEMUI, (left + 40, top + 80, right - 40, top + 140),
                       text=note.get("title", ""), rid="android:id/title"))
    add(row, make_node("text", SYSTEMUI, (left + 40, top + 150, right - 40, top + 260),
                       text=note.get("text", ""), rid="android:id/text"))
    frame.bind(row, Target("ops", list(note.get("tap", [{"dismiss_notification": True}])), {},
                           window="notification"))
    return root


def shade(frame: Frame, display: tuple[int, int], notes: list[dict[str, Any]]) -> UiNode:
    """The pulled-down notification shade listing every notification."""
    width, height = display
    root = make_node("frame", SYSTEMUI, (0, 0, width, height))
    panel = make_node("frame", SYSTEMUI, (0, 0, width, height), rid=f"{SYSTEMUI}:id/notification_panel")
    add(root, panel)
    y = STATUS_H + 40
    for i, note in enumerate(notes):
        card = make_node("frame", SYSTEMUI, (24, y, width - 24, y + 260),
                         rid=f"{SYSTEMUI}:id/expandableNotificationRow", clickable=True,
                         desc=f"{note.get('app', '')} notification: {note.get('title', '')}")
        add(card, make_node("text", SYSTEMUI, (64, y + 20, width - 64, y + 80), text=note.get("title", ""),
                            rid="android:id/title"))
        add(card, make_node("text", SYSTEMUI, (64, y + 90, width - 64, y + 240), text=note.get("text", ""),
                            rid="android:id/text"))
        add(panel, frame.bind(card, Target("ops", [{"open_notification_at": i}], {}, window="shade")))
        y += 290
    if not notes:
        add(panel, make_node("text", SYSTEMUI, (64, y, width - 64, y + 90), text="No notifications"))
    clear = make_node("button", SYSTEMUI, (width - 380, y + 20, width - 40, y + 150), text="Clear all",
                      rid=f"{SYSTEMUI}:id/clear_all", clickable=True)
    add(panel, frame.bind(clear, Target("ops", [{"clear_notifications": True}], {}, window="shade")))
    return root


def recents(frame: Frame, display: tuple[int, int], apps: list[tuple[str, str]]) -> UiNode:
    """The overview screen (launcher package): one card per recent task, newest first."""
    width, height = display
    root = make_node("frame", LAUNCHER, (0, 0, width, height))
    view = make_node("frame", LAUNCHER, (0, 0, width, height), rid=f"{LAUNCHER}:id/overview_panel")
    add(root, view)
    y = STATUS_H + 60
    for package, label in apps[:5]:
        card = make_node("frame", LAUNCHER, (120, y, width - 120, y + 360), rid=f"{LAUNCHER}:id/snapshot",
                         desc=label, clickable=True, long_clickable=True)
        add(card, make_node("text", LAUNCHER, (160, y + 20, width - 160, y + 100), text=label,
                            rid=f"{LAUNCHER}:id/title"))
        frame.styles[id(card)] = "card"
        add(view, frame.bind(card, Target("ops", [{"resume_task": package}], {}, window="recents")))
        y += 400
    if not apps:
        add(view, make_node("text", LAUNCHER, (120, y, width - 120, y + 100), text="No recent items"))
    clear = make_node("button", LAUNCHER, (width // 2 - 200, height - 260, width // 2 + 200, height - 130),
                      text="Clear all", rid=f"{LAUNCHER}:id/clear_all", clickable=True)
    add(view, frame.bind(clear, Target("ops", [{"clear_recents": True}], {}, window="recents")))
    return root

