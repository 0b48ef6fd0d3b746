"""`ContextTracker`: fold observations into an `AgentContext`.

Feed it every observation the engine makes; it keeps the foreground package/activity, a bounded
list of app switches, and the entities the person just dealt with:
- `last_conversation_partner` (+ `last_conversation_app`): from an open conversation (HIGH), or
  from the top of a messaging app's conversation list (MEDIUM, only if nothing better is known);
- `last_document`: a file name a viewer/editor shows as its title (HIGH).
The context's `confidence` is that of its least certain entity: HIGH when everything was just
seen, MEDIUM when something was inferred, LOW when carried over from a restored (persisted)
context and not seen again since.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from starebrain.context import screen_facts
from starebrain.device.base import Observation
from starebrain.errors import HierarchyInvalid
from starebrain.models.context import AgentContext, AppSwitch, Confidence
from starebrain.models.task import utcnow
from starebrain.snapshot import ScreenSnapshot
from starebrain.snapshot.windows import SYSTEM_UI_PACKAGES

PARTNER = "last_conversation_partner"
PARTNER_APP = "last_conversation_app"
DOCUMENT = "last_document"
_RANK = {Confidence.LOW: 0, Confidence.MEDIUM: 1, Confidence.HIGH: 2}


class ContextTracker:
    """Keeps the `AgentContext` of one device up to date from its observations."""

    def __init__(self, serial: str = "", *, max_switches: int = 10,
                 initial: AgentContext | None = None, clock: Callable[[], datetime] = utcnow) -> None:
        self.max_switches = max_switches
        self._clock = clock
        self._ctx = initial.model_copy(deep=True) if initial else AgentContext(device_serial=serial)
        if serial:
            self._ctx.device_serial = serial
        # A restored context is as good as its confidence says; its entities start from that.
        self._entity_conf = {k: self._ctx.confidence for k in self._ctx.entities}

    @property
    def context(self) -> AgentContext:
        """A copy of the current context."""
        return self._ctx.model_copy(deep=True)

    def observe(self, obs: Observation) -> AgentContext:
        """Fold in one device observation (hierarchy + focused package/activity)."""
        try:
            snap: ScreenSnapshot | None = ScreenSnapshot.from_xml(obs.hierarchy_xml)
        except HierarchyInvalid:
            snap = None
        return self.update(obs.package, obs.activity, snap)

    def update(self, package: str, activity: str, snap: ScreenSnapshot | None) -> AgentContext:
        """Fold in what is on screen now; returns the updated context."""
        self.fold(package, activity, snap)
        return self.context

    def fold(self, package: str, activity: str, snap: ScreenSnapshot | None) -> None:
        """`update` without handing out a copy: the engine calls this on every observation."""
        now = self._clock()
        package = package or (snap.foreground_package if snap else "")
        self._note_app(package, activity, now)
        if snap is not None:
            self._note_entities(snap, package)
        self._ctx.captured_at = now
        self._ctx.confidence = self._overall_confidence()

    def note_entity(self, name: str, value: str, confidence: Confidence) -> None:
        """Record an entity learnt some other way (e.g. by `capture_context` looking around)."""
        self._ctx.entities[name] = value
        self._entity_conf[name] = confidence
        self._ctx.confidence = self._overall_confidence()

    def entity_confidence(self, name: str) -> Confidence | None:
        """How sure we are of one entity, or None if unknown."""
        return self._entity_conf.get(name)

    def _note_app(self, package: str, activity: str, now: datetime) -> None:
        if not package or package in SYSTEM_UI_PACKAGES:
            return  # a pulled-down shade or a transition is not a switch of app
        if package != self._ctx.current_package:
            self._ctx.recent_switches.append(AppSwitch(package=package, activity=activity, at=now))
            del self._ctx.recent_switches[:-self.max_switches]
        self._ctx.current_package = package
        self._ctx.current_activity = activity

    def _note_entities(self, snap: ScreenSnapshot, package: str) -> None:
        partner = screen_facts.conversation_partner(snap, package)
        if partner:
            self.note_entity(PARTNER, partner, Confidence.HIGH)
            self.note_entity(PARTNER_APP, package, Confidence.HIGH)
        else:
            self._maybe_recent_thread(snap, package)
        document = screen_facts.opened_document(snap, package)
        if document:
            self.note_entity(DOCUMENT, document, Confidence.HIGH)

    def _maybe_recent_thread(self, snap: ScreenSnapshot, package: str) -> None:
        known = self._entity_conf.get(PARTNER)
        if known is Confidence.HIGH:
            return  # an inference from a list never overrides a thread we saw open
        thread = screen_facts.most_recent_thread(snap, package)
        if thread:
            self.note_entity(PARTNER, thread, Confidence.MEDIUM)
            self.note_entity(PARTNER_APP, package, Confidence.MEDIUM)

    def _overall_confidence(self) -> Confidence:
        if not self._entity_conf:
            return Confidence.HIGH
        return min(self._entity_conf.values(), key=_RANK.__getitem__)
