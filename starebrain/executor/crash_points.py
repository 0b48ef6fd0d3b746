"""Deterministic kill points for the crash-matrix tests.

`STAREBRAIN_CRASH_AT=<point>:<step index>` makes the process SIGKILL itself when it reaches that
point of that step — the same as a person's `kill -9` or a power cut at the worst moment:

- `after_begin`: the write-ahead attempt is committed; the phone is untouched;
- `after_act`: the action reached the phone; its result is not committed;
- `after_commit`: the step's result and the cursor are committed (a step boundary).
"""

from __future__ import annotations

import os
import signal

ENV = "STAREBRAIN_CRASH_AT"


def crash_point(point: str, step_index: int) -> None:
    """Die here, without any cleanup, if the environment asks for exactly this point."""
    wanted = os.environ.get(ENV)
    if wanted and wanted == f"{point}:{step_index}":
        os.kill(os.getpid(), signal.SIGKILL)
