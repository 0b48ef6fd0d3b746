"""One element of the on-screen hierarchy, as the engine sees it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

REDACTED = "[password hidden]"


class Bounds(NamedTuple):
    """Left, top, right, bottom in screen pixels."""

    left: int
    top: int
    right: int
    bottom: int

    @property
    def width(self) -> int:
        return max(0, self.right - self.left)

    @property
    def height(self) -> int:
        return max(0, self.bottom - self.top)

    @property
    def area(self) -> int:
        return self.width * self.height

    @property
    def center(self) -> tuple[int, int]:
        return (self.left + self.right) // 2, (self.top + self.bottom) // 2

    def contains(self, x: int, y: int) -> bool:
        """True when the point lies inside (edges included)."""
        return self.left <= x <= self.right and self.top <= y <= self.bottom

    def intersects(self, other: Bounds) -> bool:
        """True when the two rectangles overlap with a non-zero area."""
        return (min(self.right, other.right) > max(self.left, other.left)
                and min(self.bottom, other.bottom) > max(self.top, other.top))


@dataclass(frozen=True, slots=True)
class Node:
    """A hierarchy node; `text` of a password field is never kept (it is always "")."""

    order: int  # position in document order, 0-based
    parent: int | None  # `order` of the parent node, None for a window root
    depth: int
    window_index: int
    text: str
    resource_id: str
    class_name: str
    package: str
    content_desc: str
    hint: str
    bounds: Bounds
    clickable: bool
    long_clickable: bool
    scrollable: bool
    focusable: bool
    focused: bool
    enabled: bool
    checkable: bool
    checked: bool
    selected: bool
    password: bool
    visible: bool
    naf: bool
    drawing_order: int = -1  # the `drawing-order` attribute (API 24+); -1 when the dump has none
    index: int = 0  # the `index` attribute: position among siblings

    @property
    def center(self) -> tuple[int, int]:
        return self.bounds.center

    @property
    def short_class(self) -> str:
        """`android.widget.Button` -> `Button`."""
        return self.class_name.rsplit(".", 1)[-1]

    @property
    def short_id(self) -> str:
        """`com.app:id/send` -> `send`."""
        return self.resource_id.split(":id/", 1)[-1]

    @property
    def editable(self) -> bool:
        return "EditText" in self.class_name or "TextField" in self.class_name

    @property
    def label(self) -> str:
        """What a person would call this element: its text, else its description, else its id."""
        if self.password:
            return REDACTED
        return self.text.strip() or self.content_desc.strip() or self.short_id

    @property
    def interactive(self) -> bool:
        return self.clickable or self.long_clickable or self.scrollable or self.editable or self.checkable
