"""The broadcast receiver of uiautomator2's AdbKeyboard IME (app-uiautomator.apk), once it is installed.

u2's `send_keys`, `clear_text`, `send_action` and `hide_keyboard` install that APK, select its IME and
send `ADB_KEYBOARD_*` broadcasts; the receiver answers `result=-1, data="success"`. Without the IME
installed and selected there is no receiver, and `am broadcast` reports `result=0`.
"""

from __future__ import annotations

import base64
import binascii

from starebrain.sim.services.device import SimDevice

PACKAGE = "com.github.uiautomator"
IME_ID = f"{PACKAGE}/.AdbKeyboard"
ENTER_KEYCODE = 66


def keyboard_active(device: SimDevice) -> bool:
    """Whether AdbKeyboard is installed and the selected input method."""
    return (device.packages.get(device.phone, PACKAGE) is not None
            and device.settings["secure"]["default_input_method"] == IME_ID)


def receive(device: SimDevice, action: str, extras: dict[str, str]) -> tuple[int, str] | None:
    """Handle one ADB_KEYBOARD_* broadcast: (result code, data), or None when nobody receives it."""
    if not action.startswith("ADB_KEYBOARD_") or not keyboard_active(device):
        return None
    phone = device.phone
    if action == "ADB_KEYBOARD_INPUT_TEXT":
        try:
            text = base64.b64decode(extras.get("text", ""), validate=True).decode("utf-8")
        except (binascii.Error, UnicodeDecodeError):
            return 0, "invalid base64 text"
        phone.input_text(text)
    elif action == "ADB_KEYBOARD_CLEAR_TEXT":
        phone.clear_focused_text()
    elif action in ("ADB_KEYBOARD_SMART_ENTER", "ADB_KEYBOARD_EDITOR_CODE"):
        phone.press_key(ENTER_KEYCODE)
    elif action == "ADB_KEYBOARD_HIDE":
        if any(node.attrs.get("package") == "com.google.android.inputmethod.latin" for node in phone.root().iter()):
            phone.press_key("back")  # the keyboard window is up: back hides it and nothing else
    else:
        return 0, f"unknown action {action}"
    return -1, "success"
