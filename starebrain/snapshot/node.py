"""One element of the on-screen hierarchy, as the engine sees it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple, cast

REDACTED = "[password hidden]"
WEBVIEW = "WebView"  # android.webkit.WebView's short class name, as uiautomator reports it


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
        # Without the two properties' max() calls: detection asks for areas of many nodes per screen.
        w, h = self.right - self.left, self.bottom - self.top
        return w * h if w > 0 and h > 0 else 0

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
    # Worked out once when the node is made: the rules ask for them hundreds of times a screen.
    short_class: str = field(init=False, repr=False, compare=False)  # `android.widget.Button` -> `Button`
    short_id: str = field(init=False, repr=False, compare=False)  # `com.app:id/send` -> `send`
    editable: bool = field(init=False, repr=False, compare=False)  # a text field (View or Compose)

    def __post_init__(self) -> None:
        short_class, editable = _class_facts(self.class_name)
        object.__setattr__(self, "short_class", short_class)
        object.__setattr__(self, "short_id", _short_id(self.resource_id))
        object.__setattr__(self, "editable", editable)

    @property
    def center(self) -> tuple[int, int]:
        return self.bounds.center

    @property
    def label(self) -> str:
        """What a person would call this element: its text, else its description, else its id."""
        if self.password:
            return REDACTED
        return self.text.strip() or self.content_desc.strip() or self.short_id

    @property
    def interactive(self) -> bool:
        return self.clickable or self.long_clickable or self.scrollable or self.editable or self.checkable


def _short_id(resource_id: str) -> str:
    return resource_id.split(":id/", 1)[-1]


# Class name -> its short name and whether it is a text field: a few dozen classes make up every screen.
_CLASSES: dict[str, tuple[str, bool]] = {}


def _class_facts(class_name: str) -> tuple[str, bool]:
    known = _CLASSES.get(class_name)
    if known is None:
        known = (class_name.rsplit(".", 1)[-1], "EditText" in class_name or "TextField" in class_name)
        if len(_CLASSES) < 4096:  # a hostile dump's made-up class names cannot grow it without bound
            _CLASSES[class_name] = known
    return known


# The boolean fields of a Node, in field order: `new_node` takes them as one tuple.
FLAG_FIELDS = ("clickable", "long_clickable", "scrollable", "focusable", "focused", "enabled", "checkable",
               "checked", "selected", "password", "visible", "naf")
Flags = tuple[bool, bool, bool, bool, bool, bool, bool, bool, bool, bool, bool, bool]


class _Draft:
    """A Node's slots without its frozen checks, filled by plain assignment, then made a Node."""

    __slots__ = Node.__slots__  # the same slots in the same order: Python lets the instance change class

    def __init__(self, order: int, parent: int | None, depth: int, window_index: int, text: str, resource_id: str,
                 class_name: str, package: str, content_desc: str, hint: str, bounds: Bounds, flags: Flags,
                 drawing_order: int, index: int) -> None:
        self.order = order
        self.parent = parent
        self.depth = depth
        self.window_index = window_index
        self.text = text
        self.resource_id = resource_id
        self.class_name = class_name
        self.package = package
        self.content_desc = content_desc
        self.hint = hint
        self.bounds = bounds
        (self.clickable, self.long_clickable, self.scrollable, self.focusable, self.focused, self.enabled,
         self.checkable, self.checked, self.selected, self.password, self.visible, self.naf) = flags
        self.drawing_order = drawing_order
        self.index = index
        self.short_id = _short_id(resource_id)
        self.short_class, self.editable = _class_facts(class_name)


def new_node(order: int, parent: int | None, depth: int, window_index: int, text: str, resource_id: str,
             class_name: str, package: str, content_desc: str, hint: str, bounds: Bounds, flags: Flags,
             drawing_order: int, index: int) -> Node:
    """`Node(...)` with the flags given as one tuple (in `FLAG_FIELDS` order), about five times faster.

    A frozen dataclass sets each of its 25 fields through `object.__setattr__` (~6 µs a node, a third of
    parsing); plain slot stores on a twin class take under 1 µs, and the finished object becomes the
    very same frozen Node (equality, hash, repr, immutability).
    """
    draft: Any = _Draft(order, parent, depth, window_index, text, resource_id, class_name, package, content_desc,
                        hint, bounds, flags, drawing_order, index)
    draft.__class__ = Node
    return cast(Node, draft)
