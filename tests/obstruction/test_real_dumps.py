"""All 24 real dumps against the INDEX.tsv labels, with a confusion matrix in the output (-s)."""

from __future__ import annotations

from collections import Counter
from functools import cache

import pytest

from starebrain.models import Selector
from starebrain.obstruction import BackClearance, ObstructionKind, TapClearance, detect
from starebrain.profiles import load_profiles
from starebrain.snapshot import ScreenSnapshot
from tests.snapshot.dumps import Dump, dump, index

K = ObstructionKind
LABEL_TO_KIND = {
    "none": K.READY, "permission_dialog": K.PERMISSION, "spinner": K.LOADING, "overlay_dialog": K.OVERLAY,
    "keyboard": K.KEYBOARD, "anr_dialog": K.SYSTEM_DIALOG,
    # "other" is only the quick-settings shade (042): a system surface over everything, closed with back.
    "other": K.SYSTEM_DIALOG,
}
# Where we disagree with the person's label, and why.
DISAGREE = {
    # 028 / 030: the keyboard is open, but with no step target it covers nothing we need; our contract is
    # that KEYBOARD is an obstruction only when it covers (or may hide) the target. With such a target
    # these dumps do give KEYBOARD -> press back: see test_keyboard_dumps_block_a_hidden_target.
    "028": K.READY,
    "030": K.READY,
}
# The buttons INDEX.tsv says a person would press, by id or label.
EXPECTED_TAP = {
    "004": "permission_allow_button",  # 002 (location) needs the person: tests/guard/test_permission_policy.py
    "006": "permission_allow_button", "008": "aerr_wait", "010": "aerr_wait", "012": "button1",
    "022": "CANCEL", "024": "知道了", "026": "取消",
}

def expected(d: Dump) -> K:
    return DISAGREE.get(d.file[:3], LABEL_TO_KIND[d.obstruction])


@cache
def profiles():
    return load_profiles()


def verdict(d: Dump, brand: str = "google", target: Selector | None = None):
    profile = profiles().device_profile(brand)
    return detect(ScreenSnapshot.from_xml(d.data), profile, target=target)


@pytest.mark.parametrize("d", index(), ids=lambda d: d.file[:3])
def test_real_dump_kind(d):
    found = verdict(d)
    assert found.kind is expected(d), f"{d.file}: {found.describe()} (label {d.obstruction}: {d.buttons})"


@pytest.mark.parametrize("prefix", sorted(EXPECTED_TAP))
def test_real_dump_clearance_presses_the_labelled_button(prefix):
    found = verdict(dump(prefix))
    assert isinstance(found.clearance, TapClearance), found.describe()
    want = EXPECTED_TAP[prefix]
    assert found.clearance.resource_id.endswith(want) or found.clearance.label == want


@pytest.mark.parametrize("brand", ["samsung", "xiaomi"])
def test_oem_profiles_classify_the_same_dumps_alike(brand):
    for d in index():
        assert verdict(d, brand).kind is expected(d), d.file


@pytest.mark.parametrize(("prefix", "hidden"), [("028", Selector(text="Schedule send")),
                                                ("030", Selector(text="Сохранить"))])
def test_keyboard_dumps_block_a_hidden_target(prefix, hidden):
    found = verdict(dump(prefix), target=hidden)
    assert found.kind is K.KEYBOARD and isinstance(found.clearance, BackClearance)


def test_keyboard_dumps_do_not_block_a_target_above_the_keys():
    assert verdict(dump("028"), target=Selector(content_desc="Send")).kind is K.READY
    assert verdict(dump("030"), target=Selector(resource_id="com.miui.notes:id/done")).kind is K.READY


def test_loading_page_is_ready_once_the_target_is_there():
    assert verdict(dump("016"), target=Selector(text="No history yet")).kind is K.READY


def test_heads_up_text_and_status_bar_never_drive_a_verdict():
    # 028 carries systemui notification icons ("Android System notification: ...") and a MIUI gesture strip.
    found = verdict(dump("028"))
    assert found.kind is K.READY


def test_zz_confusion_matrix(capsys):
    """Prints label x verdict counts to the terminal (-s); its own verdicts, so any worker may run it."""
    matrix = Counter((LABEL_TO_KIND[d.obstruction].value, verdict(d).kind.value) for d in index())
    kinds = [k.value for k in K]
    short = {k: k[:7] for k in kinds}
    lines = ["confusion matrix (rows: INDEX.tsv label, columns: detector verdict, target=None)",
             "label\\verdict  " + " ".join(f"{short[k]:>7}" for k in kinds)]
    for row in kinds:
        counts = [matrix.get((row, col), 0) for col in kinds]
        if any(counts):
            lines.append(f"{row:<14} " + " ".join(f"{c:>7}" for c in counts))
    agree = sum(c for (r, col), c in matrix.items() if r == col)
    lines.append(f"agreement with labels: {agree}/{sum(matrix.values())} "
                 f"(disagreements are the documented keyboard cases: {sorted(DISAGREE)})")
    with capsys.disabled():
        print("\n" + "\n".join(lines))
    assert sum(matrix.values()) == len(index())
    assert agree == len(index()) - len(DISAGREE)
