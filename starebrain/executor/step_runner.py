"""One execution of one step: observe → clear obstructions → resolve → act → verify (docs/architecture.md)."""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from starebrain.device.base import Device, Observation
from starebrain.errors import BadInput, DeviceError, LlmError
from starebrain.events import EventBus, Grounded, ObstructionHandled
from starebrain.executor.artifacts import ArtifactWriter, SavedObservation, vision_jpeg
from starebrain.executor.crash_points import crash_point
from starebrain.executor.secrets import SecretStore
from starebrain.guard.act_gate import ActGate, ActVerdict
from starebrain.guard.concrete_action import ConcreteAction
from starebrain.models import (
    AgentStep,
    ClearState,
    LlmCall,
    OpenApp,
    OpenLink,
    Selector,
    StopApp,
    TypeText,
    WaitFor,
    action_selector,
    point_selector,
)
from starebrain.obstruction import Obstruction, ScreenClass, TapClearance, detect
from starebrain.profiles import PermissionPolicy
from starebrain.snapshot import Node, ScreenSnapshot
from starebrain.snapshot.opaque import unusable_reason

if TYPE_CHECKING:
    from starebrain.llm.base import Planner
    from starebrain.profiles import DeviceProfile

NEEDS_TARGET = ("tap", "long_press", "scroll_to")
# What may be cleared while waiting for a step's effect: never the keyboard (the next step may type)
# and never by waiting (the poll itself waits).
AFTER_ACTION = (ScreenClass.OVERLAY, ScreenClass.PERMISSION, ScreenClass.SYSTEM_DIALOG)


@dataclass
class RunnerSettings:
    verify_timeout_s: float = 8.0
    poll_s: float = 0.15
    max_clearances: int = 6
    screenshots: bool = True
    # A heads-up notification over the tap point goes away by itself: look again after these waits.
    cover_waits_s: tuple[float, ...] = (0.5, 1.0, 1.5, 2.0, 2.0, 3.0)


@dataclass
class StepReport:
    """What one execution of a step came to."""

    ok: bool = False
    message: str = ""
    acted: bool = False  # an action was sent: its effect may exist even if we fail later
    blocked: bool = False  # something we must not (or could not) clear is in the way: a person's call
    device_error: DeviceError | None = None
    obstructions: list[str] = field(default_factory=list)
    phases_ms: dict[str, float] = field(default_factory=dict)
    saved: SavedObservation | None = None
    grounded: Selector | None = None
    llm_calls: list[LlmCall] = field(default_factory=list)
    screen: ScreenSnapshot | None = None
    needs_person: str = ""  # the act-time guard wants the person to approve `concrete` first
    concrete: ConcreteAction | None = None


@dataclass
class _Ctx:
    task_id: str
    step: AgentStep
    attempt: int
    report: StepReport
    sleep: Callable[[float], None]
    node: Node | None = None  # the element the action will go to, once resolved
    acting: AgentStep | None = None  # the step as it acts, when vision grounding turned its target into a point
    pixels_before: str = ""  # digest of the screenshot, when the screen has no usable hierarchy


class StepRunner:
    """Runs steps on a device; knows nothing of the database, terminals or HTTP."""

    def __init__(self, device: Device, profile: DeviceProfile, events: EventBus, *, artifacts: ArtifactWriter,
                 secrets: SecretStore | None = None, planner: Planner | None = None,
                 settings: RunnerSettings | None = None, sleep: Callable[[float], None] = time.sleep) -> None:
        self.device = device
        self.profile = profile
        self.events = events
        self.artifacts = artifacts
        self.secrets = secrets or SecretStore()
        self.planner = planner
        self.settings = settings or RunnerSettings()
        self.sleep = sleep
        self.observers: list[Callable[[Observation, ScreenSnapshot], None]] = []  # e.g. the context tracker
        self.act_gate: ActGate | None = None  # set per step by the executor, with the step's approval

    def run(self, task_id: str, step: AgentStep, attempt: int) -> StepReport:
        """Execute `step` once; device failures are returned in the report, never swallowed."""
        ctx = _Ctx(task_id, step, attempt, StepReport(), self.sleep)
        try:
            self._run(ctx)
        except DeviceError as exc:
            ctx.report.ok = False
            ctx.report.device_error = exc
            ctx.report.message = str(exc)
        except BadInput as exc:  # e.g. a secret that is not set: the step fails, the attempt is closed
            ctx.report.ok = False
            ctx.report.message = str(exc)
        return ctx.report

    def look(self, *, screenshot: bool = False) -> tuple[Observation, ScreenSnapshot]:
        """One observation, parsed."""
        obs = self.device.observe(screenshot=screenshot)
        snap = ScreenSnapshot.from_xml(obs.hierarchy_xml)
        for observer in self.observers:
            observer(obs, snap)
        return obs, snap

    # -- the phases -------------------------------------------------------------------------

    def _run(self, ctx: _Ctx) -> None:
        step, report = ctx.step, ctx.report
        target = action_selector(step.action)
        waits = list(self.settings.cover_waits_s)
        while True:
            with _Phase(report, "observe"):
                obs, snap, blocked = self._observe_clear(ctx, target)
                report.saved = self.artifacts.save(ctx.task_id, step.index, ctx.attempt, obs)
            if blocked:
                report.screen, report.message, report.blocked = snap, blocked, True
                return
            with _Phase(report, "decide"):
                point = self._decide(ctx, obs, snap, target)
                if point is False:
                    return
                verdict = self._judge(ctx, obs, snap, point)
            if verdict.cover is None or not self._wait_for_cover(ctx, verdict, snap, waits):
                break
        if not verdict.go:
            self._stop_for(ctx, verdict, snap)
            return
        before = snap.hash
        with _Phase(report, "act"):
            self._act(ctx, point)
        crash_point("after_act", step.index)
        with _Phase(report, "verify"):
            self._verify(ctx, before)

    def _judge(self, ctx: _Ctx, obs: Observation, snap: ScreenSnapshot, point: tuple[int, int] | None) -> ActVerdict:
        """The act-time guard on what will really be touched (looking and scrolling touch nothing)."""
        kind = ctx.step.action.kind
        if kind in ("wait_for", "scroll_to"):
            return ActVerdict(ConcreteAction(kind=kind, app=snap.foreground_package))
        node = ctx.node
        if node is None and kind in ("type", "press"):
            node = next((n for n in snap.nodes if n.focused and n.visible), None)
        verdict = self.gate().judge(ctx.step, snap, node, point, acting=ctx.acting)
        ctx.report.concrete = verdict.concrete
        return verdict

    def gate(self) -> ActGate:
        """The executor's gate for this step; alone (no executor), a gate with the packaged profiles."""
        if self.act_gate is None:
            from starebrain.guard import ConfirmationGuard
            from starebrain.profiles import load_profiles

            self.act_gate = ActGate(ConfirmationGuard(load_profiles()))
        return self.act_gate

    def preview(self, step: AgentStep) -> ConcreteAction | None:
        """The concrete action `step` would be on the screen now (no clearing, no grounding), if it resolves.

        None when it does not resolve or the phone cannot be read: then the question is about the planned
        step, and the act-time guard asks again with the concrete action before anything is sent.
        """
        try:
            _, snap = self.look()
        except DeviceError:  # HierarchyInvalid included
            return None
        target = action_selector(step.action)
        if target is not None and target.point is not None:
            obs, snap = self.look()
            point = target.point_at(*_screen_size(obs, snap))
            return self.gate().concrete(step, snap, _reached(snap, point), point)
        node = snap.resolve(target) if target is not None else None
        if target is not None and node is None:
            return None
        return self.gate().concrete(step, snap, node)

    def _wait_for_cover(self, ctx: _Ctx, verdict: ActVerdict, snap: ScreenSnapshot, waits: list[float]) -> bool:
        """Wait once for a heads-up notification over the tap point to go; False when it is not one to wait for."""
        cover = verdict.cover
        if cover is None or not cover.transient or not waits:
            return False
        line = f"covered: {cover.describe()} over the tap point (waited)"
        if line not in ctx.report.obstructions:
            ctx.report.obstructions.append(line)
        ctx.sleep(waits.pop(0))
        return True

    def _stop_for(self, ctx: _Ctx, verdict: ActVerdict, snap: ScreenSnapshot) -> None:
        """Nothing is sent: the tap point is covered, or the person must approve the concrete action."""
        report = ctx.report
        report.screen, report.blocked = snap, True
        if verdict.cover is not None:
            report.message = (f"not tapped: {verdict.cover.describe()} is over {verdict.concrete.element} "
                              f"at the tap point")
            return
        report.needs_person = verdict.ask
        report.message = f"needs the person: {verdict.ask}"

    def _observe_clear(self, ctx: _Ctx, target: Selector | None) -> tuple[Observation, ScreenSnapshot, str]:
        """Look until nothing is in the way of `target`, clearing what may be cleared (bounded).

        Returns the last look and, when something is in the way that we must not or could not
        clear, why (then nothing may be tapped: the target could sit behind a dangerous dialog).
        """
        waits, seen = 0, set[str]()
        while True:
            obs, snap = self.look(screenshot=self.settings.screenshots)
            # A point names no element: nothing on screen is "the step's own dialog" to be left alone.
            found = detect(snap, self.profile, target=target if target is None or target.point is None else None)
            clearance = found.clearance
            if found.kind == ScreenClass.READY:
                return obs, snap, ""
            if clearance is None:
                return obs, snap, f"blocked, needs a person: {found.describe()}"
            if clearance.action == "wait":
                if waits >= len(clearance.delays_s):
                    return obs, snap, f"still in the way after waiting: {found.describe()}"
                self._note(ctx, found, "waited")
                ctx.sleep(clearance.delays_s[waits])
                waits += 1
                continue
            other = self._other_app_permission(ctx, found, snap)
            if other:
                return obs, snap, f"blocked, needs a person: {found.describe()} ({other})"
            if found.describe() in seen or len(seen) >= self.settings.max_clearances:
                return obs, snap, f"could not clear: {found.describe()}"  # e.g. an ANR that returns
            seen.add(found.describe())
            self._clear(ctx, found)

    def _other_app_permission(self, ctx: _Ctx, found: Obstruction, snap: ScreenSnapshot) -> str:
        """Why a permission must not be granted here: it is asked by an app the step does not work in."""
        rules = getattr(self.profile, "permissions", None)
        if (found.kind != ScreenClass.PERMISSION or rules is None or not rules.other_app_needs_person
                or self.profile.permission_policy == PermissionPolicy.DENY):
            return ""
        asking, working = snap.foreground_package, ctx.step.target_package
        if working and asking and asking != working:
            return f"{asking} asks, but the step works in {working}"
        return ""

    def _clear(self, ctx: _Ctx, found: Obstruction) -> None:
        clearance = found.clearance
        assert clearance is not None  # called only for an obstruction with a deterministic clearance
        if isinstance(clearance, TapClearance):
            self.device.tap(*clearance.point)
        else:
            self.device.press("back")
        self._note(ctx, found, clearance.describe())
        ctx.sleep(self.settings.poll_s)

    def _note(self, ctx: _Ctx, found: Obstruction, what: str) -> None:
        line = f"{found.kind.value}: {found.detail} ({what})"
        if line not in ctx.report.obstructions:
            ctx.report.obstructions.append(line)
            self.events.emit(ObstructionHandled(ctx.task_id, step_id=ctx.step.id, kind=found.kind.value,
                                                detail=found.detail, action=what))

    def _decide(self, ctx: _Ctx, obs: Observation, snap: ScreenSnapshot,
                target: Selector | None) -> tuple[int, int] | None | Literal[False]:
        """The tap point for the action, None if it needs none, or False when the step failed."""
        kind = ctx.step.action.kind
        if target is None or kind == "wait_for":
            return None
        if target.point is not None:
            return self._at_point(ctx, obs, snap, target)
        node = snap.resolve(target)
        if kind == "scroll_to" and (node is not None or self._scroll_until(ctx, target)):
            return None  # the element is on screen now; scrolling was the whole action
        if node is None and self.planner is not None and kind in NEEDS_TARGET + ("type",):
            opaque = unusable_reason(snap)
            if opaque and kind in ("tap", "long_press"):
                return self._locate(ctx, obs, snap, target, opaque)
            node = self._ground(ctx, snap)
        if node is None:
            ctx.report.screen = snap
            ctx.report.message = "; ".join(m for m in (_not_found(target, snap), ctx.report.message) if m)
            return False
        ctx.node = node
        return snap.tap_point(node)

    def _at_point(self, ctx: _Ctx, obs: Observation, snap: ScreenSnapshot,
                  target: Selector) -> tuple[int, int] | Literal[False]:
        """The pixel a point selector names, with the element a tap there reaches (judged by the act gate)."""
        width, height = _screen_size(obs, snap)
        point = target.point_at(width, height)
        assert point is not None  # a point selector
        if not (0 <= point[0] < width and 0 <= point[1] < height):
            ctx.report.screen = snap
            ctx.report.message = f"{target.describe()} is off the {width}x{height} screen"
            return False
        ctx.node = _reached(snap, point)
        if ctx.node is None:
            ctx.report.screen = snap
            ctx.report.message = f"nothing is drawn at {target.describe()} ({point[0]},{point[1]}) on the screen"
            return False
        return point

    def _scroll_until(self, ctx: _Ctx, target: Selector) -> bool:
        """Swipe the list up until `target` shows (bounded by the action's max_swipes)."""
        ctx.report.acted = True  # swipes are actions, though harmless ones
        for _ in range(getattr(ctx.step.action, "max_swipes", 10)):
            self.device.swipe("up")
            _, snap = self.look()
            if snap.resolve(target) is not None:
                return True
        return False

    def _ground(self, ctx: _Ctx, snap: ScreenSnapshot) -> Node | None:
        assert self.planner is not None  # called only when there is one
        summary = snap.summary(max_items=25, relevant_to=ctx.step.instruction)
        try:
            result = self.planner.ground(ctx.step, summary)
        except LlmError as exc:  # grounding is a best effort: the step fails with the reason
            ctx.report.llm_calls.extend(getattr(exc, "llm_calls", []))
            ctx.report.message = f"grounding failed: {exc}"
            return None
        ctx.report.llm_calls.extend(result.calls)
        if result.selector is None:
            return None
        if result.selector.point is not None:  # grounding must name an element, not a place
            ctx.report.message = f"grounding answered {result.selector.describe()}, not an element"
            return None
        node = snap.resolve(result.selector)
        if node is not None:
            ctx.report.grounded = result.selector
            self.events.emit(Grounded(ctx.task_id, step_id=ctx.step.id, selector=result.selector.describe()))
        return node

    def _locate(self, ctx: _Ctx, obs: Observation, snap: ScreenSnapshot, target: Selector,
                opaque: str) -> tuple[int, int] | Literal[False]:
        """Vision grounding: the screen has no usable hierarchy, so a vision model finds the target on the
        screenshot; its point becomes a point selector, judged by the act gate like any point tap."""
        report, locate = ctx.report, getattr(self.planner, "locate", None)
        report.screen = snap
        if locate is None:
            report.message = f"{_not_found(target, snap)} ({opaque}) and the planner cannot read screenshots"
            return False
        if obs.screenshot is None:
            obs, snap = self.look(screenshot=True)
        if obs.screenshot is None:
            report.message = f"{_not_found(target, snap)} ({opaque}) and the phone gave no screenshot"
            return False
        width, height = _screen_size(obs, snap)
        facts = f"{opaque}; app {snap.foreground_package or 'unknown'}; the screenshot shows the whole screen"
        try:
            result = locate(ctx.step, vision_jpeg(obs, self.artifacts.scrubber), facts)
        except LlmError as exc:
            report.llm_calls.extend(getattr(exc, "llm_calls", []))
            report.message = f"{_not_found(target, snap)} ({opaque}); vision grounding failed: {exc}"
            return False
        report.llm_calls.extend(result.calls)
        if result.point is None:
            report.message = f"{_not_found(target, snap)} ({opaque}); not on the screenshot either: {result.reason}"
            return False
        x = min(int(result.point[0] * width / 100), width - 1)
        y = min(int(result.point[1] * height / 100), height - 1)
        selector = point_selector(x, y)
        ctx.acting = ctx.step.model_copy(update={"action": ctx.step.action.model_copy(update={"selector": selector})})
        ctx.node = _reached(snap, (x, y))
        if ctx.node is None:
            report.message = f"the screenshot shows {target.describe()} at ({x},{y}), where nothing is drawn"
            return False
        ctx.pixels_before = _digest(obs.screenshot)
        report.grounded = selector
        self.events.emit(Grounded(ctx.task_id, step_id=ctx.step.id, selector=selector.describe()))
        return x, y

    def _act(self, ctx: _Ctx, point: tuple[int, int] | None) -> None:
        action = ctx.step.action
        ctx.report.acted = action.kind not in ("scroll_to", "wait_for")
        match action.kind:
            case "open_app":
                self.device.open_app(action.package, fresh=action.fresh)
            case "open_link":
                self.device.open_link(action.url, action.package)
            case "stop_app":
                self.device.stop_app(action.package)
            case "clear_state":  # the device raises BadInput unless pm answered Success
                self.device.clear_state(action.package)
            case "tap":
                assert point is not None  # _decide gives one to every action with a target
                self.device.tap(*point)
            case "long_press":
                assert point is not None
                self.device.long_press(*point)
            case "type":
                self._type(action, point)
            case "press":
                self.device.press(action.key)
            case "swipe":
                self.device.swipe(action.direction)

    def _type(self, action: TypeText, point: tuple[int, int] | None) -> None:
        name = action.secret_name
        text = self.secrets.resolve(name) if name else action.text  # before touching anything
        if point is not None:
            self.device.tap(*point)  # focus the field first
        self.device.type_text(text)

    def _verify(self, ctx: _Ctx, before: str) -> None:
        """Poll until the step shows its effect; a pop-up the action brought up is cleared too."""
        step, report = ctx.step, ctx.report
        check = _verifier(step, before)
        if check is None:
            report.ok = True
            return
        deadline = time.monotonic() + self._verify_budget(step)
        cleared: set[str] = set()
        previous = ""
        pixels = ctx.pixels_before if step.expect is None else ""  # a canvas: its dump stays, its pixels change
        while True:
            obs, snap = self.look(screenshot=bool(pixels))
            report.screen = snap
            verdict = _pixels_changed(obs, pixels) if pixels else check(snap)
            if verdict is None:
                report.ok = True
                return
            if time.monotonic() >= deadline:
                report.message = verdict
                return
            if snap.hash == previous:  # only a settled screen: a dump mid-transition may be stale
                self._clear_after_action(ctx, snap, cleared)
            previous = snap.hash
            ctx.sleep(self.settings.poll_s)

    def _clear_after_action(self, ctx: _Ctx, snap: ScreenSnapshot, cleared: set[str]) -> None:
        """Clear (once each) an overlay, permission or system dialog in the way of the step's expect."""
        found = detect(snap, self.profile, target=ctx.step.expect)
        if found.kind not in AFTER_ACTION or found.clearance is None or found.describe() in cleared:
            return
        if self._other_app_permission(ctx, found, snap):
            return  # left for the person: the step fails with the request on screen
        cleared.add(found.describe())
        self._clear(ctx, found)

    def _verify_budget(self, step: AgentStep) -> float:
        timeout = getattr(step.action, "timeout_s", None)
        return float(timeout) if timeout is not None else self.settings.verify_timeout_s


def _verifier(step: AgentStep, before: str) -> Callable[[ScreenSnapshot], str | None] | None:
    """A check returning None when the step took effect, else the reason it did not (yet)."""
    if step.expect is not None:
        expect = step.expect
        return lambda s: None if s.resolve(expect) is not None else f"expected {expect.describe()} did not appear"
    kind = step.action.kind
    if isinstance(step.action, WaitFor):
        sel = step.action.selector
        return lambda s: None if s.resolve(sel) is not None else f"{sel.describe()} did not appear in time"
    if isinstance(step.action, OpenApp):
        pkg = step.action.package
        return lambda s: None if pkg in s.packages else f"{pkg} did not come to the foreground"
    if isinstance(step.action, OpenLink):
        return _link_opened(step.action, before)
    if isinstance(step.action, StopApp | ClearState):
        gone = step.action.package
        return lambda s: None if s.foreground_package != gone else f"{gone} is still in front"
    if isinstance(step.action, TypeText) and step.action.secret_name is None:
        return _typed_text_shows(step.action, before)
    if kind in ("tap", "long_press", "type"):
        return lambda s: None if s.hash != before else "the screen did not change"
    return None


def _link_opened(action: OpenLink, before: str) -> Callable[[ScreenSnapshot], str | None]:
    """A link took effect when its app (if named) is in front, else when the screen changed."""
    if action.package:
        pkg = action.package
        return lambda s: None if s.foreground_package == pkg else f"{pkg} did not open the link"
    return lambda s: None if s.hash != before else "no app came up for the link"


def _digest(data: bytes | None) -> str:
    return hashlib.sha256(data or b"").hexdigest()


def _pixels_changed(obs: Observation, before: str) -> str | None:
    """A tap on a canvas took effect when the screenshot changed (its dump stays the same)."""
    if obs.screenshot is None:
        return "the phone gave no screenshot to compare"
    return None if _digest(obs.screenshot) != before else "the screenshot did not change"


def _screen_size(obs: Observation, snap: ScreenSnapshot) -> tuple[int, int]:
    """The display size in pixels: as the phone reports it, else as the dump shows it."""
    if obs.width > 0 and obs.height > 0:
        return obs.width, obs.height
    return snap.display.right, snap.display.bottom


def _reached(snap: ScreenSnapshot, point: tuple[int, int] | None) -> Node | None:
    """The element a tap at `point` reaches (the top-most touchable one), else what is drawn on top there."""
    if point is None:
        return None
    return snap.touch_target_at(*point) or snap.node_on_top_at(*point)


def _typed_text_shows(action: TypeText, before: str) -> Callable[[ScreenSnapshot], str | None]:
    """Typing took effect when the field holds the text (so re-typing after a crash verifies too)."""
    def check(s: ScreenSnapshot) -> str | None:
        fields = s.resolve_all(action.selector) if action.selector else [n for n in s.nodes if n.focused]
        if any(action.text in n.text for n in fields if not n.password):
            return None
        return None if s.hash != before else "the typed text does not show and the screen did not change"
    return check


def _not_found(target: Selector, snap: ScreenSnapshot) -> str:
    return f"no element matches {target.describe()} on {snap.foreground_package or 'the screen'}"


class _Phase:
    """Times one phase into `report.phases_ms`."""

    def __init__(self, report: StepReport, name: str) -> None:
        self.report, self.name = report, name

    def __enter__(self) -> None:
        self.t0 = time.perf_counter()

    def __exit__(self, *exc: object) -> None:
        elapsed = (time.perf_counter() - self.t0) * 1000
        self.report.phases_ms[self.name] = self.report.phases_ms.get(self.name, 0.0) + elapsed
