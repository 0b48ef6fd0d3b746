"""ContextTracker over a FakeDevice: what the person just did becomes context."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from starebrain.context import DOCUMENT, PARTNER, PARTNER_APP, ContextTracker
from starebrain.models.context import AgentContext, Confidence
from starebrain.models.task import utcnow
from tests.context import screens
from tests.fakes import FakeDevice


def _walk(dev: FakeDevice, tracker: ContextTracker, *steps: Callable[[FakeDevice], object]) -> AgentContext:
    """Do each step on the phone, then show the tracker what is on screen."""
    for step in steps:
        step(dev)
        tracker.observe(dev.observe())
    return tracker.context


def test_open_thread_sets_partner_with_high_confidence() -> None:
    dev, tracker = screens.phone(), ContextTracker("fake-0")
    dev.go("chats")
    ctx = _walk(dev, tracker, lambda d: None, lambda d: d.tap(500, 280))
    assert ctx.entities[PARTNER] == "Ana Lima" and ctx.entities[PARTNER_APP] == screens.CHAT
    assert ctx.confidence is Confidence.HIGH
    assert (ctx.current_package, ctx.current_activity) == (screens.CHAT, ".Thread")


def test_list_inference_never_overrides_a_thread_seen_open() -> None:
    dev, tracker = screens.phone(), ContextTracker()
    dev.go("chats")
    # Bruno's thread is opened, then back to the list whose top row is Ana's.
    ctx = _walk(dev, tracker, lambda d: d.tap(500, 480), lambda d: d.press("back"))
    assert ctx.entities[PARTNER] == "Bruno" and ctx.confidence is Confidence.HIGH


def test_list_alone_gives_a_medium_guess() -> None:
    dev, tracker = screens.phone(), ContextTracker()
    dev.go("chats")
    ctx = _walk(dev, tracker, lambda d: None)
    assert ctx.entities[PARTNER] == "Ana Lima" and ctx.confidence is Confidence.MEDIUM


def test_opened_document_and_app_switches_are_recorded_in_order() -> None:
    dev, tracker = screens.phone(), ContextTracker()
    ctx = _walk(dev, tracker, lambda d: None, lambda d: d.tap(500, 300),
                lambda d: d.open_app(screens.CHAT), lambda d: d.tap(500, 280))
    assert ctx.entities[DOCUMENT] == "invoice_0042.pdf"
    assert ctx.entities[PARTNER] == "Ana Lima"
    assert [s.package for s in ctx.recent_switches] == [screens.FILES, screens.CHAT]


def test_switch_list_is_bounded_to_the_most_recent() -> None:
    dev, tracker = screens.phone(), ContextTracker(max_switches=3)
    for _ in range(4):
        for pkg in (screens.FILES, screens.CHAT):
            dev.open_app(pkg)
            tracker.observe(dev.observe())
    switches = tracker.context.recent_switches
    assert [s.package for s in switches] == [screens.CHAT, screens.FILES, screens.CHAT]


def test_restored_context_keeps_entities_at_low_until_seen_again() -> None:
    saved = AgentContext(entities={PARTNER: "Bruno"}, current_package=screens.CHAT,
                         captured_at=utcnow() - timedelta(minutes=10)).for_persistence()
    dev, tracker = screens.phone(), ContextTracker("fake-0", initial=saved)
    ctx = _walk(dev, tracker, lambda d: None)  # the files app: says nothing about chats
    assert ctx.entities[PARTNER] == "Bruno" and ctx.confidence is Confidence.LOW
    assert not ctx.is_stale()  # captured_at moved to now
    dev.go("ana")
    ctx = _walk(dev, tracker, lambda d: None)
    assert ctx.entities[PARTNER] == "Ana Lima" and ctx.confidence is Confidence.HIGH


def test_unparseable_hierarchy_still_tracks_the_app() -> None:
    from starebrain.device.base import Observation

    ctx = ContextTracker().observe(Observation(hierarchy_xml="not xml", package="com.x", activity=".A"))
    assert ctx.current_package == "com.x" and ctx.entities == {}
