"""What every task command needs: settings, the store, a device session, with clean closing."""

from __future__ import annotations

from typing import TYPE_CHECKING

from starebrain.errors import BadInput, DeviceNotFound

if TYPE_CHECKING:
    from starebrain.events import EventBus
    from starebrain.executor.task_executor import TaskExecutor
    from starebrain.llm.base import Planner
    from starebrain.models import AgentTask
    from starebrain.session import Session
    from starebrain.store import Store
    from starebrain.store.lease import Lease
    from starebrain.store.lease_keeper import LeaseKeeper


class EngineFactory:
    """Opens the store lazily and hands out device sessions; closes everything on exit."""

    def __init__(self, json_out: bool = False) -> None:
        from starebrain.config import load_settings
        from starebrain.executor.secrets import SecretStore
        from starebrain.log_level import apply_log_level
        from starebrain.redaction import Scrubber

        self.settings = load_settings()
        apply_log_level(self.settings.log_level)
        self.secrets = SecretStore()
        self.scrubber = Scrubber.from_store(self.secrets)  # the one scrubber of this command
        self.json_out = json_out
        self._store: Store | None = None
        self._task: AgentTask | None = None  # the task this command is about: a do-task's sessions get a planner

    @property
    def store(self) -> Store:
        if self._store is None:
            from starebrain.config import private_dir
            from starebrain.store import Store

            if self.settings.db_file is None:  # the data dir is ours: 0700, even if an older version made it
                private_dir(self.settings.data_dir)
            self._store = Store.open(settings=self.settings)
        return self._store

    def __enter__(self) -> EngineFactory:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._store is not None:
            self._store.close()

    def pick_serial(self, requested: str | None) -> str:
        """The named phone, the configured one, or the only one attached."""
        from starebrain.device.attached import list_serials

        wanted = requested or self.settings.serial
        attached = list_serials(timeout_s=self.settings.device_timeout_s)
        if wanted:
            if wanted not in attached:
                shown = ", ".join(attached) or "none"
                raise DeviceNotFound(f"no phone with serial {wanted!r} is attached (attached: {shown})")
            return wanted
        if not attached:
            raise DeviceNotFound("no phone attached (check `starebrain devices`)")
        if len(attached) > 1:
            raise BadInput(f"several phones attached ({', '.join(attached)}); choose one with --device")
        return attached[0]

    def load(self, task_id: str) -> AgentTask:
        task = self._task = self.store.load_task(task_id)
        return task

    def load_or_latest(self, task_id: str | None) -> AgentTask | None:
        self._task = self.store.load_task(task_id) if task_id else self.store.latest_unresolved()
        return self._task

    def session(self, serial: str, *, planner: Planner | None = None,
                keeper: LeaseKeeper | None = None) -> Session:
        """A leased, connected session with the live view subscribed (unless --json).

        `keeper`: the lease the command already took (lease first, then load the task).

        A loaded do-task (resume, approve, retry) gets a planner that is built (and openai imported)
        only if a step actually needs the LLM, so it can still ground and replan.
        """
        from starebrain.engine import build_engine, planner_for

        bus = self._bus()
        chosen = planner if planner is not None else planner_for(self.settings, self._task, serial, self.scrubber)
        return build_engine(self.settings, self.store, serial, planner=chosen, events=bus, keeper=keeper,
                            secrets=self.secrets, scrubber=self.scrubber)

    def offline_executor(self, fence: Lease | None = None) -> TaskExecutor:
        """An executor for decisions that touch no phone (deny, cancel); writes fenced by the lease `fence`."""
        from starebrain.engine import build_offline_executor

        bus = self._bus()
        store = self.store.fenced(fence) if fence is not None else self.store
        return build_offline_executor(store, bus, self.scrubber)

    def _bus(self) -> EventBus:
        """An event bus with the live view subscribed, unless --json (so rich is imported only for it)."""
        from starebrain.events import EventBus

        bus = EventBus()
        if not self.json_out:
            from starebrain.cli.live_view import LiveView

            bus.subscribe(LiveView())
        return bus
