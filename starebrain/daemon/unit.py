"""`starebrain daemon --install-service`: a systemd user unit that runs the daemon at login.

Secrets (a PostgreSQL URL with its password) never go into the unit: it reads an optional
environment file, ~/.config/starebrain/daemon.env, which the person writes (mode 600).
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

UNIT_NAME = "starebrain-daemon.service"


def unit_text(args: list[str], python: str = sys.executable) -> str:
    """The unit: SIGTERM stops it gracefully (tasks pause, resumable), restarted if it fails."""
    command = " ".join(shlex.quote(a) for a in [python, "-m", "starebrain.cli", "daemon", *args])
    return f"""[Unit]
Description=StareBrain daemon: drives this host's Android phones, runs queued tasks
After=network-online.target

[Service]
Type=simple
EnvironmentFile=-%h/.config/starebrain/daemon.env
ExecStart={command}
KillSignal=SIGTERM
TimeoutStopSec=90
Restart=on-failure
RestartSec=3

[Install]
WantedBy=default.target
"""


def install(unit_dir: Path, args: list[str]) -> Path:
    """Write the unit into `unit_dir` (normally ~/.config/systemd/user); returns its path."""
    unit_dir.mkdir(parents=True, exist_ok=True)
    path = unit_dir / UNIT_NAME
    path.write_text(unit_text(args), encoding="utf-8")
    return path
