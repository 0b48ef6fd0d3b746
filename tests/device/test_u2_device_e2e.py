"""U2Device end to end: the real adb server -> adbutils -> uiautomator2 -> the simulated phone.

Side effects are counted on the phone itself: every tap on the Wi-Fi switch of Settings logs one
`wifi_toggled` effect, so "how many taps really landed" is read from the phone, not from us.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

import pytest

from starebrain.device import DeviceTimeouts, U2Device
from starebrain.errors import (
    ActionOutcomeUnknown,
    BadInput,
    DeviceError,
    DeviceNotFound,
    DeviceOffline,
    DeviceTimeout,
    UiServerGone,
)
from starebrain.models.selector import Selector
from starebrain.snapshot import ScreenSnapshot

pytestmark = pytest.mark.e2e

SETTINGS = "com.android.settings"
MESSAGES = "com.google.android.apps.messaging"
LAUNCHER = "com.android.launcher3"


@pytest.fixture
def dev(sim: Any) -> Any:
    device = U2Device(sim.serial)
    yield device
    device.close()


def _snap(dev: U2Device) -> ScreenSnapshot:
    return ScreenSnapshot.from_xml(dev.observe().hierarchy_xml)


def _tap_on(dev: U2Device, **selector: Any) -> None:
    snap = _snap(dev)
    node = snap.resolve(Selector(**selector))
    assert node is not None, f"{selector} not on screen: {snap.visible_texts}"
    dev.tap(*snap.tap_point(node))


def _wifi_switch(dev: U2Device) -> tuple[int, int]:
    """Open Settings > Network & internet; the point of the Wi-Fi switch."""
    dev.open_app(SETTINGS)
    _tap_on(dev, text="Network & internet")
    snap = _snap(dev)
    node = snap.resolve(Selector(text="Wi-Fi"))
    assert node is not None
    return snap.tap_point(node)


def _toggles(sim: Any) -> int:
    return int(sim.call(lambda phone: phone.state()["side_effects"]).get("wifi_toggled", 0))


def _commands_so_far(sim: Any) -> int:
    device = sim.server.device
    return int(device.commands_run + device.rpcs_run)


def _set_fault(sim: Any, name: str, value: Any) -> None:
    sim.call(lambda phone: setattr(phone.faults, name, value))


def test_observe_reports_screen_app_size_and_screenshot(dev: U2Device) -> None:
    obs = dev.observe(screenshot=True)
    assert obs.package == LAUNCHER and obs.activity
    assert (obs.width, obs.height) == (1080, 2400)
    assert ScreenSnapshot.from_xml(obs.hierarchy_xml).nodes
    assert obs.screenshot is not None and obs.screenshot[:2] in (b"\xff\xd8", b"\x89P")  # JPEG or PNG
    assert dev.observe().screenshot is None


def test_open_app_current_app_and_installed_packages(dev: U2Device) -> None:
    assert SETTINGS in dev.installed_packages()
    dev.open_app(SETTINGS)
    assert dev.current_app()[0] == SETTINGS
    assert dev.brand() == "starebrain"


def test_tap_lands_once_and_changes_the_screen(dev: U2Device, sim: Any) -> None:
    point = _wifi_switch(dev)
    assert "Connected to Rivera-Home-5G" in _snap(dev).visible_texts
    dev.tap(*point)
    assert _toggles(sim) == 1
    assert "Wi-Fi is off" in _snap(dev).visible_texts


def test_press_back_recents_and_home(dev: U2Device) -> None:
    _wifi_switch(dev)
    dev.press("back")
    settings_list = _snap(dev)
    assert "Network & internet" in settings_list.visible_texts  # back on the Settings list
    dev.press("recents")
    assert _snap(dev).hash != settings_list.hash  # the recents overview covers the app
    dev.press("home")
    assert dev.current_app()[0] == LAUNCHER


def test_swipe_scrolls_a_list(dev: U2Device) -> None:
    dev.open_app(MESSAGES)
    before = _snap(dev).visible_texts
    dev.swipe("up")
    after = _snap(dev).visible_texts
    assert after != before and "Dana Whitfield" not in after  # the top thread scrolled away
    dev.swipe("down")
    assert "Dana Whitfield" in _snap(dev).visible_texts


def test_type_text_replaces_the_focused_field_without_the_clipboard(dev: U2Device, sim: Any) -> None:
    sim.call(lambda phone: phone.set_clipboard("what the person copied"))
    dev.open_app(MESSAGES)
    _tap_on(dev, text="Dana Whitfield")
    _tap_on(dev, resource_id=f"{MESSAGES}:id/compose_message_text")
    dev.type_text("first draft")
    dev.type_text("Invoice attached — grüße ✓")  # replaces, and non-ASCII survives
    field = _snap(dev).resolve(Selector(resource_id=f"{MESSAGES}:id/compose_message_text"))
    assert field is not None and field.text == "Invoice attached — grüße ✓"
    assert sim.call(lambda phone: phone.get_clipboard()) == "what the person copied"  # never read or set


def test_type_text_with_no_focused_field_sends_nothing(dev: U2Device) -> None:
    from starebrain.errors import BadInput

    dev.open_app(MESSAGES)
    before = _snap(dev).hash
    with pytest.raises(BadInput, match="no focused field"):
        dev.type_text("lost words")
    assert _snap(dev).hash == before


def test_long_press_is_sent(dev: U2Device, sim: Any) -> None:
    point = _wifi_switch(dev)
    dev.long_press(*point, duration_s=0.2)
    assert _toggles(sim) == 1  # a long press on a switch still toggles it, once


def test_unknown_serial_names_the_attached_ones(sim: Any) -> None:
    with pytest.raises(DeviceNotFound) as info:
        U2Device("no-such-phone")
    assert sim.serial in str(info.value) and "\n" not in str(info.value)
    assert info.value.exit_code == 4


def test_phone_disappears_mid_run_and_no_tap_is_duplicated(dev: U2Device, sim: Any) -> None:
    point = _wifi_switch(dev)
    _set_fault(sim, "disconnect_for_s", 2.0)
    _set_fault(sim, "disconnect_after_commands", _commands_so_far(sim) + 4)
    landed_for_sure, unknown = 0, 0
    failure: DeviceError | None = None
    for _ in range(10):
        try:
            dev.tap(*point)
            landed_for_sure += 1
        except ActionOutcomeUnknown as exc:
            unknown, failure = 1, exc
            break
        except (DeviceOffline, UiServerGone, DeviceTimeout) as exc:
            failure = exc
            break
    assert failure is not None, "the phone never went away"
    toggles = _toggles(sim)
    assert landed_for_sure <= toggles <= landed_for_sure + unknown  # never a second copy of a tap
    dev.wait_online(timeout_s=20)
    dev.tap(*point)
    assert _toggles(sim) == toggles + 1
    assert dev.reconnects >= 1


def test_connection_dropped_while_a_tap_is_in_flight_is_outcome_unknown(dev: U2Device, sim: Any) -> None:
    point = _wifi_switch(dev)
    sim.call(lambda phone: setattr(phone.timing, "action_ms", 800.0))  # the tap takes a while
    timer = threading.Timer(0.3, lambda: sim.host.loop.call_soon_threadsafe(sim.server.drop, 2.0))
    timer.start()
    with pytest.raises(ActionOutcomeUnknown) as info:
        dev.tap(*point)  # sent, then the phone vanished before answering
    assert "not re-sent" in str(info.value)
    sim.call(lambda phone: setattr(phone.timing, "action_ms", 0.0))
    dev.wait_online(timeout_s=20)
    toggles = _toggles(sim)
    assert toggles <= 1  # it may have landed; it was certainly not sent twice
    dev.tap(*point)
    assert _toggles(sim) == toggles + 1


def test_u2_server_crash_is_recovered_without_a_duplicated_tap(dev: U2Device, sim: Any) -> None:
    point = _wifi_switch(dev)
    _set_fault(sim, "u2_crash_after_rpcs", sim.server.device.rpcs_run + 3)
    landed, unknown = 0, 0
    for _ in range(8):
        try:
            dev.tap(*point)
            landed += 1
        except ActionOutcomeUnknown:
            unknown += 1  # the answer of the crashing call was lost: not re-sent, count it apart
    assert dev.reconnects >= 1  # the server did die and was relaunched
    assert landed >= 7
    assert landed <= _toggles(sim) <= landed + unknown


def test_slow_action_past_its_deadline_is_outcome_unknown_and_not_resent(dev: U2Device, sim: Any) -> None:
    point = _wifi_switch(dev)  # navigated with the default deadlines: a loaded machine must not fail the setup
    slow = U2Device(sim.serial, timeouts=DeviceTimeouts(action_s=1.0))
    try:
        slow.observe()  # connected before the phone turns slow
        sim.call(lambda phone: setattr(phone.timing, "action_ms", 4000.0))
        with pytest.raises(ActionOutcomeUnknown):
            slow.tap(*point)
        sim.call(lambda phone: setattr(phone.timing, "action_ms", 0.0))
        deadline = time.monotonic() + 15.0
        while _toggles(sim) == 0 and time.monotonic() < deadline:
            time.sleep(0.1)  # the phone finishes the tap it had received
        time.sleep(0.5)  # a re-send would land within this
        assert _toggles(sim) == 1  # it happened, exactly once
    finally:
        slow.close()


def test_observations_survive_a_server_crash(dev: U2Device, sim: Any) -> None:
    dev.observe()
    server_before = sim.server.device.listeners[9008]
    _set_fault(sim, "u2_crash_after_rpcs", sim.server.device.rpcs_run + 1)
    for _ in range(4):
        assert dev.observe().hierarchy_xml  # the crash in between is absorbed: observing is safe to repeat
    assert sim.server.device.listeners[9008] is not server_before  # it did crash and was relaunched


def test_unplugged_phone_is_offline_for_observations_and_actions(start_sim: Any) -> None:
    other = start_sim()
    dev = U2Device(other.serial)
    try:
        dev.observe()
        other.stop()
        with pytest.raises(DeviceOffline):
            dev.observe()
        with pytest.raises(DeviceOffline):
            dev.tap(10, 10)  # refused before sending: not an unknown outcome
    finally:
        dev.close()


def test_no_adb_server_is_offline_not_a_crash(sim: Any) -> None:
    from starebrain.sim.adb_server import free_port

    with pytest.raises(DeviceOffline) as info:
        U2Device(sim.serial, adb_port=free_port())
    assert "adb server" in str(info.value)


def test_attached_devices_lists_the_sim_with_its_model(sim: Any) -> None:
    from starebrain.device.attached import describe_devices, list_serials

    found = {d["serial"]: d for d in describe_devices()}
    assert found[sim.serial]["state"] == "device" and found[sim.serial]["model"] == "StareBrain_Sim"
    assert sim.serial in list_serials()


def test_typed_text_never_reaches_the_logs_even_at_debug(dev: U2Device, caplog: pytest.LogCaptureFixture) -> None:
    dev.open_app(MESSAGES)
    _tap_on(dev, text="Dana Whitfield")
    _tap_on(dev, resource_id=f"{MESSAGES}:id/compose_message_text")
    caplog.set_level(logging.DEBUG)
    dev.observe()
    assert "dumpWindowHierarchy" in caplog.text  # uiautomator2 logs each request's params at DEBUG...
    dev.type_text("hunter2-secret-value")
    assert "hunter2-secret-value" not in caplog.text  # ...but the typed text is never among them


def test_wait_online_gives_up_with_offline_when_the_phone_stays_away(start_sim: Any) -> None:
    other = start_sim()
    dev = U2Device(other.serial)
    try:
        other.stop()
        with pytest.raises(DeviceOffline):
            dev.wait_online(timeout_s=1.5)
    finally:
        dev.close()


def test_soak_under_both_fault_scenarios_never_duplicates_a_tap(dev: U2Device, sim: Any) -> None:
    """The sim's own fault scenarios (drop after 40 commands, server crash after 30 RPCs) during a
    run of observe + tap: every tap lands at most once, and the run gets through both faults."""
    sim.reset(scenario="disconnect+u2_crash")
    sim.wait_online()
    dev.wait_online()
    point = _wifi_switch(dev)
    landed, unknown = 0, 0
    faults: list[DeviceError] = []
    for _ in range(30):
        try:
            dev.observe()
            dev.tap(*point)
            landed += 1
        except ActionOutcomeUnknown as exc:
            unknown, faults = unknown + 1, [*faults, exc]
        except (DeviceOffline, UiServerGone, DeviceTimeout) as exc:
            faults.append(exc)
            dev.wait_online(timeout_s=20)
    assert faults, "neither fault fired"
    assert landed >= 25
    assert landed <= _toggles(sim) <= landed + unknown


def test_open_app_fresh_starts_on_the_first_screen(dev: U2Device) -> None:
    messages = "com.google.android.apps.messaging"
    dev.open_app(messages)
    snap = _snap(dev)
    first = snap.resolve(Selector(resource_id=f"{messages}:id/conversation_name"))
    assert first is not None
    dev.tap(*snap.tap_point(first))
    thread = Selector(resource_id=f"{messages}:id/conversation_title")
    assert _snap(dev).resolve(thread) is not None
    dev.open_app(messages)  # brought back where it was
    assert _snap(dev).resolve(thread) is not None
    dev.open_app(messages, fresh=True)  # force-stopped first: the conversation list again
    assert _snap(dev).resolve(thread) is None
    assert _snap(dev).resolve(Selector(resource_id=f"{messages}:id/conversation_name")) is not None


def test_open_link_opens_the_app_that_takes_it_once_and_refuses_a_link_nobody_takes(dev: U2Device, sim: Any) -> None:
    dev.open_link("sms:+15550100")
    assert dev.current_app()[0] == MESSAGES
    with pytest.raises(BadInput, match="no app opened"):
        dev.open_link("nobody-handles:this", None)
    with pytest.raises(BadInput, match="no app opened"):  # -p limits the intent to one app
        dev.open_link("sms:+15550100", SETTINGS)
    effects = sim.call(lambda phone: phone.state()["effects"])
    assert [e["url"] for e in effects if e["kind"] == "link_opened"] == ["sms:+15550100"]
