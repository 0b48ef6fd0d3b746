"""A real PostgreSQL server for tests: Debian's binaries, initdb + pg_ctl in a temporary directory.

PostgreSQL refuses to run as root, so as root the cluster belongs to the `postgres` user (the Debian
package creates it) and initdb/pg_ctl run through `runuser`. Outside CI a machine without PostgreSQL
skips these tests; in CI (CI=true) a missing PostgreSQL is a failure: scripts/ci-deps.sh installs it.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import subprocess
import tempfile
import uuid
from pathlib import Path

import pytest

from starebrain.sim.adb_server import free_port


def pg_bindir() -> Path | None:
    """The newest installed PostgreSQL's bin directory (Debian keeps them off PATH)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda p: int(Path(p).parts[-3]))
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("pg_ctl")
    return Path(on_path).parent if on_path else None


def require_postgres() -> Path:
    """The bin directory, or skip (fail under CI, where it must be installed)."""
    bindir = pg_bindir()
    if bindir is None:
        message = "PostgreSQL is not installed (scripts/ci-deps.sh installs postgresql)"
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(message)
        pytest.skip(message)
    return bindir


class PgServer:
    """One throwaway cluster on a free loopback port; `url(db)` names a database in it."""

    def __init__(self, bindir: Path, options: str = "") -> None:
        self.bindir = bindir
        self.options = options  # more server settings, e.g. "-c shared_preload_libraries=pg_stat_statements"
        self.root = Path(tempfile.mkdtemp(prefix="starebrain-pg-"))
        self.data = self.root / "data"
        self.port = free_port()
        self._as_root = os.geteuid() == 0
        if self._as_root:
            shutil.chown(self.root, "postgres", "postgres")
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8")

    def _run(self, tool: str, *args: str, timeout: float = 60) -> None:
        cmd = [str(self.bindir / tool), *args]
        if self._as_root:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=self.root)
        if done.returncode != 0:
            raise RuntimeError(f"{tool} failed: {done.stderr.strip() or done.stdout.strip()}")

    def start(self) -> PgServer:
        """Start (or start again after `stop`) on the same port and data."""
        options = (f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off "
                   f"-c max_connections=200 -c full_page_writes=off {self.options}")
        self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l", str(self.root / "log"), "-w", "start")
        return self

    def stop(self, mode: str = "fast") -> None:
        """Stop the server (`immediate` is a crash: no shutdown checkpoint)."""
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{database}"

    def create_database(self, template: str | None = None) -> str:
        """A fresh, empty (or copied from `template`) database; returns its URL."""
        import psycopg

        name = f"t_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(f"postgresql://postgres@127.0.0.1:{self.port}/postgres", autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}" + (f" TEMPLATE {template}" if template else ""))
        return self.url(name)

    def close(self) -> None:
        with contextlib.suppress(RuntimeError, subprocess.TimeoutExpired):
            self.stop("immediate")  # already stopped, or hung: the directory goes anyway
        shutil.rmtree(self.root, ignore_errors=True)
