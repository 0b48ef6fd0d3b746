"""The overall deadline on blocking calls."""

from __future__ import annotations

import threading

import pytest

from starebrain.device.deadline import DeadlineExceeded, run_with_deadline


def test_returns_value_and_reraises_errors() -> None:
    assert run_with_deadline(lambda: 42, 1) == 42
    empty: dict[str, int] = {}
    with pytest.raises(KeyError):
        run_with_deadline(lambda: empty["x"], 1)


def test_stops_waiting_at_the_deadline() -> None:
    release = threading.Event()
    with pytest.raises(DeadlineExceeded):
        run_with_deadline(lambda: release.wait(5), 0.2)
    release.set()
