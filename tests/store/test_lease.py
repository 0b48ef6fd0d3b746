"""Two processes never drive one device: the lease, exercised with real processes."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from starebrain.config import Settings, load_settings
from starebrain.errors import DeviceBusy
from starebrain.store import Store
from tests.store.processes import start_python

HOLDER = """
    import sys
    from starebrain.config import Settings, load_settings
    from starebrain.errors import DeviceBusy, LeaseLost
    from starebrain.store import Store
    store = Store.open({db!r}, settings=load_settings())
    try:
        lease = store.acquire_lease("emu-1", "child", ttl_s={ttl})
        print("HELD", flush=True)
    except DeviceBusy as e:
        print("BUSY", e, flush=True)
        sys.exit(0)
    for line in sys.stdin:
        if line.strip() == "renew":
            try:
                lease = lease.renew()
                print("RENEWED", flush=True)
            except LeaseLost as e:
                print("LOST", e, flush=True)
    lease.release()
"""


def _holder(tmp_path: Path, db: str, ttl: float = 600) -> subprocess.Popen[str]:
    child = start_python(HOLDER.format(db=str(db), ttl=ttl), cwd=tmp_path)
    assert child.stdout is not None
    line = child.stdout.readline()
    assert line.startswith("HELD"), line + (child.stderr.read() if child.stderr else "")
    return child


@pytest.fixture
def db(settings: Settings) -> str:
    """The database file or PostgreSQL URL (both backends), created at head."""
    Store.open(settings=settings).close()
    return settings.db_url or str(settings.db_path)


@pytest.fixture
def store_at(db: str) -> Iterator[Store]:
    store = Store.open(db, settings=load_settings())
    yield store
    store.close()


def test_a_second_process_is_refused_while_the_holder_lives(tmp_path: Path, db: str, store_at: Store) -> None:
    child = _holder(tmp_path, db)
    try:
        with pytest.raises(DeviceBusy, match=f"held by child \\(pid {child.pid} on "):
            store_at.acquire_lease("emu-1", "parent", ttl_s=60)
        assert store_at.acquire_lease("emu-2", "parent", ttl_s=60).serial == "emu-2"  # other device
    finally:
        child.communicate(timeout=30)  # closes stdin: the child releases and exits
    assert store_at.acquire_lease("emu-1", "parent", ttl_s=60).holder == "parent"


def test_the_lease_of_a_killed_holder_is_taken_over(tmp_path: Path, db: str, store_at: Store) -> None:
    child = _holder(tmp_path, db)
    os.kill(child.pid, signal.SIGKILL)
    child.wait(timeout=30)
    lease = store_at.acquire_lease("emu-1", "parent", ttl_s=60)
    assert (lease.holder, lease.pid) == ("parent", os.getpid())


def test_an_expired_lease_is_taken_over_and_its_holder_told(tmp_path: Path, db: str, store_at: Store) -> None:
    child = _holder(tmp_path, db, ttl=0.3)
    try:
        time.sleep(0.4)
        store_at.acquire_lease("emu-1", "parent", ttl_s=60)
        assert child.stdin is not None and child.stdout is not None
        child.stdin.write("renew\n")
        child.stdin.flush()
        assert child.stdout.readline().startswith("LOST lease on device emu-1 was lost")
    finally:
        child.communicate(timeout=30)
    assert store_at.lease_of("emu-1").holder == "parent"  # type: ignore[union-attr]  # the child's release did not drop ours


def test_racing_processes_get_exactly_one_lease(tmp_path: Path, db: str) -> None:
    children = [start_python(HOLDER.format(db=str(db), ttl=600), cwd=tmp_path) for _ in range(4)]
    firsts = [c.stdout.readline().split()[0] for c in children if c.stdout is not None]
    for c in children:
        c.communicate(timeout=30)
    assert sorted(firsts) == ["BUSY", "BUSY", "BUSY", "HELD"]


def test_renew_release_and_reentry_in_one_process(store_at: Store) -> None:
    lease = store_at.acquire_lease("emu-1", "executor", ttl_s=5)
    renewed = lease.renew(ttl_s=120)
    assert renewed.expires_at > lease.expires_at and renewed.token == lease.token
    assert store_at.acquire_lease("emu-1", "executor", ttl_s=5).token == lease.token  # same holder
    with pytest.raises(DeviceBusy):
        store_at.acquire_lease("emu-1", "another executor", ttl_s=5)
    renewed.release()
    assert store_at.lease_of("emu-1") is None
    with store_at.acquire_lease("emu-1", "another executor", ttl_s=5):
        assert store_at.lease_of("emu-1").holder == "another executor"  # type: ignore[union-attr]
    assert store_at.lease_of("emu-1") is None
