"""Turn our errors into one line on stderr and a documented exit code."""

from __future__ import annotations

import functools
import os
import signal
import sys
import threading
import traceback
from collections.abc import Callable
from typing import Any, TypeVar

import click
import typer

from starebrain.errors import EXIT_INTERRUPTED, StareBrainError

F = TypeVar("F", bound=Callable[..., Any])


def one_line_errors(fn: F) -> F:
    """Decorate a command: StareBrainError → `error: …` and its exit code; Ctrl-C or SIGTERM → the
    task is left PAUSED, exit 130; anything else → one line, exit 1 (a traceback only with
    STAREBRAIN_LOG_LEVEL=debug)."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGTERM, _interrupt)  # SIGTERM stops a command as Ctrl-C does
        try:
            return fn(*args, **kwargs)
        except (typer.Exit, click.exceptions.Exit, click.exceptions.Abort):
            raise
        except StareBrainError as exc:
            where = f" [task {exc.task_id}]" if exc.task_id else ""
            _trace()
            print(f"error: {exc.message}{where}", file=sys.stderr)
            raise typer.Exit(exc.exit_code) from None
        except KeyboardInterrupt:
            print("interrupted: the task is paused; `starebrain resume` continues it", file=sys.stderr)
            raise typer.Exit(EXIT_INTERRUPTED) from None
        except Exception as exc:  # a bug or a library error we did not translate: still one line
            _trace()
            text = str(exc).splitlines()[0] if str(exc) else ""
            print(f"error: unexpected {type(exc).__name__}: {text} (STAREBRAIN_LOG_LEVEL=debug shows "
                  f"the traceback)", file=sys.stderr)
            raise typer.Exit(1) from None

    return wrapper  # type: ignore[return-value]


def _interrupt(_signum: int, _frame: Any) -> None:
    raise KeyboardInterrupt


def _trace() -> None:
    if os.environ.get("STAREBRAIN_LOG_LEVEL", "").lower() == "debug":
        traceback.print_exc(file=sys.stderr)
