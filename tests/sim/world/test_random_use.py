"""A seeded random finger never breaks the world: every dump parses and stays on the display."""

from __future__ import annotations

import random

import pytest
from lxml import etree

from starebrain.sim.world import build_phone, scenario_names
from starebrain.sim.world.world_phone import WorldPhone

KEYS: list[str | int] = ["back", "home", "recent", "enter", "del", 4, 3, 66, 29, "space", "power", "wakeup"]
TEXTS = ["hello", "dana@whitfieldstudio.com", "500", "{form.to}", '&<>"']


def act(phone: WorldPhone, rng: random.Random) -> None:
    """One random thing a person might do."""
    roll = rng.random()
    touchable = [n for n in phone.root().iter()[1:] if n.attrs.get("clickable") == "true"]
    if roll < 0.55 and touchable:
        phone.tap(*rng.choice(touchable).center())
    elif roll < 0.65:
        phone.swipe(rng.randrange(1080), rng.randrange(2400), rng.randrange(1080), rng.randrange(2400))
    elif roll < 0.78:
        phone.press_key(rng.choice(KEYS))
    elif roll < 0.88:
        phone.input_text(rng.choice(TEXTS))
    elif roll < 0.95:
        phone.start_app(rng.choice(phone.installed_packages()))
    else:
        phone.stop_app(rng.choice(phone.installed_packages()))


@pytest.mark.parametrize("seed", range(6))
def test_random_use_keeps_the_world_consistent(seed: int) -> None:
    rng = random.Random(seed)
    phone = build_phone(scenario_names()[seed * 3 % len(scenario_names())], seed=seed)
    for _ in range(120):
        act(phone, rng)
        root = etree.fromstring(phone.hierarchy_xml().encode("utf-8"))
        assert root.tag == "hierarchy" and len(root) >= 2
        for node in phone.root().iter()[1:]:
            left, top, right, bottom = node.bounds
            assert 0 <= left < right <= 1080 and 0 <= top < bottom <= 2400, node.attrs
    assert set(phone.world.counts()) <= {
        "message_sent", "mail_sent", "transfer_made", "task_completed", "task_reopened", "note_saved",
        "wifi_toggled", "permission_answered", "dangerous_tap", "notification_opened"}
