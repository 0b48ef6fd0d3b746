"""Device tags: set, replace, remove and read on both databases; claims match them; 0003 databases upgrade."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa

from starebrain.config import load_settings
from starebrain.errors import BadInput
from starebrain.models import utcnow
from starebrain.store import HEAD_REVISION, Store
from starebrain.store.device_tags import DeviceTags, parse_tags
from starebrain.store.farm import HOST, FarmStore
from starebrain.store.schema import alembic_config
from tests.postgres import PgServer
from tests.store.sample import make_task


def test_tags_are_set_replaced_removed_and_listed(store: Store) -> None:
    tags = DeviceTags(store)
    assert tags.tags("phone-a") == {}
    assert tags.set_tags("phone-a", {"bank": "logged-in", "sim": "prepaid"}) == {"bank": "logged-in",
                                                                                 "sim": "prepaid"}
    assert tags.set_tags("phone-a", {"sim": "contract"}) == {"bank": "logged-in", "sim": "contract"}
    tags.set_tags("phone-b", {"bank": "no"})
    assert tags.remove_tags("phone-a", ["sim", "absent"]) == ["sim"]
    assert tags.tags("phone-a") == {"bank": "logged-in"}
    assert tags.all_tags() == {"phone-a": {"bank": "logged-in"}, "phone-b": {"bank": "no"}}


@pytest.mark.parametrize(("pair", "message"), [
    ("bank", "tag 'bank' is not key=value"),
    ("=yes", "a tag needs a key (key=value)"),
    ("bank=", "tag 'bank=' has no value (--remove bank drops a tag)"),
    ("model=Pixel", "tag 'model' is reserved: the daemon sets host, model, android, brand itself"),
    ("host=lab-1", "tag 'host' is reserved: the daemon sets host, model, android, brand itself"),
])
def test_bad_tags_are_refused_with_one_line(pair: str, message: str) -> None:
    with pytest.raises(BadInput) as info:
        parse_tags([pair])
    assert str(info.value) == message


def test_a_reserved_key_is_never_stored(store: Store) -> None:
    with pytest.raises(BadInput):
        DeviceTags(store).set_tags("phone-a", {"brand": "x"})
    assert DeviceTags(store).all_tags() == {}


def test_a_pool_task_waits_for_a_tag_set_while_the_daemon_runs(store: Store) -> None:
    farm, tags = FarmStore(store), DeviceTags(store)
    daemon_labels = {"model": "Pixel 8", "host": "h1"}
    task_id = farm.enqueue(make_task(), None, parse_tags(["bank=yes"]))
    assert farm.claim("h1", "phone-a", daemon_labels) is None
    tags.set_tags("phone-b", {"bank": "yes"})  # another phone's tag does not count
    assert farm.claim("h1", "phone-a", daemon_labels) is None
    tags.set_tags("phone-a", {"bank": "yes"})
    claim = farm.claim("h1", "phone-a", daemon_labels)  # the same labels: the tag is read at claim time
    assert claim is not None and claim.task_id == task_id


def test_the_farm_view_shows_a_phones_tags_as_they_are_now(store: Store) -> None:
    farm, tags = FarmStore(store), DeviceTags(store)
    farm.register_host("h1", 1)
    farm.heartbeat("h1", {"phone-a": {"model": "Pixel 8", "host": "h1"}})
    tags.set_tags("phone-a", {"sim": "prepaid"})
    (device,) = farm.view("h1").devices
    assert device["tags"] == {"sim": "prepaid"}
    assert device["labels"] == {"model": "Pixel 8", "host": "h1", "sim": "prepaid"}
    tags.remove_tags("phone-a", ["sim"])
    (device,) = farm.view().devices
    assert (device["tags"], device["labels"]) == ({}, {"model": "Pixel 8", "host": "h1"})


def test_a_0003_database_upgrades_keeping_its_rows(backend: str, tmp_path: Path,
                                                   request: pytest.FixtureRequest) -> None:
    if backend == "postgresql":
        server: PgServer = request.getfixturevalue("pg_server")
        db = url = server.create_database()
    else:
        db, url = str(tmp_path / "old.db"), f"sqlite:///{tmp_path / 'old.db'}"
    from alembic import command

    engine = sa.create_engine(url)
    with engine.begin() as conn:
        command.upgrade(alembic_config(conn), "0003_farm")
        conn.execute(sa.insert(HOST).values(name="h1", pid=7, started_at=utcnow(), heartbeat_at=utcnow(),
                                            state="UP"))
    engine.dispose()
    with Store.open(db, settings=load_settings(home=tmp_path / "home")) as store:
        with store._read() as conn:
            assert conn.exec_driver_sql("SELECT version_num FROM alembic_version").scalar() == HEAD_REVISION
        assert [h["name"] for h in FarmStore(store).view().hosts] == ["h1"]
        assert DeviceTags(store).set_tags("phone-a", {"bank": "yes"}) == {"bank": "yes"}
