"""STAREBRAIN_LOG_LEVEL is applied, not only validated."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

CODE = """
import logging
from starebrain.cli.wiring import EngineFactory
EngineFactory(json_out=True)
logging.getLogger("starebrain.probe").info("probe info line")
logging.getLogger("starebrain.probe").debug("probe debug line")
logging.getLogger("uiautomator2").info("library info line")
"""


def _run(tmp_path: Path, level: str) -> str:
    env = {**os.environ, "STAREBRAIN_HOME": str(tmp_path), "STAREBRAIN_LOG_LEVEL": level}
    done = subprocess.run([sys.executable, "-c", CODE], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stderr


def test_info_shows_our_info_lines_but_not_debug_nor_library_chatter(tmp_path: Path) -> None:
    err = _run(tmp_path, "INFO")
    assert "INFO starebrain.probe: probe info line" in err
    assert "probe debug line" not in err and "library info line" not in err


def test_the_default_warning_level_keeps_info_quiet(tmp_path: Path) -> None:
    err = _run(tmp_path, "WARNING")
    assert "probe info line" not in err
