"""`python -m bench`: run every `bench/*_bench.py`, print each figure, merge them into bench/results.json.

A bench module exposes `run(results: dict) -> None` and stores figures under dotted keys
(`sim.rpc_ms`, ...). Benchmarks never run in the test suite.
"""

from __future__ import annotations

import importlib
import json
import sys
import time
import traceback
from pathlib import Path
from typing import Any

BENCH_DIR = Path(__file__).resolve().parent
RESULTS = BENCH_DIR / "results.json"


def discover(names: list[str]) -> list[str]:
    """Module names of the bench files, optionally only those whose stem contains one of `names`."""
    stems = sorted(path.stem for path in BENCH_DIR.glob("*_bench.py"))
    return [f"bench.{stem}" for stem in stems if not names or any(name in stem for name in names)]


def run_module(name: str, results: dict[str, Any]) -> bool:
    """Run one bench module, printing the figures it adds; False if it failed."""
    before = dict(results)
    started = time.monotonic()
    print(f"== {name}", flush=True)
    try:
        importlib.import_module(name).run(results)
    except Exception:
        traceback.print_exc()
        return False
    for key in sorted(results):
        if key not in before or before[key] != results[key]:
            print(f"  {key:<32} {results[key]}", flush=True)
    print(f"  ({time.monotonic() - started:.1f} s)", flush=True)
    return True


def merge(results: dict[str, Any]) -> None:
    """Update bench/results.json with the new figures, keeping keys other modules wrote before."""
    stored: dict[str, Any] = json.loads(RESULTS.read_text()) if RESULTS.is_file() else {}
    stored.update(results)
    RESULTS.write_text(json.dumps(stored, indent=2, sort_keys=True) + "\n")


def main(argv: list[str]) -> int:
    """Run the selected benches; exit 1 if any failed."""
    results: dict[str, Any] = {}
    ok = all([run_module(name, results) for name in discover(argv)])
    merge(results)
    print(f"wrote {RESULTS}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
