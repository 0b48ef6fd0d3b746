"""The labelled real-dump corpus (tests/fixtures/real_dumps/CORPUS.tsv), shared by tests and the bench."""

from __future__ import annotations

import csv
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from starebrain.obstruction import detect
from starebrain.obstruction.lexicon import lexicon
from starebrain.obstruction.scoring import Outcome, judge
from starebrain.profiles import DeviceProfile, load_profiles
from starebrain.snapshot import ScreenSnapshot

DUMPS = Path(__file__).resolve().parents[1] / "fixtures" / "real_dumps"
CORPUS = DUMPS / "CORPUS.tsv"


@dataclass(frozen=True)
class Entry:
    file: str
    source_repo: str
    source_path: str
    commit: str
    licence: str
    oem: str
    language: str
    form: str
    toolkit: str
    split: str
    screen_class: str
    clearing: str
    nodes: int
    what: str

    @property
    def id(self) -> str:
        """The dump's number ("c1054"), its test id."""
        return self.file.split("_", 1)[0]

    @property
    def data(self) -> bytes:
        return (DUMPS / self.file).read_bytes()


@cache
def entries() -> tuple[Entry, ...]:
    """Every labelled dump, tuned part first."""
    with CORPUS.open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    return tuple(Entry(**{**r, "nodes": int(r["nodes"])}) for r in rows)


def part(split: str) -> tuple[Entry, ...]:
    """"tuned" (the detector was developed on it) or "heldout" (never looked at while tuning)."""
    return tuple(e for e in entries() if e.split == split)


@cache
def google_profile() -> DeviceProfile:
    """The stock "google" profile, loaded once: loading validates every profile file (~40 ms, more than a detection)."""
    return load_profiles().device_profile("google")


@cache
def outcome(e: Entry) -> Outcome:
    """The detector's verdict on the dump (the stock "google" profile), judged against its label."""
    profile = google_profile()
    snap = ScreenSnapshot.from_xml(e.data)
    return judge(snap, detect(snap, profile), e.screen_class, e.clearing, lexicon(profile.words))
