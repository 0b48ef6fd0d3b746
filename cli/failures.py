"""Turn our errors into one line on stderr and a documented exit code."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import Any, TypeVar

import typer

from starebrain.errors import EXIT_INTERRUPTED, StareBrainError

F = TypeVar("F", bound=Callable[..., Any])


def one_line_errors(fn: F) -> F:
    """Decorate a command: StareBrainError → `error: …` and its exit code; Ctrl-C → 130."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except StareBrainError as exc:
            where = f" [task {exc.task_id}]" if exc.task_id else ""
            print(f"error: {exc.message}{where}", file=sys.stderr)
            raise typer.Exit(exc.exit_code) from None
        except KeyboardInterrupt:
            print("interrupted: the task is paused; `starebrain resume` continues it", file=sys.stderr)
            raise typer.Exit(EXIT_INTERRUPTED) from None

    return wrapper  # type: ignore[return-value]
