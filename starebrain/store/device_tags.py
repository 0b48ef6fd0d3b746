"""Device tags: key=value pairs a person puts on one phone (`starebrain devices label`).

They live in the shared store, so every host of a farm sees them, and may be set before the phone
is ever attached. A daemon's worker matches queued tasks against the phone's labels merged with
its tags, read in the claim's own transaction: a tag set while the daemon runs counts at the next
claim. The keys the daemon sets itself (RESERVED) cannot be tags; a tag replaces the daemon's
`--label` of the same key (it is about this one phone, the label about every phone of the host).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from starebrain.errors import BadInput
from starebrain.models import utcnow
from starebrain.store import tasks
from starebrain.store.tables import DeviceTagRow

if TYPE_CHECKING:
    from starebrain.store.repository import Store

TAG = DeviceTagRow.__table__  # type: ignore[attr-defined]
RESERVED = ("host", "model", "android", "brand")  # read from the phone or its host by the daemon


def check_key(key: str) -> str:
    """The key, stripped; BadInput when it is empty or one the daemon sets itself."""
    key = key.strip()
    if not key:
        raise BadInput("a tag needs a key (key=value)")
    if key in RESERVED:
        raise BadInput(f"tag {key!r} is reserved: the daemon sets {', '.join(RESERVED)} itself")
    return key


def parse_tags(pairs: Iterable[str]) -> dict[str, str]:
    """`key=value` strings as a dict; BadInput naming a malformed pair, an empty key or value, a reserved key."""
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise BadInput(f"tag {pair!r} is not key=value")
        if not value.strip():
            raise BadInput(f"tag {pair!r} has no value (--remove {key.strip() or 'KEY'} drops a tag)")
        out[check_key(key)] = value.strip()
    return out


def tags_of(conn: Connection, serials: Iterable[str] | None = None) -> dict[str, dict[str, str]]:
    """serial -> its tags, for these phones (every tagged phone with None), inside the caller's transaction."""
    query = sa.select(TAG.c.serial, TAG.c.key, TAG.c.value).order_by(TAG.c.serial, TAG.c.key)
    if serials is not None:
        query = query.where(TAG.c.serial.in_(list(serials)))
    out: dict[str, dict[str, str]] = {}
    for serial, key, value in conn.execute(query):
        out.setdefault(serial, {})[key] = value
    return out


class DeviceTags:
    """Set, remove and read one phone's tags, each call one transaction of the store."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def set_tags(self, serial: str, tags: dict[str, str]) -> dict[str, str]:
        """Add or replace these tags; returns all of the phone's tags after."""
        serial = _check_serial(serial)
        checked = {check_key(k): v for k, v in tags.items()}
        now = utcnow()
        with self.store._write(fenced=False) as conn:
            for key, value in sorted(checked.items()):
                tasks.upsert(conn, TAG, {"serial": serial, "key": key, "value": value, "updated_at": now},
                             ("serial", "key"))
            return tags_of(conn, [serial]).get(serial, {})

    def remove_tags(self, serial: str, keys: Iterable[str]) -> list[str]:
        """Drop these tags; returns the keys that were there (removing a missing tag is not an error)."""
        serial = _check_serial(serial)
        wanted = sorted({check_key(k) for k in keys})
        with self.store._write(fenced=False) as conn:
            had = tags_of(conn, [serial]).get(serial, {})
            gone = [k for k in wanted if k in had]
            if gone:
                conn.execute(sa.delete(TAG).where(TAG.c.serial == serial, TAG.c.key.in_(gone)))
        return gone

    def tags(self, serial: str) -> dict[str, str]:
        """The phone's tags (empty when it has none)."""
        serial = _check_serial(serial)
        with self.store._read() as conn:
            return tags_of(conn, [serial]).get(serial, {})

    def all_tags(self) -> dict[str, dict[str, str]]:
        """Every tagged phone's tags."""
        with self.store._read() as conn:
            return tags_of(conn)


def _check_serial(serial: str) -> str:
    if not serial.strip():
        raise BadInput("a phone serial is needed (see `starebrain devices`)")
    return serial.strip()
