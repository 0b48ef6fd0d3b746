"""`starebrain do "..."`: plan once with the LLM, then walk the steps like any task."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from starebrain.cli.failures import nothing_recorded_yet, one_line_errors
from starebrain.cli.queue_commands import Labels
from starebrain.cli.task_commands import JsonOpt, Serial, confirm_interactively, finish
from starebrain.cli.wiring import EngineFactory

Cassette = Annotated[Path | None, typer.Option(help="Cassette file of LLM exchanges.")]
MAX_INSTRUCTION = 2000  # characters: an errand in words, not a document pasted into a prompt


@one_line_errors
def do(instruction: Annotated[str, typer.Argument(help="What to do, in your words.")],
       device: Serial = None, record: Cassette = None, replay: Cassette = None, json_out: JsonOpt = False,
       queue: Annotated[bool, typer.Option("--queue", help="Queue it for a daemon, which plans it on the phone "
                                                          "it claims (prints the task id).")] = False,
       label: Labels = None) -> None:
    """Plan the instruction once with the LLM and run the steps on the phone."""
    from starebrain.llm.factory import build_planner

    check_instruction(instruction)  # before the phone, the LLM or the database is touched
    if queue or label:
        return _enqueue(instruction, device, label or [], queue, record or replay, json_out)
    with EngineFactory(json_out) as engine:
        serial = engine.pick_serial(device)
        planner = build_planner(engine.settings, record=record, replay=replay, secrets=engine.scrubber)
        with nothing_recorded_yet():
            session = engine.session(serial, planner=planner)
        with session:
            # build_engine sets all three; only close() clears them
            assert session.device is not None and session.profiles is not None and session.executor is not None
            task = _plan(engine, planner, session, instruction)
            if not json_out:
                _print_plan(task)
            task = session.executor.run(task)
            task = confirm_interactively(session, task)
        finish(task, json_out)


def _plan(engine: EngineFactory, planner: Any, session: Any, instruction: str) -> Any:
    """The one planning call; when it fails no step exists, and the person is told what was kept."""
    from rich.console import Console

    from starebrain.agent.do_task import TaskPlanner
    from starebrain.cli.live_view import elapsed
    from starebrain.errors import LlmError

    task_planner = TaskPlanner(planner, engine.store, session.device, session.profiles, session.tracker)
    try:
        with nothing_recorded_yet(), elapsed(Console(stderr=True), "planning with the LLM…"):
            return task_planner.plan(engine.scrubber.text(instruction))  # a value said aloud becomes its reference
    except LlmError as exc:
        kept = ""
        if exc.task_id is None:
            exc.message = f"{exc.message}; nothing was recorded (no task was created)"
        else:
            calls = len(engine.store.llm_calls(exc.task_id))
            kept = (f"; the LLM calls it made ({calls}) are kept in task {exc.task_id} "
                    f"(starebrain show {exc.task_id})")
        print(f"planning failed, so no step ran{kept}; `starebrain doctor` checks the LLM endpoint",
              file=sys.stderr)
        raise


def _enqueue(instruction: str, device: str | None, label: list[str], queue: bool, cassette: Path | None,
             json_out: bool) -> None:
    """A PENDING do-task with the instruction only, queued: the daemon that claims it plans it."""
    from starebrain.cli.queue_commands import print_queued
    from starebrain.errors import BadInput
    from starebrain.models import AgentTask
    from starebrain.store.farm import FarmStore, parse_labels

    if not queue:
        raise BadInput("--label picks a phone for a queued task: add --queue")
    if cassette is not None:
        raise BadInput("--record/--replay need the LLM in this process; a queued task is planned by the daemon")
    labels = parse_labels(label)
    with EngineFactory(json_out=True) as engine:
        task = AgentTask(instruction=engine.scrubber.text(instruction), device_serial=device or "",
                         source="do")  # no steps: the daemon plans it
        print_queued(FarmStore(engine.store).enqueue(task, device, labels), device, labels, json_out)


def check_instruction(instruction: str) -> None:
    """An empty or oversized instruction is refused with one line; nothing is recorded."""
    from starebrain.errors import BadInput

    if not instruction.strip():
        raise BadInput("the instruction is empty: say what to do, e.g. starebrain do \"Open Settings\"")
    if len(instruction) > MAX_INSTRUCTION:
        raise BadInput(f"the instruction is {len(instruction)} characters; the limit is {MAX_INSTRUCTION} "
                       f"(describe the errand in words; flows take long step lists)")


def _print_plan(task: Any) -> None:
    print(f"plan ({len(task.steps)} steps, {task.prompt_tokens + task.completion_tokens} tokens):",
          file=sys.stderr)
    for step in task.steps:
        flag = "  [irreversible]" if step.irreversible else ""
        print(f"  {step.index + 1}. {step.instruction}{flag}", file=sys.stderr)
