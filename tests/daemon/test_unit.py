"""`starebrain daemon --install-service` writes a systemd user unit and nothing else."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_install_service_writes_a_user_unit_without_secrets(tmp_path: Path) -> None:
    url = "postgresql+psycopg://farm:s3cret@db.example/starebrain"
    env = {**os.environ, "STAREBRAIN_HOME": str(tmp_path / "home"), "STAREBRAIN_DB": url}
    done = subprocess.run([sys.executable, "-m", "starebrain.cli", "daemon", "--install-service", "--unit-dir",
                           str(tmp_path / "units"), "--host-name", "lab-2", "--label", "rack=A"],
                          env=env, cwd=REPO, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    unit = (tmp_path / "units" / "starebrain-daemon.service").read_text()
    assert f"ExecStart={sys.executable} -m starebrain.cli daemon --interval 1 --host-name lab-2 --label rack=A" in unit
    assert "KillSignal=SIGTERM" in unit and "EnvironmentFile=-%h/.config/starebrain/daemon.env" in unit
    assert "s3cret" not in unit and not (tmp_path / "home").exists()  # no database opened, no secret kept
    assert "systemctl --user enable --now starebrain-daemon.service" in done.stdout
