"""Human-readable words for nodes: labels, roles, one-line element descriptions."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from starebrain.snapshot.node import REDACTED, Node

MAX_LABEL = 80
_ROLES = (
    ("EditText", "text field"), ("TextField", "text field"), ("Switch", "switch"),
    ("CheckBox", "checkbox"), ("RadioButton", "radio button"), ("SeekBar", "slider"),
    ("Spinner", "drop-down"), ("ImageButton", "button"), ("Button", "button"), ("Tab", "tab"),
)


def clean(text: str, limit: int = MAX_LABEL) -> str:
    """One line, bounded, with angle brackets neutralised so screen text cannot fake our delimiters."""
    flat = " ".join(text.split())
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


def element_label(node: Node, descendants: Callable[[Node], Sequence[Node]]) -> str:
    """The node's own label, else the first texts of its descendants (a clickable row's title)."""
    if node.password:
        return REDACTED
    own = node.text.strip() or node.content_desc.strip()
    if own:
        return own
    inner = [d.label for d in descendants(node) if d.visible and (d.text.strip() or d.content_desc.strip())]
    if inner:
        return " / ".join(inner[:2])
    return node.hint.strip() or node.short_id


def describe(node: Node, descendants: Callable[[Node], Sequence[Node]]) -> str:
    """E.g. `button "Send" (id send) at (903,164)`; a password field never shows its text."""
    parts = [role(node)]
    label = element_label(node, descendants)
    if label:
        parts.append(f'"{clean(label)}"')
    if node.resource_id and node.short_id != label:
        parts.append(f"(id {clean(node.short_id, 40)})")
    parts.extend(_states(node))
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
