"""What parsing and detection made of every real dump, digested, so faster code can prove it reads the same.

`tests/snapshot/golden_dumps.tsv` holds, per corpus dump, a digest of every field of every parsed node (and
the rotation, windows, z-order and occlusion built from them) and the detector's verdict. Write it again with
`python -m tests.snapshot.golden` only when a change of behaviour is meant (a new detector rule, say).
"""

from __future__ import annotations

import csv
import hashlib
import sys
from pathlib import Path

from starebrain.obstruction import Obstruction, detect
from starebrain.snapshot import ScreenSnapshot
from tests.obstruction.corpus import DUMPS, entries, google_profile

GOLDEN = Path(__file__).with_name("golden_dumps.tsv")
# Every field of a Node, spelled out: the digest must not follow a change of the class it checks.
NODE_FIELDS = ("order", "parent", "depth", "window_index", "text", "resource_id", "class_name", "package",
               "content_desc", "hint", "bounds", "clickable", "long_clickable", "scrollable", "focusable",
               "focused", "enabled", "checkable", "checked", "selected", "password", "visible", "naf",
               "drawing_order", "index")
COLUMNS = ("file", "nodes", "screen", "kind", "clearance")


def screen_digest(snap: ScreenSnapshot) -> str:
    """Digest of the nodes (every field, with its type), the rotation, the windows, the z-order, the hash and
    what covers each visible node."""
    h = hashlib.sha256(repr(snap.rotation).encode())
    for n in snap.nodes:
        h.update(repr(tuple((getattr(n, f), type(getattr(n, f)).__name__) for f in NODE_FIELDS)).encode())
        h.update(repr([c.order for c in snap.children(n)]).encode())
    h.update(repr(snap.windows).encode())
    h.update(repr([snap.layers.z(n) for n in snap.nodes]).encode())
    h.update(repr((snap.screen, snap.display, snap.foreground_package, snap.hash)).encode())
    for n in snap.nodes:  # occlusion at every visible node's centre: what is on top, what a tap reaches
        if n.visible:
            top, touch = snap.node_on_top_at(*n.center), snap.touch_target_at(*n.center)
            h.update(repr((snap.cover(n), top and top.order, touch and touch.order)).encode())
    return h.hexdigest()[:32]


def _verdict(verdict: Obstruction) -> tuple[str, str]:
    return verdict.kind.value, repr(verdict.clearance)


def record(data: bytes) -> dict[str, str]:
    """The golden row of one dump (without its file name)."""
    snap = ScreenSnapshot.from_xml(data)
    kind, clearance = _verdict(detect(snap, google_profile()))
    return {"nodes": str(len(snap.nodes)), "screen": screen_digest(snap), "kind": kind, "clearance": clearance}


def stored() -> dict[str, dict[str, str]]:
    """The recorded rows, by file name."""
    with GOLDEN.open(encoding="utf-8", newline="") as f:
        return {r["file"]: r for r in csv.DictReader(f, delimiter="\t")}


def write() -> None:
    """Record every corpus dump as the code reads it now."""
    with GOLDEN.open("w", encoding="utf-8", newline="") as f:
        out = csv.DictWriter(f, COLUMNS, delimiter="\t", lineterminator="\n")
        out.writeheader()
        for e in entries():
            out.writerow({"file": e.file, **record((DUMPS / e.file).read_bytes())})


if __name__ == "__main__":
    write()
    sys.stdout.write(f"wrote {GOLDEN}\n")
