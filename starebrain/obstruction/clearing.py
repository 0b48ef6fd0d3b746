"""Small shared steps of the rules: find a button, turn it into a tap, check where the target is."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from starebrain.models.selector import Selector
from starebrain.obstruction.kinds import BackClearance, Obstruction, ObstructionKind, TapClearance
from starebrain.obstruction.surfaces import Surface
from starebrain.profiles.words import label_in
from starebrain.snapshot import Node, ScreenSnapshot
from starebrain.snapshot.describe import clean


def tap(snap: ScreenSnapshot, node: Node) -> TapClearance:
    """A tap on `node` where a person would press it, labelled with what they would read."""
    x, y = snap.tap_point(node)
    return TapClearance(x, y, clean(snap.label_of(node), 60), node.resource_id)


def cancel_with_back(surface: Surface, what: str) -> Obstruction:
    """A dialog offering nothing risky and no cancel word ("Keep on device" / "Exit"): back cancels it
    without choosing. Dialog#onBackPressed cancels a cancelable dialog (the AlertDialog default) and a
    non-cancelable one ignores it, so back never picks one of its buttons."""
    title = clean(surface.texts[0], 60) if surface.texts else what
    return Obstruction(ObstructionKind.OVERLAY, f'{what} "{title}" without a cancel button; back cancels it',
                       BackClearance())


def by_ids(buttons: Sequence[Node], ids: Iterable[str], *, loose: bool = False) -> Node | None:
    """The first button (in the order of `ids`) with one of the ids; `loose` also accepts the same
    name under another package prefix (OEMs rename the package, not the id)."""
    for wanted in ids:
        short = wanted.split(":id/", 1)[-1]
        for b in buttons:
            if b.resource_id == wanted or (loose and b.short_id == short):
                return b
    return None


def by_label(snap: ScreenSnapshot, buttons: Sequence[Node], words: tuple[str, ...]) -> Node | None:
    """The button whose label (text or description) equals the earliest-listed word."""
    hits = [(hit, b) for b in buttons if (hit := label_in(snap.label_of(b), words) or label_in(b.content_desc, words))]
    return min(hits, key=lambda hit: words.index(hit[0]))[1] if hits else None


def visible_target(snap: ScreenSnapshot, target: Selector | None) -> Node | None:
    """The target node when the step's selector resolves to something visible."""
    if target is None:
        return None
    node = snap.resolve(target)
    return node if node is not None and node.visible else None


def target_inside(snap: ScreenSnapshot, target: Selector | None, surface: Surface) -> bool:
    """True when the step itself means to act inside this surface (so it is no obstruction)."""
    node = visible_target(snap, target)
    return node is not None and surface.contains(node)
