"""The demo errand, done with taps and typing only: message context, mail with invoice, task done."""

from __future__ import annotations

import pytest

from starebrain.sim.world import build_phone
from starebrain.sim.world.world_phone import WorldPhone
from tests.sim.world.conftest import find, get, tap, texts

CLIENT_EMAIL = "dana@whitfieldstudio.com"
INVOICE = "Invoice-2026-031.pdf"


def read_client_email(phone: WorldPhone) -> str:
    """Open the top conversation and find the email address in it, as the agent would."""
    tap(phone, text="Messages")
    top = get(phone, rid="conversation_name")
    assert top is not None and top.attrs["text"] == "Dana Whitfield"
    phone.tap(*top.center())
    words = " ".join(texts(phone)).split()
    return next(w for w in words if "@" in w and "." in w)


def send_invoice(phone: WorldPhone, to: str) -> None:
    """Gmail compose, To, Subject, attach from Files, Send."""
    phone.press_key("home")
    tap(phone, text="Gmail")
    tap(phone, rid="compose_button")
    assert phone.set_text(get(phone, rid="to"), to)
    assert phone.set_text(get(phone, rid="subject"), "Invoice for the website redesign")
    tap(phone, desc="Attach file")
    assert phone.current_focus()[0] == "com.google.android.documentsui"
    tap(phone, text=INVOICE)
    assert get(phone, rid="attachment_tile_title").attrs["text"] == INVOICE
    tap(phone, rid="send")


def mark_project_done(phone: WorldPhone) -> None:
    """Tasks, the client's project, Mark as done."""
    phone.press_key("home")
    tap(phone, text="Tasks")
    tap(phone, text="Whitfield website redesign")
    tap(phone, rid="mark_done_button")


@pytest.mark.parametrize("seed", [0, 1, 7])
def test_the_errand_leaves_one_mail_and_one_done_task(seed: int) -> None:
    phone = build_phone(seed=seed)
    email = read_client_email(phone)
    assert email == CLIENT_EMAIL
    send_invoice(phone, email)
    assert phone.last_toast() == "Sent"
    mark_project_done(phone)
    assert "Completed" in texts(phone)
    assert phone.state()["side_effects"] == {"mail_sent": 1, "task_completed": 1}
    sent = phone.world.app("com.google.android.gm")["sent"][0]
    assert (sent["to"], sent["attachment"]) == (CLIENT_EMAIL, INVOICE)


def test_the_errand_by_typing_on_the_keyboard() -> None:
    phone = build_phone()
    phone.start_app("com.google.android.gm")
    tap(phone, text="Compose")
    assert get(phone, rid="to").attrs["focused"] == "true"
    assert find(phone, package="com.google.android.inputmethod.latin") is not None
    phone.input_text("Dana")
    tap(phone, text=CLIENT_EMAIL)  # the contact suggestion
    tap(phone, rid="subject")
    for letter in "invoice":
        tap(phone, desc=letter)  # keys of the soft keyboard
    assert get(phone, rid="subject").attrs["text"] == "invoice"
    tap(phone, desc="Attach file")
    tap(phone, text=INVOICE)
    tap(phone, desc="Send")
    assert phone.content_query("content://starebrain/sent_mail").startswith(
        f"Row: 0 to={CLIENT_EMAIL}, subject=invoice, attachment={INVOICE}")


def test_send_without_a_valid_recipient_sends_nothing() -> None:
    phone = build_phone()
    phone.start_app("com.google.android.gm")
    tap(phone, text="Compose")
    tap(phone, desc="Send")
    assert phone.last_toast() == "Add at least one recipient."
    phone.set_text(get(phone, rid="to"), "Dana Whitfield")
    tap(phone, desc="Send")
    assert phone.last_toast() == "Invalid recipient: Dana Whitfield"
    assert phone.state()["side_effects"] == {}


def test_replying_in_messages_appends_to_the_outbox() -> None:
    phone = build_phone()
    read_client_email(phone)
    tap(phone, rid="compose_message_text")
    phone.input_text("Invoice is on its way")
    tap(phone, rid="send_message_button")
    assert "Invoice is on its way" in texts(phone)
    assert get(phone, rid="compose_message_text").attrs["text"] == "Text message"
    assert phone.content_query("content://starebrain/outbox") == (
        "Row: 0 to=Dana Whitfield, body=Invoice is on its way, count=1")


def test_checkbox_in_the_list_also_marks_done() -> None:
    phone = build_phone()
    phone.start_app("com.google.android.apps.tasks")
    box = get(phone, rid="task_checkbox")
    assert box.attrs["checked"] == "false" and box.attrs["checkable"] == "true"
    phone.tap(*box.center())
    assert get(phone, rid="task_checkbox").attrs["checked"] == "true"
    assert phone.content_query("content://starebrain/completed_tasks") == (
        "Row: 0 title=Whitfield website redesign, count=1")


def test_bank_transfer_notes_and_wifi_record_their_effects() -> None:
    phone = build_phone()
    phone.start_app("com.starebrain.bank")
    phone.set_text(get(phone, rid="password_input"), "hunter2")
    tap(phone, text="Sign in")
    tap(phone, text="Transfer money")
    phone.set_text(get(phone, rid="payee_input"), "Greg (Landlord)")
    phone.set_text(get(phone, rid="amount_input"), "1200")
    phone.press_key("back")  # hide the keyboard
    tap(phone, text="Confirm transfer")
    assert "$3,010.55" in texts(phone)
    phone.start_app("com.google.android.keep")
    tap(phone, text="New note")
    phone.input_text("Call Dana on Monday")
    tap(phone, desc="Save")
    assert "Call Dana on Monday" in texts(phone)
    phone.start_app("com.android.settings")
    tap(phone, text="Network & internet")
    tap(phone, text="Wi-Fi")
    assert find(phone, desc="Wi-Fi off.") is not None
    assert phone.state()["side_effects"] == {"transfer_made": 1, "note_saved": 1, "wifi_toggled": 1}
    assert phone.content_query("content://starebrain/transfers") == (
        "Row: 0 payee=Greg (Landlord), amount=$1,200.00, memo=, count=1")


def test_editing_a_note_saves_only_a_change() -> None:
    phone = build_phone()
    phone.start_app("com.google.android.keep")
    tap(phone, text="Groceries")
    phone.press_key("back")  # keyboard
    phone.press_key("back")  # leave unchanged
    assert phone.world.counts() == {}
    tap(phone, text="Groceries")
    phone.input_text(", bread")
    tap(phone, desc="Save")
    assert phone.world.counts() == {"note_saved": 1}
    assert "Oat milk, eggs, spinach, coffee, bread" in texts(phone)
