"""A farm on one machine, all real: one PostgreSQL, N "hosts" = N adb servers (each on its own port)
with their simulated phones, and one `starebrain daemon` process per host sharing the database."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from starebrain.config import load_settings
from starebrain.sim.adb_server import AdbServer
from starebrain.sim.harness import SimConfig, SimHost
from starebrain.store import Store
from starebrain.store.farm import FarmStore
from tests.postgres import PgServer

REPO = Path(__file__).resolve().parents[2]
LEASE_TTL_S = 3.0  # short, so a suspended daemon's lease runs out within the test


class Farm:
    """`hosts` adb servers with `phones` sims each; daemons are started per host name."""

    def __init__(self, pg: PgServer, sims: SimHost, root: Path, hosts: int = 3, phones: int = 2,
                 timing: str = "fast") -> None:
        from starebrain.sim.world import build_phone

        self.pg, self.root = pg, root
        self.url = pg.create_database()  # empty: the first daemon runs the migrations
        self.adbs: list[AdbServer] = []
        self.phones: list[list[Any]] = []
        self.daemons: dict[str, tuple[subprocess.Popen[bytes], Path]] = {}
        try:
            for _ in range(hosts):
                workdir = root / f"adb{len(self.adbs)}"
                workdir.mkdir(parents=True, exist_ok=True)
                adb = AdbServer(workdir=workdir).start()
                self.adbs.append(adb)
                self.phones.append([sims.start_sim(adb, SimConfig(timing=timing, factory=build_phone))
                                    for _ in range(phones)])
        except BaseException:
            self.close()
            raise

    def env(self, adb: int, **extra: str) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("STAREBRAIN_")}
        env.update(STAREBRAIN_HOME=str(self.root / f"home{adb}"), STAREBRAIN_DB=self.url,
                   ANDROID_ADB_SERVER_PORT=str(self.adbs[adb].port), STAREBRAIN_LEASE_TTL_S=str(LEASE_TTL_S),
                   PYTHONUNBUFFERED="1", **extra)
        return env

    def start_daemon(self, name: str, adb: int) -> subprocess.Popen[bytes]:
        """`starebrain daemon --host-name NAME` next to adb server `adb`; its log goes to a file."""
        log = self.root / f"{name}.log"
        with log.open("ab") as out:
            # --interval 600: an idle worker learns of a new task only through PostgreSQL's NOTIFY
            proc = subprocess.Popen([sys.executable, "-m", "starebrain.cli", "daemon", "--host-name", name,
                                     "--interval", "600", "--heartbeat", "0.5", "--dead-after", "3"],
                                    env=self.env(adb), cwd=REPO,
                                    stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        self.daemons[name] = (proc, log)
        return proc

    def log(self, name: str) -> str:
        return self.daemons[name][1].read_text(errors="replace")

    def stop_daemon(self, name: str) -> int:
        proc, _ = self.daemons[name]
        if proc.poll() is None:
            proc.send_signal(signal.SIGCONT)
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=90)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        return proc.returncode

    def cli(self, *args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "starebrain.cli", *args], env=self.env(0), cwd=REPO, text=True,
                              capture_output=True, timeout=timeout, stdin=subprocess.DEVNULL)

    def store(self) -> Store:
        return Store.open(self.url, settings=load_settings(home=self.root / "observer"))

    def wait_present(self, count: int, timeout_s: float = 120) -> None:
        """Until the farm lists `count` present phones on live hosts."""
        with self.store() as store:
            farm = FarmStore(store)
            deadline = time.monotonic() + timeout_s
            while time.monotonic() < deadline:
                view = farm.view(stale_after_s=5)
                live = {h["name"] for h in view.hosts if h["state"] == "up"}
                if sum(1 for d in view.devices if d["present"] and d["host"] in live) >= count:
                    return
                time.sleep(0.3)
        raise AssertionError(f"the farm never listed {count} phones: {view}")

    def close(self) -> None:
        for name in list(self.daemons):
            self.stop_daemon(name)
        for host in self.phones:
            for phone in host:
                phone.stop()
        for adb in self.adbs:
            adb.close()


def side_effects(phone: Any) -> dict[str, int]:
    return dict(phone.call(lambda p: p.state()["side_effects"]))
