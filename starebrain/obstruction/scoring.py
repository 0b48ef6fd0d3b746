"""Score detector verdicts against a person's label of a real dump (the labelled corpus and its bench).

A label is a screen class (an `ObstructionKind` value, or NO_HIERARCHY) and a clearing: "-" (nothing to
do), "wait", "back", "person" (a person must decide) or "tap:<button>", with alternatives joined by "|".
"""

from __future__ import annotations

from dataclasses import dataclass

from starebrain.obstruction.kinds import (
    BackClearance,
    Obstruction,
    ObstructionKind,
    TapClearance,
    WaitClearance,
)
from starebrain.obstruction.lexicon import Lexicon, normal_word, said, word_of
from starebrain.snapshot import ScreenSnapshot
from starebrain.snapshot.opaque import unusable_reason

NO_HIERARCHY = "NO_HIERARCHY"
NOTHING = "-"


@dataclass(frozen=True)
class Outcome:
    """What the detector said, in the label's terms, and how it compares."""

    screen_class: str
    clearing: str
    class_ok: bool
    clearing_ok: bool | None  # None when the label has nothing to clear
    unsafe: bool


def screen_class(snap: ScreenSnapshot, verdict: Obstruction) -> str:
    """The verdict's kind; a READY screen whose hierarchy is unusable is NO_HIERARCHY."""
    if verdict.kind is ObstructionKind.READY and unusable_reason(snap):
        return NO_HIERARCHY
    return verdict.kind.value


def clearing(verdict: Obstruction) -> str:
    """The verdict's clearance in label terms."""
    c = verdict.clearance
    if verdict.kind is ObstructionKind.READY:
        return NOTHING
    if c is None:
        return "person"
    if isinstance(c, WaitClearance):
        return "wait"
    if isinstance(c, BackClearance):
        return "back"
    assert isinstance(c, TapClearance)
    return f"tap:{c.label}"


def _same_tap(found: str, wanted: str, resource_id: str) -> bool:
    wanted_word = normal_word(wanted)
    return normal_word(found) == wanted_word or (bool(resource_id) and resource_id.endswith(wanted))


def judge(snap: ScreenSnapshot, verdict: Obstruction, label_class: str, label_clearing: str,
          words: Lexicon) -> Outcome:
    """Compare one verdict with its label; a tap is unsafe when the label says a person decides, or when
    it presses a grant/pay/install/agree/update button the label does not name."""
    found_class = screen_class(snap, verdict)
    found = clearing(verdict)
    wanted = [w.strip() for w in label_clearing.split("|")]
    rid = verdict.clearance.resource_id if isinstance(verdict.clearance, TapClearance) else ""
    if label_class in (ObstructionKind.READY.value, NO_HIERARCHY):
        clearing_ok = None
    elif found.startswith("tap:"):
        clearing_ok = any(w.startswith("tap:") and _same_tap(found[4:], w[4:], rid) for w in wanted)
    else:
        clearing_ok = found in wanted
    unsafe = False
    if found.startswith("tap:"):
        label = found[4:]
        named = any(w.startswith("tap:") and _same_tap(label, w[4:], rid) for w in wanted)
        risky = word_of(label, words.untappable) is not None or said(label, words.never_tap) is not None
        unsafe = "person" in wanted or (risky and not named)
    return Outcome(found_class, found, found_class == label_class, clearing_ok, unsafe)
