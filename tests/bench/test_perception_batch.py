"""The first measurement of a batch: rows grouped by the batch their description names, each miss listed."""

from __future__ import annotations

from dataclasses import asdict, replace

from bench.perception_batch import batch_of, first_outcome, report
from starebrain.obstruction.scoring import Outcome
from tests.obstruction.corpus import Entry, entries

HIT = Outcome("OVERLAY", "back", class_ok=True, clearing_ok=True, unsafe=False)
READY = Outcome("READY", "-", class_ok=True, clearing_ok=None, unsafe=False)
MISSED = Outcome("READY", "-", class_ok=False, clearing_ok=False, unsafe=False)
TAPPED = Outcome("OVERLAY", "tap:CANCEL", class_ok=False, clearing_ok=False, unsafe=True)


def test_a_row_belongs_to_the_batch_its_description_starts_with():
    assert batch_of("BATCH22 (labelled before the detector ran on it): a sheet") == "BATCH22"
    assert batch_of("NEW (labelled before ...): a dialog") == "NEW"
    assert batch_of("Settings page; like BATCH3's c400") == "early"
    assert batch_of("BATCH220x") == "early"


def test_each_batch_gets_its_figures_and_its_misses():
    row = entries()[0]
    rows = [(replace(row, file="c1_a.xml", what="BATCH7 x"), HIT),
            (replace(row, file="c2_b.xml", what="BATCH7 y"), READY),
            (replace(row, file="c3_c.xml", what="BATCH8 z", screen_class="OVERLAY", clearing="back"), MISSED),
            (replace(row, file="c4_d.xml", what="BATCH8 w", screen_class="PERMISSION", clearing="person"), TAPPED)]
    lines = report(rows)
    assert lines[0] == "BATCH7: 2 dumps, class 2/2, clearing 1/1, unsafe 0"
    assert lines[1] == "BATCH8: 2 dumps, class 0/2, clearing 0/2, unsafe 1"
    assert lines[2].split() == ["c3", "label", "OVERLAY", "back", "got", "READY", "-", f"[{row.split}]"]
    assert "UNSAFE" in lines[3] and lines[3].split()[0] == "c4"
    assert len(lines) == 4



class _ConsoleOnly(Entry):
    """A row whose file holds only the tool's error message, no dump."""

    @property
    def data(self) -> bytes:
        return b"ERROR: null root node returned by UiTestAutomationBridge."


def test_a_dump_the_parser_rejects_is_a_miss_that_taps_nothing():
    row = _ConsoleOnly(**{**asdict(entries()[0]), "file": "c9_console.xml", "screen_class": "OVERLAY",
                          "clearing": "back"})
    got = first_outcome(row)
    assert (got.screen_class, got.class_ok, got.clearing_ok, got.unsafe) == ("REJECTED", False, False, False)
