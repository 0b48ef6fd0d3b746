"""The in-memory FakeDevice other engineers' executor tests rely on."""

from __future__ import annotations

import pytest

from starebrain.device.base import Device
from starebrain.errors import ActionOutcomeUnknown, DeviceOffline, DeviceTimeout
from tests.fakes import FakeDevice, FakeNode, FakeScreen, screen_xml

SEND = FakeNode(text="Send", resource_id="com.chat:id/send", bounds=(900, 1700, 1060, 1800), clickable=True)
BOX = FakeNode(text="", resource_id="com.chat:id/entry", class_name="android.widget.EditText",
               bounds=(20, 1700, 880, 1800), focused=True)


def _chat() -> FakeDevice:
    thread = FakeScreen("thread", screen_xml("com.chat", [BOX, SEND]), package="com.chat",
                        activity=".Thread", on_tap={"text=Send": "sent"}, on_press={"back": "list"})
    sent = FakeScreen("sent", screen_xml("com.chat", [FakeNode(text="Delivered", bounds=(0, 0, 500, 80))]),
                      package="com.chat", activity=".Thread")
    lst = FakeScreen("list", screen_xml("com.chat", [FakeNode(text="Ana", bounds=(0, 200, 1080, 320))]),
                     package="com.chat", activity=".Main", on_tap={"text=Ana": "thread"})
    return FakeDevice([lst, thread, sent])


def test_is_a_device_and_taps_move_between_screens() -> None:
    dev = _chat()
    assert isinstance(dev, Device)
    dev.tap(500, 250)
    assert dev.observe().extras["fake_screen"] == "thread"
    dev.tap(980, 1750)
    assert dev.current == "sent"
    assert dev.actions == [("tap", 500, 250), ("tap", 980, 1750)]


def test_tap_outside_any_transition_stays_and_is_still_counted() -> None:
    dev = _chat()
    dev.tap(5, 5)
    assert dev.current == "list" and dev.actions == [("tap", 5, 5)]


def test_type_text_replaces_the_focused_field() -> None:
    dev = _chat()
    dev.go("thread")
    dev.type_text("hello")
    dev.type_text("bye")
    assert 'text="bye"' in dev.observe().hierarchy_xml and dev.typed == ["hello", "bye"]


def test_goes_offline_after_n_calls_until_it_comes_back() -> None:
    dev = _chat()
    dev.offline_after_calls = 2
    dev.observe()
    dev.tap(500, 250)
    with pytest.raises(DeviceOffline):
        dev.press("back")
    assert dev.actions == [("tap", 500, 250)]
    dev.come_back()
    dev.press("back")
    assert dev.current == "list"


@pytest.mark.parametrize("performed", [True, False])
def test_outcome_unknown_action(performed: bool) -> None:
    dev = _chat()
    dev.go("thread")
    dev.outcome_unknown_next_action(performed=performed)
    with pytest.raises(ActionOutcomeUnknown):
        dev.tap(980, 1750)
    assert (dev.current == "sent") is performed
    assert len(dev.actions) == int(performed)


def test_slow_calls_time_out() -> None:
    dev = _chat()
    dev.delay_s, dev.timeout_s = 0.5, 0.05
    with pytest.raises(DeviceTimeout):
        dev.observe()
    with pytest.raises(ActionOutcomeUnknown):
        dev.tap(1, 1)


def test_open_app_goes_to_the_app_launch_screen() -> None:
    dev = _chat()
    dev.go("sent")
    dev.open_app("com.chat")
    assert dev.current == "list" and dev.current_app() == ("com.chat", ".Main")
    assert dev.installed_packages() == ["com.chat"]


def test_wait_online_follows_the_offline_switch() -> None:
    dev = _chat()
    dev.offline_after_calls = 0
    with pytest.raises(DeviceOffline):
        dev.observe()
    with pytest.raises(DeviceOffline):
        dev.wait_online()
    dev.come_back()
    dev.wait_online()
    assert dev.observe().package == "com.chat"
