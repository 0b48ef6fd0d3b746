"""One normal form for screen text, on both sides of a selector match and in summaries."""

from __future__ import annotations

import pytest

from starebrain.models import Selector
from starebrain.snapshot import ScreenSnapshot
from starebrain.snapshot.text import normalize_text
from tests.snapshot.dumps import hierarchy, node


@pytest.mark.parametrize(("raw", "normal"), [
    ("\u200eSend", "Send"),  # left-to-right mark, as Android puts before numbers and names
    ("Se\u200bnd", "Send"),  # zero-width space
    ("\u2068Dana\u2069", "Dana"),  # first-strong isolate ... pop isolate
    ("ＯＫ", "OK"),  # full-width (NFKC)
    ("ﬁle", "file"),  # ligature (NFKC)
    ("  Not\u00a0\n now\t", "Not now"),  # no-break space, newline and tab collapsed
    ("\u200f\u202bשלום\u202c", "שלום"),
])
def test_normal_form(raw, normal):
    assert normalize_text(raw) == normal


def test_selectors_match_the_visible_text_whatever_invisible_marks_either_side_carries():
    snap = ScreenSnapshot.from_xml(hierarchy(node(cls="android.widget.FrameLayout", bounds="[0,0][1080,2400]",
        children=node("\u200e+1 555 0100\u200e", cls="android.widget.Button", bounds="[0,0][500,100]",
                      clickable=True, desc="Call\u00a0\u00a0Dana"))))
    for sel in (Selector(text="+1 555 0100"), Selector(text="\u200f+1  555 0100"),
                Selector(text_contains="555 0100"), Selector(content_desc="Call Dana")):
        assert snap.resolve(sel) is not None, sel
    assert snap.resolve(Selector(text="+1 555 0199")) is None


def test_summaries_show_the_normal_form():
    snap = ScreenSnapshot.from_xml(hierarchy(node(cls="android.widget.FrameLayout", bounds="[0,0][1080,2400]",
        children=node("\u200eＳｅｎｄ", cls="android.widget.Button", bounds="[0,0][500,100]", clickable=True))))
    summary = snap.summary()
    assert '"Send"' in summary and "\u200e" not in summary
