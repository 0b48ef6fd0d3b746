"""Human-readable words for nodes: labels, roles, one-line element descriptions."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence

from starebrain.snapshot.node import REDACTED, Node
from starebrain.snapshot.text import normalize_text

MAX_LABEL = 80
# How many descendant texts name a row that has no label of its own.
ROW_LABEL_PARTS = 2
_ROLES = (
    ("EditText", "text field"), ("TextField", "text field"), ("Switch", "switch"),
    ("CheckBox", "checkbox"), ("RadioButton", "radio button"), ("SeekBar", "slider"),
    ("Spinner", "drop-down"), ("ImageButton", "button"), ("Button", "button"), ("Tab", "tab"),
)


def clean(text: str, limit: int = MAX_LABEL) -> str:
    """One normalised line, bounded, with angle brackets neutralised so screen text cannot fake our delimiters."""
    flat = normalize_text(text)
    flat = flat.replace("<", "‹").replace(">", "›")
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def role(node: Node) -> str:
    """What kind of element this is, in plain words."""
    for marker, name in _ROLES:
        if marker in node.class_name:
            return name
    if node.scrollable:
        return "scrollable area"
    return "element"


def own_label(node: Node) -> str:
    """The node's own normalised text, else its description ("" for a password field)."""
    if node.password:
        return ""
    return normalize_text(node.text) or normalize_text(node.content_desc)


def label_frequencies(nodes: Sequence[Node]) -> dict[str, int]:
    """How many visible nodes carry each label."""
    return dict(Counter(label for n in nodes if n.visible and (label := own_label(n))))


def element_label(node: Node, descendants: Callable[[Node], Sequence[Node]],
                  counts: Mapping[str, int] | None = None) -> str:
    """The node's own label, else its descendants' most distinctive texts (a row's name, not its
    "Add to favorites" switch that every row repeats), in reading order."""
    if node.password:
        return REDACTED
    own = own_label(node)
    if own:
        return own
    inner = list(dict.fromkeys(label for d in descendants(node) if d.visible and (label := own_label(d))))
    if inner:
        counts = counts or {}
        rarest = sorted(range(len(inner)), key=lambda i: (counts.get(inner[i], 1), i))[:ROW_LABEL_PARTS]
        return " / ".join(inner[i] for i in sorted(rarest))
    return normalize_text(node.hint) or node.short_id


def describe(node: Node, descendants: Callable[[Node], Sequence[Node]],
             counts: Mapping[str, int] | None = None, extra: Sequence[str] = ()) -> str:
    """E.g. `button "Send" (id send) at (903,164)`; a password field never shows its text."""
    parts = [role(node)]
    label = element_label(node, descendants, counts)
    if node.editable and not node.text.strip() and not node.password:
        hint = normalize_text(node.hint)
        parts.append(f'(empty, hint "{clean(hint)}")' if hint else "(empty)")
        if label and label != hint:
            parts.append(f'"{clean(label)}"')
    elif label:
        parts.append(f'"{clean(label)}"')
    if node.resource_id and node.short_id != label:
        parts.append(f"(id {clean(node.short_id, 40)})")
    parts.extend(_states(node))
    parts.extend(f"[{e}]" for e in extra)
    x, y = node.center
    parts.append(f"at ({x},{y})")
    return " ".join(parts)


def _states(node: Node) -> list[str]:
    states = []
    if node.checkable:
        states.append("[on]" if node.checked else "[off]")
    if node.selected:
        states.append("[selected]")
    if node.focused:
        states.append("[focused]")
    if not node.enabled:
        states.append("[disabled]")
    if node.password:
        states.append("[password]")
    return states
