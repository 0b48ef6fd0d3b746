"""Context capture on the simulated phone through U2Device and the real adb server."""

from __future__ import annotations

from typing import Any

import pytest

from starebrain.context import DOCUMENT, PARTNER, PARTNER_APP, ContextTracker, capture_context
from starebrain.device import U2Device
from starebrain.models.context import Confidence
from starebrain.models.selector import Selector
from starebrain.snapshot import ScreenSnapshot

pytestmark = pytest.mark.e2e

MESSAGES = "com.google.android.apps.messaging"
MAIL = "com.google.android.gm"


@pytest.fixture
def dev(sim: Any) -> Any:
    device = U2Device(sim.serial)
    yield device
    device.close()


def _tap_on(dev: U2Device, **selector: Any) -> None:
    snap = ScreenSnapshot.from_xml(dev.observe().hierarchy_xml)
    node = snap.resolve(Selector(**selector))
    assert node is not None, f"{selector} not on screen: {snap.visible_texts}"
    dev.tap(*snap.tap_point(node))


def test_peek_finds_the_latest_thread_and_returns_home(dev: U2Device) -> None:
    ctx = capture_context(dev, messaging_package=MESSAGES)
    assert ctx.entities[PARTNER] == "Dana Whitfield" and ctx.entities[PARTNER_APP] == MESSAGES
    assert ctx.confidence is Confidence.MEDIUM
    assert dev.current_app()[0] == ctx.current_package == "com.android.launcher3"


def test_open_thread_then_attached_invoice_are_both_remembered(dev: U2Device) -> None:
    tracker = ContextTracker(dev.serial)
    dev.open_app(MESSAGES)
    _tap_on(dev, text="Alex Chen")
    tracker.observe(dev.observe())
    dev.open_app(MAIL)
    _tap_on(dev, text="Compose")
    _tap_on(dev, content_desc="Attach file")
    _tap_on(dev, text="Invoice-2026-031.pdf")
    ctx = capture_context(dev, tracker, messaging_package=MESSAGES)  # partner known: no peek
    assert ctx.entities[PARTNER] == "Alex Chen" and ctx.entities[DOCUMENT] == "Invoice-2026-031.pdf"
    assert ctx.confidence is Confidence.HIGH
    assert [s.package for s in ctx.recent_switches] == [MESSAGES, MAIL]
    assert dev.current_app()[0] == MAIL
