"""Word lists of the obstruction detector (obstructions.yaml), and how labels are compared to them."""

from __future__ import annotations

import re
from collections.abc import Callable
from enum import StrEnum
from functools import lru_cache
from typing import Literal, NamedTuple, TypeVar

from pydantic import BaseModel, ConfigDict, Field, field_validator

K = TypeVar("K")
V = TypeVar("V")
_EDGE_PUNCT = " \t\r\n.,!?¡¿…:;\"'()[]{}“”‘’«»。，！？：；（）"


@lru_cache(maxsize=8192)  # the rules compare the same few button labels with many word lists
def normalize_label(text: str) -> str:
    """Case-folded, one-spaced, with curly apostrophes straightened and edge punctuation removed."""
    text = text.replace("’", "'").replace("‘", "'")
    return " ".join(text.casefold().split()).strip(_EDGE_PUNCT)


def has_cjk(text: str) -> bool:
    """True when the text contains Chinese/Japanese/Korean characters (no spaces between words)."""
    return re.search(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]", text) is not None


class PermissionPolicy(StrEnum):
    ALLOW_FOREGROUND = "allow_foreground"
    ALLOW_ONCE = "allow_once"
    DENY = "deny"


class DangerPolicy(StrEnum):
    """What to do with an overlay that offers to install, pay, agree or add an account."""

    ASK_PERSON = "ask_person"
    SAFE_EXIT = "safe_exit"


class Backoff(BaseModel):
    """Bounded exponential waiting for LOADING screens."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    first_s: float = Field(gt=0, le=10)
    factor: float = Field(ge=1, le=4)
    max_s: float = Field(gt=0, le=30)
    budget_s: float = Field(gt=0, le=300)

    def delays(self) -> list[float]:
        """The successive waits, stopping once their sum would pass the budget."""
        out: list[float] = []
        delay = self.first_s
        while sum(out) + delay <= self.budget_s:
            out.append(delay)
            delay = min(self.max_s, delay * self.factor)
        return out


def _normalized(words: list[str]) -> tuple[str, ...]:
    out = tuple(normalize_label(w) for w in words)
    if any(not w for w in out):
        raise ValueError("word lists must not contain empty entries")
    return out


class ObstructionWords(BaseModel):
    """The contents of obstructions.yaml."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    format_version: Literal[1]
    permission_policy: PermissionPolicy = PermissionPolicy.ALLOW_FOREGROUND
    danger_policy: DangerPolicy = DangerPolicy.ASK_PERSON
    dismiss: tuple[str, ...]
    acknowledge: tuple[str, ...]
    never_tap: tuple[str, ...]
    never_tap_nag: tuple[str, ...]
    danger_text: tuple[str, ...]
    overlay_text: tuple[str, ...]
    overlay_ids: tuple[str, ...]
    loading_text: tuple[str, ...]
    anr_text: tuple[str, ...]
    crash_text: tuple[str, ...]
    permission_allow_foreground_text: tuple[str, ...]
    permission_allow_once_text: tuple[str, ...]
    permission_allow_text: tuple[str, ...]
    permission_deny_text: tuple[str, ...]
    loading_backoff: Backoff

    @field_validator("dismiss", "acknowledge", "never_tap", "never_tap_nag", "danger_text", "overlay_text",
                     "overlay_ids", "loading_text", "anr_text", "crash_text", "permission_allow_foreground_text",
                     "permission_allow_once_text", "permission_allow_text", "permission_deny_text",
                     mode="before")
    @classmethod
    def _clean(cls, v: object) -> object:
        return _normalized([str(w) for w in v]) if isinstance(v, list) else v

    @property
    def untappable(self) -> tuple[str, ...]:
        """Every button label the detector must never press."""
        return self.never_tap + self.never_tap_nag


def label_in(label: str, words: tuple[str, ...]) -> str | None:
    """The entry the whole label equals (after normalising), or None."""
    norm = normalize_label(label)
    return norm if norm and norm in _word_set(words) else None


# Word list (by identity, the list kept so its id stays its own) -> its words as a set. The lists hold hundreds of
# words in 23 languages and live as long as their lexicon: keyed by value, every lookup would hash the whole list.
_WORD_SETS: dict[int, tuple[tuple[str, ...], frozenset[str]]] = {}


def _word_set(words: tuple[str, ...]) -> frozenset[str]:
    return by_identity(_WORD_SETS, words, frozenset, 256)


def by_identity(cache: dict[int, tuple[K, V]], key: K, make: Callable[[K], V], limit: int) -> V:
    """`make(key)`, remembered by the key's identity (the key kept, so its id stays its own), at most `limit` keys:
    for large immutable keys whose hash would cost more than the lookup it serves."""
    known = cache.get(id(key))
    if known is None or known[0] is not key:
        known = (key, make(key))
        if len(cache) < limit:
            cache[id(key)] = known
    return known[1]


def mentions(text: str, phrases: tuple[str, ...] | list[str]) -> str | None:
    """The first phrase the text contains as whole words (CJK phrases: as a substring; phrases led by a sign, such as
    "/ month": inside a word, but ending where a word ends), or None."""
    norm = normalize_label(text)
    if not norm:
        return None
    index = _phrase_index(tuple(phrases))
    found = {p for p in index.anywhere if p in norm} | {p for p in index.to_word_end if _ends_a_word(norm, p)}
    for run in _WORD_RUN.finditer(norm):  # a whole-word phrase starts where a word starts, with that whole word
        for phrase in index.by_first_word.get(run.group(), ()):
            end = run.start() + len(phrase)
            if norm.startswith(phrase, run.start()) and not (end < len(norm) and _is_word_char(norm[end])):
                found.add(phrase)
    return next((p for p in phrases if p in found), None) if found else None


_WORD_RUN = re.compile(r"\w+")


def _is_word_char(ch: str) -> bool:
    return ch.isalnum() or ch == "_"  # exactly what `\w` matches in a str pattern


def _ends_a_word(norm: str, phrase: str) -> bool:
    """The phrase occurs in the text somewhere it does not run on into a word ("/ month", not in "/ monthly")."""
    start = norm.find(phrase)
    while start >= 0:
        end = start + len(phrase)
        if end == len(norm) or not _is_word_char(norm[end]):
            return True
        start = norm.find(phrase, start + 1)
    return False


def _as_substring(phrase: str) -> bool:
    return has_cjk(phrase) or not phrase[:1].isalnum()


class _PhraseIndex(NamedTuple):
    anywhere: tuple[str, ...]  # CJK phrases, and those led and ended by a sign: found anywhere
    to_word_end: tuple[str, ...]  # led by a sign, ended by a word ("/ month"): found where a word ends
    by_first_word: dict[str, tuple[str, ...]]  # the others, by their first run of word characters


@lru_cache(maxsize=256)
def _phrase_index(phrases: tuple[str, ...]) -> _PhraseIndex:
    r"""The phrases split for `mentions`: one dict lookup per word of the text instead of one regex per phrase
    (`(?<!\w)phrase(?!\w)` matches only where the text's word run equals the phrase's first word run)."""
    by_first: dict[str, list[str]] = {}
    for p in phrases:
        if not _as_substring(p):
            first = _WORD_RUN.match(p)
            assert first is not None  # p starts with a letter or digit
            by_first.setdefault(first.group(), []).append(p)
    signed = [p for p in phrases if _as_substring(p)]
    to_word_end = tuple(p for p in signed if not has_cjk(p) and _is_word_char(p[-1]))
    return _PhraseIndex(tuple(p for p in signed if p not in to_word_end), to_word_end,
                        {k: tuple(v) for k, v in by_first.items()})
