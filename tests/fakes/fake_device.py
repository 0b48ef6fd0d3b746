"""An in-memory `Device` for pure-logic tests: a few XML screens and scripted transitions.

Build screens with `screen_xml(package, [FakeNode(...), ...])` (or hand-written XML), wire
transitions, and the executor sees a phone that changes screen when the right thing is tapped:

    login = FakeScreen("login", screen_xml("com.bank", [FakeNode(text="Pay", bounds=(0, 0, 100, 50))]),
                       package="com.bank", on_tap={"text=Pay": "paid"})
    dev = FakeDevice([login, FakeScreen("paid", screen_xml("com.bank", []), package="com.bank")])
    dev.tap(50, 25)            # -> screen "paid"; dev.actions == [("tap", 50, 25)]

Failure switches (all off by default):
- `offline_after_calls=N`: the first N calls work, then every call raises DeviceOffline until
  `come_back()`.
- `outcome_unknown_next_action(performed=...)`: the next action raises ActionOutcomeUnknown;
  with performed=True it has taken effect first (the nasty case), else it has not.
- `delay_s` / `timeout_s`: every call sleeps `delay_s`; past `timeout_s` it raises DeviceTimeout
  (actions raise ActionOutcomeUnknown instead, as U2Device does).

Nothing here is thread-safe; a test drives it from one thread.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from xml.sax.saxutils import quoteattr

from lxml import etree

from starebrain.device.base import Direction, Key, Observation
from starebrain.errors import ActionOutcomeUnknown, DeviceOffline, DeviceTimeout

ACTIONS = frozenset({"tap", "long_press", "type_text", "press", "swipe", "open_app", "stop_app", "clear_state"})
HOME = "com.android.launcher3"


@dataclass(frozen=True)
class FakeNode:
    """One on-screen element; rendered as a `<node>` (with its `children` nested inside)."""

    text: str = ""
    resource_id: str = ""
    content_desc: str = ""
    class_name: str = "android.widget.TextView"
    bounds: tuple[int, int, int, int] = (0, 0, 0, 0)
    clickable: bool = False
    focused: bool = False
    password: bool = False
    hint: str = ""
    children: tuple[FakeNode, ...] = ()


def _node_xml(node: FakeNode, package: str, index: int) -> str:
    left, top, right, bottom = node.bounds
    attrs = {
        "index": str(index), "text": node.text, "resource-id": node.resource_id,
        "class": node.class_name, "package": package, "content-desc": node.content_desc,
        "clickable": str(node.clickable).lower(), "enabled": "true",
        "focusable": str(node.focused or node.clickable).lower(), "focused": str(node.focused).lower(),
        "password": str(node.password).lower(), "bounds": f"[{left},{top}][{right},{bottom}]",
        "hint": node.hint,
    }
    head = "<node " + " ".join(f"{k}={quoteattr(v)}" for k, v in attrs.items())
    if not node.children:
        return head + " />"
    inner = "".join(_node_xml(c, package, i) for i, c in enumerate(node.children))
    return f"{head}>{inner}</node>"


def screen_xml(package: str, nodes: list[FakeNode], size: tuple[int, int] = (1080, 1920)) -> str:
    """A u2-style hierarchy dump: one root FrameLayout of `package` holding `nodes`."""
    children = "\n    ".join(_node_xml(n, package, i) for i, n in enumerate(nodes))
    root = (f'<node index="0" text="" resource-id="" class="android.widget.FrameLayout" '
            f'package="{package}" content-desc="" bounds="[0,0][{size[0]},{size[1]}]">')
    return ("<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>\n<hierarchy rotation=\"0\">\n  "
            f"{root}\n    {children}\n  </node>\n</hierarchy>")


@dataclass
class FakeScreen:
    """A named screen. `on_tap` keys are `attr=value` (text, resource-id, content-desc) of the
    tapped node or one of its ancestors; `on_press` keys are back/home/enter/recents."""

    name: str
    xml: str
    package: str
    activity: str = ""
    on_tap: dict[str, str] = field(default_factory=dict)
    on_long_press: dict[str, str] = field(default_factory=dict)
    on_press: dict[str, str] = field(default_factory=dict)
    on_swipe: dict[str, str] = field(default_factory=dict)


def _bounds(node: etree._Element) -> tuple[int, int, int, int] | None:
    raw = node.get("bounds", "")
    try:
        left_top, right_bottom = raw[1:-1].split("][")
        left, top = (int(v) for v in left_top.split(","))
        right, bottom = (int(v) for v in right_bottom.split(","))
    except ValueError:
        return None
    return left, top, right, bottom


def node_at(xml: str, x: int, y: int) -> etree._Element | None:
    """The deepest (last drawn) node whose bounds contain (x, y)."""
    root = etree.fromstring(xml.encode("utf-8"))
    hit = None
    for node in root.iter("node"):
        b = _bounds(node)
        if b and b[0] <= x < b[2] and b[1] <= y < b[3]:
            hit = node
    return hit


def _match_transition(node: etree._Element | None, table: dict[str, str]) -> str | None:
    while node is not None:
        for key, target in table.items():
            attr, _, value = key.partition("=")
            if node.get(attr) == value:
                return target
        node = node.getparent()
    return None


class FakeDevice:
    """Implements `starebrain.device.base.Device` over `FakeScreen`s; see the module docstring."""

    def __init__(self, screens: list[FakeScreen], *, serial: str = "fake-0", start: str | None = None,
                 launch: dict[str, str] | None = None, installed: list[str] | None = None,
                 size: tuple[int, int] = (1080, 1920)) -> None:
        self.serial = serial
        self.screens = {s.name: s for s in screens}
        self.current = start or screens[0].name
        self.launch = launch or {s.package: s.name for s in reversed(screens)}
        self.installed = installed if installed is not None else sorted({s.package for s in screens})
        self.size = size
        self.actions: list[tuple[object, ...]] = []  # every action that took effect, in order
        self.calls: Counter[str] = Counter()  # every call attempted, by method name
        self.typed: list[str] = []
        self.history: list[str] = [self.current]  # screens visited
        self.offline_after_calls: int | None = None
        self.offline = False
        self.delay_s = 0.0
        self.timeout_s = 10.0
        self.closed = False
        self._unknown_next: bool | None = None  # None: off; else "performed?"

    # switches
    def outcome_unknown_next_action(self, *, performed: bool) -> None:
        """Make the next action raise ActionOutcomeUnknown, after taking effect iff `performed`."""
        self._unknown_next = performed

    def come_back(self) -> None:
        """The phone is reachable again (after `offline_after_calls` tripped)."""
        self.offline = False
        self.offline_after_calls = None

    @property
    def screen(self) -> FakeScreen:
        return self.screens[self.current]

    def go(self, name: str) -> None:
        """Switch to screen `name` (tests may call this to script app behaviour)."""
        if name not in self.screens:
            raise KeyError(f"no fake screen named {name!r}")
        self.current = name
        self.history.append(name)

    # the Device protocol
    def observe(self, *, screenshot: bool = False) -> Observation:
        """The current screen's XML; a tiny fake PNG header when a screenshot is asked for."""
        self._enter("observe")
        s = self.screen
        shot = b"\x89PNG\r\n\x1a\nfake:" + s.name.encode() if screenshot else None
        return Observation(hierarchy_xml=s.xml, package=s.package, activity=s.activity,
                           screenshot=shot, width=self.size[0], height=self.size[1],
                           extras={"fake_screen": s.name})

    def tap(self, x: int, y: int) -> None:
        self._act("tap", x, y)

    def long_press(self, x: int, y: int, duration_s: float = 0.8) -> None:
        self._act("long_press", x, y)

    def type_text(self, text: str) -> None:
        self._act("type_text", text)

    def press(self, key: Key) -> None:
        self._act("press", key)

    def swipe(self, direction: Direction) -> None:
        self._act("swipe", direction)

    def open_app(self, package: str, *, fresh: bool = False) -> None:
        self._act("open_app", package)

    def open_link(self, url: str, package: str | None = None) -> None:
        self._act("open_link", url)

    def stop_app(self, package: str) -> None:
        self._act("stop_app", package)

    def clear_state(self, package: str) -> None:
        self._act("clear_state", package)

    def current_app(self) -> tuple[str, str]:
        self._enter("current_app")
        return self.screen.package, self.screen.activity

    def installed_packages(self) -> list[str]:
        self._enter("installed_packages")
        return list(self.installed)

    def wait_online(self, timeout_s: float = 30.0, poll_s: float = 0.5) -> None:
        """Like U2Device.wait_online(): DeviceOffline while the fake is offline (no time passes)."""
        if self.offline:
            raise DeviceOffline(f"{self.serial}: fake phone is still offline after {timeout_s}s")

    def brand(self) -> str:
        """Like U2Device.brand(): selects the device profile."""
        return "fake"

    def close(self) -> None:
        self.closed = True

    # internals
    def _enter(self, method: str) -> None:
        self.calls[method] += 1
        if self.offline_after_calls is not None and sum(self.calls.values()) > self.offline_after_calls:
            self.offline = True
        if self.offline:
            raise DeviceOffline(f"{self.serial}: fake phone is offline")
        if self.delay_s:
            time.sleep(min(self.delay_s, self.timeout_s))
            if self.delay_s > self.timeout_s:
                raise DeviceTimeout(f"{self.serial}: {method} took longer than {self.timeout_s}s")

    def _act(self, kind: str, *args: object) -> None:
        try:
            self._enter(kind)
        except DeviceTimeout as exc:
            raise ActionOutcomeUnknown(f"{self.serial}: {kind} timed out; it may have happened") from exc
        performed, self._unknown_next = self._unknown_next, None
        if performed is not False:
            self.actions.append((kind, *args))
            self._apply(kind, args)
        if performed is not None:
            raise ActionOutcomeUnknown(f"{self.serial}: connection lost after sending {kind}")

    def _apply(self, kind: str, args: tuple[object, ...]) -> None:
        s = self.screen
        target: str | None = None
        if kind in ("tap", "long_press"):
            node = node_at(s.xml, int(args[0]), int(args[1]))  # type: ignore[call-overload]
            target = _match_transition(node, s.on_tap if kind == "tap" else s.on_long_press)
        elif kind == "press":
            target = s.on_press.get(str(args[0]))
        elif kind == "swipe":
            target = s.on_swipe.get(str(args[0]))
        elif kind == "open_app":
            target = self.launch.get(str(args[0]))
        elif kind in ("stop_app", "clear_state") and s.package == args[0]:  # the app leaves: home, else another app
            target = self.launch.get(HOME) or next((o.name for o in self.screens.values() if o.package != args[0]),
                                                   None)
        elif kind == "type_text":
            self._type_into_focused(str(args[0]))
        if target is not None:
            self.go(target)

    def _type_into_focused(self, text: str) -> None:
        self.typed.append(text)
        root = etree.fromstring(self.screen.xml.encode("utf-8"))
        focused = root.xpath("//node[@focused='true']")
        if focused:
            focused[0].set("text", text)
            self.screen.xml = etree.tostring(root, encoding="unicode")
