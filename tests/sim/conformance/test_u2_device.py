"""uiautomator2's Device and UiObject API (its README) against the sim, with a Pixel-on-Android-14's results."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import uiautomator2 as u2

pytestmark = pytest.mark.e2e
SETTINGS = "com.android.settings"
MESSAGES = "com.google.android.apps.messaging"
KEEP = "com.google.android.keep"
TILES = {"resourceId": f"{SETTINGS}:id/recycler_view"}


def test_info_window_and_orientation(d: Any, sim: Any) -> None:
    info = d.info
    assert (info["displayWidth"], info["displayHeight"], info["sdkInt"]) == (1080, 2400, 34)
    assert d.window_size() == (1080, 2400) and d.orientation == "natural"
    assert d.device_info["serial"] == sim.serial and d.serial == sim.serial
    d.set_orientation("n")
    d.freeze_rotation()
    d.freeze_rotation(False)
    assert d.wlan_ip == "192.168.1.57"


def test_screen_power_and_keys(d: Any) -> None:
    d.screen_off()
    assert d.info["screenOn"] is False
    d.screen_on()
    assert d.info["screenOn"] is True
    d.app_start(SETTINGS)
    d.press("home")
    assert d.app_current()["package"] == "com.android.launcher3"
    d.long_press("home")
    d.press(4)


def test_screenshot_and_dump(d: Any, tmp_path: Path) -> None:
    assert d.screenshot().size == (1080, 2400)
    d.screenshot(str(tmp_path / "s.jpg"))
    assert (tmp_path / "s.jpg").stat().st_size > 1000
    xml = d.dump_hierarchy()
    assert xml.startswith("<?xml") and 'package="com.android.launcher3"' in xml


def test_touch_gestures(d: Any) -> None:
    d.app_start(SETTINGS, wait=True)
    d.click(0.5, 0.5)
    d.double_click(10, 10, 0.05)
    d.long_click(10, 10, 0.2)
    d.swipe(540, 1800, 540, 900, steps=10)
    d.swipe_ext("up", scale=0.5)
    d.swipe_points([(540, 1800), (540, 1400), (540, 1000)], 0.05)
    d.drag(540, 1800, 540, 900, 0.05)
    d.touch.down(10, 10).move(15, 15).up(15, 15)


def test_selectors_read_and_act(d: Any) -> None:
    d.app_start(SETTINGS)
    title = d(text="Network & internet")
    assert title.wait(timeout=5) and title.exists and d(text="Nope").wait_gone(timeout=0.1)
    assert title.get_text() == "Network & internet" and title.info["text"] == "Network & internet"
    assert title.bounds()[2] > title.bounds()[0] and title.center()[0] > 0
    assert d(resourceId="android:id/title").count >= 5 and len(d(resourceId="android:id/title")) >= 5
    assert d(resourceId="android:id/title")[1].get_text() != title.get_text()
    assert d(resourceId=f"{SETTINGS}:id/dashboard_tile").child(text="Battery").exists
    assert d(text="Battery").sibling(resourceId="android:id/summary").get_text() == "82%"
    assert d(text="Apps").down(resourceId="android:id/title").get_text() == "Notifications"
    assert d(text="Battery").screenshot().size[0] > 0
    title.click()
    assert d(text="Wi-Fi").wait(timeout=5)
    d(resourceId="android:id/switch_widget").long_click()


def test_collection_children_and_parents(d: Any) -> None:
    d.app_start(SETTINGS)
    d(text="Battery").wait(timeout=5)
    tile = d(**TILES).child_by_text("Battery", resourceId=f"{SETTINGS}:id/dashboard_tile")
    assert tile.exists and tile.info["resourceName"] == f"{SETTINGS}:id/dashboard_tile"
    by_instance = d(**TILES).child_by_instance(0, resourceId=f"{SETTINGS}:id/dashboard_tile")
    assert by_instance.info["bounds"]["top"] < tile.info["bounds"]["top"]
    with pytest.raises(u2.UiObjectNotFoundError):
        d(**TILES).child_by_text("No such tile", resourceId=f"{SETTINGS}:id/dashboard_tile")
    parent = d.jsonrpc.getParent({"mask": 1, "childOrSibling": [], "childOrSiblingSelector": [], "text": "Battery"})
    assert d.jsonrpc.objInfo(parent)["resourceName"] == f"{SETTINGS}:id/dashboard_tile"
    assert d.jsonrpc.objInfo(d.jsonrpc.getParent(parent))["resourceName"] == f"{SETTINGS}:id/recycler_view"
    with pytest.raises(NotImplementedError):  # u2's UiObject.parent() itself refuses, on a phone too
        d(text="Battery").parent()
    d.press("home")
    icon = d(resourceId="com.android.launcher3:id/workspace").child_by_description(
        "Gmail", className="android.widget.TextView")
    assert icon.get_text() == "Gmail" and icon.wait_timeout > 0


def test_object_gestures(d: Any) -> None:
    d.app_start(SETTINGS)
    tiles = d(**TILES)
    tiles.wait(timeout=5)
    assert tiles.pinch_in(percent=50, steps=10) is True and tiles.pinch_out(steps=10) is True
    assert tiles.gesture((100, 1000), (900, 1000), (400, 1000), (600, 1000), steps=10) is True
    with pytest.raises(u2.RPCError):
        tiles.pinch_in(percent=150)
    d(text="Battery").drag_to(540, 600, duration=0.05)
    d(text="Storage").swipe("up", steps=5)


def test_scroll_and_fling(d: Any) -> None:
    d.app_start(SETTINGS)
    tiles = d(**TILES)
    tiles.wait(timeout=5)
    assert tiles.scroll.to(text="About phone")
    tiles.scroll.toBeginning(max_swipes=5)
    tiles.scroll(steps=10)
    tiles.scroll.vert.backward()
    tiles.fling()
    tiles.fling.toEnd(max_swipes=3)
    tiles.fling.vert.toBeginning(max_swipes=3)


def test_text_input_clipboard_and_ime(d: Any) -> None:
    d.app_start(KEEP)
    d(text="New note").click()
    title = d(resourceId=f"{KEEP}:id/editable_title")
    assert title.wait(timeout=5)
    title.set_text("Groceries")
    assert title.get_text() == "Groceries"
    title.clear_text()
    d.clipboard = "milk"
    assert d.clipboard == "milk"
    d(resourceId=f"{KEEP}:id/edit_note_text").click()
    d.send_keys("eggs")  # no AdbKeyboard installed: u2 pastes through the clipboard RPCs
    assert d(resourceId=f"{KEEP}:id/edit_note_text").get_text() == "eggs"
    d.set_input_ime(True)  # installs u2's real AdbKeyboard APK and selects its IME
    assert d.current_ime() == "com.github.uiautomator/.AdbKeyboard" and d.is_input_ime_installed()
    d.send_keys(" and ham")  # now through the IME's ADB_KEYBOARD_INPUT_TEXT broadcast
    assert d(resourceId=f"{KEEP}:id/edit_note_text").get_text() == "eggs and ham"
    d.send_action("done")
    d.clear_text()
    d.hide_keyboard()
    d.set_input_ime(False)
    assert "com.github.uiautomator/.AdbKeyboard" not in d.shell("ime list -s").output.split()
    d.app_uninstall("com.github.uiautomator")


def test_toasts_notifications_traversal(d: Any) -> None:
    d.toast.show("hello", 0.1)
    assert d.last_toast == "hello"
    d.clear_toast()
    assert d.last_toast is None
    assert d.last_traversed_text is None
    d.clear_traversed_text()
    d.open_notification()
    d.press("back")
    d.open_quick_settings()
    d.press("back")


def test_apps(d: Any, real_apk: Path) -> None:
    d.app_start(MESSAGES, wait=True)
    assert d.wait_activity(".ui.ConversationListActivity", timeout=5)
    pid = d.app_wait(MESSAGES, timeout=5, front=True)
    assert pid == int(d.shell(["pidof", MESSAGES]).output)
    assert MESSAGES in d.app_list_running() and MESSAGES in d.app_list()
    assert d.app_info(MESSAGES) == {"versionName": "1.0", "versionCode": 1}
    with pytest.raises(u2.AppNotFoundError):
        d.app_info("com.no.such")
    d.app_stop(MESSAGES)
    d.app_start(MESSAGES, ".NoSuchActivity")
    assert d.app_current()["package"] != MESSAGES  # Android refuses an activity the app does not have
    d.app_clear(MESSAGES)
    d.app_install(str(real_apk))
    d.app_auto_grant_permissions("com.github.uiautomator")
    assert d.app_uninstall("com.github.uiautomator") is True and d.app_uninstall("com.no.such") is False
    d.app_start(SETTINGS)
    assert SETTINGS in d.app_stop_all()
    with d.session(SETTINGS) as session:
        assert session.app_current()["package"] == SETTINGS


def test_shell_push_pull_xpath_watcher(d: Any, tmp_path: Path) -> None:
    assert d.shell("echo hi") == ("hi\n", 0)
    (tmp_path / "f.txt").write_text("data")
    d.push(tmp_path / "f.txt", "/sdcard/f.txt")
    d.pull("/sdcard/f.txt", tmp_path / "g.txt")
    assert (tmp_path / "g.txt").read_text() == "data"
    d.app_start(SETTINGS)
    assert d.xpath('//*[@text="Battery"]').wait(timeout=5)
    d.xpath('//*[@text="Network & internet"]').click()
    assert d(text="Wi-Fi").wait(timeout=5)
    d.watcher("never").when("No such button").click()
    d.watcher.run()
    d.watcher.remove()


def test_urls_keys_touch_trace_and_waits(d: Any, sim: Any) -> None:
    d.open_url("https://example.com/page")  # no browser on the sim: Android refuses, nothing opens
    assert d.app_current()["package"] == "com.android.launcher3"
    d.keyevent("home")
    d.set_clipboard("copied", label="lbl")
    assert d.clipboard == "copied"
    d.show_touch_trace(True, True)
    assert d.shell("settings get system show_touches").output == "1\n"
    d.show_touch_trace(False, False)
    d.unlock()  # the screen is on, so u2 does nothing
    assert d.implicitly_wait(2.5) == 2.5
    d.implicitly_wait(20)
    assert d.exists(text="Messages")


def test_watch_context_and_uninstall_all(d: Any, real_apk: Path) -> None:
    with d.watch_context(builtin=False) as ctx:
        ctx.when("Never shown").click()
        ctx.wait_stable(seconds=0.1, timeout=2)
    d.app_install(str(real_apk))
    assert d.app_uninstall_all() == []  # u2 spares its own app, the only third-party one
    assert d.app_list("-3") == ["com.github.uiautomator"]
    d.app_uninstall("com.github.uiautomator")
    assert d.app_list("-3") == []


def test_session_tracks_its_app(d: Any) -> None:
    session = d.session(SETTINGS)
    assert session.running()
    session.app_stop(SETTINGS)
    assert not session.running()
    session.restart()
    assert session.running()
    session.close()


def test_more_uiobject_helpers(d: Any) -> None:
    assert d(text="Gmail").left(className="android.widget.TextView").get_text() == "Files"
    assert d(text="Gmail").right(className="android.widget.TextView").get_text() == "Keep Notes"
    d.app_start(SETTINGS)
    storage = d(text="Storage")
    storage.must_wait(timeout=5)
    assert storage.up(resourceId="android:id/title").get_text() == "Battery"
    assert storage.right(text="Nope") is None
    assert d(text="Nope").click_exists(timeout=0.1) is False
    assert d(text="Nope").click_gone(maxretry=1, interval=0.05) is True
    assert d(text="Battery").click_exists(timeout=1) is True
    d.press("back")
    d.app_start(KEEP)
    d(text="New note").click()
    title = d(resourceId=f"{KEEP}:id/editable_title")
    title.wait(timeout=5)
    title.click()
    title.send_keys("typed")
    assert title.get_text() == "typed"
    assert d(resourceId=f"{KEEP}:id/editable_title").from_parent(
        resourceId=f"{KEEP}:id/edit_note_text").exists


def test_uiautomator_server_lifecycle(d: Any) -> None:
    d.stop_uiautomator()
    assert d.info["displayWidth"] == 1080  # the next RPC starts the server again, as on a phone
    d.reset_uiautomator()
    d.start_uiautomator()
    assert d.jsonrpc_call("ping") == "pong" and d.pos_rel2abs(0.5, 0.5) == (540, 1200)
    d.settings["operation_delay"] = (0, 0)
    d.sleep(0.01)
    assert d.adb_device.serial == d.serial and d.debug is False
    assert d.wait_timeout > 0
    d.show_float_window()
    d.make_toast("made", 0.1)
    assert d.last_toast == "made"
    d.set_fastinput_ime(False)  # deprecated alias of set_input_ime(False): `ime disable` of AdbKeyboard
    d.wait_fastinput_ime()
