"""Swipe geometry."""

from __future__ import annotations

import pytest

from starebrain.device.gestures import swipe_points


def test_swipe_up_moves_the_finger_up_through_the_centre() -> None:
    fx, fy, tx, ty, steps = swipe_points("up", 1080, 1920)
    assert (fx, tx) == (540, 540) and fy > 960 > ty and steps >= 2


def test_swipe_left_moves_the_finger_left() -> None:
    fx, fy, tx, ty, _ = swipe_points("left", 1080, 1920)
    assert fx > tx and fy == ty == 960


def test_unknown_size_is_refused() -> None:
    with pytest.raises(ValueError):
        swipe_points("up", 0, 0)
