"""Match a `Selector` against snapshot nodes (UiSelector semantics, a little more forgiving)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from starebrain.models.selector import Selector
from starebrain.snapshot.node import Node
from starebrain.snapshot.text import normalize_text


def matches(node: Node, sel: Selector) -> bool:
    """True when every field the selector gives matches the node (texts compared in normal form).

    A point selector names a place, not an element: it matches no node (what a tap there reaches is the
    screen model's `touch_target_at`)."""
    if sel.point is not None:
        return False
    if sel.text is not None and normalize_text(node.text) != normalize_text(sel.text):
        return False
    if sel.text_contains is not None and \
            normalize_text(sel.text_contains).casefold() not in normalize_text(node.text).casefold():
        return False
    if sel.content_desc is not None and normalize_text(node.content_desc) != normalize_text(sel.content_desc):
        return False
    if sel.resource_id is not None and not _id_matches(node.resource_id, sel.resource_id):
        return False
    return sel.class_name is None or _class_matches(node.class_name, sel.class_name)


def _id_matches(node_id: str, wanted: str) -> bool:
    # A planner often writes "send" for "com.google.android.gm:id/send"; a bare name matches the
    # part after ":id/", a full id must match exactly.
    if ":id/" in wanted:
        return node_id == wanted
    return node_id == wanted or node_id.split(":id/", 1)[-1] == wanted


def _class_matches(node_class: str, wanted: str) -> bool:
    if "." in wanted:
        return node_class == wanted
    return node_class.rsplit(".", 1)[-1] == wanted


def candidates(nodes: Sequence[Node], sel: Selector,
               in_sight: Callable[[Node], bool] | None = None) -> list[Node]:
    """All matches in document order: those in plain sight when any is, else visible ones, else all."""
    found = [n for n in nodes if matches(n, sel)]
    shown = [n for n in found if n.visible]
    on_top = [n for n in shown if in_sight(n)] if in_sight is not None and len(shown) > 1 else []
    return on_top or shown or found


def pick(nodes: Sequence[Node], sel: Selector, in_sight: Callable[[Node], bool] | None = None) -> Node | None:
    """The `index`-th candidate (0 when no index is given), or None."""
    found = candidates(nodes, sel, in_sight)
    i = sel.index or 0
    return found[i] if i < len(found) else None
