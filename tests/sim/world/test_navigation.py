"""Keyboard, back, home, recents, the shade, and scrolling lists, as on a real phone."""

from __future__ import annotations

from starebrain.sim.world import build_phone
from starebrain.sim.world.world_phone import WorldPhone
from tests.sim.world.conftest import get, tap, texts

MESSAGING, MAIL = "com.google.android.apps.messaging", "com.google.android.gm"
IME = "com.google.android.inputmethod.latin"


def ime_shown(phone: WorldPhone) -> bool:
    return any(w.attrs["package"] == IME for w in phone.root().children)


def test_focusing_a_field_shows_the_keyboard_and_back_hides_it_first() -> None:
    phone = build_phone()
    phone.start_app(MESSAGING)
    tap(phone, text="Dana Whitfield")
    assert not ime_shown(phone)
    tap(phone, rid="compose_message_text")
    assert ime_shown(phone) and get(phone, rid="compose_message_text").attrs["focused"] == "true"
    phone.press_key("back")
    assert not ime_shown(phone) and phone.current_focus()[1].endswith("ConversationActivity")
    phone.press_key("back")
    assert phone.current_focus()[1].endswith("ConversationListActivity")
    phone.press_key(4)  # KEYCODE_BACK out of the root ends the task
    assert phone.current_focus()[0] == "com.android.launcher3"


def test_the_resized_window_keeps_send_above_the_keyboard() -> None:
    phone = build_phone()
    phone.start_app(MESSAGING)
    tap(phone, text="Dana Whitfield")
    tap(phone, rid="compose_message_text")
    keyboard_top = phone.root().children[-1].bounds[1]
    assert get(phone, rid="send_message_button").bounds[3] <= keyboard_top


def test_input_text_paste_keys_and_clearing_go_to_the_focused_field() -> None:
    phone = build_phone()
    phone.start_app(MAIL)
    tap(phone, text="Compose")
    phone.set_clipboard("dana@whitfieldstudio.com")
    phone.input_text(phone.get_clipboard() or "")
    assert get(phone, rid="to").attrs["text"] == "dana@whitfieldstudio.com"
    phone.press_key("del")
    assert get(phone, rid="to").attrs["text"] == "dana@whitfieldstudio.co"
    phone.clear_focused_text()
    assert get(phone, rid="to").attrs["text"] == "To"
    phone.press_key(29)  # KEYCODE_A
    assert get(phone, rid="to").attrs["text"] == "a"


def test_text_without_a_focused_field_goes_nowhere() -> None:
    phone = build_phone()
    phone.start_app(MESSAGING)
    before = phone.hierarchy_xml()
    phone.input_text("hello")
    assert phone.hierarchy_xml() == before


def test_home_goes_to_the_launcher_and_the_app_resumes_where_it_was() -> None:
    phone = build_phone()
    phone.start_app(MESSAGING)
    tap(phone, text="Dana Whitfield")
    phone.press_key("home")
    assert phone.current_focus()[0] == "com.android.launcher3" and "Gmail" in texts(phone)
    tap(phone, text="Messages")
    assert phone.current_focus()[1].endswith("ConversationActivity")


def test_recents_lists_recent_apps_newest_first_and_resumes_one() -> None:
    phone = build_phone()
    phone.start_app(MESSAGING)
    phone.start_app(MAIL)
    phone.press_key("recent")
    cards = [n.attrs["content-desc"] for n in phone.root().iter()
             if n.attrs.get("resource-id", "").endswith("snapshot")]
    assert cards == ["Gmail", "Messages"]
    tap(phone, desc="Messages")
    assert phone.current_focus()[0] == MESSAGING
    phone.press_key("recent")
    tap(phone, text="Clear all")
    assert phone.current_focus()[0] == "com.android.launcher3" and phone.running_packages().count(MAIL) == 0


def test_shade_opens_from_the_top_edge_and_lists_notifications() -> None:
    phone = build_phone()
    phone.inject("notification", title="Dana Whitfield", text="Got it, thanks!", heads_up=False,
                 app_package=MESSAGING)
    phone.swipe(540, 10, 540, 1200)
    assert "Got it, thanks!" in texts(phone)
    tap(phone, text="Got it, thanks!")
    assert phone.current_focus()[0] == MESSAGING


def test_a_list_scrolls_and_off_screen_items_are_not_in_the_dump() -> None:
    phone = build_phone()
    phone.start_app(MESSAGING)
    xml = phone.hierarchy_xml()
    assert "Dana Whitfield" in xml and "Kim Park" not in xml
    listing = get(phone, rid="conversation_list")
    assert listing.attrs["scrollable"] == "true"
    for _ in range(3):
        phone.swipe(540, 1900, 540, 700)
    xml = phone.hierarchy_xml()
    assert "Kim Park" in xml and "Dana Whitfield" not in xml
    phone.swipe(540, 700, 540, 1900)
    for _ in range(3):
        phone.swipe(540, 700, 540, 1900)
    assert "Dana Whitfield" in phone.hierarchy_xml()


def test_partly_visible_items_are_clipped_to_the_list() -> None:
    phone = build_phone()
    phone.start_app(MESSAGING)
    phone.swipe(540, 1500, 540, 1400)
    listing = get(phone, rid="conversation_list")
    for item in listing.children:
        assert listing.bounds[1] <= item.bounds[1] and item.bounds[3] <= listing.bounds[3]


def test_a_thread_opens_scrolled_to_the_newest_message() -> None:
    phone = build_phone()
    for i in range(20):
        phone.inject("message", text=f"note {i}")
    phone.start_app(MESSAGING)
    tap(phone, text="Dana Whitfield")
    shown = texts(phone)
    assert "note 19" in shown and "Hi! The new homepage mockups look great." not in shown


def test_stop_app_cold_starts_on_the_first_screen_again() -> None:
    phone = build_phone()
    phone.start_app(MESSAGING)
    tap(phone, text="Dana Whitfield")
    phone.stop_app(MESSAGING)
    assert MESSAGING not in phone.running_packages()
    phone.start_app(MESSAGING)
    assert phone.current_focus()[1].endswith("ConversationListActivity")


def test_unknown_packages_do_not_start_and_system_packages_are_installed() -> None:
    phone = build_phone()
    assert not phone.start_app("com.example.nothing")
    installed = phone.installed_packages()
    for package in ("com.android.launcher3", MESSAGING, MAIL, "com.google.android.documentsui",
                    "com.google.android.apps.tasks", "com.starebrain.bank", "com.google.android.keep",
                    "com.android.settings", "com.google.android.permissioncontroller"):
        assert package in installed


def test_screen_off_ignores_taps_and_power_toggles_it() -> None:
    phone = build_phone()
    phone.press_key("power")
    assert not phone.screen_on()
    tap(phone, text="Messages")
    assert phone.current_focus()[0] == "com.android.launcher3"
    phone.press_key("wakeup")
    assert phone.screen_on()
