"""A small SimPhone for the wire-side tests: a launcher and a Notes app with a field, a button, a list."""

from __future__ import annotations

import io
from typing import Any

from PIL import Image

from starebrain.sim.phone import Faults, TimingProfile, UiNode
from tests.sim.hierarchy_xml import hierarchy_xml

LAUNCHER, NOTES = "com.android.launcher3", "com.example.notes"
ACTIVITIES = {LAUNCHER: "com.android.launcher3.Launcher", NOTES: "com.example.notes.MainActivity"}
WIDTH, HEIGHT = 1080, 1920
LIST_TOP, LIST_BOTTOM, ROW = 800, 1800, 100
KEYS = {3: "home", 4: "back", 66: "enter"}


def _node(key: str, cls: str, bounds: tuple[int, int, int, int], package: str, **attrs: Any) -> UiNode:
    values = {"class": cls, "package": package, "enabled": "true", "visible-to-user": "true"}
    values.update({k.replace("_", "-"): (str(v).lower() if isinstance(v, bool) else str(v))
                   for k, v in attrs.items()})
    return UiNode(values, bounds, key=key)


def _adopt(parent: UiNode, children: list[UiNode]) -> UiNode:
    for index, child in enumerate(children):
        child.parent = parent
        child.attrs["index"] = str(index)
        parent.children.append(child)
    return parent


class FakePhone:
    """Screens: home (a Notes icon) and Notes (input, Save, a scrollable list of 30 rows)."""

    def __init__(self, serial: str = "emulator-0", scenario: str = "default") -> None:
        self.serial = serial
        self.scenario = scenario
        self.timing = TimingProfile()
        self.faults = Faults()
        self.current = LAUNCHER
        self.running: list[str] = [LAUNCHER]
        self.draft = ""
        self.focused = False
        self.saved: list[str] = []
        self.scroll = 0
        self.clipboard: str | None = None
        self.toast: str | None = None
        self.screen = True
        self.events: list[str] = []

    def getprop(self, name: str) -> str:
        return {"ro.serialno": self.serial, "ro.product.name": "sim_fake", "ro.product.model": "SimFake",
                "ro.product.device": "simfake", "ro.product.brand": "starebrain",
                "ro.build.version.sdk": "33", "ro.build.version.release": "13",
                "ro.product.cpu.abi": "x86_64"}.get(name, "")

    def display_size(self) -> tuple[int, int]:
        return WIDTH, HEIGHT

    def rotation(self) -> int:
        return 0

    def root(self) -> UiNode:
        window = _node("window", "android.widget.FrameLayout", (0, 0, WIDTH, HEIGHT), self.current)
        _adopt(window, self._home() if self.current == LAUNCHER else self._notes())
        return _adopt(UiNode({}, (0, 0, WIDTH, HEIGHT)), [window])

    def _home(self) -> list[UiNode]:
        return [_node("title", "android.widget.TextView", (0, 100, WIDTH, 200), LAUNCHER, text="Home"),
                _node("icon_notes", "android.widget.TextView", (100, 300, 300, 400), LAUNCHER, text="Notes",
                      content_desc="Notes", clickable=True)]

    def _notes(self) -> list[UiNode]:
        rows = []
        for i in range(30):
            top = LIST_TOP + i * ROW - self.scroll
            if LIST_TOP <= top and top + ROW <= LIST_BOTTOM:
                rows.append(_node(f"row{i}", "android.widget.TextView", (0, top, WIDTH, top + ROW), NOTES,
                                  text=f"Item {i}", clickable=True))
        listview = _adopt(_node("list", "android.widget.ListView", (0, LIST_TOP, WIDTH, LIST_BOTTOM), NOTES,
                                scrollable=True, resource_id=f"{NOTES}:id/list"), rows)
        return [_node("title", "android.widget.TextView", (0, 100, WIDTH, 200), NOTES, text="Notes"),
                _node("input", "android.widget.EditText", (50, 300, 800, 400), NOTES, text=self.draft,
                      resource_id=f"{NOTES}:id/input", clickable=True, focusable=True, focused=self.focused),
                _node("save", "android.widget.Button", (850, 300, 1030, 400), NOTES, text="Save",
                      resource_id=f"{NOTES}:id/save", clickable=True),
                _node("count", "android.widget.TextView", (0, 500, WIDTH, 600), NOTES,
                      text=f"{len(self.saved)} saved", resource_id=f"{NOTES}:id/count"),
                listview]

    def hierarchy_xml(self, max_depth: int = 50) -> str:
        return hierarchy_xml(self.root(), 0, max_depth)

    def screenshot(self, fmt: str = "PNG", scale: float = 1.0, quality: int = 80) -> bytes:
        size = (max(1, int(WIDTH * scale)), max(1, int(HEIGHT * scale)))
        color = (30, 30, 90) if self.current == LAUNCHER else (240, 240, 200)
        buffer = io.BytesIO()
        Image.new("RGB", size, color).save(buffer, format="JPEG" if fmt.upper() == "JPEG" else "PNG",
                                           quality=quality)
        return buffer.getvalue()

    def tap(self, x: float, y: float, duration_ms: float = 0) -> bool:
        self.events.append(f"tap {int(x)} {int(y)}")
        hit = [n for n in self.root().iter() if n.key and _inside(n, x, y)]
        key = hit[-1].key if hit else ""
        self.focused = key == "input"
        if key == "icon_notes":
            self.start_app(NOTES)
        elif key == "save" and self.draft:
            self.saved.append(self.draft)
            self.draft, self.toast = "", "Saved"
        return True

    def swipe(self, x1: float, y1: float, x2: float, y2: float, steps: int = 55) -> bool:
        self.events.append(f"swipe {int(x1)} {int(y1)} {int(x2)} {int(y2)}")
        if self.current == NOTES and LIST_TOP <= y1 <= LIST_BOTTOM:
            self.scroll = min(max(self.scroll + int(y1 - y2), 0), 30 * ROW - (LIST_BOTTOM - LIST_TOP))
        return True

    def press_key(self, key: str | int) -> bool:
        name = KEYS.get(key, str(key)) if isinstance(key, int) else key
        self.events.append(f"key {name}")
        if name in ("home", "back"):
            self.current, self.focused = LAUNCHER, False
        return True

    def set_text(self, node: UiNode, text: str) -> bool:
        if node.key != "input":
            return False
        self.draft = text
        return True

    def input_text(self, text: str) -> None:
        if self.focused:
            self.draft += text

    def clear_focused_text(self) -> None:
        if self.focused:
            self.draft = ""

    def get_clipboard(self) -> str | None:
        return self.clipboard

    def set_clipboard(self, text: str | None) -> None:
        self.clipboard = text

    def current_focus(self) -> tuple[str, str]:
        return self.current, ACTIVITIES[self.current]

    def start_app(self, package: str, activity: str | None = None) -> bool:
        if package not in ACTIVITIES:
            return False
        self.current = package
        if package not in self.running:
            self.running.append(package)
        return True

    def stop_app(self, package: str) -> None:
        if package in self.running and package != LAUNCHER:
            self.running.remove(package)
        if self.current == package:
            self.current = LAUNCHER

    def clear_app_data(self, package: str) -> None:
        self.stop_app(package)
        if package == NOTES:
            self.draft, self.saved = "", []

    def installed_packages(self) -> list[str]:
        return list(ACTIVITIES)

    def running_packages(self) -> list[str]:
        return list(self.running)

    def screen_on(self) -> bool:
        return self.screen

    def set_screen(self, on: bool) -> None:
        self.screen = on

    def last_toast(self) -> str | None:
        return self.toast

    def open_notification(self) -> bool:
        return True

    def content_query(self, uri: str) -> str:
        if uri != "content://notes/saved" or not self.saved:
            return "No result found."
        return "\n".join(f"Row: {i} text={text}" for i, text in enumerate(self.saved))

    def state(self) -> dict[str, object]:
        return {"saved": list(self.saved), "draft": self.draft, "current": self.current, "events": len(self.events)}


def _inside(node: UiNode, x: float, y: float) -> bool:
    left, top, right, bottom = node.bounds
    return left <= x < right and top <= y < bottom


def build_fake_phone(scenario: str = "default", seed: int = 0, serial: str = "", state_dir: Any = None,
                     timing: str = "fast") -> FakePhone:
    """Same signature as starebrain.sim.world.build_phone."""
    return FakePhone(serial or "emulator-0", scenario)
