"""Building `UiNode`s with every attribute of the u2 dump, in dump order."""

from __future__ import annotations

from starebrain.sim.phone import UiNode

Bounds = tuple[int, int, int, int]

FLAG_ORDER = (
    "checkable", "checked", "clickable", "enabled", "focusable", "focused", "scrollable",
    "long-clickable", "password", "selected", "visible-to-user",
)

CLASS = {
    "frame": "android.widget.FrameLayout",
    "linear": "android.widget.LinearLayout",
    "group": "android.view.ViewGroup",
    "text": "android.widget.TextView",
    "button": "android.widget.Button",
    "image": "android.widget.ImageView",
    "imagebutton": "android.widget.ImageButton",
    "edit": "android.widget.EditText",
    "check": "android.widget.CheckBox",
    "switch": "android.widget.Switch",
    "recycler": "androidx.recyclerview.widget.RecyclerView",
    "scroll": "android.widget.ScrollView",
    "progress": "android.widget.ProgressBar",
    "view": "android.view.View",
}


def make_node(
    kind: str,
    package: str,
    bounds: Bounds,
    *,
    text: str = "",
    rid: str = "",
    desc: str = "",
    hint: str = "",
    key: str = "",
    **flags: bool,
) -> UiNode:
    """A node; `kind` is a short name from CLASS or a full class name; flags use snake_case."""
    attrs = {
        "index": "0",
        "text": text,
        "resource-id": rid,
        "class": CLASS.get(kind, kind),
        "package": package,
        "content-desc": desc,
    }
    for name in FLAG_ORDER:
        default = name in ("enabled", "visible-to-user")
        attrs[name] = "true" if flags.get(name.replace("-", "_"), default) else "false"
    attrs["bounds"] = format_bounds(bounds)
    attrs["drawing-order"] = "0"
    attrs["hint"] = hint
    attrs["display-id"] = "0"
    return UiNode(attrs=attrs, bounds=bounds, key=key)


def format_bounds(bounds: Bounds) -> str:
    """`[l,t][r,b]`."""
    left, top, right, bottom = bounds
    return f"[{left},{top}][{right},{bottom}]"


def add(parent: UiNode, *children: UiNode | None) -> UiNode:
    """Append children (skipping None), fixing their index, drawing order and parent link."""
    for child in children:
        if child is None:
            continue
        child.attrs["index"] = str(len(parent.children))
        child.attrs["drawing-order"] = str(len(parent.children) + 1)
        child.parent = parent
        parent.children.append(child)
    return parent


def clip(bounds: Bounds, to: Bounds) -> Bounds | None:
    """The visible part of `bounds` inside `to`, or None when nothing is visible."""
    left, top = max(bounds[0], to[0]), max(bounds[1], to[1])
    right, bottom = min(bounds[2], to[2]), min(bounds[3], to[3])
    if right <= left or bottom <= top:
        return None
    return left, top, right, bottom


def contains(bounds: Bounds, x: float, y: float) -> bool:
    """Whether the point is inside."""
    return bounds[0] <= x < bounds[2] and bounds[1] <= y < bounds[3]


def is_true(node: UiNode, name: str) -> bool:
    """A boolean attribute."""
    return node.attrs.get(name) == "true"
