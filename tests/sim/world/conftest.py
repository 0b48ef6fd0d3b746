"""A person's hand for the world tests: find a node on screen and touch its centre."""

from __future__ import annotations

import pytest

from starebrain.sim.phone import UiNode
from starebrain.sim.world.world_phone import WorldPhone


def nodes(phone: WorldPhone) -> list[UiNode]:
    """Every node on screen now (observing without counting an observation)."""
    return phone.root().iter()[1:]


def find(phone: WorldPhone, text: str | None = None, rid: str | None = None, desc: str | None = None,
         package: str | None = None) -> UiNode | None:
    """The first node matching every given attribute (rid matches the id's tail after `:id/`)."""
    for node in nodes(phone):
        a = node.attrs
        if text is not None and a["text"] != text:
            continue
        if rid is not None and a["resource-id"] != rid and not a["resource-id"].endswith(f":id/{rid}"):
            continue
        if desc is not None and a["content-desc"] != desc:
            continue
        if package is not None and a["package"] != package:
            continue
        return node
    return None


def get(phone: WorldPhone, **match: str) -> UiNode:
    """The matching node; fail the test if it is not on screen."""
    node = find(phone, **match)
    assert node is not None, f"not on screen: {match}"
    return node


def tap(phone: WorldPhone, **match: str) -> None:
    """Tap the centre of the matching node; fail the test if it is not on screen."""
    node = find(phone, **match)
    assert node is not None, f"not on screen: {match}"
    phone.tap(*node.center())


def texts(phone: WorldPhone) -> list[str]:
    """All non-empty texts on screen."""
    return [n.attrs["text"] for n in nodes(phone) if n.attrs.get("text")]


@pytest.fixture
def phone() -> WorldPhone:
    from starebrain.sim.world import build_phone

    return build_phone()
