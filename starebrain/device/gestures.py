"""Screen geometry for gestures given by direction rather than by coordinates."""

from __future__ import annotations

from starebrain.device.base import Direction

SWIPE_STEPS = 55  # u2's default: ~5 ms per step, a deliberate drag rather than a fling
_SPAN = 0.25  # start and end this far from the centre, as a fraction of the display


def swipe_points(direction: Direction, width: int, height: int) -> list[int]:
    """`[from_x, from_y, to_x, to_y, steps]` for a swipe across the display's centre.

    The direction is where the finger moves: "up" goes from 75% to 25% of the height, which
    scrolls a list towards its end."""
    if width <= 0 or height <= 0:
        raise ValueError(f"unknown display size {width}x{height}")
    cx, cy = width // 2, height // 2
    dx, dy = int(width * _SPAN), int(height * _SPAN)
    vectors = {"up": (0, dy, 0, -dy), "down": (0, -dy, 0, dy),
               "left": (dx, 0, -dx, 0), "right": (-dx, 0, dx, 0)}
    if direction not in vectors:
        raise ValueError(f"unknown swipe direction {direction!r}")
    fx, fy, tx, ty = vectors[direction]
    return [cx + fx, cy + fy, cx + tx, cy + ty, SWIPE_STEPS]
