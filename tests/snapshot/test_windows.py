from __future__ import annotations

import pytest

from starebrain.snapshot import ScreenSnapshot
from starebrain.snapshot.windows import WindowKind
from tests.snapshot.dumps import dump, hierarchy, node, status_bar, tv_dialog


@pytest.mark.parametrize(("prefix", "package"), [
    ("028", "com.google.android.gm"),         # not systemui, not Gboard, not the MIUI gesture strip
    ("030", "com.miui.notes"),                # keyboard window listed first
    ("046", "sinet.startup.inDriver"),        # systemui and 'gesture' side strips around it
    ("034", "com.bbk.launcher2"),             # the launcher is the app when it fills the screen
    ("002", "com.google.android.permissioncontroller"),
    ("042", "com.android.systemui"),          # the shade is all there is
])
def test_foreground_package_is_the_app_the_person_is_in(prefix, package):
    assert ScreenSnapshot.from_xml(dump(prefix).data).foreground_package == package


def test_packages_lists_every_window_once():
    pkgs = ScreenSnapshot.from_xml(dump("028").data).packages
    assert pkgs[:2] == ["com.android.systemui", "com.google.android.gm"]
    assert "com.google.android.inputmethod.latin" in pkgs and len(pkgs) == len(set(pkgs))


def test_keyboard_keys_and_status_bar_are_not_interactables():
    s = ScreenSnapshot.from_xml(dump("028").data)
    assert not any('"q"' in e for e in s.interactables)
    assert not any("Battery" in t for t in s.visible_texts)
    assert any('"Send"' in e for e in s.interactables)


def test_heads_up_notification_does_not_change_foreground_or_texts():
    app = node(cls="android.widget.FrameLayout", pkg="com.google.android.apps.messaging", bounds="[0,0][1080,2400]",
               children=node("Conversations", pkg="com.google.android.apps.messaging", bounds="[40,100][600,200]"))
    heads_up = node(cls="android.widget.FrameLayout", pkg="com.android.systemui", bounds="[0,0][1080,300]",
                    children=node("Bank: tap Approve to confirm the transfer", pkg="com.android.systemui",
                                  bounds="[20,50][1060,250]"))
    s = ScreenSnapshot.from_xml(hierarchy(status_bar(), app, heads_up))
    assert s.foreground_package == "com.google.android.apps.messaging"
    assert not any("Approve" in t for t in s.visible_texts)
    assert "Approve" not in s.summary()


@pytest.mark.parametrize("package", ["com.google.android.gms", "com.google.android.documentsui"])
def test_play_services_and_documentsui_float_as_system_dialogs_but_fill_the_screen_as_apps(package):
    page = node(cls="android.widget.FrameLayout", pkg="com.example.app", bounds="[0,0][1080,2400]",
                children=node("Sign in", pkg="com.example.app", bounds="[40,100][600,200]"))
    floating = node(cls="android.widget.FrameLayout", pkg=package, bounds="[28,966][1052,1498]",
                    children=node("Choose an account", pkg=package, bounds="[90,1000][990,1100]"))
    full = node(cls="android.widget.FrameLayout", pkg=package, bounds="[0,0][1080,2400]",
                children=node("Recent files", pkg=package, bounds="[40,100][600,200]"))
    over = ScreenSnapshot.from_xml(hierarchy(status_bar(), page, floating))
    alone = ScreenSnapshot.from_xml(hierarchy(status_bar(), full))
    assert next(w for w in over.windows if w.package == package).kind is WindowKind.SYSTEM_DIALOG
    assert next(w for w in alone.windows if w.package == package).kind is WindowKind.APP


@pytest.mark.parametrize("package", ["android", "com.android.intentresolver", "com.google.android.gms"])
def test_a_full_system_window_drawing_only_a_lower_sheet_is_a_system_dialog(package):
    # ResolverActivity / ChooserActivity and Play services' sign-in are translucent full windows holding a sheet.
    sheet = node(cls="android.widget.FrameLayout", pkg=package, bounds="[0,0][1080,2400]",
                 children=node("Share", pkg=package, bounds="[40,1300][600,1400]")
                 + node("", desc="Messages", pkg=package, bounds="[40,1500][300,1700]", clickable=True))
    page = node(cls="android.widget.FrameLayout", pkg=package, bounds="[0,0][1080,2400]",
                children=node("Accounts", pkg=package, bounds="[40,100][600,200]")
                + node("Sign in", pkg=package, bounds="[40,1500][300,1700]", clickable=True))
    assert ScreenSnapshot.from_xml(hierarchy(status_bar(), sheet)).windows[1].kind is WindowKind.SYSTEM_DIALOG
    assert ScreenSnapshot.from_xml(hierarchy(status_bar(), page)).windows[1].kind is WindowKind.APP


def test_a_keyboard_packages_full_window_is_its_settings_activity_and_its_input_view_a_keyboard():
    pkg = "com.google.android.inputmethod.latin"
    settings = node(cls="android.widget.FrameLayout", pkg=pkg, bounds="[0,0][1080,2400]",
                    children=node("Theme", pkg=pkg, bounds="[40,1300][600,1400]"))
    keys = node(cls="android.widget.FrameLayout", pkg=pkg, bounds="[0,1500][1080,2400]",
                children=node("", desc="q", pkg=pkg, bounds="[0,1600][100,1700]", clickable=True))
    page = node(cls="android.widget.FrameLayout", pkg="com.example.app", bounds="[0,0][1080,2400]",
                children=node("Notes", pkg="com.example.app", bounds="[40,100][600,200]"))
    assert ScreenSnapshot.from_xml(hierarchy(status_bar(), settings)).windows[1].kind is WindowKind.APP
    assert ScreenSnapshot.from_xml(hierarchy(status_bar(), keys, page)).windows[1].kind is WindowKind.KEYBOARD


def test_an_unknown_package_drawing_the_input_method_navigation_bar_is_a_keyboard_but_its_look_alike_is_not():
    # NavigationBarController (Android 12L+) puts input_method_navigation_bar.xml into the IME's own window.
    def board(rid: str) -> str:
        pkg = "org.example.board"
        return node(cls="android.widget.FrameLayout", pkg=pkg, bounds="[0,2200][1080,2400]",
                    children=node("Board {ON}", pkg=pkg, bounds="[300,2200][700,2270]")
                    + node(cls="android.widget.FrameLayout", pkg=pkg, rid=rid, bounds="[0,2280][1080,2400]",
                           children=node("", desc="Back", pkg=pkg, bounds="[70,2280][250,2400]", clickable=True)))
    page = node(cls="android.widget.FrameLayout", pkg="com.example.app", bounds="[0,0][1080,2400]",
                children=node("Notes", pkg="com.example.app", bounds="[40,100][600,200]"))
    ime = ScreenSnapshot.from_xml(hierarchy(status_bar(), board("android:id/input_method_navigation_bar_view"), page))
    assert ime.windows[1].kind is WindowKind.KEYBOARD and ime.windows[1].is_keyboard
    assert ime.foreground_package == "com.example.app"
    other = ScreenSnapshot.from_xml(hierarchy(status_bar(), board("org.example.board:id/navigation_bar_view"), page))
    assert other.windows[1].kind is not WindowKind.KEYBOARD and not other.windows[1].is_keyboard


def test_android_tv_settings_dialog_activity_is_a_system_dialog_but_an_apps_look_alike_is_an_app():
    tv = ScreenSnapshot.from_xml(tv_dialog("com.android.tv.settings"))
    assert tv.windows[0].kind is WindowKind.SYSTEM_DIALOG
    app = ScreenSnapshot.from_xml(tv_dialog("com.example.tvapp"))
    assert app.windows[0].kind is WindowKind.APP


@pytest.mark.parametrize("package", ["android", "com.android.intentresolver"])
def test_a_chooser_pulled_up_to_the_top_is_still_a_system_dialog_but_an_apps_list_with_that_id_is_not(package):
    # ChooserActivity keeps its targets in resolver_list (chooser_grid.xml) even when its headline starts high.
    def chooser(pkg: str) -> str:
        return node(cls="android.widget.FrameLayout", pkg=pkg, bounds="[0,0][1080,2400]",
                    children=node("Sharing image", pkg=pkg, bounds="[40,600][600,700]")
                    + node(cls="android.widget.GridView", pkg=pkg, rid="android:id/resolver_list",
                           bounds="[0,1600][1080,2400]",
                           children=node("Drive", pkg=pkg, bounds="[40,1700][300,1900]", clickable=True)))
    assert ScreenSnapshot.from_xml(hierarchy(status_bar(), chooser(package))).windows[1].kind \
        is WindowKind.SYSTEM_DIALOG
    assert ScreenSnapshot.from_xml(hierarchy(status_bar(), chooser("com.example.app"))).windows[1].kind \
        is WindowKind.APP


def test_a_role_request_alert_dialog_of_the_permission_controller_is_a_system_dialog_but_its_grant_is_not():
    # RequestRoleFragment is an AlertDialog (parentPanel); GrantPermissionsActivity draws its own layout.
    pkg = "com.google.android.permissioncontroller"

    def dialog(panel_id: str) -> str:
        return node(cls="android.widget.FrameLayout", pkg=pkg, bounds="[32,962][1048,1978]",
                    children=node(cls="android.widget.LinearLayout", pkg=pkg, rid=panel_id,
                                  bounds="[80,1010][1000,1930]",
                                  children=node("Set X as your default home app?", pkg=pkg,
                                                bounds="[150,1100][950,1300]")))
    page = node(cls="android.widget.FrameLayout", pkg="com.example.app", bounds="[0,0][1080,2400]",
                children=node("Notes", pkg="com.example.app", bounds="[40,100][600,200]"))
    role = ScreenSnapshot.from_xml(hierarchy(status_bar(), page, dialog("android:id/parentPanel")))
    grant = ScreenSnapshot.from_xml(hierarchy(status_bar(), page, dialog(f"{pkg}:id/grant_dialog")))
    assert role.windows[2].kind is WindowKind.SYSTEM_DIALOG
    assert grant.windows[2].kind is WindowKind.DIALOG


@pytest.mark.parametrize(("package", "kind"), [
    ("com.qualcomm.qti.phonefeature", WindowKind.SYSTEM_DIALOG),  # a SoC vendor's component of the system image
    ("com.mediatek.simprocessor", WindowKind.SYSTEM_DIALOG),
    ("com.hihonor.keychain", WindowKind.SYSTEM_DIALOG),           # an OEM keychain's "save password?" dialog
    ("com.vivo.frameworkui", WindowKind.SYSTEM_DIALOG),           # vivo's host of the framework's dialogs
    ("com.vivo.browser", WindowKind.DIALOG),                      # another vivo app floats its own dialogs
    ("com.example.qualcomm", WindowKind.DIALOG),                  # the vendor's name elsewhere in an app's package
    ("com.huawei.calendar", WindowKind.DIALOG),                   # an OEM's own app floats its own dialogs
])
def test_vendor_components_and_oem_keychains_float_system_dialogs_but_apps_their_own(package, kind):
    dialog = node(cls="android.widget.FrameLayout", pkg=package, bounds="[27,796][1053,1195]",
                  children=node("No SIM card", pkg=package, rid="android:id/alertTitle", bounds="[147,898][933,979]"))
    assert ScreenSnapshot.from_xml(hierarchy(dialog)).windows[0].kind is kind


def test_a_system_page_whose_webview_has_not_rendered_is_no_sheet_but_one_drawn_low_still_is():
    # Chromium fills a WebView's accessibility children only once the page renders: an empty one is still content.
    pkg = "com.google.android.gms"

    def page(web_top: int) -> str:
        return node(cls="android.widget.FrameLayout", pkg=pkg, bounds="[0,0][1080,2424]",
                    children=node(cls="android.webkit.WebView", pkg=pkg, bounds=f"[0,{web_top}][1080,2172]",
                                  clickable=True)
                    + node("SKIP", cls="android.widget.Button", pkg=pkg, bounds="[21,2203][184,2329]", clickable=True)
                    + node("NEXT", cls="android.widget.Button", pkg=pkg, bounds="[796,2203][1027,2329]",
                           clickable=True))
    assert ScreenSnapshot.from_xml(hierarchy(status_bar(), page(142))).windows[1].kind is WindowKind.APP
    assert ScreenSnapshot.from_xml(hierarchy(status_bar(), page(1300))).windows[1].kind is WindowKind.SYSTEM_DIALOG
