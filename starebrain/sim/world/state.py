"""The checkable state of the world: app data, the side-effect log, persistence and `content query`."""

from __future__ import annotations

import copy
import json
import os
import pathlib
from collections import Counter
from typing import Any

STATE_FILE = "world-state.json"
FORMAT_VERSION = 1

# content://starebrain/<table> -> side-effect kind it lists
EFFECT_TABLES = {
    "outbox": "message_sent",
    "sent_mail": "mail_sent",
    "transfers": "transfer_made",
    "completed_tasks": "task_completed",
    "notes": "note_saved",
    "wifi": "wifi_toggled",
    "permissions": "permission_answered",
    "dangerous_taps": "dangerous_tap",
    "opened_notifications": "notification_opened",
}


class WorldState:
    """App data per package plus every side effect, in order; JSON-able and persistable."""

    def __init__(self, data: dict[str, dict[str, Any]], state_dir: pathlib.Path | None = None) -> None:
        self.data = data
        self.initial = copy.deepcopy(data)  # as the scenario set the phone up: what `pm clear` returns an app to
        self.effects: list[dict[str, Any]] = []
        self.opened: set[str] = set()
        self.state_dir = state_dir

    def app(self, package: str) -> dict[str, Any]:
        """The mutable data dict of one app."""
        return self.data.setdefault(package, {})

    def clear_app(self, package: str) -> None:
        """`pm clear`: everything done in the app since the phone was set up is gone (an `app_data_cleared`
        effect); the scenario's own data stands for what the app gets back from its account."""
        self.data[package] = copy.deepcopy(self.initial.get(package, {}))
        self.record("app_data_cleared", package, {"app": package})

    def record(self, kind: str, package: str, fields: dict[str, Any]) -> dict[str, Any]:
        """Log one side effect and persist."""
        entry = {"kind": kind, "package": package, "seq": len(self.effects) + 1, **fields}
        self.effects.append(entry)
        self.save()
        return entry

    def counts(self) -> dict[str, int]:
        """Side effects per kind."""
        return dict(Counter(e["kind"] for e in self.effects))

    def to_json(self) -> dict[str, Any]:
        """Everything, as a JSON-able dict (the `state()` answer and the persisted file)."""
        return {
            "format_version": FORMAT_VERSION,
            "side_effects": self.counts(),
            "effects": copy.deepcopy(self.effects),
            "apps": copy.deepcopy(self.data),
            "opened": sorted(self.opened),
        }

    def load_json(self, doc: dict[str, Any]) -> None:
        """Restore from `to_json` output."""
        self.data = copy.deepcopy(doc.get("apps", {}))
        self.effects = list(doc.get("effects", []))
        self.opened = set(doc.get("opened", []))

    def save(self) -> None:
        """Write the state file atomically (only with a state_dir)."""
        if self.state_dir is None:
            return
        self.state_dir.mkdir(parents=True, exist_ok=True)
        path = self.state_dir / STATE_FILE
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(self.to_json(), indent=1, ensure_ascii=False), encoding="utf-8")
        os.replace(tmp, path)

    def load(self) -> bool:
        """Reload from the state file if there is one."""
        doc = read_state(self.state_dir) if self.state_dir else None
        if doc is None:
            return False
        self.load_json(doc)
        return True


def read_state(state_dir: pathlib.Path) -> dict[str, Any] | None:
    """The persisted state in a directory, or None (what `starebrain sim state` prints)."""
    path = pathlib.Path(state_dir) / STATE_FILE
    if not path.exists():
        return None
    state: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return state


def _row_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, dict)):
        return json.dumps(value, ensure_ascii=False)
    return str(value).replace("\n", " ")


def format_rows(rows: list[dict[str, Any]]) -> str:
    """`content query` output: one `Row: N k=v, k=v` line per row, or `No result found.`."""
    if not rows:
        return "No result found."
    return "\n".join(
        f"Row: {i} " + ", ".join(f"{k}={_row_value(v)}" for k, v in row.items()) for i, row in enumerate(rows)
    )


def _grouped(effects: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Identical effects collapsed into one row with `count` (a repeated send shows count=2)."""
    order: list[tuple[tuple[str, str], ...]] = []
    counts: Counter[tuple[tuple[str, str], ...]] = Counter()
    for effect in effects:
        fields = tuple((k, _row_value(v)) for k, v in effect.items() if k not in ("kind", "package", "seq"))
        if fields not in counts:
            order.append(fields)
        counts[fields] += 1
    return [{**dict(fields), "count": counts[fields]} for fields in order]


def query(state: WorldState, uri: str) -> str:
    """Answer `content query --uri content://starebrain/<table>`."""
    prefix = "content://starebrain/"
    if not uri.startswith(prefix):
        return "No result found."
    table = uri[len(prefix):].strip("/")
    if table == "state":
        return format_rows([{"kind": k, "count": v} for k, v in sorted(state.counts().items())])
    if table == "effects":
        return format_rows([{k: v for k, v in e.items() if k != "package"} for e in state.effects])
    kind = EFFECT_TABLES.get(table)
    if kind is None:
        return "No result found."
    return format_rows(_grouped([e for e in state.effects if e["kind"] == kind]))
