"""The phone's language: app and dialog labels replaced from `locales/<lang>.yaml` (whole strings only)."""

from __future__ import annotations

from typing import Any

from starebrain.sim.world.resources import load_folder

# Spec keys whose string values a person reads (ids, ops and data stay as they are).
LABEL_KEYS = ("text", "button", "image", "desc", "title", "hint", "label", "empty")


def locales() -> list[str]:
    """The languages the sim can show besides English."""
    return sorted(load_folder("locales"))


def localize(specs: dict[str, dict[str, Any]], locale: str) -> None:
    """Replace, in place, every label of `specs` that the locale file translates."""
    if locale in ("", "en"):
        return
    table = load_folder("locales").get(locale)
    if table is None:
        raise ValueError(f"unknown sim locale {locale!r} (known: en, {', '.join(locales())})")
    strings: dict[str, str] = table["strings"]
    for spec in specs.values():
        _walk(spec, strings)


def _walk(node: Any, strings: dict[str, str]) -> None:
    if isinstance(node, dict):
        for key, value in node.items():
            if key in LABEL_KEYS and isinstance(value, str) and value in strings:
                node[key] = strings[value]
            else:
                _walk(value, strings)
    elif isinstance(node, list):
        for item in node:
            _walk(item, strings)
