"""`starebrain test` on the example suite: 12 flows on 4 phones (--parallel 4) against the same 12 flows
serially on one phone, side by side in one run. Every phone is a sim process in its real-phone timing
profile (dump 250 ms, action 60 ms, transition 300 ms), each with a fresh world.

Figures: wall time of each `starebrain test` command (CLI start-up included), the suite time JUnit
reports, and `ci.parallel4_vs_serial_ratio` (parallel wall / serial wall; target ≤ 0.35).
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from lxml import etree

from starebrain.sim.adb_server import AdbServer
from starebrain.sim.harness import SimProcess

SUITE = Path(__file__).resolve().parents[1] / "starebrain" / "flows" / "examples" / "suite"
TIMEOUT_S = 600


def run_suite(adb: AdbServer, serials: list[str], scratch: Path, label: str) -> dict[str, Any]:
    """Run the suite on `serials` with its own database; wall time, suite time and the outcome."""
    junit = scratch / f"{label}.xml"
    env = {**adb.env, "STAREBRAIN_HOME": str(scratch / label), "STAREBRAIN_SECRET_BANK_PASSWORD": "bench"}
    devices = [arg for serial in serials for arg in ("--device", serial)]
    args = [sys.executable, "-m", "starebrain.cli", "test", str(SUITE), *devices, "--parallel", str(len(serials)),
            "--approve-irreversible", "--junit", str(junit)]
    started = time.monotonic()
    done = subprocess.run(args, env=env, capture_output=True, text=True, timeout=TIMEOUT_S, check=False)
    wall = time.monotonic() - started
    if done.returncode != 0:
        raise RuntimeError(f"{label} suite failed (exit {done.returncode}):\n{done.stdout[-3000:]}")
    root = etree.parse(str(junit)).getroot()
    return {"wall_s": wall, "suite_s": float(root.get("time")), "flows": int(root.get("tests"))}


def run(results: dict[str, Any]) -> None:
    """Serial on one phone, then --parallel 4 on four others; merge the figures into `results`."""
    with tempfile.TemporaryDirectory(prefix="starebrain-ci-bench-") as tmp:
        adb = AdbServer().start()
        sims: list[SimProcess] = []
        try:
            sims = [SimProcess(adb, timing="real-phone") for _ in range(5)]
            for sim in sims:
                sim.wait_online()
            serial = run_suite(adb, [sims[0].serial], Path(tmp), "serial")
            parallel = run_suite(adb, [s.serial for s in sims[1:]], Path(tmp), "parallel4")
        finally:
            for sim in sims:
                sim.stop()
            adb.close()
    results["ci.flows"] = serial["flows"]
    results["ci.serial_wall_s"] = round(serial["wall_s"], 2)
    results["ci.parallel4_wall_s"] = round(parallel["wall_s"], 2)
    results["ci.serial_suite_s"] = round(serial["suite_s"], 2)
    results["ci.parallel4_suite_s"] = round(parallel["suite_s"], 2)
    results["ci.parallel4_vs_serial_ratio"] = round(parallel["wall_s"] / serial["wall_s"], 3)
    results["ci.parallel4_vs_serial_suite_ratio"] = round(parallel["suite_s"] / serial["suite_s"], 3)
