"""Run test code in fresh interpreters that import this checkout, from another directory."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[2]


def run_python(code: str, *, cwd: Path, env: dict[str, str] | None = None,
               timeout: float = 30) -> subprocess.CompletedProcess[str]:
    """Run `code` in a fresh interpreter that imports this checkout, from another directory."""
    full_env = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT), **(env or {})}
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=cwd, env=full_env,
                          capture_output=True, text=True, timeout=timeout)


def start_python(code: str, *, cwd: Path) -> subprocess.Popen[str]:
    """Start `code` in a fresh interpreter without waiting for it."""
    env = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT)}
    return subprocess.Popen([sys.executable, "-c", textwrap.dedent(code)], cwd=cwd, env=env,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
