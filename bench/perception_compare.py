"""Parse + detect time of two code trees side by side, on the labelled real dumps of the second.

    git archive <old-commit> | tar -x -C /tmp/old
    .venv/bin/python -m bench.perception_compare /tmp/old . [rounds]

One worker process per tree (each imports its own `starebrain`); the dumps are timed alternately, old and
new in turn (which goes first alternates too), so load on a shared machine falls on both alike. Each
worker measures its own CPU time (`time.process_time`) of `ScreenSnapshot.from_xml` + `detect`, as
`perception_bench` does; a dump's time is its best of `rounds`, and the figure is the median over dumps.
"""

from __future__ import annotations

import csv
import json
import statistics
import subprocess
import sys
from pathlib import Path

_WORKER = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
import starebrain
from starebrain.obstruction import detect
from starebrain.profiles import load_profiles
from starebrain.snapshot import ScreenSnapshot
assert starebrain.__file__.startswith(sys.argv[1]), starebrain.__file__
profile = load_profiles().device_profile("google")
dumps = [open(p, "rb").read() for p in json.loads(sys.stdin.readline())]  # the list on stdin: argv is too short
for d in dumps:
    detect(ScreenSnapshot.from_xml(d), profile)  # warm caches (word regexes) outside the timing
print("ready", flush=True)
for line in sys.stdin:
    d = dumps[int(line)]
    started = time.process_time()
    detect(ScreenSnapshot.from_xml(d), profile)
    print((time.process_time() - started) * 1000, flush=True)
"""


def _dumps(tree: Path) -> list[str]:
    folder = tree / "tests" / "fixtures" / "real_dumps"
    with (folder / "CORPUS.tsv").open(encoding="utf-8", newline="") as f:
        return [str(folder / row["file"]) for row in csv.DictReader(f, delimiter="\t")]


def compare(old: Path, new: Path, rounds: int) -> dict[str, list[float]]:
    """Each tree's best time (ms) per dump."""
    files = _dumps(new)
    workers = {name: subprocess.Popen([sys.executable, "-c", _WORKER, str(tree.resolve())],
                                      cwd=tree, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
               for name, tree in (("old", old), ("new", new))}
    for w in workers.values():
        assert w.stdin is not None and w.stdout is not None
        w.stdin.write(json.dumps(files) + "\n")
        w.stdin.flush()
        assert w.stdout.readline().strip() == "ready"
    best = {name: [float("inf")] * len(files) for name in workers}
    for r in range(rounds):
        for i in range(len(files)):
            for name in ("old", "new") if (r + i) % 2 == 0 else ("new", "old"):
                w = workers[name]
                assert w.stdin is not None and w.stdout is not None
                w.stdin.write(f"{i}\n")
                w.stdin.flush()
                best[name][i] = min(best[name][i], float(w.stdout.readline()))
    for w in workers.values():
        assert w.stdin is not None
        w.stdin.close()
        w.wait()
    return best


def main(argv: list[str]) -> None:
    """Print the median, p99 and total of each tree."""
    # Absolute: each worker runs in its own tree, where a relative path to the other would not resolve.
    best = compare(Path(argv[0]).resolve(), Path(argv[1]).resolve(), int(argv[2]) if len(argv) > 2 else 9)
    for name, times in best.items():
        p99 = sorted(times)[round(0.99 * (len(times) - 1))]
        print(f"{name}: {len(times)} dumps, median {statistics.median(times):.3f} ms, p99 {p99:.3f} ms, "
              f"total {sum(times):.1f} ms")


if __name__ == "__main__":
    main(sys.argv[1:])
