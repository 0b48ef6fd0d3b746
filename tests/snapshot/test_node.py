from __future__ import annotations

import dataclasses

import pytest

from starebrain.snapshot.node import FLAG_FIELDS, Bounds, Node, new_node


def _fields() -> dict[str, object]:
    flags = dict.fromkeys(FLAG_FIELDS, False) | {"clickable": True, "enabled": True, "visible": True}
    return {"order": 3, "parent": 1, "depth": 2, "window_index": 0, "text": "Send", "resource_id": "app:id/send",
            "class_name": "android.widget.Button", "package": "app", "content_desc": "", "hint": "",
            "bounds": Bounds(1, 2, 30, 40), **flags, "drawing_order": 5, "index": 2}


def _fast(fields: dict[str, object]) -> Node:
    args = {k: v for k, v in fields.items() if k not in FLAG_FIELDS}
    return new_node(**args, flags=tuple(fields[f] for f in FLAG_FIELDS))  # type: ignore[arg-type]


def test_the_fast_constructor_makes_the_same_frozen_node_as_the_dataclass():
    fields = _fields()
    fast, slow = _fast(fields), Node(**fields)  # type: ignore[arg-type]
    assert type(fast) is Node
    assert fast == slow and hash(fast) == hash(slow) and repr(fast) == repr(slow)
    assert dataclasses.asdict(fast) == dataclasses.asdict(slow)
    with pytest.raises(dataclasses.FrozenInstanceError):
        fast.text = "Delete"  # type: ignore[misc]


def test_every_flag_lands_in_its_own_field():
    for name in FLAG_FIELDS:
        fields = _fields() | dict.fromkeys(FLAG_FIELDS, False) | {name: True}
        node = _fast(fields)
        assert [f for f in FLAG_FIELDS if getattr(node, f)] == [name]
