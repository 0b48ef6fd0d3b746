"""How a step names an element on the screen."""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict, model_validator

# "540,1200" (pixels) or "50%,62.5%" (share of the screen); both coordinates in the same unit.
_POINT = re.compile(r"^\s*(\d+(?:\.\d+)?)(%?)\s*,\s*(\d+(?:\.\d+)?)(%?)\s*$")
_FIELDS = ("text", "text_contains", "resource_id", "content_desc", "class_name")


class Selector(BaseModel):
    """Fields that must all match one node; `index` picks the N-th match (0-based) in document order.

    `point` names a place instead of an element ("x,y" in pixels or "x%,y%" of the screen) and stands
    alone: the element a tap there reaches is found on the screen at act time.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    text: str | None = None
    text_contains: str | None = None
    resource_id: str | None = None
    content_desc: str | None = None
    class_name: str | None = None
    index: int | None = None
    point: str | None = None

    @model_validator(mode="after")
    def _not_empty(self) -> Selector:
        fields = [getattr(self, f) for f in _FIELDS]
        if self.point is not None:
            if any(f is not None for f in fields) or self.index is not None:
                raise ValueError("a point selector has no other field (text, resource_id, index, ... must be null)")
            parse_point(self.point)
            return self
        if all(f is None for f in fields):
            raise ValueError("a selector needs at least one of text, text_contains, resource_id, "
                             "content_desc, class_name, point")
        if self.index is not None and self.index < 0:
            raise ValueError("selector index must be >= 0")
        return self

    def describe(self) -> str:
        """Short human form, e.g. `text="Send" #1` or `point="50%,50%"`."""
        parts = [f'{k}="{v}"' for k, v in self.model_dump(exclude_none=True).items() if k != "index"]
        if self.index is not None:
            parts.append(f"#{self.index}")
        return " ".join(parts)

    def point_at(self, width: int, height: int) -> tuple[int, int] | None:
        """The pixel the point names on a `width` x `height` screen (None for an element selector); a pixel
        point is taken as given (it may lie off the screen), a percentage stays on it (100% is the last pixel)."""
        if self.point is None:
            return None
        x, y, percent = parse_point(self.point)
        if not percent:
            return int(x), int(y)
        return min(int(round(x * width / 100.0)), max(width - 1, 0)), min(int(round(y * height / 100.0)),
                                                                           max(height - 1, 0))


def parse_point(point: str) -> tuple[float, float, bool]:
    """(x, y, in_percent) of a point string; ValueError with the accepted forms otherwise."""
    m = _POINT.match(point)
    if m is None or bool(m.group(2)) != bool(m.group(4)):
        raise ValueError(f'point {point!r} is not "x,y" in pixels or "x%,y%" of the screen (e.g. "540,1200", '
                         f'"50%,50%")')
    x, y, percent = float(m.group(1)), float(m.group(3)), bool(m.group(2))
    if percent and (x > 100 or y > 100):
        raise ValueError(f"point {point!r}: a percentage is at most 100%")
    return x, y, percent


def point_selector(x: int, y: int) -> Selector:
    """A selector for the pixel (x, y)."""
    return Selector(point=f"{x},{y}")
