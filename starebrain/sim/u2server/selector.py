"""UiSelector semantics on UiNode trees: mask bits, exact/contains/starts-with/regex, index, instance,
childOrSibling (docs/sim.md, Selectors and ObjInfo)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from starebrain.sim.phone import UiNode


class SelectorError(Exception):
    """A selector that cannot be evaluated (bad regex, wrong type): the RPC answers an error."""


def _text(attr: str) -> Callable[[UiNode], str]:
    return lambda node: node.attrs.get(attr, "")


def _flag(attr: str) -> Callable[[UiNode], bool]:
    return lambda node: node.attrs.get(attr, "false") == "true"


def _exact(get: Callable[[UiNode], Any]) -> Callable[[UiNode, Any], bool]:
    return lambda node, want: get(node) == want


def _contains(get: Callable[[UiNode], str]) -> Callable[[UiNode, Any], bool]:
    return lambda node, want: str(want) in get(node)


def _starts(get: Callable[[UiNode], str]) -> Callable[[UiNode, Any], bool]:
    return lambda node, want: get(node).startswith(str(want))


def _matches(get: Callable[[UiNode], str]) -> Callable[[UiNode, Any], bool]:
    return lambda node, want: _regex(want).fullmatch(get(node)) is not None


def _regex(pattern: Any) -> re.Pattern[str]:
    try:
        return re.compile(str(pattern), re.DOTALL)
    except re.error as exc:
        raise SelectorError(f"java.util.regex.PatternSyntaxException: {exc}") from exc


def _index(node: UiNode, want: Any) -> bool:
    return node.attrs.get("index", "0") == str(int(want))


TEXT, CLASS, DESC = _text("text"), _text("class"), _text("content-desc")
PACKAGE, RES_ID = _text("package"), _text("resource-id")

# (mask bit, selector field, predicate(node, wanted value)); `instance` is applied separately.
FIELDS: list[tuple[int, str, Callable[[UiNode, Any], bool]]] = [
    (0x01, "text", _exact(TEXT)), (0x02, "textContains", _contains(TEXT)),
    (0x04, "textMatches", _matches(TEXT)), (0x08, "textStartsWith", _starts(TEXT)),
    (0x10, "className", _exact(CLASS)), (0x20, "classNameMatches", _matches(CLASS)),
    (0x40, "description", _exact(DESC)), (0x80, "descriptionContains", _contains(DESC)),
    (0x100, "descriptionMatches", _matches(DESC)), (0x200, "descriptionStartsWith", _starts(DESC)),
    (0x400, "checkable", _exact(_flag("checkable"))), (0x800, "checked", _exact(_flag("checked"))),
    (0x1000, "clickable", _exact(_flag("clickable"))),
    (0x2000, "longClickable", _exact(_flag("long-clickable"))),
    (0x4000, "scrollable", _exact(_flag("scrollable"))), (0x8000, "enabled", _exact(_flag("enabled"))),
    (0x10000, "focusable", _exact(_flag("focusable"))), (0x20000, "focused", _exact(_flag("focused"))),
    (0x40000, "selected", _exact(_flag("selected"))), (0x80000, "packageName", _exact(PACKAGE)),
    (0x100000, "packageNameMatches", _matches(PACKAGE)), (0x200000, "resourceId", _exact(RES_ID)),
    (0x400000, "resourceIdMatches", _matches(RES_ID)), (0x800000, "index", _index),
]
INSTANCE_BIT = 0x01000000


def describe(selector: dict[str, Any]) -> str:
    """`UiSelector[TEXT=OK, CLASS=...]`, the text of UiObjectNotFoundException."""
    mask = _mask(selector)
    parts = [f"{name.upper()}={selector.get(name)}" for bit, name, _ in FIELDS if mask & bit]
    if mask & INSTANCE_BIT:
        parts.append(f"INSTANCE={selector.get('instance')}")
    return "UiSelector[" + ", ".join(parts) + "]"


def find_all(root: UiNode, selector: dict[str, Any]) -> list[UiNode]:
    """Every node matching `selector` (after childOrSibling), in document order."""
    if not isinstance(selector, dict):
        raise SelectorError("java.lang.IllegalArgumentException: selector must be an object")
    matches = _apply_instance([n for n in _candidates(root) if _matches_node(n, selector)], selector)
    relations = selector.get("childOrSibling") or []
    subs = selector.get("childOrSiblingSelector") or []
    for relation, sub in zip(relations, subs, strict=False):
        pool = _related(matches, relation)
        matches = _apply_instance([n for n in pool if _matches_node(n, sub)], sub)
    return matches


def find_first(root: UiNode, selector: dict[str, Any]) -> UiNode | None:
    """The first match, or None."""
    found = find_all(root, selector)
    return found[0] if found else None


def _candidates(root: UiNode) -> list[UiNode]:
    # The synthetic root holds the windows; it is not itself on screen.
    return [node for child in root.children for node in child.iter()]


def _related(nodes: list[UiNode], relation: str) -> list[UiNode]:
    seen: dict[int, UiNode] = {}
    for node in nodes:
        if relation == "sibling":
            family = node.parent.children if node.parent is not None else []
            pool = [n for n in family if n is not node]
        else:
            pool = [d for child in node.children for d in child.iter()]
        for item in pool:
            seen.setdefault(id(item), item)
    return list(seen.values())


def _apply_instance(matching: list[UiNode], selector: dict[str, Any]) -> list[UiNode]:
    """The `instance`-th match only, when the instance bit is set."""
    if not _mask(selector) & INSTANCE_BIT:
        return matching
    try:
        position = int(selector.get("instance", 0))
    except (TypeError, ValueError) as exc:
        raise SelectorError("java.lang.IllegalArgumentException: bad instance") from exc
    return matching[position:position + 1] if position >= 0 else []


def _mask(selector: dict[str, Any]) -> int:
    try:
        return int(selector.get("mask", 0))
    except (TypeError, ValueError) as exc:
        raise SelectorError("java.lang.IllegalArgumentException: bad mask") from exc


def _matches_node(node: UiNode, selector: dict[str, Any]) -> bool:
    if not isinstance(selector, dict):
        raise SelectorError("java.lang.IllegalArgumentException: selector must be an object")
    mask = _mask(selector)
    try:
        return all(predicate(node, selector.get(name)) for bit, name, predicate in FIELDS if mask & bit)
    except (TypeError, ValueError) as exc:
        raise SelectorError(f"java.lang.IllegalArgumentException: {exc}") from exc
