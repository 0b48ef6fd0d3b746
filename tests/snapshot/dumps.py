"""The 24 real dumps (tests/fixtures/real_dumps) and their INDEX.tsv labels, plus small XML builders."""

from __future__ import annotations

import csv
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from xml.sax.saxutils import quoteattr

DUMPS = Path(__file__).resolve().parent.parent / "fixtures" / "real_dumps"


@dataclass(frozen=True)
class Dump:
    file: str
    node_count: int
    what: str
    obstruction: str
    buttons: str

    @property
    def data(self) -> bytes:
        return (DUMPS / self.file).read_bytes()


@cache
def index() -> list[Dump]:
    """Every row of INDEX.tsv."""
    with (DUMPS / "INDEX.tsv").open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    return [Dump(r["file"], int(r["node_count"]), r["what_is_on_screen"], r["obstruction"],
                 r["buttons_to_get_past"]) for r in rows]


def dump(prefix: str) -> Dump:
    """The dump whose file name starts with `prefix` (e.g. "028")."""
    return next(d for d in index() if d.file.startswith(prefix))


def node(text: str = "", *, cls: str = "android.widget.TextView", rid: str = "", pkg: str = "com.example.app",
         desc: str = "", bounds: str = "[0,0][100,100]", children: str = "", **flags: str | bool) -> str:
    """One u2-style <node>; boolean flags are written as "true"/"false" (password=True, clickable=True)."""
    attrs = {"index": "0", "text": text, "resource-id": rid, "class": cls, "package": pkg,
             "content-desc": desc, "bounds": bounds}
    attrs.update({k.replace("_", "-"): (str(v).lower() if isinstance(v, bool) else v) for k, v in flags.items()})
    body = " ".join(f"{k}={quoteattr(v)}" for k, v in attrs.items())
    return f"<node {body}>{children}</node>" if children else f"<node {body} />"


def hierarchy(*windows: str, rotation: int = 0) -> str:
    """A whole dump from window root nodes."""
    head = "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>"
    return f'{head}<hierarchy rotation="{rotation}">{"".join(windows)}</hierarchy>'


def status_bar(clock: str = "12:00", battery: str = "80") -> str:
    """A systemui status-bar window with a clock and battery readout."""
    kids = (node(clock, rid="com.android.systemui:id/clock", pkg="com.android.systemui", bounds="[10,0][100,60]")
            + node("", desc=f"Battery {battery} percent.", rid="com.android.systemui:id/battery",
                   pkg="com.android.systemui", bounds="[900,0][1000,60]"))
    return node(cls="android.widget.FrameLayout", pkg="com.android.systemui", bounds="[0,0][1080,60]", children=kids)


def tv_dialog(package: str) -> str:
    """TvSettings' DialogActivity: the question in content_fragment, the answers in action_fragment's list."""
    actions = "".join(node(cls="android.widget.RelativeLayout", pkg=package, clickable=True,
                           bounds=f"[1152,{476 + 128 * i}][1920,{604 + 128 * i}]",
                           children=node(label, pkg=package, rid=f"{package}:id/action_title",
                                         bounds=f"[1216,{515 + 128 * i}][1500,{564 + 128 * i}]"))
                      for i, label in enumerate(("Pair", "Cancel")))
    content = node(cls="android.widget.FrameLayout", pkg=package, rid=f"{package}:id/content_fragment",
                   bounds="[0,0][1152,1080]",
                   children=node("Bluetooth pairing request", pkg=package, bounds="[100,494][860,585]"))
    action = node(cls="android.widget.FrameLayout", pkg=package, rid=f"{package}:id/action_fragment",
                  bounds="[1152,0][1920,1080]", children=actions)
    return hierarchy(node(cls="android.widget.FrameLayout", pkg=package, bounds="[0,0][1920,1080]",
                          children=content + action), rotation=1)

