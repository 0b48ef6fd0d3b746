"""`capture_context(device)`: the person's context right now, for the planner's first prompt.

1. Observe the current screen and fold it into a `ContextTracker` (current app, entities).
2. Only if asked (`messaging_package`) and no conversation partner is known yet: open that
   messaging app, read who the most recent thread is with (an open thread's title, else the
   first row of the conversation list), and go back to the app the person was in. That peek
   is recorded as MEDIUM confidence and is not counted as an app switch of the person's.
Opening an app is the only thing this ever does to the phone; it never taps.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from starebrain.context import screen_facts
from starebrain.context.tracker import PARTNER, PARTNER_APP, ContextTracker
from starebrain.device.base import Device, Observation
from starebrain.errors import HierarchyInvalid
from starebrain.models.context import AgentContext, Confidence
from starebrain.snapshot import ScreenSnapshot


def capture_context(device: Device, tracker: ContextTracker | None = None, *,
                    messaging_package: str | None = None, settle_s: float = 3.0,
                    sleep: Callable[[float], None] = time.sleep) -> AgentContext:
    """Look at the screen (and, if asked, at the latest conversation); return the context."""
    tracker = tracker or ContextTracker(device.serial)
    context = tracker.observe(device.observe())
    if messaging_package and PARTNER not in context.entities:
        partner = _peek_latest_thread(device, messaging_package, context.current_package, settle_s, sleep)
        if partner:
            tracker.note_entity(PARTNER, partner, Confidence.MEDIUM)
            tracker.note_entity(PARTNER_APP, messaging_package, Confidence.MEDIUM)
        context = tracker.context
    return context


def _peek_latest_thread(device: Device, package: str, back_to: str, settle_s: float,
                        sleep: Callable[[float], None]) -> str | None:
    device.open_app(package)
    try:
        obs = _wait_for_package(device, package, settle_s, sleep)
        snap = _snapshot(obs)
        if snap is None or obs.package != package:
            return None
        return (screen_facts.conversation_partner(snap, package)
                or screen_facts.most_recent_thread(snap, package))
    finally:
        if back_to and back_to != package:
            device.open_app(back_to)


def _wait_for_package(device: Device, package: str, settle_s: float,
                      sleep: Callable[[float], None]) -> Observation:
    """Observe until `package` is in front (apps take a moment to launch) or `settle_s` passes."""
    deadline = time.monotonic() + settle_s
    obs = device.observe()
    while obs.package != package and time.monotonic() < deadline:
        sleep(0.25)
        obs = device.observe()
    return obs


def _snapshot(obs: Observation) -> ScreenSnapshot | None:
    try:
        return ScreenSnapshot.from_xml(obs.hierarchy_xml)
    except HierarchyInvalid:
        return None
