"""Named points in the engine where a fault hook may act — nothing happens here unless one is installed.

Production code calls `crash_point(point, step_index)` at the moments that matter for recovery:

- `after_begin`: the write-ahead attempt is committed; the phone is untouched;
- `after_act`: the action reached the phone; its result is not committed;
- `after_commit`: the step's result and the cursor are committed (a step boundary);
- `before_decide` / `after_decide`: around the commit of the person's answer with the task's new
  state (after it, an approval is committed but not yet used);
- `before_lease`: a command knows which task and phone it is about, and has not taken the lease.

No environment variable or file is read here: a fault hook exists only if a test installed one
(e.g. the test-only entry point `tests/cli/faulty_cli.py`, which SIGKILLs or SIGSTOPs the process
at a chosen point, as a person's `kill -9`, a power cut or a laptop lid would).
"""

from __future__ import annotations

from collections.abc import Callable

FaultHook = Callable[[str, int], None]

_hooks: list[FaultHook] = []


def install(hook: FaultHook) -> None:
    """Add a hook called at every crash point (test harnesses only)."""
    _hooks.append(hook)


def crash_point(point: str, step_index: int) -> None:
    """Give each installed hook a chance to act here (a no-op in a normal run)."""
    for hook in _hooks:
        hook(point, step_index)
