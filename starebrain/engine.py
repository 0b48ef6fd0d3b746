"""Builds the engine for one phone, once, from constructors: lease, device, profiles, guard, runner, executor.

Every entry point (CLI, TUI, daemon, regression runner, benchmarks, tests) builds through here, so a
collaborator added later reaches all of them; nothing is swapped into an object after it is built.
The seams for tests and benchmarks are arguments: `connect` (a fake or timed device), `runner_settings`,
`sleep`, `events`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from starebrain.agent.guarded_grounding import GuardedGrounding
from starebrain.agent.replanner import Replanner
from starebrain.config import Settings
from starebrain.context.tracker import ContextTracker
from starebrain.device.base import Device, Observation
from starebrain.events import EventBus
from starebrain.executor.artifacts import ArtifactWriter
from starebrain.executor.replan_policy import ReplanPolicy
from starebrain.executor.secrets import SecretStore
from starebrain.executor.step_runner import RunnerSettings, StepRunner
from starebrain.executor.task_executor import TaskExecutor
from starebrain.guard import ConfirmationGuard
from starebrain.llm.base import Planner
from starebrain.models import AgentTask
from starebrain.profiles import Profiles, load_profiles
from starebrain.redaction import Scrubber
from starebrain.session import Session, StoreEventSink, hold_lease
from starebrain.snapshot import ScreenSnapshot
from starebrain.store.lease_keeper import LeaseKeeper
from starebrain.store.protocol import SessionStore, TaskStore

# (serial, the lease's fencing check to run right before every action) -> a connected device
Connect = Callable[[str, Callable[[], None]], Device]
# Pause between two looks while a step's effect is awaited. A dump is itself a wait (a real phone takes
# ~250 ms for one), so a longer pause only adds latency to every step whose screen is still changing.
VERIFY_POLL_S = 0.05


@dataclass(frozen=True)
class Parts:
    """What the executor is made of, for one connected device."""

    device: Device
    profiles: Profiles
    store: TaskStore
    events: EventBus
    artifacts: ArtifactWriter
    tracker: ContextTracker | None = None
    planner: Planner | None = None
    policy: ReplanPolicy | None = None  # default: ReplanPolicy()
    runner_settings: RunnerSettings | None = None
    secrets: SecretStore | None = None
    sleep: Callable[[float], None] = time.sleep


def build_executor(parts: Parts) -> TaskExecutor:
    """The runner and executor over a connected device; with a planner, guarded grounding and replanning too."""
    guard = ConfirmationGuard(parts.profiles)
    planner = parts.planner
    runner = StepRunner(parts.device, parts.profiles.device_profile(parts.device.brand()), parts.events,
                        artifacts=parts.artifacts, secrets=parts.secrets,
                        settings=parts.runner_settings or RunnerSettings(),
                        planner=GuardedGrounding(planner, guard) if planner is not None else None, sleep=parts.sleep)
    if parts.tracker is not None:
        runner.observers.append(_folder(parts.tracker))  # subscribes, like a sink on the event bus
    # The replanner asks the phone for its packages only when a replan happens (most resumes never do).
    replanner = Replanner(planner, parts.device.installed_packages, guard=guard) if planner is not None else None
    return TaskExecutor(runner, parts.store, guard, parts.events, planner=planner,
                        policy=parts.policy, replanner=replanner)


def build_engine(settings: Settings, store: SessionStore, serial: str, *, planner: Planner | None = None,
                 events: EventBus | None = None, connect: Connect | None = None,
                 runner_settings: RunnerSettings | None = None, secrets: SecretStore | None = None,
                 scrubber: Scrubber | None = None, keeper: LeaseKeeper | None = None,
                 sleep: Callable[[float], None] = time.sleep) -> Session:
    """Lease the phone (unless `keeper` already holds it), connect to it and build its executor.

    Every write of the executor is fenced by the lease, and every action the device sends is checked
    against it just before it leaves (the send gate). Every observation passes through the scrubber
    (a `ScrubbedDevice`), so no secret value reaches a summary, prompt, event, saved hierarchy or the
    context. Raises DeviceBusy/DeviceNotFound.
    """
    from starebrain.device.scrubbed import ScrubbedDevice

    bus = events or EventBus()
    secrets = secrets or SecretStore()
    scrubber = scrubber or Scrubber.from_store(secrets)
    sink = StoreEventSink(store, background=True, scrubber=scrubber)
    bus.subscribe(sink)
    session = Session(settings=settings, store=store, serial=serial, events=bus, sink=sink,
                      owns_keeper=keeper is None)
    try:
        session.keeper = held = keeper or hold_lease(settings, store, serial)
        session.device = device = ScrubbedDevice((connect or _u2_connect(settings))(serial, held.check), scrubber)
        session.profiles = load_profiles(settings.profiles_dir)
        session.tracker = ContextTracker(serial, initial=store.load_context(serial))
        session.executor = build_executor(Parts(
            device=device, profiles=session.profiles, store=store.fenced(held.lease), events=bus,
            tracker=session.tracker, artifacts=ArtifactWriter(settings.artifacts_dir, scrubber), planner=planner,
            secrets=secrets, policy=ReplanPolicy(max_replans=settings.replan_cap),
            runner_settings=runner_settings or RunnerSettings(poll_s=VERIFY_POLL_S), sleep=sleep))
    except BaseException:
        session.close()
        raise
    return session


def build_offline_executor(store: SessionStore, events: EventBus | None = None,
                           scrubber: Scrubber | None = None) -> TaskExecutor:
    """An executor for decisions that touch no phone (deny, cancel): no runner, no guard; events to the store."""
    bus = events or EventBus()
    bus.subscribe(StoreEventSink(store, scrubber=scrubber))
    return TaskExecutor(runner=None, store=store, guard=None, events=bus)  # type: ignore[arg-type]


def planner_for(settings: Settings, task: AgentTask | None, serial: str,
                secrets: Scrubber | None = None) -> Planner | None:
    """A do-task moved on its own phone can still ground and replan: a `LazyPlanner` (openai imported on use)."""
    if task is None or task.source != "do" or task.device_serial != serial:
        return None
    from starebrain.agent.lazy_planner import LazyPlanner

    return LazyPlanner(settings, secrets=secrets)


def _u2_connect(settings: Settings) -> Connect:
    def connect(serial: str, permit: Callable[[], None]) -> Device:
        from starebrain.device.u2_device import U2Device

        return U2Device.connect(serial, timeout_s=settings.device_timeout_s, send_permit=permit)

    return connect


def _folder(tracker: ContextTracker) -> Callable[[Observation, ScreenSnapshot], None]:
    """Feeds every observation to the person's context (restored LOW, saved when the session closes)."""
    def fold(obs: Observation, snap: ScreenSnapshot) -> None:
        tracker.fold(obs.package, obs.activity, snap)

    return fold
