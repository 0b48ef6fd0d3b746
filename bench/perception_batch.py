"""The first measurement of a blind batch: class, clearing and unsafe taps per batch of the labelled corpus, and
each miss. Run it once, with the rules frozen, on a tree that holds the new batch's dumps and rows
(docs/corpus-collecting.md); then read the misses.

    .venv/bin/python -m bench.perception_batch BATCH22 [BATCH23 ...]    (no name: every batch)

A row's batch is the prefix of its `what` ("BATCH22 (labelled before the detector ran on it): ...", "NEW ...");
rows without one are the first collections ("early"). Scores are the corpus tests' own
(`tests.obstruction.corpus.outcome`). Not a `*_bench.py`: `make bench` does not run it.
"""

from __future__ import annotations

import re
import sys
from collections import defaultdict
from collections.abc import Iterable

from starebrain.errors import HierarchyInvalid
from starebrain.obstruction.scoring import Outcome
from tests.obstruction.corpus import Entry, entries, outcome

_BATCH = re.compile(r"(BATCH\d+|NEW)\b")


def batch_of(what: str) -> str:
    """The batch a row's description names, or "early"."""
    found = _BATCH.match(what)
    return found.group(1) if found else "early"


def report(rows: Iterable[tuple[Entry, Outcome]]) -> list[str]:
    """Per batch, in the order first met: one line of figures, then one line per miss."""
    groups: dict[str, list[tuple[Entry, Outcome]]] = defaultdict(list)
    for e, o in rows:
        groups[batch_of(e.what)].append((e, o))
    lines = []
    for batch, group in groups.items():
        cleared = [o.clearing_ok for _, o in group if o.clearing_ok is not None]
        lines.append(f"{batch}: {len(group)} dumps, class {sum(o.class_ok for _, o in group)}/{len(group)}, "
                     f"clearing {sum(cleared)}/{len(cleared)}, unsafe {sum(o.unsafe for _, o in group)}")
        lines += [f"   {e.id} label {e.screen_class} {e.clearing}  got {o.screen_class} {o.clearing}"
                  f"{'  UNSAFE' if o.unsafe else ''}  [{e.split}]"
                  for e, o in group if not o.class_ok or o.clearing_ok is False or o.unsafe]
    return lines


def first_outcome(e: Entry) -> Outcome:
    """The corpus tests' outcome; a dump the parser rejects is a miss ("REJECTED"), never a tap, and the
    measurement goes on (batch 27 brought two such dumps)."""
    try:
        return outcome(e)
    except HierarchyInvalid:
        return Outcome("REJECTED", "-", False, False if e.clearing != "-" else None, False)


def main(batches: list[str]) -> None:
    rows = [(e, first_outcome(e)) for e in entries() if not batches or batch_of(e.what) in batches]
    print("\n".join(report(rows)) or f"no row of {' '.join(batches)} in the corpus")

if __name__ == "__main__":
    main(sys.argv[1:])
