"""Which tasks need a FlowDriver beside the executor, and how to run a flow file as a new task."""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from starebrain.errors import DeviceError, FlowInvalid
from starebrain.flows.driver import FlowDriver
from starebrain.flows.flow_file import Flow, load_flow
from starebrain.models import AgentTask

if TYPE_CHECKING:
    from starebrain.session import Session

SOURCE_PREFIX = "flow:"
log = logging.getLogger(__name__)


ENV_MARK = " -e "


def source_of(path: Path, env: Mapping[str, str] | None = None) -> str:
    """The task's `source`: the flow file and its `-e` values, so a later command loads the same steps."""
    given = f"{ENV_MARK}{json.dumps(dict(env), sort_keys=True)}" if env else ""
    return f"{SOURCE_PREFIX}{path.resolve()}{given}"


def parse_source(source: str) -> tuple[Path, dict[str, str]] | None:
    """(flow file, -e values) of a task a flow started; None for other tasks."""
    if not source.startswith(SOURCE_PREFIX):
        return None
    path, _, given = source[len(SOURCE_PREFIX):].partition(ENV_MARK)
    return Path(path), (json.loads(given) if given else {})


def new_task(flow: Flow, serial: str, path: Path, env: Mapping[str, str] | None = None) -> AgentTask:
    """The task for one run of `flow` (its steps, when nothing in it is decided on the phone)."""
    return AgentTask(instruction=flow.instruction, device_serial=serial, source=source_of(path, env),
                     steps=[s.model_copy(deep=True) for s in flow.steps])


def start(session: Any, store: Any, flow: Flow, task: AgentTask) -> tuple[AgentTask, FlowDriver | None]:
    """Start the task; a flow that depends on the screen gets its driver (keep it for later decisions)."""
    if not flow.dynamic:
        return session.executor.start(task), None
    driver = FlowDriver(session.executor, store, flow.program)
    return driver.start(task), driver


def driver_for(session: Any, store: Any, task: AgentTask) -> FlowDriver | None:
    """For a task a screen-dependent flow started: a driver that has replayed its record, else None.

    Call it before any executor call on such a task (resume, approve, skip, retry), then make that
    call through `driver.drive(...)`; without it the task would end after its last recorded step.
    """
    origin = parse_source(task.source)
    if origin is None:
        return None
    path, env = origin
    try:
        flow = load_flow(path, env)
    except FlowInvalid as exc:
        raise FlowInvalid(f"task {task.id} runs {path}, which cannot be loaded now: {exc}") from exc
    if not flow.dynamic:
        return None
    driver = FlowDriver(session.executor, store, flow.program)
    driver.replay(task)
    return driver


def save_final_screen(session: Session, task: AgentTask) -> Path | None:
    """The screen after the task's last step, beside its attempts' screenshots (reports show it)."""
    assert session.executor is not None  # a session from build_engine always has one
    runner = session.executor.runner
    root = runner.artifacts.root
    if root is None or not task.status.resolved:
        return None
    try:
        obs, _ = runner.look(screenshot=True)
    except DeviceError as exc:  # the run's result stands; the report says the final screen is missing
        log.warning("no final screenshot of task %s: %s", task.id, exc)
        return None
    if not obs.screenshot:
        return None
    path = root / task.id / ("final.png" if obs.screenshot[:4] == b"\x89PNG" else "final.jpg")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(obs.screenshot)
    return path
