"""The farm and the daemon, all real: PostgreSQL started here (Debian's binaries, a temporary
cluster), adb servers as "hosts", sims in their own processes with real-phone timing, and one
`starebrain daemon` process per host.

Figures:
- `farm.throughput_scaling`: 48 queued flows on 3 hosts x 2 phones vs on 1 host x 2 phones
  (wall time from the submit to the last task's end; target >= 2.6, ideal 3).
- `farm.claim_latency_ms_p50` / `_p99`: submit to the task's first action on an idle farm.
- `farm.db_roundtrips_per_step`: statements the server executed (pg_stat_statements, heartbeats
  and idle queue looks included) per executed step; `farm.db_transactions_per_step` likewise.
- `daemon.multi_phone_ratio`: one daemon, 4 tasks on 4 phones vs the same 4 on one phone (<= 0.35).
"""

from __future__ import annotations

import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from starebrain.config import load_settings
from starebrain.flows.flow_file import load_flow
from starebrain.models import AgentTask
from starebrain.sim.adb_server import AdbServer
from starebrain.sim.harness import SimProcess
from starebrain.store import Store
from starebrain.store.farm import FarmStore

REPO = Path(__file__).resolve().parents[1]
SUITE = REPO / "starebrain" / "flows" / "examples" / "suite"
FLOWS = [load_flow(p) for p in sorted(SUITE.glob("*.yaml")) if p.stem not in ("bank-activity", "messages-reply")]
TIMEOUT_S = 900


class Host:
    """An adb server with its sims and, once started, its daemon."""

    def __init__(self, name: str, phones: int, scratch: Path) -> None:
        self.name, self.scratch = name, scratch
        self.adb = AdbServer().start()
        self.sims = [SimProcess(self.adb, timing="real-phone") for _ in range(phones)]
        for sim in self.sims:
            sim.wait_online()
        self.daemon: subprocess.Popen[bytes] | None = None

    def start_daemon(self, db: str) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith("STAREBRAIN_")}
        env.update(self.adb.env, STAREBRAIN_HOME=str(self.scratch / self.name), STAREBRAIN_DB=db)
        log = (self.scratch / f"{self.name}.log").open("ab")
        self.daemon = subprocess.Popen([sys.executable, "-m", "starebrain.cli", "daemon", "--host-name", self.name,
                                        "--interval", "2" if "://" in db else "0.2",
                                        "--heartbeat", "1"], env=env, cwd=REPO,
                                       stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)

    def close(self) -> None:
        if self.daemon is not None and self.daemon.poll() is None:
            self.daemon.send_signal(signal.SIGTERM)
            self.daemon.wait(timeout=120)
        for sim in self.sims:
            sim.stop()
        self.adb.close()


def _task(i: int, serial: str | None) -> AgentTask:
    flow = FLOWS[i % len(FLOWS)]
    return AgentTask(instruction=flow.instruction, device_serial=serial or "",
                     steps=[s.model_copy(deep=True) for s in flow.steps], source="flow")


def _wait_present(store: Store, count: int) -> None:
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        if sum(1 for d in FarmStore(store).view().devices if d["present"]) >= count:
            return
        time.sleep(0.3)
    raise RuntimeError(f"the farm never listed {count} phones")


def _wait_done(store: Store, ids: list[str]) -> None:
    deadline = time.monotonic() + TIMEOUT_S
    pending = list(ids)
    while pending and time.monotonic() < deadline:
        pending = [i for i in pending if not store.load_task(i).status.resolved]
        time.sleep(0.2)
    if pending:
        raise RuntimeError(f"{len(pending)} task(s) did not finish")
    failed = [i for i in ids if store.load_task(i).status.value != "COMPLETED"]
    if failed:
        raise RuntimeError(f"{len(failed)} task(s) did not complete, e.g. {failed[0]}")


def _steps(store: Store, ids: list[str]) -> int:  # attempts: one per executed step
    return sum(len(store.attempts(i)) for i in ids)


def run_farm(db: str, hosts: int, flows: int, scratch: Path) -> dict[str, Any]:
    """`flows` pool tasks on `hosts` hosts x 2 phones; wall time, latency samples, steps."""
    scratch.mkdir(parents=True, exist_ok=True)
    farm_hosts = [Host(f"h{n}", 2, scratch) for n in range(hosts)]
    try:
        for host in farm_hosts:
            host.start_daemon(db)
        # the bench watches as another role, so the server's counts per role are the daemons' alone
        watcher = db.replace("postgres@", "observer@", 1)
        with Store.open(watcher, settings=load_settings(home=scratch / "observer")) as store:
            _wait_present(store, 2 * hosts)
            farm = FarmStore(store)
            started = time.monotonic()
            ids = [farm.enqueue(_task(i, None), None, {}) for i in range(flows)]
            _wait_done(store, ids)
            wall = time.monotonic() - started
            latencies = _latencies(store, farm, [s.serial for h in farm_hosts for s in h.sims]) if hosts > 1 else []
            steps = int(store.info()["rows"]["attempt"]) if hosts > 1 else _steps(store, ids)
    finally:
        for host in farm_hosts:
            host.close()
    return {"wall_s": wall, "latencies_ms": latencies, "steps": steps}


def _latencies(store: Store, farm: FarmStore, serials: list[str], rounds: int = 3) -> list[float]:
    """On the idle farm: one task per phone at once, submit to first action, a few rounds."""
    out: list[float] = []
    for n in range(rounds):
        ids = [farm.enqueue(_task(n, s), s, {}) for s in serials]
        _wait_done(store, ids)
        for task_id in ids:
            task = store.load_task(task_id)
            first = min(a.started_at for a in store.attempts(task_id))
            out.append((first - task.created_at).total_seconds() * 1000)
    return out


def _server_counts(admin_url: str, url: str) -> tuple[int, int]:
    """Statements and COMMIT/ROLLBACKs the daemons' role ran in `url`'s database so far."""
    import psycopg

    name = url.rsplit("/", 1)[1]
    with psycopg.connect(admin_url.replace("+psycopg", "")) as conn:  # where the extension lives
        calls = conn.execute("SELECT coalesce(sum(calls), 0) FROM pg_stat_statements s JOIN pg_database d "
                             "ON d.oid = s.dbid JOIN pg_roles r ON r.oid = s.userid "
                             "WHERE d.datname = %s AND r.rolname = 'postgres'", (name,)).fetchone()[0]  # type: ignore[index]
        commits = conn.execute("SELECT coalesce(sum(calls), 0) FROM pg_stat_statements s JOIN pg_database d "
                               "ON d.oid = s.dbid JOIN pg_roles r ON r.oid = s.userid WHERE d.datname = %s "
                               "AND r.rolname = 'postgres' AND upper(s.query) IN ('COMMIT', 'ROLLBACK')",
                               (name,)).fetchone()[0]  # type: ignore[index]
    return int(calls), int(commits)


def run_daemon_speedup(scratch: Path) -> float:
    """One daemon (SQLite): 4 tasks bound to 4 phones vs the same 4 bound to one phone."""
    host = Host("solo", 4, scratch)
    try:
        db = str(scratch / "solo.db")
        host.start_daemon(db)
        with Store.open(db, settings=load_settings(home=scratch / "solo-observer")) as store:
            _wait_present(store, 4)
            farm = FarmStore(store)
            serials = [s.serial for s in host.sims]
            t0 = time.monotonic()
            _wait_done(store, [farm.enqueue(_task(0, s), s, {}) for s in serials])
            parallel = time.monotonic() - t0
            t0 = time.monotonic()
            _wait_done(store, [farm.enqueue(_task(0, serials[0]), serials[0], {}) for _ in serials])
            serial = time.monotonic() - t0
    finally:
        host.close()
    return parallel / serial


def run(results: dict[str, Any]) -> None:
    """Both farm sizes on one PostgreSQL, then the one-host daemon speed-up."""
    sys.path.insert(0, str(REPO))
    from tests.postgres import PgServer, pg_bindir

    bindir = pg_bindir()
    if bindir is None:
        raise RuntimeError("PostgreSQL is not installed (scripts/ci-deps.sh installs postgresql)")
    with tempfile.TemporaryDirectory(prefix="starebrain-farm-bench-") as tmp:
        scratch = Path(tmp)
        pg = PgServer(bindir, options="-c shared_preload_libraries=pg_stat_statements").start()
        try:
            import psycopg

            one_db, three_db = pg.create_database(), pg.create_database()
            with psycopg.connect(pg.url().replace("+psycopg", ""), autocommit=True) as conn:
                conn.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
                conn.execute("CREATE ROLE observer LOGIN SUPERUSER")
            one = run_farm(one_db, 1, 48, scratch / "one")
            print(f"  one host: {one['wall_s']:.1f} s", flush=True)
            before = _server_counts(pg.url(), three_db)
            three = run_farm(three_db, 3, 48, scratch / "three")
            after = _server_counts(pg.url(), three_db)
        finally:
            pg.close()
        ratio = run_daemon_speedup(scratch)
    lat = sorted(three["latencies_ms"])
    results["farm.flows"] = 48
    results["farm.one_host_wall_s"] = round(one["wall_s"], 2)
    results["farm.three_hosts_wall_s"] = round(three["wall_s"], 2)
    results["farm.throughput_scaling"] = round(one["wall_s"] / three["wall_s"], 2)
    results["farm.claim_latency_ms_p50"] = round(statistics.median(lat), 1)
    results["farm.claim_latency_ms_p99"] = round(lat[min(len(lat) - 1, int(len(lat) * 0.99))], 1)
    steps = three["steps"]
    results["farm.db_roundtrips_per_step"] = round((after[0] - before[0]) / max(1, steps), 1)
    results["farm.db_transactions_per_step"] = round((after[1] - before[1]) / max(1, steps), 1)
    results["daemon.multi_phone_ratio"] = round(ratio, 3)
