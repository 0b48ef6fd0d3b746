"""Apps whose screens are real uiautomator dumps: a screen is a recorded hierarchy, taps are declared on its nodes.

    screens:
      history:
        recorded: 016_spinner_loading_history_attendease.xml   # a file in world/recorded/
        transitions:
          - match: {content-desc: "Navigate up"}                # attribute values, all must be equal
            tap: [{screen_back: true}]                          # the world's ops (go, replace, effect, ...)

The dump's windows are shown as the app's window, its bounds scaled from the recording phone's
screen to the sim's display; every attribute (obfuscated ids, Compose and WebView trees, odd
class names) stays as recorded. App files live in `world/recorded/*.yaml` and are installed by a
scenario's `recorded_apps: [name, ...]`.
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources
from typing import Any

import yaml
from lxml import etree

from starebrain.sim.phone import UiNode
from starebrain.sim.world.frame import Frame, Target

_FOLDER = "recorded"
BOUNDS = re.compile(r"\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]")
Recorded = tuple[dict[str, str], tuple[int, int, int, int], tuple[Any, ...]]


def _file(name: str) -> Any:
    return resources.files("starebrain.sim.world").joinpath(_FOLDER, name)


def recorded_app_specs(names: list[str]) -> dict[str, dict[str, Any]]:
    """The app declarations named by a scenario's `recorded_apps`, keyed by package."""
    specs = {}
    for name in names:
        spec = yaml.safe_load(_file(f"{name}.yaml").read_text(encoding="utf-8"))
        for screen, declared in spec["screens"].items():
            if "recorded" not in declared:
                raise ValueError(f"recorded app {name}: screen {screen} has no `recorded:` dump")
            load_dump(declared["recorded"])  # a missing or broken dump fails when the phone is built
        specs[spec["package"]] = spec
    return specs


@cache
def load_dump(name: str) -> tuple[tuple[int, int], tuple[Recorded, ...]]:
    """(recording screen size, top-level nodes) of a dump file; parsed once."""
    root = etree.fromstring(_file(name).read_bytes(), etree.XMLParser(recover=True, huge_tree=True))
    windows = tuple(_node(element) for element in root if element.tag == "node")
    width = max((w[1][2] for w in windows), default=1)
    height = max((w[1][3] for w in windows), default=1)
    return (max(width, 1), max(height, 1)), windows


def _node(element: Any) -> Recorded:
    attrs = {str(k): str(v) for k, v in element.attrib.items()}
    match = BOUNDS.fullmatch(attrs.get("bounds", ""))
    bounds = tuple(int(v) for v in match.groups()) if match else (0, 0, 0, 0)
    return attrs, bounds, tuple(_node(child) for child in element if child.tag == "node")  # type: ignore[return-value]


def build_recorded_window(frame: Frame, spec: dict[str, Any], ctx: dict[str, Any],
                          display: tuple[int, int]) -> UiNode:
    """The app window of a recorded screen, with its declared transitions bound to their nodes."""
    (rec_w, rec_h), windows = load_dump(spec["recorded"])
    sx, sy = display[0] / rec_w, display[1] / rec_h
    transitions = spec.get("transitions", [])
    holder = UiNode({"index": "0", "class": "android.widget.FrameLayout", "package": "", "text": "",
                     "resource-id": "", "content-desc": ""}, (0, 0, display[0], display[1]))

    def build(recorded: Recorded, parent: UiNode) -> UiNode:
        attrs, (left, top, right, bottom), children = recorded
        node = UiNode(dict(attrs), (round(left * sx), round(top * sy), round(right * sx), round(bottom * sy)),
                      parent=parent)
        node.attrs["bounds"] = "[{},{}][{},{}]".format(*node.bounds)
        node.children = [build(child, node) for child in children]
        for transition in transitions:
            if all(attrs.get(key) == str(value) for key, value in transition["match"].items()):
                frame.bind(node, Target("ops", list(transition.get("tap", [])), dict(ctx)))
                break
        return node

    if len(windows) == 1:
        return build(windows[0], holder)
    holder.children = [build(window, holder) for window in windows]
    holder.attrs["package"] = holder.children[0].attrs.get("package", "")
    return holder
