"""`mentions`: whole-word phrases (CJK ones as substrings, punctuation-led ones ending where a word ends), the first
in the list's order."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from starebrain.profiles.words import has_cjk, mentions, normalize_label


def by_regex(text: str, phrases: list[str]) -> str | None:
    """The definition, one regex per phrase: what `mentions` must answer, only faster."""
    norm = normalize_label(text)
    for phrase in phrases:
        if has_cjk(phrase):
            if norm and phrase in norm:
                return phrase
        elif not phrase[:1].isalnum():  # a sign first ("/ month"): inside a word, but not running on into one
            if norm and re.search(re.escape(phrase) + (r"(?!\w)" if re.match(r"\w", phrase[-1]) else ""), norm):
                return phrase
        elif norm and re.search(rf"(?<!\w){re.escape(phrase)}(?!\w)", norm):
            return phrase
    return None


# Pieces that make word edges hard: letters, digits, '_', marks (Devanagari vowel signs are not word characters),
# CJK, punctuation and spaces, so phrases and texts share prefixes, suffixes and partial words.
PIECES = ["load", "loading", "ing", "wait", "please", "_", "1", "-", " ", "…", ".", "'", "कृपया", "ि", "加载", "中",
          "正在加载", "é", "wi-fi", "ok", "Ok", "OK", "/", "/ wait"]
phrases = st.lists(st.lists(st.sampled_from(PIECES), min_size=1, max_size=3).map("".join).map(normalize_label)
                   .filter(bool), min_size=1, max_size=6)
texts = st.lists(st.sampled_from(PIECES), max_size=8).map("".join)


@settings(max_examples=1000, derandomize=True, deadline=None)
@given(texts, phrases)
def test_mentions_answers_as_one_regex_per_phrase_would(text: str, words: list[str]) -> None:
    assert mentions(text, words) == by_regex(text, words)
    assert mentions(text, tuple(words)) == by_regex(text, words)


def test_whole_words_only_and_the_first_phrase_in_order() -> None:
    assert mentions("Loading…", ("loading",)) == "loading"
    assert mentions("Unloading the van", ("loading",)) is None
    assert mentions("loading_bar", ("loading",)) is None
    assert mentions("Please wait, loading", ("loading", "please wait")) == "loading"
    assert mentions("正在加载中", ("加载",)) == "加载"
    assert mentions("", ("loading",)) is None
