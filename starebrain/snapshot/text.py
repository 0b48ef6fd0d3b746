"""One normal form for on-screen text, used on both sides of every comparison and in every summary."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

# Bidi controls (LRM, RLM, ALM, embeddings, isolates) and zero-width characters: invisible on screen,
# present in the dump, and never typed by a model that copies what it reads.
_INVISIBLE = re.compile("[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\u061c\ufeff\u00ad\u180e]")


@lru_cache(maxsize=8192)
def _slow(text: str) -> str:
    text = unicodedata.normalize("NFKC", text)
    return " ".join(_INVISIBLE.sub("", text).split())


def normalize_text(text: str) -> str:
    """NFKC, bidi marks and zero-width characters removed, whitespace collapsed to single spaces."""
    if not text:
        return ""
    if text.isascii():
        return " ".join(text.split())
    return _slow(text)


def same_text(a: str, b: str) -> bool:
    """True when the two texts read the same after normalisation (case kept)."""
    return normalize_text(a) == normalize_text(b)
