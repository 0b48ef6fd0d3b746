"""Key events: u2 key names and Android keycodes to what the phone does."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from starebrain.sim.world.world_phone import WorldPhone

NAMES = {
    "home": "home", "back": "back", "enter": "enter", "recent": "recent", "app_switch": "recent",
    "delete": "del", "del": "del", "power": "power", "wakeup": "wakeup", "sleep": "sleep", "menu": "menu",
    "space": "space", "tab": "tab", "search": "search", "volume_up": "noop", "volume_down": "noop",
    "volume_mute": "noop", "camera": "noop", "left": "noop", "right": "noop", "up": "noop", "down": "noop",
    "center": "enter", "dpad_center": "enter",
}
CODES = {3: "home", 4: "back", 66: "enter", 160: "enter", 187: "recent", 67: "del", 26: "power",
         224: "wakeup", 223: "sleep", 82: "menu", 62: "space", 61: "tab", 84: "search"}


def normalise(key: str | int) -> str:
    """A canonical key name; single characters stand for themselves."""
    if isinstance(key, int) or (isinstance(key, str) and key.isdigit() and len(key) > 1):
        code = int(key)
        if 29 <= code <= 54:
            return chr(ord("a") + code - 29)
        if 7 <= code <= 16:
            return str(code - 7)
        return CODES.get(code, "noop")
    name = key.lower().removeprefix("keycode_")
    if len(key) == 1:
        return key
    return NAMES.get(name, "noop")


def press(phone: WorldPhone, key: str | int) -> bool:
    """Apply a key press; returns False only for keys the phone does not know at all."""
    name = normalise(key)
    actions: dict[str, Callable[[], object]] = {
        "back": phone.back, "home": phone.go_home, "recent": phone.toggle_recents, "enter": phone.enter,
        "del": phone.backspace, "power": lambda: phone.set_screen(not phone.display_on),
        "wakeup": lambda: phone.set_screen(True), "sleep": lambda: phone.set_screen(False),
        "space": lambda: phone.input_text(" "), "tab": phone.enter, "noop": lambda: None,
        "menu": lambda: None, "search": lambda: None,
    }
    action = actions.get(name)
    if action is None:
        phone.input_text(name)
    else:
        action()
    return True
