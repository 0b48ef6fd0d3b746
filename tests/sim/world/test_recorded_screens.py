"""Apps made of real recorded dumps: u2 drives them end to end through the real adb server."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterator
from typing import Any

import pytest

from starebrain.sim.world import build_phone
from starebrain.sim.world.recorded_screens import load_dump

ATTENDEASE = "com.anurag203.attendease"
JUSTDIAL = "com.justdial.search"


def test_a_recorded_screen_keeps_every_node_and_attribute() -> None:
    phone = build_phone("recorded_apps")
    phone.start_app(JUSTDIAL)
    dumped = ET.fromstring(phone.hierarchy_xml().encode())
    ids = [n.get("resource-id") for n in dumped.iter("node") if n.get("package") == JUSTDIAL]
    (_, windows) = load_dump("018_inline_loadmore_justdial_list.xml")
    assert len(ids) == 192 and ids.count("com.justdial.search:id/mainlay") == 6
    assert windows[0][0]["class"] == "android.widget.FrameLayout"


@pytest.fixture
def recorded_u2(sim: Any) -> Iterator[Any]:
    import uiautomator2 as u2

    sim.reset(scenario="recorded_apps")
    yield u2.connect(sim.serial)
    sim.reset(scenario="default")


@pytest.mark.e2e
def test_u2_walks_attendease_from_its_permission_prompt_to_history(recorded_u2: Any, sim: Any) -> None:
    d = recorded_u2
    d.app_start(ATTENDEASE)
    allow = d(resourceId="com.android.permissioncontroller:id/permission_allow_foreground_only_button")
    assert allow.wait(timeout=5) and allow.info["text"] == "While using the app"
    allow.click()
    assert d(text="Attendance History").wait(timeout=5)
    assert d(className="android.widget.ProgressBar").exists  # the recorded screen was still loading
    effects = sim.call(lambda phone: phone.state()["effects"])
    assert effects[-1]["kind"] == "permission_answered" and effects[-1]["answer"] == "while_using"
    d.app_auto_grant_permissions(ATTENDEASE)  # reads `dumpsys package`, grants what is not granted yet
    granted = d.shell(["dumpsys", "package", ATTENDEASE]).output
    assert "android.permission.CAMERA: granted=true" in granted
    assert "android.permission.ACCESS_FINE_LOCATION: granted=true" in granted
    assert d.app_info(ATTENDEASE) == {"versionName": "1.0.0", "versionCode": 1}
    d(description="Navigate up").click()
    assert d.app_current()["package"] != ATTENDEASE or not d(text="Attendance History").exists


@pytest.mark.e2e
def test_u2_taps_a_call_button_in_a_192_node_recorded_list(recorded_u2: Any, sim: Any) -> None:
    d = recorded_u2
    d.app_start(JUSTDIAL)
    assert d(resourceId=f"{JUSTDIAL}:id/mainlay").wait(timeout=5)
    assert d(text="Hospitals").count == 2
    assert d.screenshot().size == (1080, 2400)  # real screens' tiny and zero-size nodes still render
    d.clear_toast()
    d(resourceId=f"{JUSTDIAL}:id/calllaychild1").click()
    assert d.last_toast == "Calling…"
    assert d.xpath('//*[@resource-id="com.justdial.search:id/node1"]').all()[0].text == "Hospitals"
