"""Checkable state: counts, content queries, determinism, and persistence across restarts."""

from __future__ import annotations

import json
import pathlib

from starebrain.sim.world import build_phone, read_state
from starebrain.sim.world.state import STATE_FILE
from tests.sim.world.conftest import find, get, tap

MESSAGING = "com.google.android.apps.messaging"


def send_sms(phone, text: str) -> None:  # type: ignore[no-untyped-def]
    phone.start_app(MESSAGING)
    tap(phone, text="Dana Whitfield")
    phone.set_text(get(phone, rid="compose_message_text"), text)
    tap(phone, rid="send_message_button")


def test_a_repeated_side_effect_is_counted_not_hidden() -> None:
    phone = build_phone()
    send_sms(phone, "Invoice sent")
    phone.set_text(get(phone, rid="compose_message_text"), "Invoice sent")
    tap(phone, rid="send_message_button")
    assert phone.state()["side_effects"] == {"message_sent": 2}
    assert phone.content_query("content://starebrain/outbox") == (
        "Row: 0 to=Dana Whitfield, body=Invoice sent, count=2")
    assert phone.content_query("content://starebrain/state") == "Row: 0 kind=message_sent, count=2"
    effects = phone.content_query("content://starebrain/effects").splitlines()
    assert effects == ["Row: 0 kind=message_sent, seq=1, to=Dana Whitfield, body=Invoice sent",
                       "Row: 1 kind=message_sent, seq=2, to=Dana Whitfield, body=Invoice sent"]


def test_unknown_or_empty_queries_say_no_result() -> None:
    phone = build_phone()
    assert phone.content_query("content://starebrain/outbox") == "No result found."
    assert phone.content_query("content://starebrain/nope") == "No result found."
    assert phone.content_query("content://sms/inbox") == "No result found."


def test_state_is_json_and_holds_app_data() -> None:
    phone = build_phone()
    state = phone.state()
    json.dumps(state)
    assert state["side_effects"] == {}
    projects = state["apps"]["com.google.android.apps.tasks"]["projects"]  # type: ignore[index]
    assert projects[0]["title"] == "Whitfield website redesign"


def test_same_scenario_and_seed_give_the_same_screens() -> None:
    a, b = build_phone("obstacle_course", seed=5), build_phone("obstacle_course", seed=5)
    for phone in (a, b):
        phone.start_app(MESSAGING)
    assert [a.hierarchy_xml() for _ in range(5)] == [b.hierarchy_xml() for _ in range(5)]
    assert a.screenshot() == b.screenshot()


def test_the_seed_shuffles_filler_but_keeps_the_client_on_top() -> None:
    orders = set()
    for seed in (0, 1, 2, 3):
        phone = build_phone(seed=seed)
        phone.start_app(MESSAGING)
        names = [n.attrs["text"] for n in phone.root().iter() if n.attrs.get("resource-id", "").endswith(
            "conversation_name")]
        assert names[0] == "Dana Whitfield"
        orders.add(tuple(names))
    assert len(orders) > 1


def test_state_persists_in_the_state_dir_and_a_restarted_sim_keeps_it(tmp_path: pathlib.Path) -> None:
    phone = build_phone(state_dir=tmp_path)
    send_sms(phone, "Invoice sent")
    assert (tmp_path / STATE_FILE).exists()
    on_disk = read_state(tmp_path)
    assert on_disk is not None and on_disk["side_effects"] == {"message_sent": 1}
    restarted = build_phone(state_dir=tmp_path)
    assert restarted.state()["side_effects"] == {"message_sent": 1}
    restarted.start_app(MESSAGING)
    tap(restarted, text="Dana Whitfield")
    assert find(restarted, text="Invoice sent") is not None
    send_sms(restarted, "Second")
    assert read_state(tmp_path)["side_effects"] == {"message_sent": 2}  # type: ignore[index]


def test_no_state_dir_writes_nothing(tmp_path: pathlib.Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(tmp_path)
    send_sms(build_phone(), "hello")
    assert list(tmp_path.iterdir()) == []
    assert read_state(tmp_path) is None


def test_first_open_obstructions_do_not_return_after_a_restart(tmp_path: pathlib.Path) -> None:
    phone = build_phone("rate_us", state_dir=tmp_path)
    phone.start_app(MESSAGING)
    tap(phone, text="Not now")
    restarted = build_phone("rate_us", state_dir=tmp_path)
    restarted.start_app(MESSAGING)
    assert find(restarted, text="Not now") is None
