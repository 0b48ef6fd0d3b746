from __future__ import annotations

import inspect

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from starebrain.guard import ConfirmationGuard
from starebrain.models import AgentStep, LongPress, OpenApp, Press, ScrollTo, Selector, Swipe, Tap, TypeText, WaitFor
from starebrain.profiles import load_profiles

PROFILES = load_profiles()
GUARD = ConfirmationGuard(PROFILES)
MSG, GMAIL, BANK, KEEP = ("com.google.android.apps.messaging", "com.google.android.gm", "com.starebrain.bank",
                          "com.google.android.keep")
TASKS, FILES, SETTINGS = "com.google.android.apps.tasks", "com.google.android.documentsui", "com.android.settings"


def step(action, package: str | None, irreversible: bool = False) -> AgentStep:
    return AgentStep(instruction="do it", action=action, target_package=package, irreversible=irreversible)


def tap(**sel) -> Tap:
    return Tap(selector=Selector(**sel))


CONFIRM = [
    ("send in messaging", step(tap(text="Send"), MSG)),
    ("send icon by description", step(tap(content_desc="Send"), GMAIL)),
    ("send by resource id", step(tap(resource_id="com.google.android.gm:id/send"), GMAIL)),
    ("camelCase id", step(tap(resource_id="btnSendMessage"), MSG)),
    ("confirm transfer in banking", step(tap(text="Confirm transfer"), BANK)),
    ("pay in banking", step(tap(text_contains="Pay"), BANK)),
    ("delete in notes", step(tap(text="Delete"), KEEP)),
    ("delete in tasks", step(tap(content_desc="Delete task"), TASKS)),
    ("delete in files", step(tap(text="Delete"), FILES)),
    ("delete by long press", step(LongPress(selector=Selector(text="Delete")), KEEP)),
    ("reset in settings", step(tap(text="Reset"), SETTINGS)),
    ("submit in an unknown app", step(tap(text="Submit"), "org.example.unknown")),
    ("post with no package named", step(tap(text="Post"), None)),
    ("Spanish send", step(tap(text="Enviar"), MSG)),
    ("Chinese transfer", step(tap(text="确认转账"), BANK)),
    ("irreversible flag alone", step(tap(text="OK"), KEEP, irreversible=True)),
    ("buy in shopping", step(tap(text="Buy now"), "com.amazon.mShop.android.shopping")),
    ("place order in shopping", step(tap(text="Place your order"), "com.amazon.mShop.android.shopping")),
]
NO_CONFIRM = [
    ("open the bank app", step(OpenApp(package=BANK), BANK)),
    ("open an unknown app", step(OpenApp(package="org.example.unknown"), "org.example.unknown")),
    ("type into search", step(TypeText(selector=Selector(resource_id="search_src_text"), text="pizza"), GMAIL)),
    ("type a message that mentions sending", step(TypeText(text="please send the invoice"), MSG)),
    ("tap a conversation", step(tap(text="Alice"), MSG)),
    ("tap an email", step(tap(text_contains="Invoice March"), GMAIL)),
    ("tap a task", step(tap(text="Buy milk"), TASKS)),
    ("cancel in banking", step(tap(text="Cancel"), BANK)),
    ("scroll to delete is only scrolling", step(ScrollTo(selector=Selector(text="Delete")), KEEP)),
    ("wait for sent", step(WaitFor(selector=Selector(text="Sent")), MSG)),
    ("press back", step(Press(key="back"), BANK)),
    ("swipe", step(Swipe(direction="up"), "org.example.unknown")),
    ("type a secret ref", step(TypeText(selector=Selector(resource_id="pin"), text="{secret:BANK_PIN}"), BANK)),
    ("a word inside another word", step(tap(text="Sender details"), MSG)),
    ("a task called Call the bank", step(tap(text="Call the bank"), TASKS)),
    ("a note called Pay rent", step(tap(text="Pay rent"), KEEP)),
    ("paypal opened", step(OpenApp(package="com.paypal.android.p2pmobile"), "com.paypal.android.p2pmobile")),
]


@pytest.mark.parametrize(("name", "s"), CONFIRM, ids=[c[0] for c in CONFIRM])
def test_risky_steps_need_confirmation(name, s):
    decision = GUARD.check(s)
    assert decision.needs_confirmation, decision.reason
    assert "needs confirmation" in decision.reason


@pytest.mark.parametrize(("name", "s"), NO_CONFIRM, ids=[c[0] for c in NO_CONFIRM])
def test_ordinary_steps_run_without_asking(name, s):
    decision = GUARD.check(s)
    assert not decision.needs_confirmation, decision.reason


def test_decision_names_category_and_reason():
    d = GUARD.check(step(tap(text="Send"), MSG))
    assert d.category == "messaging" and '"send"' in d.reason and MSG in d.reason
    assert GUARD.check(step(tap(text="Alice"), "org.example.unknown")).category == "unknown"


def test_same_words_weigh_more_in_banking_than_in_notes():
    word = tap(text="Confirm")
    assert GUARD.check(step(word, BANK)).risk > GUARD.check(step(word, KEEP)).risk


def test_unknown_apps_are_treated_more_cautiously_than_known_ones():
    s_known, s_unknown = step(tap(text="Share"), KEEP), step(tap(text="Share"), "org.example.unknown")
    assert GUARD.check(s_unknown).risk > GUARD.check(s_known).risk
    assert GUARD.check(s_unknown).needs_confirmation


def test_secret_values_never_reach_the_reason_and_do_not_count_as_words():
    d = GUARD.check(step(TypeText(text="{secret:SEND_PAY_DELETE}"), "org.example.unknown"))
    assert not d.needs_confirmation and "it touches" not in d.reason


def test_guard_takes_no_screen_input():
    # Screen text can never approve anything: the only input is the planned step.
    assert list(inspect.signature(ConfirmationGuard.check).parameters) == ["self", "step"]


WORDS = st.sampled_from([*PROFILES.risk.words, "Alice", "OK", "Next", "search", "Buy milk", ""])
PACKAGES = st.sampled_from([*PROFILES.categories.packages, "org.example.unknown", None])


@st.composite
def steps(draw) -> AgentStep:
    word = draw(WORDS) or "x"
    kind = draw(st.sampled_from(["tap", "long_press", "type", "open_app", "press", "swipe", "scroll_to", "wait"]))
    sel = Selector(**{draw(st.sampled_from(["text", "text_contains", "content_desc", "resource_id"])): word})
    action = {
        "tap": Tap(selector=sel), "long_press": LongPress(selector=sel),
        "type": TypeText(selector=sel, text=draw(WORDS)), "open_app": OpenApp(package=draw(PACKAGES) or "a.b"),
        "press": Press(key=draw(st.sampled_from(["back", "home", "enter", "recents"]))),
        "swipe": Swipe(direction="up"), "scroll_to": ScrollTo(selector=sel), "wait": WaitFor(selector=sel),
    }[kind]
    return step(action, draw(PACKAGES))


@settings(max_examples=300, deadline=None)
@given(steps())
def test_irreversible_never_lowers_risk_nor_removes_a_confirmation(s):
    plain = GUARD.check(s.model_copy(update={"irreversible": False}))
    flagged = GUARD.check(s.model_copy(update={"irreversible": True}))
    assert 0.0 <= plain.risk <= 1.0 and 0.0 <= flagged.risk <= 1.0
    assert flagged.risk >= plain.risk
    assert flagged.needs_confirmation >= plain.needs_confirmation
    assert flagged.needs_confirmation  # irreversible steps always ask the person
