"""`starebrain resume` (and every command but `tui`) must never import textual."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def test_resume_does_not_import_textual(tmp_path: Path) -> None:
    env = {**os.environ, "STAREBRAIN_HOME": str(tmp_path / "sb"), "HOME": str(tmp_path)}
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "starebrain.cli", "resume"], env=env,
                          capture_output=True, text=True, timeout=120)
    assert "nothing to resume" in done.stderr
    imported = [line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")]
    assert "starebrain.cli.app" in imported and "starebrain.cli.tui_command" in imported
    assert not [m for m in imported if m.split(".")[0] == "textual"]
