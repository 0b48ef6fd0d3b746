"""capture_context: current screen, and an opt-in peek at the latest conversation."""

from __future__ import annotations

from starebrain.context import DOCUMENT, PARTNER, ContextTracker, capture_context
from starebrain.models.context import Confidence
from tests.context import screens


def test_current_screen_only_by_default() -> None:
    dev = screens.phone()
    dev.go("invoice")
    ctx = capture_context(dev)
    assert ctx.entities == {DOCUMENT: "invoice_0042.pdf"} and ctx.current_package == screens.FILES
    assert dev.actions == []  # looking never touches the phone


def test_peeks_at_the_latest_thread_and_comes_back() -> None:
    dev = screens.phone()
    dev.go("invoice")
    ctx = capture_context(dev, messaging_package=screens.CHAT, sleep=lambda s: None)
    assert ctx.entities[PARTNER] == "Ana Lima" and ctx.confidence is Confidence.MEDIUM
    assert [a[0] for a in dev.actions] == ["open_app", "open_app"]  # opened chat, went back; no tap
    assert dev.actions[-1] == ("open_app", screens.FILES)
    assert ctx.current_package == screens.FILES
    assert [s.package for s in ctx.recent_switches] == [screens.FILES]  # our peek is not the person's


def test_no_peek_when_the_partner_is_already_known() -> None:
    dev, tracker = screens.phone(), ContextTracker()
    dev.go("bruno")
    ctx = capture_context(dev, tracker, messaging_package=screens.CHAT)
    assert ctx.entities[PARTNER] == "Bruno" and dev.actions == []
