"""Button and screen words in many phone languages (device_profiles/obstruction_languages.yaml),
merged with the profile's own lists, and how screen labels are compared to them."""

from __future__ import annotations

import re
from dataclasses import dataclass, fields
from functools import cache, lru_cache
from importlib import resources

from pydantic import BaseModel, ConfigDict, field_validator

from starebrain.profiles.load import PACKAGE, validate
from starebrain.profiles.words import ObstructionWords, by_identity, label_in, mentions, normalize_label
from starebrain.snapshot.text import normalize_text

LANGUAGES_FILE = "obstruction_languages.yaml"


def normal_word(text: str) -> str:
    """The form labels and words are compared in: NFKC, invisible marks gone, case-folded, trimmed."""
    return normalize_label(normalize_text(text))


class LanguageWords(BaseModel):
    """One language's entry."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    dismiss: tuple[str, ...]
    acknowledge: tuple[str, ...]
    deny: tuple[str, ...]
    never_tap: tuple[str, ...]
    never_tap_nag: tuple[str, ...]
    chooser: tuple[str, ...]
    consent: tuple[str, ...]
    update: tuple[str, ...]
    lock_screen: tuple[str, ...] = ()
    scrim: tuple[str, ...] = ()
    access_grant: tuple[str, ...] = ()
    terms: tuple[str, ...] = ()
    setting: tuple[str, ...] = ()
    grant: tuple[str, ...] = ()
    loading: tuple[str, ...] = ()
    agree: tuple[str, ...] = ()
    drag_handle: tuple[str, ...] = ()
    incoming_call: tuple[str, ...] = ()

    @field_validator("*", mode="before")
    @classmethod
    def _normal(cls, v: object) -> object:
        if isinstance(v, list):
            out = tuple(normal_word(str(w)) for w in v)
            if not all(out):
                raise ValueError("word lists must not contain empty entries")
            return out
        return v


class LanguagesFile(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    format_version: int
    languages: dict[str, LanguageWords]


@dataclass(frozen=True)
class Lexicon:
    """Every language's words of one kind, by rank within their language (the profile's lists count as one)."""

    dismiss: tuple[str, ...]
    acknowledge: tuple[str, ...]
    deny: tuple[str, ...]
    never_tap: tuple[str, ...]
    never_tap_nag: tuple[str, ...]
    chooser: tuple[str, ...]
    consent: tuple[str, ...]
    update: tuple[str, ...]
    lock_screen: tuple[str, ...]
    scrim: tuple[str, ...]  # labels of a modal barrier that are no dismiss word (Flutter's "Scrim")
    access_grant: tuple[str, ...]  # a system prompt's text saying another app gets access
    terms: tuple[str, ...]  # names of a terms-of-service / user agreement: a gate, not a cookie choice
    setting: tuple[str, ...]  # never-tap labels that only turn something on or confirm (no pay/install/agree)
    grant: tuple[str, ...]  # a permission grant's "Allow": only leads to the system's prompt in an app's dialog
    loading: tuple[str, ...]  # a message saying the screen is still loading ("Loading…", "Please wait")
    agree: tuple[str, ...]  # a tick box's words accepting terms ("I agree to the Terms of Service")
    drag_handle: tuple[str, ...]  # the label Material gives a bottom sheet's drag handle ("Drag handle")
    incoming_call: tuple[str, ...]  # an incoming call notification's answer / decline actions (CallStyle)

    @property
    def untappable(self) -> tuple[str, ...]:
        return self.never_tap + self.never_tap_nag


@cache
def languages() -> dict[str, LanguageWords]:
    """The packaged per-language word lists, validated."""
    return validate(LanguagesFile, resources.files(PACKAGE) / LANGUAGES_FILE).languages


def _merged(*lists: tuple[str, ...]) -> tuple[str, ...]:
    """Every list's words, by their place within their own list (the best place of a word several lists hold): a
    partly translated app's "Schließen" is preferred to its English "Back" as "Close" would be, where ordering by
    list would put every English word first. The lists follow the same order of kinds (put off, close, cancel, back)
    and English only names more variants of each, so a place counted as a share of the list's length would rank a
    translated "Schließen" (5th of 8) after an English "Dismiss" (10th of 24) that "Close" beats. A one-language
    screen keeps its list's order (bar a word another list places earlier)."""
    rank: dict[str, int] = {}
    for words in lists:
        for i, w in enumerate(words):
            rank[w] = min(i, rank.get(w, i))
    return tuple(sorted(rank, key=rank.__getitem__))


# Profile words (by identity, kept so the id stays their own) -> their lexicon. The rules ask for it dozens of
# times per screen; keyed by value, every call would hash each of the profile's word lists.
_LEXICONS: dict[int, tuple[ObstructionWords, Lexicon]] = {}


def lexicon(words: ObstructionWords) -> Lexicon:
    """The profile's word lists extended with every language's."""
    return by_identity(_LEXICONS, words, _built, 16)


@lru_cache(maxsize=16)
def _built(words: ObstructionWords) -> Lexicon:
    langs = list(languages().values())
    own = {"dismiss": words.dismiss, "acknowledge": words.acknowledge, "deny": words.permission_deny_text,
           "never_tap": words.never_tap, "never_tap_nag": words.never_tap_nag, "loading": words.loading_text}
    merged = {f.name: _merged(tuple(normal_word(w) for w in own.get(f.name, ())),
                              *(getattr(lang, f.name) for lang in langs)) for f in fields(Lexicon)}
    return Lexicon(**merged)


def word_of(label: str, words: tuple[str, ...]) -> str | None:
    """The entry the whole label equals (both sides in normal form), or None."""
    return label_in(normalize_text(label), words)


@lru_cache(maxsize=16384)
def said(text: str, phrases: tuple[str, ...]) -> str | None:
    """The first phrase the text contains as whole words (CJK: as a substring), or None."""
    return mentions(normalize_text(text), phrases)


def offered(label: str, risky: tuple[str, ...], refusals: tuple[str, ...]) -> str | None:
    """The risky word the label says outside a refusal it holds ("Don't allow anyway" refuses; "No, allow" grants)."""
    norm = normal_word(label)
    refusal = mentions(norm, refusals)
    if refusal:  # as a whole word where it is one ("no" not inside "now"), else as a CJK substring
        bounded = re.sub(rf"(?<!\w){re.escape(refusal)}(?!\w)", " ", norm, count=1)
        norm = bounded if bounded != norm else norm.replace(refusal, " ", 1)
    return mentions(norm, risky)
