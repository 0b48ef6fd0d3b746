"""Risk vocabularies: at least 15 languages, every concept covered, matched after normalisation."""

from __future__ import annotations

import pytest

from starebrain.guard import ConfirmationGuard
from starebrain.guard.concrete_action import ConcreteAction
from starebrain.guard.text import normalize, strongest, words
from starebrain.models import AgentStep, Selector, Tap
from starebrain.profiles import load_profiles
from starebrain.profiles.vocabulary import CONCEPTS

PROFILES = load_profiles()
GUARD = ConfirmationGuard(PROFILES)
UNKNOWN_BANK = "de.example.hausbank"
# A real label per language, as a banking or mail app shows it (none of them is a vocabulary entry verbatim).
LABELS = {
    "en": "Confirm payment", "zh": "确认转账给张三", "es": "Confirmar transferencia", "hi": "भुगतान की पुष्टि करें",
    "ar": "تأكيد التحويل", "pt": "Confirmar Pix", "bn": "টাকা পাঠান এখন", "ru": "Отправить письмо",
    "ja": "振込内容を確認", "de": "Überweisung bestätigen", "fr": "Valider le virement", "id": "Kirim uang sekarang",
    "tr": "Havaleyi onayla", "vi": "Xác nhận chuyển tiền", "ko": "송금하기", "it": "Conferma il bonifico",
    "pl": "Potwierdź przelew", "th": "ยืนยันการโอนเงิน",
}


def _button(label: str, app: str = UNKNOWN_BANK) -> ConcreteAction:
    return ConcreteAction(kind="tap", app=app, element=f"Button {label!r}", element_words=label)


def _step() -> AgentStep:
    return AgentStep(instruction="next", action=Tap(selector=Selector(class_name="android.widget.Button")),
                     target_package="com.google.android.apps.tasks")


def test_at_least_fifteen_languages_cover_every_concept() -> None:
    assert len(PROFILES.vocabularies) >= 15
    assert set(LABELS) == set(PROFILES.vocabularies)
    for vocabulary in PROFILES.vocabularies.values():
        assert set(vocabulary.concepts) == set(CONCEPTS)


@pytest.mark.parametrize("language", sorted(LABELS))
def test_each_language_flags_its_own_words_in_an_unknown_app(language: str) -> None:
    vocabulary = PROFILES.vocabularies[language]
    weights = PROFILES.words_for("unknown")
    for concept, entries in vocabulary.concepts.items():
        for entry in entries:
            shown = entry.replace("*", "").upper()
            assert strongest(f"« {shown} »", weights)[0], f"{language}/{concept}: {entry!r} not found"
    decision = GUARD.check_actual(_step(), _button(LABELS[language]))
    assert decision.needs_confirmation, decision.reason
    assert decision.category == "unknown"


@pytest.mark.parametrize("language", sorted(LABELS))
def test_each_language_is_flagged_in_a_messaging_app_by_its_send_word(language: str) -> None:
    send = PROFILES.vocabularies[language].concepts["send"][0].replace("*", "")
    decision = GUARD.check_actual(_step(), _button(send, "com.google.android.apps.messaging"))
    assert decision.needs_confirmation, decision.reason


@pytest.mark.parametrize("disguised", [
    "Über\u200bweisung bestätigen",  # zero-width space inside the word
    "\u202eÜberweisung bestätigen\u202c",  # right-to-left override around it
    "ＵＢＥＲＷＥＩＳＵＮＧ BESTÄTIGEN".replace("ＵＢ", "Ü"),  # full-width letters
    "U\u0308berweisung besta\u0308tigen",  # decomposed umlauts
    "Отправ\u00adить",  # soft hyphen
    "İZİN VER",  # Turkish capital dotted I
])
def test_invisible_and_compatibility_characters_do_not_hide_a_word(disguised: str) -> None:
    decision = GUARD.check_actual(_step(), _button(disguised))
    assert decision.needs_confirmation, decision.reason


def test_normalisation_is_the_same_on_both_sides() -> None:
    assert normalize("ＳＥＮＤ\u200b Now") == "send now"
    assert words("btnSendMoney com.x:id/pay_now") == ("btn", "send", "money", "com", "x", "id", "pay", "now")
    assert words("भेजें") == ("भेजें",)  # vowel signs stay inside the word


def test_neutral_labels_stay_neutral_in_a_notes_app() -> None:
    for label in ("Mark as done", "Open", "Inbox", "Whitfield website redesign", "Update portfolio site"):
        decision = GUARD.check_actual(_step(), _button(label, "com.google.android.apps.tasks"))
        assert not decision.needs_confirmation, decision.reason
