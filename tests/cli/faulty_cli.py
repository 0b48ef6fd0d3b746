"""A test-only entry point: the real `starebrain` CLI with a fault hook installed.

`python -m tests.cli.faulty_cli --fault POINT:STEP[:ACTION] <starebrain args...>` runs the CLI and,
when the engine reaches crash point POINT of step STEP (see starebrain/executor/crash_points.py),
the process SIGKILLs itself (ACTION `kill`, the default) or stops itself with SIGSTOP (ACTION
`stop`, for a test to observe from outside, then SIGCONT). Product code reads no such setting.
"""

from __future__ import annotations

import os
import signal
import sys

from starebrain.executor import crash_points

ACTIONS = {"kill": signal.SIGKILL, "stop": signal.SIGSTOP}


def install_fault(spec: str) -> None:
    """Install a hook acting at `POINT:STEP[:ACTION]`."""
    point, step, *rest = spec.split(":")
    action = ACTIONS[rest[0] if rest else "kill"]

    fired: list[bool] = []

    def hook(at: str, step_index: int) -> None:
        if at == point and step_index == int(step) and not fired:  # once: a re-run passes on
            fired.append(True)
            os.kill(os.getpid(), action)

    crash_points.install(hook)


def main(argv: list[str]) -> None:
    if len(argv) >= 2 and argv[0] == "--fault":
        install_fault(argv[1])
        argv = argv[2:]
    from starebrain.cli.app import main as cli_main

    sys.argv = ["starebrain", *argv]
    cli_main()


if __name__ == "__main__":
    main(sys.argv[1:])
