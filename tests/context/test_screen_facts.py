"""Screen rules on real dumps and on app-shaped fake screens."""

from __future__ import annotations

from pathlib import Path

import pytest

from starebrain.context import conversation_partner, most_recent_thread, opened_document, toolbar_title
from starebrain.snapshot import ScreenSnapshot
from tests.context import screens

DUMPS = Path(__file__).resolve().parents[1] / "fixtures" / "real_dumps"


def _dump(name: str) -> ScreenSnapshot:
    return ScreenSnapshot.from_xml((DUMPS / name).read_bytes())


def test_whatsapp_thread_partner_is_the_toolbar_contact_name() -> None:
    snap = _dump("040_whatsapp_chat_pt.xml")
    # The toolbar also holds the status line "Mensagem para mim"; the contact name comes first.
    assert conversation_partner(snap) == "+55 92 9316-0919 (você)"
    assert opened_document(snap) is None  # file names in message bubbles are not "opened"


@pytest.mark.parametrize("name", [
    "028_kbd_gmail_compose_gboard_miui.xml",  # composing an email is not a chat thread
    "030_kbd_miui_notes_gboard.xml",  # a note editor has an EditText but no conversation
    "016_spinner_loading_history_attendease.xml",
    "034_vivo_launcher_home.xml",
    "042_quick_settings_shade_zh.xml",
])
def test_no_partner_on_screens_that_are_not_conversations(name: str) -> None:
    snap = _dump(name)
    assert conversation_partner(snap) is None
    assert most_recent_thread(snap) is None


def test_every_real_dump_is_handled_without_error() -> None:
    for path in sorted(DUMPS.glob("*.xml")):
        snap = ScreenSnapshot.from_xml(path.read_bytes())
        conversation_partner(snap), most_recent_thread(snap), opened_document(snap), toolbar_title(snap)


def test_conversation_list_gives_the_top_thread_and_no_open_partner() -> None:
    snap = ScreenSnapshot.from_xml(screens.conversation_list("Ana Lima", "Bruno"))
    assert conversation_partner(snap) is None
    assert most_recent_thread(snap) == "Ana Lima"


def test_open_thread_and_document_titles() -> None:
    assert conversation_partner(ScreenSnapshot.from_xml(screens.conversation("Bruno"))) == "Bruno"
    assert opened_document(ScreenSnapshot.from_xml(screens.document("invoice_0042.pdf"))) == "invoice_0042.pdf"
    assert opened_document(ScreenSnapshot.from_xml(screens.file_list("a.pdf", "b.pdf"))) is None


def test_a_file_attached_to_a_draft_counts_as_the_document() -> None:
    from tests.fakes import FakeNode, screen_xml

    draft = screen_xml("com.example.mail", [
        screens.toolbar("com.example.mail", "Compose"),
        FakeNode(text="Q3-report.xlsx", resource_id="com.example.mail:id/attachment_tile_title",
                 bounds=(40, 900, 800, 980)),
        FakeNode(text="budget.xlsx", resource_id="com.example.mail:id/body", bounds=(40, 1000, 800, 1080)),
    ])
    assert opened_document(ScreenSnapshot.from_xml(draft)) == "Q3-report.xlsx"
