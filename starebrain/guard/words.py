"""Find risk words ("send", "pay", "删除", ...) in what a step touches."""

from __future__ import annotations

import re

from starebrain.profiles.words import has_cjk

_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_NON_WORD = re.compile(r"[\W_]+", re.UNICODE)


def words_of(text: str) -> str:
    """`btnSendMoney`, `com.app:id/send_button` -> `btn send money`, `com app id send button`."""
    return " ".join(_NON_WORD.sub(" ", _CAMEL.sub(" ", text)).casefold().split())


def strongest_word(text: str, weights: dict[str, float]) -> tuple[str, float]:
    """The heaviest risk word or phrase present (whole words; CJK as substrings), or ("", 0.0)."""
    flat = f" {words_of(text)} "
    best = ("", 0.0)
    for word, weight in weights.items():
        present = word in flat if has_cjk(word) else f" {word} " in flat
        if present and weight > best[1]:
            best = (word, weight)
    return best
