"""uiautomator2 3.7, unmodified, through adbutils and the real adb server against the FakePhone sim."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest
import uiautomator2 as u2

from tests.sim.fake_phone import LAUNCHER, NOTES

pytestmark = pytest.mark.e2e
U2_JAR = "/data/local/tmp/u2.jar"


def test_connect_pushes_the_real_jar_and_md5sum_matches(fake_sim: Any, fake_u2: Any) -> None:
    from uiautomator2.utils import with_package_resource

    with with_package_resource("assets/u2.jar") as jar:
        local_md5 = hashlib.md5(open(jar, "rb").read()).hexdigest()
    entry = fake_sim.server.device.files.read(U2_JAR)
    assert entry is not None and entry.md5() == local_md5
    assert local_md5 in fake_u2.shell(["toybox", "md5sum", U2_JAR]).output


def test_info_window_size_and_dump(fake_u2: Any) -> None:
    info = fake_u2.info
    assert (info["displayWidth"], info["displayHeight"], info["currentPackageName"]) == (1080, 1920, LAUNCHER)
    assert fake_u2.window_size() == (1080, 1920)
    xml = fake_u2.dump_hierarchy()
    assert xml.startswith("<?xml") and 'text="Notes"' in xml


def test_selector_click_exists_set_get_text(fake_sim: Any, fake_u2: Any) -> None:
    fake_u2(text="Notes").click()
    assert fake_u2.app_current()["package"] == NOTES
    field = fake_u2(resourceId=f"{NOTES}:id/input")
    assert field.exists and not fake_u2(text="Nope").exists
    field.set_text("buy milk")
    assert field.get_text() == "buy milk"
    fake_u2(text="Save").click()
    assert fake_sim.call(lambda phone: phone.saved) == ["buy milk"]
    assert fake_u2(resourceId=f"{NOTES}:id/count").get_text() == "1 saved"


def test_missing_element_waits_then_raises(fake_u2: Any) -> None:
    with pytest.raises(u2.UiObjectNotFoundError):
        fake_u2(text="Never there").click(timeout=0.3)
    assert fake_u2(text="Never there").wait(timeout=0.2) is False


def test_send_keys_types_through_the_clipboard(fake_sim: Any, fake_u2: Any) -> None:
    fake_u2.app_start(NOTES)
    fake_u2(resourceId=f"{NOTES}:id/input").click()
    fake_u2.send_keys("hello there")
    assert fake_sim.call(lambda phone: phone.draft) == "hello there"


def test_xpath_click_and_coordinate_click(fake_sim: Any, fake_u2: Any) -> None:
    fake_u2.xpath('//*[@text="Notes"]').click()
    assert fake_u2.app_current()["package"] == NOTES
    fake_u2.press("back")
    fake_u2.click(200, 350)
    assert fake_u2.app_current()["package"] == NOTES


def test_swipe_and_scroll_move_the_list(fake_sim: Any, fake_u2: Any) -> None:
    fake_u2.app_start(NOTES)
    assert not fake_u2(text="Item 15").exists
    fake_u2.swipe(540, 1700, 540, 1000, duration=0.1)
    assert fake_u2(text="Item 15").exists
    assert fake_u2(scrollable=True).scroll.to(text="Item 29")
    assert fake_u2(scrollable=True).scroll.toBeginning()
    assert fake_u2(text="Item 0").exists


def test_press_back_and_home(fake_sim: Any, fake_u2: Any) -> None:
    fake_u2.app_start(NOTES)
    fake_u2.press("home")
    assert fake_u2.app_current()["package"] == LAUNCHER
    fake_u2.app_start(NOTES)
    fake_u2.press("back")
    assert fake_sim.call(lambda phone: phone.events[-1]) == "key back"


def test_app_start_current_stop(fake_sim: Any, fake_u2: Any) -> None:
    fake_u2.app_start(NOTES, ".MainActivity")
    current = fake_u2.app_current()  # Android 14: from `dumpsys activity top`, short name and pid
    assert (current["package"], current["activity"]) == (NOTES, ".MainActivity")
    assert current["pid"] == int(fake_u2.shell(["pidof", NOTES]).output)
    fake_u2.app_stop(NOTES)
    assert fake_u2.app_current()["package"] == LAUNCHER
    fake_u2.app_start(NOTES)
    assert NOTES in fake_u2.app_list_running()
    assert fake_u2.app_current()["pid"] != current["pid"]  # a restarted app is a new process


def test_screenshot_both_ways(fake_u2: Any) -> None:
    assert fake_u2.screenshot().size == (1080, 1920)
    assert fake_u2.adb_device.screenshot().size == (1080, 1920)


def test_clipboard_toast_and_screen(fake_sim: Any, fake_u2: Any) -> None:
    fake_u2.clipboard = "copied"
    assert fake_u2.clipboard == "copied"
    fake_u2.screen_off()
    assert fake_u2.info["screenOn"] is False
    fake_u2.screen_on()
    assert fake_u2.info["screenOn"] is True


def test_tcp_port_is_refused_once_the_launch_stream_closes_and_u2_relaunches(start_sim: Any) -> None:
    import adbutils

    from tests.sim.fake_phone import build_fake_phone

    handle = start_sim(factory=build_fake_phone)
    device = adbutils.adb.device(handle.serial)
    with pytest.raises(adbutils.AdbError):  # nothing listens before app_process runs
        device.create_connection(adbutils.Network.TCP, 9008)
    d = u2.connect(handle.serial)  # this client launches (and owns) the server
    assert d.info["displayWidth"] == 1080 and handle.server.device.u2_launches == 1
    d.stop_uiautomator()  # closes the app_process stream, as u2's atexit hook does
    with pytest.raises(adbutils.AdbError):
        device.create_connection(adbutils.Network.TCP, 9008)
    assert d.info["displayWidth"] == 1080  # u2 sees the refusal, launches the server again
    assert handle.server.device.u2_launches == 2


def test_a_blocking_wait_on_one_phone_does_not_block_another(fake_sim: Any, start_sim: Any) -> None:
    import threading

    from tests.sim.fake_phone import build_fake_phone

    other = u2.connect(start_sim(factory=build_fake_phone).serial)
    d = u2.connect(fake_sim.serial)
    done: list[str] = []
    waiter = threading.Thread(target=lambda: done.append(str(d(text="Absent").wait(timeout=1.0))))
    waiter.start()
    for _ in range(5):
        assert other.info["displayWidth"] == 1080
    done.append("other phone served")
    waiter.join(timeout=30)
    assert done == ["other phone served", "False"]
