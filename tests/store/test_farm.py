"""The farm's queue, hosts and phones: claims are exclusive, bound tasks never move, dead hosts show."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import sqlalchemy as sa

from starebrain.config import Settings
from starebrain.models import TaskStatus, utcnow
from starebrain.store import Store
from starebrain.store.farm import HOST, FarmStore, parse_labels
from tests.store.processes import start_python
from tests.store.sample import make_task

CLAIMER = """
    import json
    from starebrain.config import load_settings
    from starebrain.store import Store
    from starebrain.store.farm import FarmStore
    store = Store.open({db!r}, settings=load_settings())
    farm = FarmStore(store)
    got = []
    while (claim := farm.claim("host-{n}", "phone-{n}", {{}})) is not None:
        got.append(claim.task_id)
    print(json.dumps(got))
"""


def test_a_bound_task_is_claimed_only_by_its_phone(store: Store) -> None:
    farm = FarmStore(store)
    task_id = farm.enqueue(make_task(), "phone-a", {})
    assert store.load_task(task_id).status is TaskStatus.PENDING
    assert farm.claim("h2", "phone-b", {}) is None
    claim = farm.claim("h1", "phone-a", {})
    assert claim is not None and (claim.task_id, claim.serial) == (task_id, "phone-a")
    assert farm.claim("h1", "phone-a", {}) is None  # claimed once
    assert farm.claimed_unfinished("phone-a") == [task_id]
    farm.mark_done(task_id)
    assert farm.claimed_unfinished("phone-a") == []


def test_a_pool_task_goes_to_a_phone_with_its_labels_and_stays_there(store: Store) -> None:
    farm = FarmStore(store)
    task_id = farm.enqueue(make_task(), None, parse_labels(["model=Pixel 8"]))
    assert farm.claim("h1", "phone-a", {"model": "Galaxy"}) is None
    claim = farm.claim("h2", "phone-b", {"model": "Pixel 8", "android": "14"})
    assert claim is not None and claim.task_id == task_id
    task = store.load_task(task_id)
    assert task.device_serial == "phone-b" and task.version == 2  # bound; the version moved on
    assert farm.claim("h1", "phone-c", {"model": "Pixel 8"}) is None


def test_racing_claimers_take_every_task_exactly_once(settings: Settings, tmp_path: Path) -> None:
    with Store.open(settings=settings) as store:
        farm = FarmStore(store)
        ids = {farm.enqueue(make_task(), None, {}) for _ in range(24)}
    db = settings.db_url or str(settings.db_path)
    procs = [start_python(CLAIMER.format(db=db, n=n), cwd=tmp_path) for n in range(3)]
    outs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0], [err for _, err in outs]
    claimed = [task_id for out, _ in outs for task_id in json.loads(out)]
    assert sorted(claimed) == sorted(ids)  # none twice, none lost


def test_a_host_without_heartbeat_has_its_phones_marked_absent(store: Store) -> None:
    farm = FarmStore(store)
    farm.register_host("h1", 100)
    farm.heartbeat("h1", {"phone-a": {"model": "x"}, "phone-b": {}})
    farm.register_host("h2", 200)
    farm.heartbeat("h2", {"phone-c": {}})
    farm.heartbeat("h1", {"phone-a": {"model": "x"}})  # phone-b was unplugged
    with store._write(fenced=False) as conn:  # h2's last heartbeat was a minute ago
        conn.execute(sa.update(HOST).where(HOST.c.name == "h2").values(heartbeat_at=utcnow() - timedelta(seconds=60)))
    assert farm.mark_dead_hosts(ttl_s=30) == ["h2"]
    view = farm.view(stale_after_s=30)
    assert {d["serial"]: d["present"] for d in view.devices} == {"phone-a": True, "phone-b": False,
                                                                  "phone-c": False}
    assert {h["name"]: h["state"] for h in view.hosts} == {"h1": "up", "h2": "dead (no heartbeat)"}
    farm.stop_host("h1")
    assert {h["name"]: h["state"] for h in farm.view().hosts}["h1"] == "stopped"
