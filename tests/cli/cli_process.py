"""Run `starebrain` as a separate process, as a person or a CI job would."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from starebrain.flows import examples_dir
from starebrain.store import Store

INVOICE_FLOW = examples_dir() / "invoice.yaml"
REPO = Path(__file__).resolve().parents[2]  # the test-only entry point is imported from here


@dataclass
class Cli:
    """A StareBrain installation: one data dir, talking to the tests' isolated adb server."""

    home: Path
    timeout_s: float = 120.0

    def env(self, **extra: str) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("STAREBRAIN_")}
        env.update(STAREBRAIN_HOME=str(self.home), PYTHONUNBUFFERED="1", **extra)
        return env

    def argv(self, *args: str, fault: str | None = None) -> list[str]:
        """The command line; `fault` (POINT:STEP[:kill|stop]) runs the test-only entry point
        tests/cli/faulty_cli.py, which installs a fault hook (starebrain/executor/crash_points.py)."""
        if fault:
            return [sys.executable, "-m", "tests.cli.faulty_cli", "--fault", fault, *args]
        return [sys.executable, "-m", "starebrain.cli", *args]

    def run(self, *args: str, crash_at: str | None = None, **env: str) -> subprocess.CompletedProcess[str]:
        """One command; `crash_at` (POINT:STEP) SIGKILLs it at that crash point."""
        return subprocess.run(self.argv(*args, fault=crash_at), env=self.env(**env), text=True,
                              capture_output=True, timeout=self.timeout_s, stdin=subprocess.DEVNULL,
                              cwd=REPO)

    def start(self, *args: str, fault: str | None = None, **env: str) -> subprocess.Popen[str]:
        """One command in the background (stdout and stderr merged)."""
        return subprocess.Popen(self.argv(*args, fault=fault), env=self.env(**env), text=True,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                cwd=REPO)

    def json(self, *args: str) -> Any:
        done = self.run(*args, "--json")
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    def latest_task_id(self) -> str:
        with Store.open(self.home / "starebrain.db") as store:
            tasks = store.list_tasks(limit=1)
        assert tasks, f"no task recorded in {self.home}"
        return tasks[0].id

    def show(self, task_id: str) -> dict[str, Any]:
        """What `starebrain show --json` prints, read in-process (saves a process start)."""
        with Store.open(self.home / "starebrain.db") as store:
            return {
                "task": store.load_task(task_id).model_dump(mode="json"),
                "attempts": [a.model_dump(mode="json") for a in store.attempts(task_id)],
                "confirmations": [c.model_dump(mode="json") for c in store.confirmations(task_id)],
            }
