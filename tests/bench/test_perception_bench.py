"""The held-out intervals of the perception bench: repositories are resampled, not dumps."""

from __future__ import annotations

from bench.perception_bench import cluster_interval, unsafe_upper_bound


def test_an_interval_holds_the_share_and_is_seeded():
    rows = [(f"o/r{i}", i % 5 != 0) for i in range(40)]  # 32/40 = 0.8, one dump per repository
    low, high = cluster_interval(rows)
    assert low < 0.8 < high and high - low < 0.3
    assert cluster_interval(rows) == [low, high]


def test_one_repository_with_many_dumps_counts_as_one_draw():
    # 30 hits from one repository and 10 misses from ten others: by dumps 0.75 with a narrow interval, but only
    # eleven repositories were drawn, so the interval must be wide.
    rows = [("big/app", True)] * 30 + [(f"o/r{i}", False) for i in range(10)]
    low, high = cluster_interval(rows)
    assert low <= 0.1 and high >= 0.85


def test_nothing_to_judge_gives_no_interval():
    assert cluster_interval([("o/r", None)]) is None


def test_the_unsafe_bound_is_the_exact_binomial_one():
    assert unsafe_upper_bound(0, 100) == round(1 - 0.05 ** (1 / 100), 4)  # ~3/n
    assert 0.045 < unsafe_upper_bound(1, 100) < 0.048  # Clopper-Pearson one-sided 95%: 0.0466
    assert unsafe_upper_bound(0, 0) is None
