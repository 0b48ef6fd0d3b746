"""Text as the guard compares it: NFKC, case-folded, invisible and bidi controls removed, split into words.

Both the vocabulary and what the phone shows go through the same normalisation, so full-width letters,
ligatures, zero-width joiners or right-to-left marks cannot hide a risk word.
"""

from __future__ import annotations

import itertools
import re
import unicodedata

# Zero-width characters, bidi embeddings/overrides/isolates, the BOM, soft hyphen, Mongolian vowel separator.
_INVISIBLE = re.compile("[\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_WORD_CATEGORIES = ("L", "M", "N")
# Scripts written without spaces between words: their phrases are matched as substrings.
_UNSPACED = re.compile(r"[\u0e00-\u0e7f\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f]")


def normalize(text: str) -> str:
    """NFKC, invisible characters removed, case-folded, one-spaced."""
    flat = _INVISIBLE.sub("", unicodedata.normalize("NFKC", text))
    return " ".join(_fold(flat).split())


def words(text: str) -> tuple[str, ...]:
    """`btnSendMoney`, `com.app:id/send_button`, `Überweisung bestätigen!` -> their normalised words."""
    flat = _INVISIBLE.sub("", unicodedata.normalize("NFKC", text))
    flat = _fold(_CAMEL.sub(" ", flat))
    out = "".join(c if unicodedata.category(c)[0] in _WORD_CATEGORIES else " " for c in flat)
    return tuple(out.split())


def _fold(text: str) -> str:
    # Turkish: İ folds to i + combining dot, and an upper-case I may stand for dotless ı; fold both to i.
    return text.casefold().replace("i\u0307", "i").replace("ı", "i")


def unspaced(text: str) -> bool:
    """True for Chinese, Japanese, Korean and Thai text (matched as substrings)."""
    return _UNSPACED.search(text) is not None


class Phrase:
    """One vocabulary entry: words in order; `*` at either end of a word matches any continuation."""

    def __init__(self, raw: str) -> None:
        self.raw = raw
        self.substring = unspaced(raw)
        self.compact = "".join(words(raw.replace("*", "")))
        self.parts = tuple(m for piece in normalize(raw).split() for m in _parts(piece))

    def found_in(self, tokens: tuple[str, ...], compact: str) -> bool:
        """Whether the phrase occurs in text given as its words and its words joined without spaces."""
        if self.substring:
            return bool(self.compact) and self.compact in compact
        if not self.parts:
            return False
        n = len(self.parts)
        return any(all(self.parts[j](tokens[i + j]) for j in range(n)) for i in range(len(tokens) - n + 1))


def _parts(piece: str) -> list[_Matcher]:
    """Matchers for one space-separated piece; a `*` at its start or end applies to its outer words."""
    found = words(piece.strip("*"))
    out = []
    for k, core in enumerate(found):
        lead = piece.startswith("*") and k == 0
        trail = piece.endswith("*") and k == len(found) - 1
        out.append(_Matcher(core, "in" if lead and trail else "suffix" if lead else "prefix" if trail else "equal"))
    return out


class _Matcher:
    __slots__ = ("core", "how")

    def __init__(self, core: str, how: str) -> None:
        self.core, self.how = core, how

    def __call__(self, token: str) -> bool:
        if self.how == "equal":
            return token == self.core
        if self.how == "prefix":
            return token.startswith(self.core)
        if self.how == "suffix":
            return token.endswith(self.core)
        return self.core in token


class Vocabulary:
    """Weighted phrases compiled for fast lookup: by first word where it is a plain word, else one by one."""

    def __init__(self, weights: dict[str, float]) -> None:
        self.by_first: dict[str, list[tuple[Phrase, float]]] = {}
        self.other: list[tuple[Phrase, float]] = []
        for raw, weight in weights.items():
            phrase = Phrase(raw)
            first = phrase.parts[0] if phrase.parts and not phrase.substring else None
            if first is not None and first.how == "equal":
                self.by_first.setdefault(first.core, []).append((phrase, weight))
            else:
                self.other.append((phrase, weight))

    def strongest(self, text: str) -> tuple[str, float]:
        """The heaviest entry present in `text`, or ("", 0.0)."""
        tokens = words(text)
        if not tokens:
            return "", 0.0
        compact = "".join(tokens)
        best = ("", 0.0)
        candidates = [pw for t in set(tokens) for pw in self.by_first.get(t, ())]
        for phrase, weight in itertools.chain(candidates, self.other):
            if weight > best[1] and phrase.found_in(tokens, compact):
                best = (phrase.raw, weight)
        return best


_COMPILED: dict[int, tuple[dict[str, float], Vocabulary]] = {}


def strongest(text: str, weights: dict[str, float]) -> tuple[str, float]:
    """The heaviest vocabulary entry present in `text`, or ("", 0.0) (compiled once per weights dict)."""
    held = _COMPILED.get(id(weights))
    if held is None or held[0] is not weights:
        if len(_COMPILED) > 256:
            _COMPILED.clear()
        held = (weights, Vocabulary(weights))
        _COMPILED[id(weights)] = held
    return held[1].strongest(text)
