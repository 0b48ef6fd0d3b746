"""The installed wheel works from another directory: data files, migrations, profiles, the sim world."""

from __future__ import annotations

import os
import site
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel built from this checkout (in another directory)."""
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(out / "dist"), str(ROOT)],
                   check=True, capture_output=True, timeout=300, cwd=out)
    return next((out / "dist").glob("starebrain-*.whl"))


@pytest.fixture(scope="module")
def installed(wheel: Path) -> Path:
    """The wheel installed (without dependencies) into a fresh folder."""
    target = wheel.parent.parent / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target), str(wheel)],
                   check=True, capture_output=True, timeout=300)
    return target


def test_the_wheel_installs_one_import_package(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    assert {n.split("/")[0] for n in names if ".dist-info/" not in n} == {"starebrain"}
    for inside in ("starebrain/cli/app.py", "starebrain/migrations/env.py", "starebrain/device_profiles/risk.yaml"):
        assert inside in names
    entry_points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
    with zipfile.ZipFile(wheel) as archive:
        assert "starebrain = starebrain.cli.app:main" in archive.read(entry_points).decode()


def run_installed(target: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`starebrain ARGS` from the wheel, in `cwd`, with this checkout nowhere on the path."""
    deps = [p for p in site.getsitepackages() + [sysconfig.get_paths()["purelib"]] if Path(p).is_dir()]
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH",) and not k.startswith("STAREBRAIN_")}
    env.update(PYTHONPATH=os.pathsep.join([str(target), *deps]), STAREBRAIN_HOME=str(cwd / "home"))
    code = ("import starebrain, starebrain.cli, starebrain.migrations, starebrain.device_profiles as p; "
            f"assert all(m.__file__.startswith({str(target)!r}) for m in (starebrain, starebrain.cli, "
            "starebrain.migrations, p)), 'not the wheel'; from starebrain.cli.app import main; main()")
    return subprocess.run([sys.executable, "-P", "-c", code, *args], cwd=cwd, env=env, text=True,
                          capture_output=True, timeout=120, stdin=subprocess.DEVNULL)


def test_the_wheel_runs_a_flow_from_another_directory(installed: Path, sim: Any, tmp_path: Path) -> None:
    scenarios = run_installed(installed, tmp_path, "sim", "scenarios")
    assert scenarios.returncode == 0 and "obstacle_course" in scenarios.stdout
    flow = installed / "starebrain" / "flows" / "examples" / "invoice.yaml"
    done = run_installed(installed, tmp_path, "run", str(flow), "--device", sim.serial)
    assert done.returncode == 3, done.stderr  # waits before Send: profiles, migrations and flow all loaded
    history = run_installed(installed, tmp_path, "history", "--json")
    assert history.returncode == 0 and '"AWAITING_CONFIRMATION"' in history.stdout
    assert ROOT.as_posix() not in (done.stdout + done.stderr)


def test_the_editable_install_exposes_the_same_single_package(tmp_path: Path) -> None:
    # `make setup` installs this checkout editable; seen from another directory it offers what the wheel does.
    code = ("import importlib.util as u, starebrain.cli.app, starebrain.migrations, starebrain.device_profiles; "
            "print([n for n in ('cli', 'migrations', 'device_profiles') if u.find_spec(n)])")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([sys.executable, "-P", "-c", code], cwd=tmp_path, env=env, text=True, capture_output=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
