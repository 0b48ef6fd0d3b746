"""Maestro flow files (an `appId` header, `---`, a command list) read as they are.

Each Maestro command is translated into the equivalent StareBrain v2 step, then compiled like any
StareBrain flow, so Maestro flows get resume, confirmation and parallel phones. A command with no
equivalent is one FlowInvalid line naming the command and its line, before anything runs.
docs/flows.md has the supported table.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from starebrain.errors import FlowInvalid
from starebrain.flows.flow_file import FLOW_FORMAT, Flow, parse_flow

HEADER = {"appId", "name", "tags", "env", "onFlowStart", "onFlowComplete"}
KEYS = {"enter": "enter", "home": "home", "back": "back"}
NO_JS = "JavaScript is not supported"
UNSUPPORTED = {
    "evalScript": NO_JS, "runScript": NO_JS, "assertTrue": NO_JS, "copyTextFrom": "no clipboard step",
    "pasteText": "no clipboard step", "killApp": "process death is not simulated (stopApp force-stops)",
    "setLocation": "no location step", "travel": "no location step", "addMedia": "no media step",
    "doubleTapOn": "no double-tap step", "clearKeychain": "iOS only", "setAirplaneMode": "no radio step",
    "toggleAirplaneMode": "no radio step", "startRecording": "no recording step",
    "stopRecording": "no recording step", "inputRandomText": "no random input (flows are deterministic)",
    "inputRandomNumber": "no random input (flows are deterministic)",
    "inputRandomEmail": "no random input (flows are deterministic)",
    "inputRandomPersonName": "no random input (flows are deterministic)",
}
COMMON = {"label", "optional"}
_EXPECTING = {"tap", "long_press", "press", "swipe", "open_app", "open_link"}


class _Seq(list):  # type: ignore[type-arg]
    """A YAML list that remembers the line of each item."""

    lines: list[int]


class _Loader(yaml.SafeLoader):
    pass


def _seq(loader: _Loader, node: yaml.SequenceNode) -> _Seq:
    out = _Seq(loader.construct_sequence(node, deep=True))
    out.lines = [item.start_mark.line + 1 for item in node.value]
    return out


_Loader.add_constructor("tag:yaml.org,2002:seq", _seq)


def is_maestro(docs: list[Any]) -> bool:
    """An `appId` header document, optionally followed by the command list."""
    return bool(docs) and isinstance(docs[0], dict) and "appId" in docs[0] and "format" not in docs[0]


def load_maestro(path: Path, text: str, docs: list[Any], *, params: dict[str, str], cli_env: dict[str, str],
                 stack: tuple[str, ...], package: str | None) -> Flow:
    """Translate a Maestro file into a StareBrain flow and compile it."""
    docs = list(yaml.load_all(text, Loader=_Loader))  # noqa: S506 - a SafeLoader subclass
    header = docs[0]
    commands = docs[1] if len(docs) > 1 else None
    unknown = sorted(set(header) - HEADER)
    if unknown:
        raise FlowInvalid(f"{path}: Maestro header key {unknown[0]!r} is not supported (see docs/flows.md)")
    if len(docs) != 2 or not isinstance(commands, list) or not commands:
        raise FlowInvalid(f"{path}: a Maestro flow is the appId header, a '---' line, then a list of commands")
    app = str(header["appId"])
    tr = _Translator(path, app)
    doc: dict[str, Any] = {
        "format": FLOW_FORMAT, "version": 2, "name": str(header.get("name") or path.stem),
        "steps": tr.commands(commands), "tags": header.get("tags"), "env": header.get("env"),
    }
    for ours, theirs in (("on_start", "onFlowStart"), ("on_complete", "onFlowComplete")):
        if header.get(theirs):
            doc[ours] = tr.commands(header[theirs])
    flow = parse_flow(doc, source=str(path), params=params, cli_env=cli_env, stack=stack, package=package or app)
    return flow.model_copy(update={"dialect": "maestro"})


class _Translator:
    """Maestro commands → StareBrain v2 step mappings, with the file's line numbers in every error."""

    def __init__(self, path: Path, app: str) -> None:
        self.path, self.app = path, app

    def commands(self, items: Any, line: int = 0) -> list[dict[str, Any]]:
        if not isinstance(items, list):
            raise FlowInvalid(f"{self.path}:{line}: expected a list of commands")
        lines = getattr(items, "lines", [line] * len(items))
        steps = _merge_taps_into_typing(_clear_before_launch([self.command(item, at)
                                                              for item, at in zip(items, lines, strict=True)]))
        for step, after in zip(steps, steps[1:], strict=False):
            # An action checked by the next assertVisible: that screen is also the action's `expect`, so an
            # action cut short by a crash is recognised as done when its screen is there, not run again.
            if _EXPECTING & set(step) and "assert_visible" in after and "optional" not in step:
                step.setdefault("expect", after["assert_visible"])
        return steps

    def command(self, item: Any, line: int) -> dict[str, Any]:
        if isinstance(item, str):
            name, arg = item, None
        elif isinstance(item, dict) and len(item) == 1:
            name, arg = next(iter(item.items()))
        else:
            raise FlowInvalid(f"{self.path}:{line}: a command is a name or a one-key mapping")
        if name in UNSUPPORTED:
            raise FlowInvalid(f"{self.path}:{line}: Maestro command {name!r} is not supported: "
                              f"{UNSUPPORTED[name]}")
        handler = getattr(self, f"_{name}", None)
        if handler is None:
            raise FlowInvalid(f"{self.path}:{line}: unknown Maestro command {name!r}")
        extra = {k: arg.pop(k) for k in list(arg) if k in COMMON} if isinstance(arg, dict) else {}
        step = handler(arg, line)
        if "when" in (arg if isinstance(arg, dict) else {}) and name != "runFlow":
            raise FlowInvalid(f"{self.path}:{line}: 'when' is only supported on runFlow")
        return {**step, **extra}

    # -- selectors and conditions -----------------------------------------------------------

    def selector(self, raw: Any, line: int, allowed: set[str] = frozenset(),  # type: ignore[assignment]
                 point: bool = False) -> dict[str, Any]:
        # Maestro's text is a regex matched against the whole text (starebrain/flows/text_pattern.py).
        if isinstance(raw, str | int | float):
            return {"text_regex": str(raw)}
        if not isinstance(raw, dict):
            raise FlowInvalid(f"{self.path}:{line}: expected a selector (text or a mapping)")
        out: dict[str, Any] = {}
        for key, value in raw.items():
            if key == "text":
                out["text_regex"] = str(value)
            elif key == "id":
                value = str(value)
                out["resource_id"] = value if ":id/" in value else f"{self.app}:id/{value}"
            elif key == "index":
                out["index"] = int(value)
            elif key in allowed:
                continue
            elif key == "point" and point:
                out["point"] = str(value).strip()
            elif key == "point":
                raise FlowInvalid(f"{self.path}:{line}: a point selects a place only in tapOn and longPressOn")
            else:
                raise FlowInvalid(f"{self.path}:{line}: selector key {key!r} is not supported "
                                  f"(text, id, index are)")
        if "point" in out and len(out) > 1:
            raise FlowInvalid(f"{self.path}:{line}: a point with text, id or index (a point inside an element) "
                              f"is not supported; give the point alone")
        if not out.keys() - {"index"}:
            raise FlowInvalid(f"{self.path}:{line}: a selector needs text, id or point")
        return out

    def condition(self, raw: Any, line: int) -> dict[str, Any] | None:
        """`when`/`while`: visible / notVisible (screen), platform (decided now); None = never true."""
        if not isinstance(raw, dict):
            raise FlowInvalid(f"{self.path}:{line}: a condition is a mapping (visible, notVisible, platform)")
        out: dict[str, Any] = {}
        for key, value in raw.items():
            if key == "visible":
                out["visible"] = self.selector(value, line)
            elif key == "notVisible":
                out["not_visible"] = self.selector(value, line)
            elif key == "platform":
                if str(value).lower() != "android":
                    return None
            elif key in ("true", True):
                raise FlowInvalid(f"{self.path}:{line}: condition 'true' needs JavaScript, which is not supported")
            else:
                raise FlowInvalid(f"{self.path}:{line}: condition {key!r} is not supported")
        return out

    # -- commands ---------------------------------------------------------------------------

    def _launchApp(self, arg: Any, line: int) -> dict[str, Any]:
        spec = arg if isinstance(arg, dict) else {"appId": arg} if arg else {}
        unknown = set(spec) - {"appId", "clearState", "stopApp"}
        if unknown:
            raise FlowInvalid(f"{self.path}:{line}: launchApp option {sorted(unknown)[0]!r} is not supported")
        package = str(spec.get("appId") or self.app)
        clear = bool(spec.get("clearState", False))
        step: dict[str, Any] = {"open_app": {"package": package, "fresh": bool(spec.get("stopApp", True)) or clear}}
        return {**step, "_clear_first": package} if clear else step

    def _stopApp(self, arg: Any, line: int) -> dict[str, Any]:
        return {"stop_app": self._app_arg(arg, line, "stopApp")}

    def _clearState(self, arg: Any, line: int) -> dict[str, Any]:
        return {"clear_state": self._app_arg(arg, line, "clearState")}

    def _app_arg(self, arg: Any, line: int, name: str) -> str:
        """The app a `stopApp` / `clearState` names: `PKG`, `{appId: PKG}`, or the flow's appId when none."""
        if isinstance(arg, dict):
            unknown = set(arg) - {"appId"}
            if unknown:
                raise FlowInvalid(f"{self.path}:{line}: {name} option {sorted(unknown)[0]!r} is not supported")
            arg = arg.get("appId")
        return str(arg or self.app)

    def _tapOn(self, arg: Any, line: int, kind: str = "tap") -> dict[str, Any]:
        options = {"retryTapIfNoChange", "waitToSettleTimeoutMs", "repeat", "delay", "label", "optional"}
        step: dict[str, Any] = {kind: self.selector(arg, line, options, point=True)}
        times = int(arg.get("repeat", 1)) if isinstance(arg, dict) else 1
        return step if times == 1 else {"repeat": {"times": times, "steps": [step]}}

    def _longPressOn(self, arg: Any, line: int) -> dict[str, Any]:
        return self._tapOn(arg, line, "long_press")

    def _inputText(self, arg: Any, line: int) -> dict[str, Any]:
        text = arg.get("text") if isinstance(arg, dict) else arg
        if text is None:
            raise FlowInvalid(f"{self.path}:{line}: inputText needs the text")
        return {"type": {"text": str(text)}}

    def _eraseText(self, arg: Any, line: int) -> dict[str, Any]:
        return {"type": {"text": ""}, "label": "Erase the text of the focused field"}

    def _assertVisible(self, arg: Any, line: int) -> dict[str, Any]:
        return {"assert_visible": self.selector(arg, line)}

    def _assertNotVisible(self, arg: Any, line: int) -> dict[str, Any]:
        return {"assert_not_visible": self.selector(arg, line)}

    def _scroll(self, arg: Any, line: int) -> dict[str, Any]:
        return {"swipe": "up", "label": "Scroll down"}

    def _scrollUntilVisible(self, arg: Any, line: int) -> dict[str, Any]:
        if not isinstance(arg, dict) or "element" not in arg:
            raise FlowInvalid(f"{self.path}:{line}: scrollUntilVisible needs an element")
        if str(arg.get("direction", "DOWN")).upper() != "DOWN":
            raise FlowInvalid(f"{self.path}:{line}: scrollUntilVisible only scrolls DOWN here")
        unknown = set(arg) - {"element", "direction", "timeout", "speed", "visibilityPercentage", "centerElement"}
        if unknown:
            raise FlowInvalid(f"{self.path}:{line}: scrollUntilVisible option {sorted(unknown)[0]!r} is not "
                              f"supported")
        swipes = max(1, min(50, int(arg.get("timeout", 20000)) // 2000))  # about one swipe per 2 s of timeout
        return {"scroll_to": {"selector": self.selector(arg["element"], line), "max_swipes": swipes}}

    def _swipe(self, arg: Any, line: int) -> dict[str, Any]:
        if not isinstance(arg, dict) or "direction" not in arg or set(arg) - {"direction", "duration"}:
            raise FlowInvalid(f"{self.path}:{line}: swipe is supported with a direction only (no start/end "
                              f"points or elements)")
        return {"swipe": str(arg["direction"]).lower()}

    def _back(self, arg: Any, line: int) -> dict[str, Any]:
        return {"press": "back"}

    def _hideKeyboard(self, arg: Any, line: int) -> dict[str, Any]:
        return {"press": "back", "label": "Hide the keyboard"}

    def _pressKey(self, arg: Any, line: int) -> dict[str, Any]:
        key = KEYS.get(str(arg).lower())
        if key is None:
            raise FlowInvalid(f"{self.path}:{line}: pressKey {arg!r} is not supported (Enter, Home, Back are)")
        return {"press": key}

    def _extendedWaitUntil(self, arg: Any, line: int) -> dict[str, Any]:
        if not isinstance(arg, dict) or not ({"visible", "notVisible"} & set(arg)):
            raise FlowInvalid(f"{self.path}:{line}: extendedWaitUntil needs visible or notVisible")
        timeout = float(arg.get("timeout", 10000)) / 1000
        if "visible" in arg:
            return {"wait_for": {"selector": self.selector(arg["visible"], line), "timeout_s": timeout}}
        return {"assert_not_visible": {"selector": self.selector(arg["notVisible"], line), "timeout_s": timeout}}

    def _waitForAnimationToEnd(self, arg: Any, line: int) -> dict[str, Any]:
        timeout = float(arg.get("timeout", 5000)) / 1000 if isinstance(arg, dict) else 5.0
        return {"wait_until_settled": {"timeout_s": timeout}}

    def _takeScreenshot(self, arg: Any, line: int) -> dict[str, Any]:
        return {"take_screenshot": str(arg.get("path") if isinstance(arg, dict) else arg or "screenshot")}

    def _openLink(self, arg: Any, line: int) -> dict[str, Any]:
        spec = arg if isinstance(arg, dict) else {"link": arg}
        unknown = set(spec) - {"link", "autoVerify", "browser"}
        if unknown:
            raise FlowInvalid(f"{self.path}:{line}: openLink option {sorted(unknown)[0]!r} is not supported")
        if not spec.get("link"):
            raise FlowInvalid(f"{self.path}:{line}: openLink needs the link")
        if spec.get("browser"):
            raise FlowInvalid(f"{self.path}:{line}: openLink browser: true is not supported (the phone picks the "
                              f"app that handles the link)")
        return {"open_link": {"url": str(spec["link"])}}

    def _runFlow(self, arg: Any, line: int) -> dict[str, Any]:
        spec = {"file": arg} if isinstance(arg, str) else arg
        if not isinstance(spec, dict) or not ({"file", "commands"} & set(spec)):
            raise FlowInvalid(f"{self.path}:{line}: runFlow needs a file or commands")
        unknown = set(spec) - {"file", "commands", "env", "when"}
        if unknown:
            raise FlowInvalid(f"{self.path}:{line}: runFlow option {sorted(unknown)[0]!r} is not supported")
        call: dict[str, Any] = {"env": spec.get("env") or {}}
        if "file" in spec:
            call["file"] = str(spec["file"])
        else:
            call["steps"] = self.commands(spec["commands"], line)
        step: dict[str, Any] = {"run_flow": call}
        if "when" in spec:
            cond = self.condition(spec["when"], line)
            if cond is None:  # a platform that is not Android: never runs
                return {"repeat": {"times": 0, "steps": [step]}}
            if cond:
                step["when"] = cond
        return step

    def _repeat(self, arg: Any, line: int) -> dict[str, Any]:
        if not isinstance(arg, dict) or "commands" not in arg:
            raise FlowInvalid(f"{self.path}:{line}: repeat needs commands (and times and/or while)")
        body = self.commands(arg["commands"], line)
        if "while" in arg:
            cond = self.condition(arg["while"], line)
            if cond is None:
                return {"repeat": {"times": 0, "steps": body}}
            return {"repeat": {"while": cond, "max": int(arg.get("times", 50)), "steps": body}}
        if "times" not in arg:
            raise FlowInvalid(f"{self.path}:{line}: repeat needs times or while")
        return {"repeat": {"times": int(arg["times"]), "steps": body}}

    def _retry(self, arg: Any, line: int) -> dict[str, Any]:
        if not isinstance(arg, dict) or not ({"commands", "file"} & set(arg)):
            raise FlowInvalid(f"{self.path}:{line}: retry needs commands or file")
        body = self.commands(arg["commands"], line) if "commands" in arg else [{"run_flow": str(arg["file"])}]
        return {"retry": {"max": int(arg.get("maxRetries", 1)), "steps": body}}


def _clear_before_launch(steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """`launchApp: {clearState: true}` is two steps: `clear_state` (the app's data really goes), then `open_app`."""
    out: list[dict[str, Any]] = []
    for step in steps:
        package = step.pop("_clear_first", None)
        if package is not None:
            out.append({"clear_state": package, **({"optional": step["optional"]} if "optional" in step else {})})
        out.append(step)
    return out


def _merge_taps_into_typing(steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """`tapOn: FIELD` then `inputText: T` is one StareBrain step, `type: {selector: FIELD, text: T}`.

    Our type step focuses the field itself and checks the text arrived; a separate tap on a field
    that already has the focus changes nothing on the screen, which the executor counts as a failure.
    """
    out: list[dict[str, Any]] = []
    for step in steps:
        prev = out[-1] if out else None
        typed = step.get("type")
        if prev is not None and set(prev) == {"tap"} and isinstance(typed, dict) and "selector" not in typed \
                and "optional" not in step and "point" not in prev["tap"]:
            out[-1] = {**step, "type": {"selector": prev["tap"], **typed}}
            continue
        out.append(step)
    return out
