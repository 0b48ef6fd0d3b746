"""The labelled real corpus: its bookkeeping, and the detector against its labels.

The tuned part is what the rules were developed on; the held-out part (the newest batch: whole source
repositories new to the corpus, labelled before any detector code ran on them) is only measured, in
`make bench` (perception.*), and asserted here only for safety: no unsafe tap beyond those it was measured with.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest

from starebrain.obstruction.scoring import NO_HIERARCHY
from starebrain.snapshot import ScreenSnapshot
from starebrain.snapshot.opaque import unusable_reason
from tests.obstruction.corpus import DUMPS, Entry, entries, outcome, part

CLASSES = {"READY", "LOADING", "PERMISSION", "OVERLAY", "SYSTEM_DIALOG", "KEYBOARD", "UNKNOWN", NO_HIERARCHY}
CLEARING = re.compile(r"^(-|wait|back|person|tap:[^|]+)(\|(back|person|tap:[^|]+))*$")


def test_the_corpus_is_large_varied_and_every_dump_has_its_source():
    all_entries = entries()
    assert len(all_entries) >= 150
    assert len({e.file for e in all_entries}) == len(all_entries)
    listed = {e.file for e in all_entries}
    on_disk = {p.name for p in DUMPS.glob("*.xml")}
    assert listed == on_disk  # nothing unlabelled, nothing missing
    for e in all_entries:
        assert "/" in e.source_repo and e.source_path and re.fullmatch(r"[0-9a-f]{40}", e.commit), e.file
        assert e.licence and e.screen_class in CLASSES and CLEARING.match(e.clearing), e.file
        assert (e.clearing == "-") == (e.screen_class in ("READY", NO_HIERARCHY)), e.file
    assert len({e.language for e in all_entries} - {"none"}) >= 10
    assert {e.split for e in all_entries} == {"tuned", "heldout"}
    held = part("heldout")
    assert len(held) >= 40 and sum(e.screen_class != "READY" for e in held) >= 10
    # Held-out repositories never appear in the tuned part.
    assert not {e.source_repo for e in held} & {e.source_repo for e in part("tuned")}


# Unsafe taps seen on the held-out part when it was measured, left as measured until the batch is learned from
# (the scorer is stricter than "grants, pays, installs, agrees or changes a setting": any tap where the label
# leaves the screen to a person counts). Any other unsafe tap fails, and so does fixing one of these.
HELD_OUT_UNSAFE: dict[str, str] = {}


def test_no_unsafe_tap_on_any_real_dump():
    unsafe = {e.id: e.file for e in entries() if outcome(e).unsafe}
    assert set(unsafe) == set(HELD_OUT_UNSAFE), unsafe
    assert all(e.split == "heldout" for e in entries() if e.id in HELD_OUT_UNSAFE)


def test_the_tuned_part_is_classified_and_cleared_as_labelled():
    tuned = part("tuned")
    results = [outcome(e) for e in tuned]
    misses = [(e.file, e.screen_class, o.screen_class) for e, o in zip(tuned, results, strict=True) if not o.class_ok]
    cleared = [o.clearing_ok for o in results if o.clearing_ok is not None]
    print(f"\ntuned: class {len(tuned) - len(misses)}/{len(tuned)}, clearing {sum(cleared)}/{len(cleared)}; "
          f"misses {misses}")
    assert (len(tuned) - len(misses)) / len(tuned) >= 0.95
    # A learned batch joins this part with the misses no platform convention explained (batches 33 and 35, copied from
    # the file index, brought 14 such clearings: ad creatives, app panels, labels marked unsure), so its clearing
    # figure fell from 0.91 to 0.90; the golden verdicts (tests/snapshot) pin every dump's verdict exactly.
    assert sum(cleared) / len(cleared) >= 0.89


# Tuned dumps without a usable hierarchy that no general rule tells apart from a usable screen yet (strict:
# a fix makes these fail, and the entry goes).
UNRECOGNISED_OPAQUE = {
    "c645": "Facebook Lite draws its feed itself, but its 79 nodes include scrollable and editable ones",
    "c5507": "a WebView book reader exposing only its two page-turn zones (上一页 / 下一页); the label, marked unsure, "
             "allows READY too",
}


def _opaque_case(e: Entry):
    reason = UNRECOGNISED_OPAQUE.get(e.id)
    return pytest.param(e, id=e.id, marks=pytest.mark.xfail(strict=True, reason=reason) if reason else ())


@pytest.mark.parametrize("e", [_opaque_case(e) for e in part("tuned") if e.screen_class == NO_HIERARCHY])
def test_screens_without_a_usable_hierarchy_are_recognised(e):
    assert unusable_reason(ScreenSnapshot.from_xml(e.data))


def test_ordinary_screens_have_a_usable_hierarchy():
    ready = [e for e in part("tuned") if e.screen_class == "READY"]
    flagged = [e.file for e in ready if unusable_reason(ScreenSnapshot.from_xml(e.data))]
    assert not flagged


def test_class_counts_are_printed_for_the_record():
    counts = Counter((e.split, e.screen_class) for e in entries())
    print("\n" + ", ".join(f"{split}/{cls}: {n}" for (split, cls), n in sorted(counts.items())))
    assert sum(counts.values()) == len(entries())
