"""Turn our errors into one line on stderr and a documented exit code (with --json, also an object on
stdout: every exit of a --json command prints JSON)."""

from __future__ import annotations

import functools
import json
import os
import signal
import sys
import threading
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, NoReturn, TypeVar

import typer

from starebrain.errors import EXIT_INTERRUPTED, StareBrainError

F = TypeVar("F", bound=Callable[..., Any])
INTERRUPTED = "interrupted: the task is paused; `starebrain resume` continues it"


def one_line_errors(fn: F) -> F:
    """Decorate a command: StareBrainError → `error: …` and its exit code; Ctrl-C or SIGTERM → the
    task is left PAUSED, exit 130; anything else → one line, exit 1 (a traceback only with
    STAREBRAIN_LOG_LEVEL=debug). With `--json` (the `json_out` parameter) each also prints an error
    object on stdout."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        as_json = bool(kwargs.get("json_out"))
        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGTERM, _interrupt)  # SIGTERM stops a command as Ctrl-C does
        try:
            return fn(*args, **kwargs)
        except _passed_through():
            raise
        except StareBrainError as exc:
            _trace()
            fail(exc.message, exc.exit_code, as_json, kind=type(exc).__name__, task_id=exc.task_id)
        except KeyboardInterrupt:
            fail(INTERRUPTED, EXIT_INTERRUPTED, as_json, kind="Interrupted", prefix="")
        except Exception as exc:  # a bug or a library error we did not translate: still one line
            _trace()
            text = str(exc).splitlines()[0] if str(exc) else ""
            fail(f"unexpected {type(exc).__name__}: {text} (STAREBRAIN_LOG_LEVEL=debug shows the traceback)",
                 1, as_json, kind=type(exc).__name__)

    return wrapper  # type: ignore[return-value]


def _passed_through() -> tuple[type[BaseException], ...]:
    """typer's Exit and Abort, and click's own once something imported click (not imported for this:
    only code that imported click can raise them)."""
    click = sys.modules.get("click")
    return (typer.Exit, typer.Abort) + ((click.exceptions.Exit, click.exceptions.Abort) if click else ())


def fail(message: str, exit_code: int, as_json: bool, *, kind: str, task_id: str | None = None,
         prefix: str = "error: ") -> NoReturn:
    """One line on stderr; with --json also `{"error", "exit_code", "kind", "task_id"}` on stdout; exit."""
    where = f" [task {task_id}]" if task_id else ""
    print(f"{prefix}{message}{where}", file=sys.stderr)
    if as_json:
        error = {"error": message, "exit_code": exit_code, "kind": kind, "task_id": task_id}
        print(json.dumps(error, indent=2), flush=True)
    raise typer.Exit(exit_code)


@contextmanager
def nothing_recorded_yet() -> Iterator[None]:
    """A phone error before the task exists: say that nothing was recorded (nothing to resume)."""
    from starebrain.errors import DeviceError

    try:
        yield
    except DeviceError as exc:
        if exc.task_id is None and "nothing was recorded" not in exc.message:
            exc.message = f"{exc.message}; nothing was recorded (no task was created)"
        raise


def _interrupt(_signum: int, _frame: Any) -> None:
    raise KeyboardInterrupt


def _trace() -> None:
    if os.environ.get("STAREBRAIN_LOG_LEVEL", "").lower() == "debug":
        traceback.print_exc(file=sys.stderr)
