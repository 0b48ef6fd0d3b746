"""The lock screen (bouncer, Android 14+ device-entry icon) needs its person; a shade that merely carries
keyguard containers is closed with back."""

from __future__ import annotations

from functools import cache

from starebrain.obstruction import BackClearance, ObstructionKind, TapClearance, WaitClearance, detect
from starebrain.profiles import load_profiles
from starebrain.snapshot import ScreenSnapshot
from tests.obstruction import screens
from tests.snapshot.dumps import hierarchy, node, tv_dialog

UI = "com.android.systemui"
W, H = screens.W, screens.H


@cache
def profile():
    return load_profiles().device_profile("google")


def _verdict(xml: str):
    return detect(ScreenSnapshot.from_xml(xml), profile())


def _id(name: str) -> str:
    return f"{UI}:id/{name}"


def _notifications() -> str:
    """The shared part of shade and lock screen: a scrim, the keyguard root and a few notifications."""
    rows = "".join(node(f"Notification {i}", pkg=UI, rid=_id("title"),
                        bounds=f"[40,{600 + 200 * i}][1040,{760 + 200 * i}]") for i in range(6))
    return (node(cls="android.view.View", pkg=UI, rid=_id("scrim_behind"), bounds=f"[0,0][{W},{H}]")
            + node(cls="android.view.View", pkg=UI, rid=_id("keyguard_long_press"), bounds=f"[0,0][{W},{H}]")
            + node(cls="android.view.ViewGroup", pkg=UI, rid=_id("keyguard_root_view"), bounds=f"[0,0][{W},{H}]")
            + node(cls="android.widget.ScrollView", pkg=UI, rid=_id("notification_stack_scroller"),
                   bounds=f"[0,500][{W},1900]", children=rows))


def _shade_window(*children: str) -> str:
    return node(cls="android.widget.FrameLayout", pkg=UI, bounds=f"[0,0][{W},{H}]",
                children=_notifications() + "".join(children))


def test_the_pin_bouncer_is_the_lock_screen():
    def key(i: int) -> str:
        x, y = 60 + 320 * (i % 3), 1400 + 200 * (i // 3)
        return node("", cls="android.view.ViewGroup", pkg=UI, rid=_id(f"key{i}"), desc=str(i), clickable=True,
                    bounds=f"[{x},{y}][{x + 320},{y + 190}]")
    keys = "".join(key(i) for i in range(10))
    bouncer = node(cls="android.widget.FrameLayout", pkg=UI, rid=_id("keyguard_host_view"), bounds=f"[0,0][{W},{H}]",
                   children=node(cls="android.widget.FrameLayout", pkg=UI, rid=_id("keyguard_security_container"),
                                 bounds=f"[60,540][1020,{H}]",
                                 children=node("Face not recognised", pkg=UI, rid=_id("keyguard_message_area"),
                                               bounds="[120,800][960,900]") + keys))
    found = _verdict(screens.screen(_shade_window(bouncer)))
    assert found.kind is ObstructionKind.SYSTEM_DIALOG and found.clearance is None, found.describe()


def test_the_device_entry_icon_marks_the_lock_screen_but_a_shade_is_closed_with_back():
    icon = node(cls="android.widget.FrameLayout", pkg=UI, rid=_id("device_entry_icon_view"), clickable=True,
                bounds="[470,1980][610,2120]",
                children=node(cls="android.widget.ImageView", pkg=UI, rid=_id("device_entry_icon_fg"),
                              desc="Fingerprint sensor", bounds="[470,1980][610,2120]"))
    locked = _verdict(screens.screen(_shade_window(icon)))
    assert locked.kind is ObstructionKind.SYSTEM_DIALOG and locked.clearance is None, locked.describe()
    # The same keyguard containers without the icon or the bouncer: the shade pulled over an unlocked phone.
    shade = _verdict(screens.screen(screens.app_window(), _shade_window()))
    assert shade.kind is ObstructionKind.SYSTEM_DIALOG and isinstance(shade.clearance, BackClearance), shade.describe()


def test_the_keyguard_indication_area_marks_the_lock_screen():
    area = node(cls="android.widget.LinearLayout", pkg=UI, rid=_id("keyguard_indication_area"),
                bounds="[0,2230][1080,2280]",
                children=node("Charged", pkg=UI, rid=_id("keyguard_indication_text"), bounds="[0,2230][1080,2280]"))
    found = _verdict(screens.screen(_shade_window(area)))
    assert found.kind is ObstructionKind.SYSTEM_DIALOG and found.clearance is None, found.describe()


def test_the_keyguard_bottom_area_marks_the_lock_screen_but_a_similar_app_id_does_not():
    # KeyguardBottomAreaView (camera / wallet affordances) is shown only in the KEYGUARD / SHADE_LOCKED states.
    area = node(cls="android.widget.FrameLayout", pkg=UI, rid=_id("keyguard_bottom_area"), bounds=f"[0,0][{W},{H}]")
    found = _verdict(screens.screen(_shade_window(area)))
    assert found.kind is ObstructionKind.SYSTEM_DIALOG and found.clearance is None, found.describe()
    other = node(cls="android.widget.FrameLayout", pkg=UI, rid=_id("bottom_area"), bounds=f"[0,0][{W},{H}]")
    shade = _verdict(screens.screen(screens.app_window(), _shade_window(other)))
    assert isinstance(shade.clearance, BackClearance), shade.describe()


def test_the_keyguards_own_status_bar_marks_the_lock_screen_and_the_qs_carrier_group_does_not():
    def bar(carrier_id: str) -> str:
        return node(cls="android.widget.RelativeLayout", pkg=UI, rid=_id("keyguard_header"), bounds="[0,0][1080,110]",
                    children=node("Vodafone", pkg=UI, rid=_id(carrier_id), bounds="[40,20][400,90]"))
    locked = _verdict(screens.screen(_shade_window(bar("keyguard_carrier_text"))))
    assert locked.kind is ObstructionKind.SYSTEM_DIALOG and locked.clearance is None, locked.describe()
    shade = _verdict(screens.screen(screens.app_window(), _shade_window(bar("carrier_text"))))
    assert isinstance(shade.clearance, BackClearance), shade.describe()


def test_an_unlock_hint_in_the_phone_language_marks_the_lock_screen():
    hint = node("", cls="android.widget.RelativeLayout", pkg=UI, rid=_id("main_content"), desc="双指上滑即可解锁设备",
                bounds=f"[0,0][{W},{H}]")
    found = _verdict(screens.screen(_shade_window(hint)))
    assert found.kind is ObstructionKind.SYSTEM_DIALOG and found.clearance is None, found.describe()


KEYGUARD = "com.android.keyguard"


def _keyguard_screen(pkg: str) -> str:
    grid = node(cls="android.widget.LinearLayout", pkg=pkg, rid=f"{pkg}:id/lockPattern", clickable=True,
                bounds="[130,960][950,1790]")
    return screens.screen(node(cls="android.widget.FrameLayout", pkg=pkg, bounds=f"[0,0][{W},{H}]",
                               children=node(cls="android.widget.FrameLayout", pkg=pkg, rid=f"{pkg}:id/lock_screen",
                                             bounds=f"[0,0][{W},{H}]", children=grid)))


def test_the_keyguard_apps_window_is_the_lock_screen_and_an_app_with_the_same_ids_is_not():
    locked = _verdict(_keyguard_screen(KEYGUARD))
    assert locked.kind is ObstructionKind.SYSTEM_DIALOG and locked.clearance is None, locked.describe()
    assert _verdict(_keyguard_screen(screens.APP)).kind is ObstructionKind.READY


def _prompt_screen(button_id: str) -> str:
    pkg = "com.samsung.android.biometrics.app.setting"
    body = (node("Stockman", pkg=pkg, rid=f"{pkg}:id/logo_description", bounds="[300,1560][900,1640]")
            + node("Authentication required", pkg=pkg, rid=f"{pkg}:id/title", bounds="[300,1690][1000,1780]")
            + node("Use PIN", cls="android.widget.Button", pkg=pkg, rid=button_id, clickable=True,
                   bounds="[150,1930][930,2020]"))
    return screens.screen(screens.app_window(), node(cls="android.widget.FrameLayout", pkg=pkg,
                                                     bounds=f"[0,0][{W},{H}]", children=body))


def test_a_biometric_prompt_needs_the_person_and_a_plain_use_pin_button_does_not():
    found = _verdict(_prompt_screen("com.samsung.android.biometrics.app.setting:id/button_use_credential"))
    assert found.kind is ObstructionKind.SYSTEM_DIALOG and found.clearance is None, found.describe()
    assert _verdict(_prompt_screen("com.example:id/use_pin")).kind is not ObstructionKind.SYSTEM_DIALOG


def _overview(pkg: str, *, thumbnails: bool) -> str:
    def task(i: int) -> str:
        x = 60 + 520 * i
        kids = node(cls="android.view.View", pkg=pkg, rid=f"{pkg}:id/icon", bounds=f"[{x},300][{x + 90},390]")
        if thumbnails:
            kids += node(cls="android.view.View", pkg=pkg, rid=f"{pkg}:id/snapshot",
                         bounds=f"[{x},400][{x + 480},1500]")
        return node(cls="android.widget.FrameLayout", pkg=pkg, clickable=True, bounds=f"[{x},300][{x + 480},1500]",
                    children=kids)
    panel = node(cls="android.widget.FrameLayout", pkg=pkg, rid=f"{pkg}:id/overview_panel", clickable=True,
                 bounds=f"[0,0][{W},{H}]", children=task(0) + task(1))
    return screens.screen(node(cls="android.widget.FrameLayout", pkg=pkg, bounds=f"[0,0][{W},{H}]", children=panel))


def test_the_recent_apps_overview_is_left_with_back_but_a_page_with_that_id_is_not():
    found = _verdict(_overview("com.android.launcher3", thumbnails=True))
    assert found.kind is ObstructionKind.SYSTEM_DIALOG and isinstance(found.clearance, BackClearance), found.describe()
    assert _verdict(_overview("com.example.app", thumbnails=False)).kind is ObstructionKind.READY


GMS = "com.google.android.gms"


def test_the_play_services_account_chooser_is_cancelled_with_back():
    rows = "".join(node("", cls="android.widget.LinearLayout", pkg=GMS, rid=f"{GMS}:id/container", clickable=True,
                        bounds=f"[75,{640 + 200 * i}][1005,{840 + 200 * i}]",
                        children=node(f"user{i}@example.com", pkg=GMS, rid=f"{GMS}:id/account_name",
                                      bounds=f"[255,{700 + 200 * i}][900,{780 + 200 * i}]")) for i in range(8))
    chooser = node(cls="android.widget.FrameLayout", pkg=GMS, bounds="[27,109][1053,2268]",
                   children=node("Choose an account", pkg=GMS, rid=f"{GMS}:id/main_title", bounds="[75,325][1005,478]")
                   + rows)
    found = _verdict(screens.screen(screens.app_window(), chooser))
    assert found.kind is ObstructionKind.SYSTEM_DIALOG and isinstance(found.clearance, BackClearance), found.describe()


def _capture_consent(message: str) -> str:
    return screens.screen(screens.app_window(), screens.dialog_window(
        "Start recording or casting with AutoJs6?", message, "Cancel", "Start now", pkg=UI,
        ids=("android:id/button3", "android:id/button1")))


def test_a_system_prompt_giving_another_app_access_is_a_permission_for_the_person():
    found = _verdict(_capture_consent("AutoJs6 will have access to all of the information that is visible on "
                                      "your screen or played from your device while recording or casting."))
    assert found.kind is ObstructionKind.PERMISSION and found.clearance is None, found.describe()
    # The same prompt without a word of access is an ordinary system prompt: cancelled.
    plain = _verdict(_capture_consent("Recording stops when you lock the phone."))
    assert plain.kind is ObstructionKind.SYSTEM_DIALOG and plain.clearance is not None, plain.describe()


def test_an_apps_own_biometric_icon_is_no_system_prompt():
    icon = node(cls="android.widget.ImageView", pkg=screens.APP, rid=f"{screens.APP}:id/biometric_icon",
                desc="Fingerprint", clickable=True, bounds="[470,1800][610,1940]")
    assert _verdict(screens.screen(screens.app_window(icon))).kind is ObstructionKind.READY


def _resolver(package: str) -> str:
    """ResolverActivity's translucent full window: the calling app shows above its drawer of targets."""
    targets = "".join(node(f"App {i}", pkg=package, rid=f"{package}:id/text1", clickable=True,
                           bounds=f"[{40 + 260 * i},1900][{280 + 260 * i},2100]") for i in range(4))
    return node(cls="android.widget.FrameLayout", pkg=package, bounds=f"[0,0][{W},{H}]",
                children=node("Open with", pkg=package, rid=f"{package}:id/title", bounds=f"[40,1700][{W - 40},1800]")
                + node(cls="android.widget.ListView", pkg=package, rid=f"{package}:id/resolver_list",
                       bounds=f"[0,1850][{W},{H}]", children=targets))


def test_the_systems_own_chooser_is_a_system_dialog_and_an_apps_look_alike_an_overlay():
    found = _verdict(screens.screen(_resolver("android")))
    assert found.kind is ObstructionKind.SYSTEM_DIALOG and isinstance(found.clearance, BackClearance), found.describe()
    found = _verdict(screens.screen(_resolver("com.example.app")))
    assert found.kind is ObstructionKind.OVERLAY and isinstance(found.clearance, BackClearance), found.describe()


def _alert(*labels: str, title: str = "Expo Go", message: str = "This app isn't 16 KB compatible.") -> str:
    """A system AlertDialog: parentPanel around the title, the message and button1.. (alert_dialog.xml)."""
    ids = tuple(f"android:id/button{i + 1}" for i in range(len(labels)))
    window = screens.dialog_window(title, message, *labels, pkg="android", ids=ids)
    return window.replace('resource-id=""', 'resource-id="android:id/parentPanel"', 1)


def test_a_system_notice_with_only_ok_is_acknowledged_but_a_lone_risky_button_is_not():
    ok = _alert("OK")
    found = _verdict(screens.screen(screens.app_window(), ok))
    assert found.kind is ObstructionKind.SYSTEM_DIALOG and found.clearance is not None, found.describe()
    assert isinstance(found.clearance, TapClearance) and found.clearance.label == "OK", found.describe()
    turn_on = _alert("Turn on", title="Bluetooth", message="An app wants to turn on Bluetooth.")
    assert _verdict(screens.screen(screens.app_window(), turn_on)).clearance is None
    two = _alert("Cancel", "OK")
    assert "Cancel" in _verdict(screens.screen(screens.app_window(), two)).describe()
    # the same notice without AlertDialog's panels or button ids is only known to end with back
    bare = screens.dialog_window("Expo Go", "This app isn't 16 KB compatible.", "OK", pkg="android")
    assert isinstance(_verdict(screens.screen(screens.app_window(), bare)).clearance, BackClearance)


def test_a_status_bar_alone_is_no_shade():
    bar = node(cls="android.widget.FrameLayout", pkg=UI, rid=_id("status_bar"), bounds="[0,0][720,45]",
               children="".join(node("", cls="android.widget.ImageView", pkg=UI, desc=f"Notification {i}",
                                     bounds=f"[{40 * i},0][{40 * i + 36},44]") for i in range(12)))
    assert _verdict(hierarchy(bar)).kind is ObstructionKind.READY


def _framework_dialog(title: str, *buttons: tuple[str, str], pkg: str = "android") -> str:
    """AppErrorDialog / AppNotRespondingDialog: a title and the framework's aerr_* buttons in a column."""
    rows = "".join(node(label, cls="android.widget.Button", pkg=pkg, rid=f"android:id/{rid}", clickable=True,
                        bounds=f"[100,{1100 + 120 * i}][980,{1200 + 120 * i}]")
                   for i, (label, rid) in enumerate(buttons))
    return node(cls="android.widget.FrameLayout", pkg=pkg, bounds="[60,900][1020,1500]",
                children=node(title, pkg=pkg, rid="android:id/alertTitle", bounds="[100,950][980,1050]") + rows)


def test_the_frameworks_crash_and_anr_dialogs_are_known_by_their_ids_in_any_language():
    crash = _framework_dialog("TXA Music tiếp tục dừng", ("Thông tin ứng dụng", "aerr_app_info"),
                              ("Đóng ứng dụng", "aerr_close"))
    found = _verdict(screens.screen(screens.app_window(), crash))
    assert isinstance(found.clearance, TapClearance) and found.clearance.label == "Đóng ứng dụng", found.describe()
    anr = _framework_dialog("TXA Music không phản hồi", ("Đóng ứng dụng", "aerr_close"), ("Chờ", "aerr_wait"))
    found = _verdict(screens.screen(screens.app_window(), anr))
    assert isinstance(found.clearance, TapClearance) and found.clearance.label == "Chờ", found.describe()
    # an app's own dialog reusing the id is no framework dialog: its buttons are not pressed for it
    app = _framework_dialog("TXA Music tiếp tục dừng", ("Đóng ứng dụng", "aerr_close"), pkg=screens.APP)
    assert "Đóng ứng dụng" not in _verdict(screens.screen(screens.app_window(), app)).describe()


def test_a_sign_in_title_over_an_account_list_is_closed_but_over_a_yes_no_prompt_goes_to_the_person():
    rows = "".join(node("", cls="android.view.View", pkg=GMS, clickable=True,
                        bounds=f"[42,{1700 + 180 * i}][1038,{1860 + 180 * i}]",
                        children=node(f"user{i}@example.com", pkg=GMS,
                                      bounds=f"[190,{1740 + 180 * i}][900,{1800 + 180 * i}]"))
                   for i in range(2))
    close = node("", cls="android.view.View", pkg=GMS, clickable=True, bounds="[912,1276][1038,1402]",
                 children=node("", cls="android.view.View", pkg=GMS, desc="Close", bounds="[954,1318][996,1360]"))
    sheet = node(cls="android.widget.FrameLayout", pkg=GMS, bounds=f"[0,0][{W},{H}]", children=node(
        cls="android.view.View", pkg=GMS, bounds=f"[0,1234][{W},{H}]",
        children=node("Sign in with Google", pkg=GMS, bounds="[317,1413][764,1460]") + close
        + node("Choose an account for Example", pkg=GMS, bounds="[42,1500][1038,1660]") + rows))
    found = _verdict(screens.screen(sheet))
    assert found.kind is ObstructionKind.SYSTEM_DIALOG and isinstance(found.clearance, BackClearance), found.describe()
    prompt = _alert("Cancel", "OK", title="Sign in with Google", message="Example wants to use your account.")
    assert _verdict(screens.screen(screens.app_window(), prompt)).clearance is None
    # a lone OK under a title that asks to turn something on would say yes: not pressed for the person
    lone = _alert("OK", title="Turn on USB debugging?", message="USB debugging is meant for development.")
    assert not isinstance(_verdict(screens.screen(screens.app_window(), lone)).clearance, TapClearance)


def test_android_tv_settings_question_is_cancelled():
    found = _verdict(tv_dialog("com.android.tv.settings"))
    assert isinstance(found.clearance, TapClearance) and found.clearance.label == "Cancel", found.describe()


def test_an_ok_as_the_negative_button_ends_a_notice_but_an_ok_as_the_positive_beside_another_does_not():
    # AlertController's negative button (button2) declines: "OK" there only acknowledges the warning.
    notice = _alert("Don't Show Again", "OK")  # button1, button2
    found = _verdict(screens.screen(screens.app_window(), notice))
    assert isinstance(found.clearance, TapClearance) and found.clearance.label == "OK", found.describe()
    # "OK" as the positive (button1) beside another choice would answer it: back instead
    found = _verdict(screens.screen(screens.app_window(), _alert("OK", "Don't Show Again")))
    assert isinstance(found.clearance, BackClearance), found.describe()


def _keyguard_root(*extra: str) -> str:
    kids = (node(cls="android.view.View", pkg=UI, rid=_id("light_reveal_scrim"), bounds=f"[0,0][{W},{H}]")
            + node(cls="android.view.ViewGroup", pkg=UI, rid=_id("keyguard_root_view"), bounds=f"[0,0][{W},{H}]")
            + "".join(extra))
    return hierarchy(node(cls="android.widget.FrameLayout", pkg=UI, rid=_id("legacy_window_root"),
                          bounds=f"[0,0][{W},{H}]", children=kids))


def _tiles(count: int = 8) -> str:
    """Quick-settings tiles: a pulled-down shade shows them."""
    return "".join(node("", cls="android.widget.Switch", pkg=UI, desc=f"Tile {i}", clickable=True,
                        bounds=f"[{40 + 250 * (i % 4)},{200 + 250 * (i // 4)}][{260 + 250 * (i % 4)},"
                               f"{400 + 250 * (i // 4)}]") for i in range(count))


def test_the_keyguard_window_without_a_word_is_the_sleeping_lock_screen_but_a_shade_with_tiles_is_not():
    found = _verdict(_keyguard_root())
    assert found.kind is ObstructionKind.SYSTEM_DIALOG and found.clearance is None, found.describe()
    found = _verdict(_keyguard_root(_tiles(), node("Notification", pkg=UI, bounds="[40,800][1040,960]")))
    assert isinstance(found.clearance, BackClearance), found.describe()


def _cling(*controls: str, pkg: str = UI) -> str:
    body = (node("Viewing full screen", pkg=pkg, rid=f"{pkg}:id/immersive_cling_title", bounds="[63,200][1017,285]")
            + node("To exit, swipe down from the top", pkg=pkg, rid=f"{pkg}:id/immersive_cling_description",
                   bounds="[63,285][1017,373]") + "".join(controls))
    return hierarchy(node(cls="android.widget.FrameLayout", pkg=pkg, bounds=f"[0,0][{W},{H}]",
                          children=node(cls="android.widget.RelativeLayout", pkg=pkg, bounds="[0,0][1080,625]",
                                        children=body)))


def test_system_uis_immersive_mode_hint_is_acknowledged_but_a_notice_with_a_second_control_is_not():
    got_it = screens.button("Got it", "[835,436][1017,562]", pkg=UI, rid=_id("ok"))
    found = _verdict(_cling(got_it))
    assert found.kind is ObstructionKind.SYSTEM_DIALOG and isinstance(found.clearance, TapClearance), found.describe()
    assert found.clearance.label == "Got it"
    # a heads-up notification is clickable itself: its "OK" action is not pressed
    row = node("", cls="android.widget.FrameLayout", pkg=UI, clickable=True, bounds="[0,0][1080,600]")
    assert not isinstance(_verdict(_cling(row, got_it)).clearance, TapClearance)


def test_the_frameworks_own_immersive_mode_hint_before_android_14_is_acknowledged_but_an_apps_look_alike_is_not():
    # ImmersiveModeConfirmation ran in system_server until Android 14: its window's package is "android"
    got_it = screens.button("GOT IT", "[835,436][1017,562]", pkg="android", rid="android:id/ok")
    found = _verdict(_cling(got_it, pkg="android"))
    assert found.kind is ObstructionKind.SYSTEM_DIALOG and isinstance(found.clearance, TapClearance), found.describe()
    assert found.clearance.label == "GOT IT"
    app = "com.example.clock"
    look_alike = _cling(screens.button("GOT IT", "[835,436][1017,562]", pkg=app, rid=f"{app}:id/ok"), pkg=app)
    assert _verdict(look_alike).kind is not ObstructionKind.SYSTEM_DIALOG


def test_android_8_recents_kept_by_oem_launchers_is_left_with_back():
    pkg = "com.miui.home"
    xml = _overview(pkg, thumbnails=True).replace(":id/overview_panel", ":id/recents_view") \
        .replace(":id/snapshot", ":id/task_view_thumbnail")
    found = _verdict(xml)
    assert found.kind is ObstructionKind.SYSTEM_DIALOG and isinstance(found.clearance, BackClearance), found.describe()
    plain = _overview(pkg, thumbnails=False).replace(":id/overview_panel", ":id/recents_view")
    assert _verdict(plain).kind is ObstructionKind.READY


def _play_window(top: int) -> str:
    vending = "com.android.vending"
    return node(cls="android.widget.FrameLayout", pkg=vending, bounds=f"[0,0][{W},{H}]",
                children=node("Pro plan, 12 months", pkg=vending, bounds=f"[80,{top}][1000,{top + 100}]")
                + node("€29.99/year", pkg=vending, bounds=f"[80,{top + 150}][1000,{top + 230}]")
                + screens.button("Subscribe", f"[80,{top + 400}][1000,{top + 520}]", pkg=vending))


def test_a_play_billing_sheet_goes_to_the_person_but_a_play_store_page_is_a_page():
    # BillingClient.launchBillingFlow: the Play Store's translucent sheet over the calling app
    found = _verdict(screens.screen(_play_window(top=1000)))
    assert found.kind is ObstructionKind.UNKNOWN and found.clearance is None, found.describe()
    assert _verdict(screens.screen(_play_window(top=150))).kind is ObstructionKind.READY


def _screenshot_over_app(package: str) -> str:
    """A screenshot app's floating preview (OnePlus' float_window_layer) over an app page."""
    preview = node(cls="android.widget.FrameLayout", pkg=package, bounds=f"[0,0][{W},{H}]", clickable=True,
                   children=node(cls="android.widget.FrameLayout", pkg=package, desc="Screenshot preview",
                                 bounds="[72,1257][450,2088]", clickable=True)
                   + node("Share", cls="android.widget.Button", pkg=package, bounds="[72,2124][450,2313]",
                          clickable=True))
    return screens.screen(screens.app_window(), preview)


def test_an_oem_screenshot_preview_is_system_ui_that_goes_by_itself_but_an_apps_editor_is_an_app():
    found = _verdict(_screenshot_over_app("com.oplus.screenshot"))
    assert found.kind is ObstructionKind.SYSTEM_DIALOG and isinstance(found.clearance, WaitClearance), found.describe()
    assert _verdict(_screenshot_over_app("com.example.screenshot")).kind is not ObstructionKind.SYSTEM_DIALOG


def test_a_system_prompt_only_offering_to_switch_a_setting_on_is_declined_with_its_negative_button():
    # LocationSettingsRequest's resolution dialog: AlertController's BUTTON_NEGATIVE (button2) changes nothing
    location = _alert("Turn on", "No thanks", title="For a better experience, your device will need to use "
                      "Location Accuracy", message="The following settings should be on: Device location")
    found = _verdict(screens.screen(location))
    assert found.kind is ObstructionKind.SYSTEM_DIALOG, found.describe()
    assert isinstance(found.clearance, TapClearance) and found.clearance.label == "No thanks", found.describe()
    # the switch in the title, an OK as the positive button: still its negative button
    titled = _alert("OK", "No thanks", title="For a better experience, turn on device location")
    found = _verdict(screens.screen(titled))
    assert isinstance(found.clearance, TapClearance) and found.clearance.label == "No thanks", found.describe()
    # anything riskier than a switch stays the person's, and so does a refusal that is no negative button
    for risky in (_alert("Install", "No thanks", title="Install the update?"),
                  _alert("OK", "No thanks", title="Allow Example to access your location and turn it on?"),
                  _alert("No thanks", "Turn on", title="Turn on backup")):
        assert _verdict(screens.screen(risky)).clearance is None, _verdict(screens.screen(risky)).describe()


def _heads_up(*actions: str, pkg: str = UI) -> str:
    """A heads-up notification row at the top, its actions the framework's action0 buttons."""
    buttons = "".join(node(label, cls="android.widget.Button", pkg=pkg, rid="android:id/action0", clickable=True,
                           bounds=f"[{276 + 300 * i},365][{576 + 300 * i},509]") for i, label in enumerate(actions))
    return node(cls="android.widget.FrameLayout", pkg=pkg, bounds="[48,0][1032,539]", children=node(
        cls="android.widget.FrameLayout", pkg=pkg, rid=_id("expandableNotificationRow"), clickable=True,
        bounds="[48,131][1032,539]", children=node("Ada", pkg=pkg, rid="android:id/conversation_text",
                                                   bounds="[288,191][610,256]") + buttons))


def test_an_incoming_call_heads_up_is_the_persons_but_a_message_heads_up_is_not():
    for actions in (("Decline", "Answer"), ("拒接", "接听")):
        found = _verdict(screens.screen(screens.app_window(), _heads_up(*actions)))
        assert found.kind is ObstructionKind.SYSTEM_DIALOG and found.clearance is None, found.describe()
    # a message's actions, one call word alone, or an app's own buttons with the framework id: no call
    for window in (_heads_up("Reply", "Mark as read"), _heads_up("Answer", "Mark as read"),
                   _heads_up("Decline", "Answer", pkg=screens.APP)):
        found = _verdict(screens.screen(screens.app_window(), window))
        assert "incoming call" not in found.describe(), found.describe()


def _setup_page(pkg: str, page: str) -> str:
    """Play services' add-account flow: GlifLayout's sud_layout_content holding the sign-in WebView, a footer."""
    web = node(cls="android.webkit.WebView", pkg=pkg, clickable=True, bounds="[0,142][1080,2172]", children=page)
    content = node(cls="android.widget.FrameLayout", pkg=pkg, rid=f"{pkg}:id/sud_layout_content",
                   bounds="[0,142][1080,2172]", children=web)
    footer = node("SKIP", cls="android.widget.Button", pkg=pkg, clickable=True, bounds="[21,2203][184,2329]") \
        + node("NEXT", cls="android.widget.Button", pkg=pkg, clickable=True, bounds="[796,2203][1027,2329]")
    return node(cls="android.widget.FrameLayout", pkg=pkg, bounds=f"[0,0][{W},{H}]", children=content + footer)


def test_a_system_sign_in_flow_is_the_persons_and_waited_for_until_its_page_renders():
    page = node("Sign in", pkg=GMS, bounds="[63,338][1021,464]") + node(
        cls="android.widget.EditText", pkg=GMS, clickable=True, bounds="[63,821][1018,968]")
    found = _verdict(screens.screen(_setup_page(GMS, page)))
    assert found.kind is ObstructionKind.SYSTEM_DIALOG and found.clearance is None, found.describe()
    found = _verdict(screens.screen(_setup_page(GMS, "")))
    assert found.kind is ObstructionKind.LOADING and isinstance(found.clearance, WaitClearance), found.describe()
    # an app's own page built with the same setup layout is the app's
    found = _verdict(screens.screen(_setup_page(screens.APP, page.replace(GMS, screens.APP))))
    assert found.kind is ObstructionKind.READY, found.describe()


def test_a_system_web_page_asking_for_credentials_without_the_setup_layout_is_the_persons():
    # An older MinuteMaid flow: the WebView straight in the activity, the native NEXT below it.
    def flow(pkg: str, field: str) -> str:
        page = node("Sign in", pkg=pkg, bounds="[440,330][640,415]") + node(
            cls=field, pkg=pkg, clickable=True, bounds="[66,792][1014,946]")
        web = node(cls="android.webkit.WebView", pkg=pkg, bounds="[0,66][1080,1956]", children=page)
        nxt = node("NEXT", cls="android.widget.Button", pkg=pkg, clickable=True, bounds="[783,1989][1025,2121]")
        return node(cls="android.widget.FrameLayout", pkg=pkg, bounds=f"[0,0][{W},{H}]", children=web + nxt)
    found = _verdict(screens.screen(flow(GMS, "android.widget.EditText")))
    assert found.kind is ObstructionKind.SYSTEM_DIALOG and found.clearance is None, found.describe()
    # a system web page with no field to fill, or an app's own web sign-in, is the page
    for pkg, field in ((GMS, "android.widget.Button"), (screens.APP, "android.widget.EditText")):
        found = _verdict(screens.screen(flow(pkg, field)))
        assert found.kind is ObstructionKind.READY, found.describe()


def test_a_system_dialog_showing_a_web_sign_in_page_is_the_persons():
    def window(inner: str) -> str:
        buttons = node("Back to safety", cls="android.widget.Button", pkg=GMS, clickable=True,
                       bounds="[576,1419][952,1529]") + node("Continue", cls="android.widget.Button", pkg=GMS,
                                                              clickable=True, bounds="[91,1419][332,1529]")
        body = node("Google hasn’t verified this app", pkg=GMS, bounds="[133,829][739,1039]") + buttons
        return node(cls="android.widget.FrameLayout", pkg=GMS, bounds="[28,535][1052,1968]",
                    children=node(cls=inner, pkg=GMS, bounds="[70,577][1010,1926]", children=body))
    found = _verdict(screens.screen(screens.app_window(), window("android.webkit.WebView")))
    assert found.kind is ObstructionKind.UNKNOWN and found.clearance is None, found.describe()
    # the same prompt drawn natively is an ordinary system prompt
    found = _verdict(screens.screen(screens.app_window(), window("android.widget.LinearLayout")))
    assert found.kind is ObstructionKind.SYSTEM_DIALOG, found.describe()


def test_a_refusal_naming_the_grant_it_refuses_is_no_risky_offer_but_a_grant_beside_a_no_is():
    # PermissionController's warning when a permission of an old app is switched off: button1 "Don't allow anyway"
    warning = _alert("Don’t allow anyway", "Cancel", title="",
                     message="This app was designed for an older version of Android. Denying permission may cause "
                             "it to no longer function as intended.")
    found = _verdict(screens.screen(warning))
    assert found.kind is ObstructionKind.SYSTEM_DIALOG, found.describe()
    assert isinstance(found.clearance, TapClearance) and found.clearance.label == "Cancel", found.describe()
    # "No, allow" still grants: the person's
    grant = _alert("No, allow", "Cancel", title="", message="Allow Example to keep running in the background.")
    assert _verdict(screens.screen(grant)).clearance is None, _verdict(screens.screen(grant)).describe()


def _scene_container(*elements: str) -> str:
    """Android 16's System UI window: the Compose scene container, its elements' test tags as resource ids."""
    layers = "".join(node(cls="android.view.View", pkg=UI, bounds=f"[0,0][{W},{H}]") for _ in range(8))
    root = node(cls="android.view.View", pkg=UI, rid=_id("scene_container_root_composable"), bounds=f"[0,0][{W},{H}]",
                children=layers + "".join(elements))
    return node(cls="android.widget.FrameLayout", pkg=UI, rid=_id("scene_window_root"), bounds=f"[0,0][{W},{H}]",
                children=node(cls="android.widget.FrameLayout", pkg=UI, rid=_id("shared_notification_container"),
                              bounds=f"[0,0][{W},{H}]") + root)


def _notification_row(title: str) -> str:
    return node(cls="android.widget.FrameLayout", pkg=UI, rid=_id("expandableNotificationRow"), clickable=True,
                bounds="[40,900][1040,1100]",
                children=node(title, pkg=UI, rid="android:id/title", bounds="[80,920][1000,980]"))


def test_android_16s_lock_screen_scene_needs_its_person_but_its_shade_scene_is_closed_with_back():
    # Compose scene framework: an element's test tag is "element:<key>"; the Lockscreen scene's root is keyed
    # "lockscreen" and is composed only while the keyguard shows.
    locked = _scene_container(node(cls="android.view.View", pkg=UI, rid="element:lockscreen", bounds=f"[0,0][{W},{H}]",
                                   children=_notification_row("Wireless debugging connected")))
    found = _verdict(hierarchy(locked))
    assert found.kind is ObstructionKind.SYSTEM_DIALOG and found.clearance is None, found.describe()
    # the same container pulled down over an unlocked phone shows the shade scene: back closes it
    shade = _scene_container(node(cls="android.view.View", pkg=UI, rid="element:shade", bounds=f"[0,0][{W},{H}]",
                                  children=_notification_row("Wireless debugging connected") + _tiles(4)))
    found = _verdict(hierarchy(shade))
    assert isinstance(found.clearance, BackClearance), found.describe()


def _miui_aod(*extra: str) -> str:
    aod = node(cls="android.widget.FrameLayout", pkg=UI, rid=_id("aod_root_view"), bounds=f"[0,0][{W},{H}]",
               children=node(cls="android.widget.FrameLayout", pkg="com.miui.aod",
                             rid="com.miui.aod:id/aod_mode_layout_horizontal", bounds=f"[0,0][{W},{H}]"))
    kids = (node(cls="android.view.View", pkg=UI, rid=_id("scrim_behind"), bounds=f"[0,0][{W},{H}]") + aod
            + node(cls="android.widget.FrameLayout", pkg=UI, rid=_id("keyguard_message_area_container"),
                   bounds=f"[0,200][{W},300]") + "".join(extra))
    return hierarchy(node(cls="android.widget.FrameLayout", pkg=UI, bounds=f"[0,0][{W},{H}]", children=kids))


def test_miuis_always_on_display_without_a_word_is_the_sleeping_lock_screen():
    found = _verdict(_miui_aod())
    assert found.kind is ObstructionKind.SYSTEM_DIALOG and found.clearance is None, found.describe()
    # the same window showing words (a pulled-down control centre) is no dozing screen
    found = _verdict(_miui_aod(_tiles(4), node("Notification", pkg=UI, bounds="[40,800][1040,960]")))
    assert not (found.kind is ObstructionKind.SYSTEM_DIALOG and found.clearance is None), found.describe()


def _screen_share(question: str, warning: str, *, dialog_id: str = "screen_share_permission_dialog") -> str:
    body = (node(question, pkg=UI, rid=_id("screen_share_dialog_title"), bounds="[96,700][984,820]")
            + node("Share one app", cls="android.widget.Spinner", pkg=UI, rid=_id("screen_share_mode_options"),
                   clickable=True, bounds="[96,840][984,960]")
            + node(warning, pkg=UI, rid=_id("text_warning"), bounds="[96,980][984,1300]")
            + screens.button("Cancel", "[560,1320][760,1440]", pkg=UI, rid="android:id/button2")
            + screens.button("Next", "[780,1320][984,1440]", pkg=UI, rid="android:id/button1"))
    return hierarchy(node(cls="android.widget.FrameLayout", pkg=UI, bounds="[48,640][1032,1480]",
                          children=node(cls="android.widget.LinearLayout", pkg=UI, rid=_id(dialog_id),
                                        bounds="[48,640][1032,1480]", children=body)))


def test_system_uis_screen_share_consent_is_the_persons_in_any_language():
    # MediaProjectionPermissionDialog (Android 14+): its words name the app and what it would see, no "access"
    for question, warning in (
            ("Share your screen with Halalify?", "When you're sharing an app, anything shown or played in that app "
                                                 "is visible to Halalify."),
            ("Halalify と画面を共有しますか？",
             "アプリを共有すると、そのアプリで表示または再生される内容が Halalify に公開されます。")):
        found = _verdict(_screen_share(question, warning))
        assert found.kind is ObstructionKind.PERMISSION and found.clearance is None, found.describe()
    # another System UI dialog of the same shape, offering nothing, is cancelled
    found = _verdict(_screen_share("Stop casting?", "Your screen will stop being shown.", dialog_id="cast_dialog"))
    assert isinstance(found.clearance, TapClearance) and found.clearance.label == "Cancel", found.describe()


def _shade_panel(*extra: str) -> str:
    """The notification shade's window with its panel (NotificationPanelView) and no keyguard root."""
    panel = node(cls="android.widget.FrameLayout", pkg=UI, rid=_id("notification_panel"), bounds=f"[0,0][{W},{H}]",
                 children=node(cls="android.view.ViewGroup", pkg=UI, rid=_id("notification_container_parent"),
                               bounds=f"[0,0][{W},{H}]") + "".join(extra))
    kids = (node(cls="android.view.View", pkg=UI, rid=_id("scrim_behind"), bounds=f"[0,0][{W},{H}]")
            + node(cls="android.view.View", pkg=UI, rid=_id("light_reveal_scrim"), bounds=f"[0,0][{W},{H}]") + panel)
    return hierarchy(node(cls="android.widget.FrameLayout", pkg=UI, rid=_id("legacy_window_root"),
                          bounds=f"[0,0][{W},{H}]", children=kids))


def test_the_shade_panel_without_a_word_is_the_sleeping_lock_screen_but_pulled_down_it_is_the_shade():
    found = _verdict(_shade_panel())
    assert found.kind is ObstructionKind.SYSTEM_DIALOG and found.clearance is None, found.describe()
    found = _verdict(_shade_panel(_tiles(), node("Notification", pkg=UI, bounds="[40,800][1040,960]")))
    assert isinstance(found.clearance, BackClearance), found.describe()
