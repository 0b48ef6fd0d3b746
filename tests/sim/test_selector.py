"""UiSelector semantics of the u2 server on UiNode trees (docs/sim.md)."""

from __future__ import annotations

from typing import Any

import pytest

from starebrain.sim.u2server.selector import SelectorError, describe, find_all
from tests.sim.fake_phone import NOTES, FakePhone

MASK = {"text": 0x01, "textContains": 0x02, "textMatches": 0x04, "textStartsWith": 0x08, "className": 0x10,
        "description": 0x40, "clickable": 0x1000, "scrollable": 0x4000, "resourceId": 0x200000,
        "index": 0x800000, "instance": 0x01000000}


def sel(**fields: Any) -> dict[str, Any]:
    """A selector as u2's Selector(dict) builds it."""
    return {"mask": sum(MASK[name] for name in fields), "childOrSibling": [], "childOrSiblingSelector": [],
            **fields}


@pytest.fixture
def notes_root() -> Any:
    phone = FakePhone()
    phone.start_app(NOTES)
    return phone.root()


def texts(nodes: list[Any]) -> list[str]:
    return [n.attrs.get("text", "") for n in nodes]


def test_exact_contains_startswith_and_matches(notes_root: Any) -> None:
    assert texts(find_all(notes_root, sel(text="Save"))) == ["Save"]
    assert texts(find_all(notes_root, sel(text="Sav"))) == []
    assert texts(find_all(notes_root, sel(textContains="tem 1"))) == ["Item 1"]
    assert texts(find_all(notes_root, sel(textStartsWith="Item ")))[0] == "Item 0"
    assert texts(find_all(notes_root, sel(textMatches=r"Item \d"))) == [f"Item {i}" for i in range(10)]
    assert find_all(notes_root, sel(textMatches="Item")) == []  # Java matches() is a full match


def test_fields_without_their_mask_bit_are_ignored(notes_root: Any) -> None:
    selector = sel(text="Save")
    selector["className"] = "android.widget.Nope"  # no 0x10 bit: does not count
    assert texts(find_all(notes_root, selector)) == ["Save"]


def test_boolean_class_resource_and_index(notes_root: Any) -> None:
    assert [n.attrs["class"] for n in find_all(notes_root, sel(scrollable=True))] == ["android.widget.ListView"]
    assert texts(find_all(notes_root, sel(resourceId=f"{NOTES}:id/save"))) == ["Save"]
    rows = find_all(notes_root, sel(className="android.widget.TextView", index=2))
    assert "Item 2" in texts(rows)


def test_instance_picks_the_nth_match_in_document_order(notes_root: Any) -> None:
    assert texts(find_all(notes_root, sel(textStartsWith="Item", instance=3))) == ["Item 3"]
    assert find_all(notes_root, sel(textStartsWith="Item", instance=99)) == []


def test_child_and_sibling(notes_root: Any) -> None:
    child = sel(scrollable=True)
    child["childOrSibling"] = ["child"]
    child["childOrSiblingSelector"] = [sel(text="Item 4")]
    assert texts(find_all(notes_root, child)) == ["Item 4"]
    sibling = sel(text="Save")
    sibling["childOrSibling"] = ["sibling"]
    sibling["childOrSiblingSelector"] = [sel(className="android.widget.EditText")]
    assert [n.key for n in find_all(notes_root, sibling)] == ["input"]


def test_bad_regex_and_describe(notes_root: Any) -> None:
    with pytest.raises(SelectorError, match="PatternSyntaxException"):
        find_all(notes_root, sel(textMatches="(unclosed"))
    assert describe(sel(text="OK", instance=1)) == "UiSelector[TEXT=OK, INSTANCE=1]"
