"""A `Device` over the sim's world model in this process (no adb, no u2 server): fast enough for
property tests that run a thousand plans. It records every input and the side effects it caused."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from starebrain.device.base import Observation
from starebrain.sim.world import hierarchy_xml
from starebrain.sim.world.world_phone import WorldPhone

SENSITIVE = ("transfer_made", "message_sent", "mail_sent", "dangerous_tap")
_SWIPES = {"up": (540, 1700, 540, 700), "down": (540, 700, 540, 1700), "left": (900, 1200, 180, 1200),
           "right": (180, 1200, 900, 1200)}


@dataclass
class Caused:
    """A sensitive side effect and the input that caused it, with the screen just before."""

    kind: str
    action: str
    point: tuple[int, int] | None
    xml_before: str


@dataclass
class WorldDevice:
    phone: WorldPhone
    serial: str = "world-1"
    caused: list[Caused] = field(default_factory=list)
    on_sensitive: Callable[[Caused], None] | None = None

    def observe(self, *, screenshot: bool = False) -> Observation:
        package, activity = self.phone.current_focus()
        return Observation(hierarchy_xml=self.phone.hierarchy_xml(), package=package, activity=activity,
                           width=1080, height=2400)

    def _input(self, name: str, point: tuple[int, int] | None, act: Callable[[], Any]) -> None:
        xml = hierarchy_xml.dump(self.phone.root(), self.phone.rotation())  # not an observation
        before = len(self.phone.world.effects)
        act()
        for effect in self.phone.world.effects[before:]:
            if effect["kind"] in SENSITIVE:
                caused = Caused(effect["kind"], name, point, xml)
                self.caused.append(caused)
                if self.on_sensitive is not None:
                    self.on_sensitive(caused)

    def tap(self, x: int, y: int) -> None:
        self._input("tap", (x, y), lambda: self.phone.tap(x, y))

    def long_press(self, x: int, y: int, duration_s: float = 0.8) -> None:
        self._input("long_press", (x, y), lambda: self.phone.tap(x, y, duration_ms=duration_s * 1000))

    def type_text(self, text: str) -> None:
        def act() -> None:
            self.phone.clear_focused_text()
            self.phone.input_text(text)
        self._input("type", None, act)

    def press(self, key: str) -> None:
        self._input("press", None, lambda: self.phone.press_key("recent" if key == "recents" else key))

    def swipe(self, direction: str) -> None:
        self._input("swipe", None, lambda: self.phone.swipe(*_SWIPES[direction]))

    def open_app(self, package: str, *, fresh: bool = False) -> None:
        def act() -> None:
            if fresh:
                self.phone.stop_app(package)
            self.phone.start_app(package)
        self._input("open_app", None, act)

    def current_app(self) -> tuple[str, str]:
        return self.phone.current_focus()

    def installed_packages(self) -> list[str]:
        return self.phone.installed_packages()

    def brand(self) -> str:
        return "google"

    def close(self) -> None:
        return None
