"""Perception on real phones: the detector against the labelled real-dump corpus (tests/fixtures/real_dumps).

- `perception.class_accuracy`: share of dumps whose screen class (READY, LOADING, PERMISSION, OVERLAY,
  SYSTEM_DIALOG, KEYBOARD, UNKNOWN, or NO_HIERARCHY for screens without a usable hierarchy) matches the label.
- `perception.clearing_accuracy`: among dumps with something in the way, share whose clearance (tap on the
  labelled button, back, wait, or "a person must decide") matches the label.
- `perception.unsafe_taps`: taps where the label says a person must decide, or taps on a grant / pay /
  install / agree / update button the label does not name.
- `perception.parse_detect_ms.*`: parse + detect time per dump, median and p99, and the same per 1,000 nodes;
  CPU time of this process (the median of 5 runs per dump), so other load on the machine does not count.

Every figure is given for the whole corpus and for `heldout` (whole source repositories the rules were
never tuned on). Figures come from `starebrain.obstruction.scoring`, the same code the corpus tests use.
`perception.heldout.by_label_confidence` splits the held-out class and clearing figures by whether the person who
labelled the dump wrote that they were unsure of the label ("unsure" or "Not fully sure" in its `what`): both halves,
side by side.
`perception.heldout.*_ci95` give how far the held-out shares could move on another draw of repositories: a 95%
percentile bootstrap that resamples whole source repositories (a repository's dumps are alike: one app, one phone,
one collector), seeded. `perception.heldout.unsafe_rate_upper95` bounds the rate of unsafe taps (exact binomial,
one-sided 95%: with none seen in n dumps, 1 - 0.05^(1/n), about 3/n).
"""

from __future__ import annotations

import random
import statistics
import time
from collections import defaultdict
from math import comb
from typing import Any

from starebrain.obstruction import detect
from starebrain.obstruction.lexicon import lexicon
from starebrain.obstruction.scoring import judge
from starebrain.profiles import load_profiles
from starebrain.snapshot import ScreenSnapshot
from tests.obstruction.corpus import Entry, entries

REPEATS = 5  # timing runs per dump; the median of them is the dump's time
DRAWS = 2000  # bootstrap resamples of the held-out repositories
UNSURE_MARKS = ("unsure", "not fully sure")  # how collectors mark a label that could fairly be another


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def _figures(prefix: str, rows: list[tuple[Entry, Any, float]], results: dict[str, Any]) -> None:
    outcomes = [o for _, o, _ in rows]
    cleared = [o.clearing_ok for o in outcomes if o.clearing_ok is not None]
    times = [ms for _, _, ms in rows]
    per_k = [ms * 1000 / max(e.nodes, 1) for e, _, ms in rows]
    results[f"{prefix}dumps"] = len(rows)
    results[f"{prefix}class_accuracy"] = round(sum(o.class_ok for o in outcomes) / len(outcomes), 4)
    results[f"{prefix}clearing_accuracy"] = round(sum(cleared) / len(cleared), 4) if cleared else None
    results[f"{prefix}clearing_cases"] = len(cleared)
    results[f"{prefix}unsafe_taps"] = sum(o.unsafe for o in outcomes)
    results[f"{prefix}parse_detect_ms.median"] = round(statistics.median(times), 3)
    results[f"{prefix}parse_detect_ms.p99"] = round(_percentile(times, 0.99), 3)
    results[f"{prefix}parse_detect_ms_per_1k_nodes.median"] = round(statistics.median(per_k), 3)
    results[f"{prefix}parse_detect_ms_per_1k_nodes.p99"] = round(_percentile(per_k, 0.99), 3)


def cluster_interval(rows: list[tuple[str, bool | None]], seed: int = 11, draws: int = DRAWS) -> list[float] | None:
    """95% percentile-bootstrap interval of the share of hits, resampling whole repositories.

    `rows` are (repository, hit) pairs; a None hit (nothing to judge) is left out. Dumps of one repository are
    not independent draws, so the repositories are what is resampled (with replacement, as many as there are)."""
    by_repo: dict[str, list[bool]] = defaultdict(list)
    for repo, hit in rows:
        if hit is not None:
            by_repo[repo.lower()].append(hit)
    groups = [(sum(hits), len(hits)) for hits in by_repo.values()]
    if not groups:
        return None
    rng = random.Random(seed)
    shares = []
    for _ in range(draws):
        pick = rng.choices(groups, k=len(groups))
        shares.append(sum(h for h, _ in pick) / sum(n for _, n in pick))
    shares.sort()
    return [round(shares[int(0.025 * draws)], 3), round(shares[int(0.975 * draws) - 1], 3)]


def unsafe_upper_bound(unsafe: int, dumps: int) -> float | None:
    """One-sided 95% upper bound of the unsafe-tap rate (exact binomial, Clopper-Pearson)."""
    if dumps == 0:
        return None
    if unsafe == 0:
        return round(1 - 0.05 ** (1 / dumps), 4)
    # Few events: bisect the exact binomial tail P(X <= unsafe | p) = 0.05.
    lo, hi = unsafe / dumps, 1.0
    for _ in range(60):
        mid = (lo + hi) / 2
        tail = sum(comb(dumps, k) * mid ** k * (1 - mid) ** (dumps - k) for k in range(unsafe + 1))
        lo, hi = (mid, hi) if tail > 0.05 else (lo, mid)
    return round(hi, 4)


def _intervals(prefix: str, rows: list[tuple[Entry, Any, float]], results: dict[str, Any]) -> None:
    results[f"{prefix}class_accuracy_ci95"] = cluster_interval([(e.source_repo, o.class_ok) for e, o, _ in rows])
    results[f"{prefix}clearing_accuracy_ci95"] = cluster_interval([(e.source_repo, o.clearing_ok) for e, o, _ in rows])
    results[f"{prefix}unsafe_rate_upper95"] = unsafe_upper_bound(sum(o.unsafe for _, o, _ in rows), len(rows))


def _marked_unsure(e: Entry) -> bool:
    """The labeller wrote that the label could fairly be another ("unsure", or "Not fully sure: ...")."""
    what = e.what.lower()
    return any(mark in what for mark in UNSURE_MARKS)


def _by_confidence(rows: list[tuple[Entry, Any, float]]) -> dict[str, str]:
    """Class and clearing hits over cases, for labels written without doubt and for those marked unsure."""
    figures = {}
    for name, unsure in (("sure", False), ("unsure", True)):
        outcomes = [o for e, o, _ in rows if _marked_unsure(e) == unsure]
        cleared = [o.clearing_ok for o in outcomes if o.clearing_ok is not None]
        figures[name] = (f"class {sum(o.class_ok for o in outcomes)}/{len(outcomes)}, "
                         f"clearing {sum(cleared)}/{len(cleared)}")
    return figures


def run(results: dict[str, Any]) -> None:
    """Score and time every labelled dump; store whole-corpus and held-out figures."""
    profile = load_profiles().device_profile("google")
    words = lexicon(profile.words)
    rows: list[tuple[Entry, Any, float]] = []
    for e in entries():
        data = e.data
        detect(ScreenSnapshot.from_xml(data), profile)  # warm caches (word regexes) outside the timing
        runs = []
        for _ in range(REPEATS):
            started = time.process_time()
            snap = ScreenSnapshot.from_xml(data)
            verdict = detect(snap, profile)
            runs.append((time.process_time() - started) * 1000)
        rows.append((e, judge(snap, verdict, e.screen_class, e.clearing, words), statistics.median(runs)))
    _figures("perception.", rows, results)
    held = [r for r in rows if r[0].split == "heldout"]
    _figures("perception.heldout.", held, results)
    _intervals("perception.heldout.", held, results)
    results["perception.heldout.by_label_confidence"] = _by_confidence(held)
    misses = [e.file for e, o, _ in rows if not o.class_ok or o.clearing_ok is False]
    results["perception.misses"] = misses
