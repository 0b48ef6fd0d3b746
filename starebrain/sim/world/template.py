"""Paths into app data and `{placeholder}` templates, the expression language of the app files."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

_PLACEHOLDER = re.compile(r"\{([^{}]+)\}")


def _step(obj: Any, seg: str) -> Any:
    if isinstance(obj, Mapping):
        return obj.get(seg)
    if isinstance(obj, list):
        for item in obj:
            if isinstance(item, Mapping) and str(item.get("id")) == seg:
                return item
        if seg.isdigit() and int(seg) < len(obj):
            return obj[int(seg)]
    return None


def resolve(root: Any, path: str) -> Any:
    """Follow a dotted path; a segment into a list picks the item whose `id` equals it."""
    obj = root
    for seg in path.split("."):
        if obj is None:
            return None
        obj = _step(obj, seg)
    return obj


def assign(root: dict[str, Any], path: str, value: Any) -> None:
    """Set the value at a dotted path, creating dicts on the way."""
    *head, last = path.split(".")
    obj: Any = root
    for seg in head:
        nxt = _step(obj, seg)
        if nxt is None and isinstance(obj, dict):
            nxt = obj[seg] = {}
        obj = nxt
    if isinstance(obj, dict):
        obj[last] = value
    elif isinstance(obj, list):
        obj[int(last)] = value


def money(value: Any) -> str:
    """`1234.5` -> `$1,234.50`."""
    try:
        amount = float(str(value).replace("$", "").replace(",", ""))
    except ValueError:
        return str(value)
    sign = "-" if amount < 0 else ""
    return f"{sign}${abs(amount):,.2f}"


def number(value: Any) -> str:
    """The value if it is a positive amount (`$1,200.50` ok), else ''."""
    try:
        return str(value) if float(str(value).replace("$", "").replace(",", "")) > 0 else ""
    except ValueError:
        return ""


_FILTERS: dict[str, Callable[[Any], str]] = {
    "money": money, "number": number, "upper": lambda v: str(v).upper(), "len": lambda v: str(len(v or []))}


def lookup(ctx: Mapping[str, Any], expr: str) -> Any:
    """The value of `path` or `path|filter` in a context."""
    path, _, filt = expr.partition("|")
    value = resolve(ctx, path.strip())
    if filt:
        value = _FILTERS[filt.strip()](value if value is not None else "")
    return value


def fill(template: Any, ctx: Mapping[str, Any]) -> Any:
    """Substitute `{path}` placeholders; a template that is exactly one placeholder keeps its type."""
    if isinstance(template, dict):
        return {fill_text(k, ctx): fill(v, ctx) for k, v in template.items()}
    if isinstance(template, list):
        return [fill(v, ctx) for v in template]
    if not isinstance(template, str):
        return template
    whole = _PLACEHOLDER.fullmatch(template)
    if whole:
        value = lookup(ctx, whole.group(1))
        return "" if value is None else value
    return _PLACEHOLDER.sub(lambda m: _text(lookup(ctx, m.group(1))), template)


def fill_text(template: Any, ctx: Mapping[str, Any]) -> str:
    """`fill` coerced to display text (None -> '')."""
    return _text(fill(template, ctx))


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def truthy(ctx: Mapping[str, Any], expr: str) -> bool:
    """`path` non-empty, `!path`, `a == b`, `a ~ b` (b inside a, any case), `||`, `&&` over filled text."""
    expr = expr.strip()
    if "||" in expr:
        return any(truthy(ctx, part) for part in expr.split("||"))
    if "&&" in expr:
        return all(truthy(ctx, part) for part in expr.split("&&"))
    if expr.startswith("!"):
        return not truthy(ctx, expr[1:])
    if " ~ " in expr:
        left, right = (fill_text(part.strip(), ctx).lower() for part in expr.split(" ~ ", 1))
        return right in left
    if "==" in expr:
        left, right = (fill_text(part.strip(), ctx) for part in expr.split("==", 1))
        return left == right
    value = fill_text(expr, ctx) if "{" in expr else lookup(ctx, expr)
    return bool(value) and value != "false"
