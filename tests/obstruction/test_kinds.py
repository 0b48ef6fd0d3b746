"""Obstruction kinds real phones show: choosers, bottom sheets, system prompts, consent banners,
in-app update prompts, lock screens, popup lists; each cleared without choosing for the person."""

from __future__ import annotations

from functools import cache

from starebrain.models import Selector
from starebrain.obstruction import BackClearance, ObstructionKind, TapClearance, WaitClearance, detect
from starebrain.profiles import load_profiles
from starebrain.snapshot import ScreenSnapshot
from tests.obstruction import screens
from tests.obstruction.corpus import DUMPS
from tests.snapshot.dumps import dump, hierarchy, node

K = ObstructionKind
W, H = screens.W, screens.H


@cache
def profile():
    return load_profiles().device_profile("google")


def verdict(xml: str | bytes, target: Selector | None = None):
    return detect(ScreenSnapshot.from_xml(xml), profile(), target=target)


def real(name: str):
    return verdict((DUMPS / name).read_bytes())


def _bottom_window(*children: str, pkg: str = "android", top: int = 1300) -> str:
    return node(cls="android.widget.FrameLayout", pkg=pkg, bounds=f"[0,{top}][{W},{H}]", children="".join(children))


def test_the_app_chooser_is_closed_with_back_never_just_once_or_always():
    sheet = _bottom_window(node("Open with", pkg="android", bounds="[40,1350][1040,1450]"),
                           node("Chrome", pkg="android", rid="android:id/resolver_list", bounds="[0,1500][1080,1700]",
                                clickable=True),
                           screens.button("Just once", "[100,2200][500,2300]", pkg="android"),
                           screens.button("Always", "[580,2200][980,2300]", pkg="android"))
    found = verdict(screens.screen(screens.app_window(), sheet))
    # the system's own chooser (package android) is a system dialog, as real share sheets are labelled
    assert found.kind is K.SYSTEM_DIALOG and isinstance(found.clearance, BackClearance), found.describe()


def test_a_chooser_is_recognised_by_its_buttons_alone_in_another_language():
    sheet = _bottom_window(screens.button("Nur einmal", "[100,2200][500,2300]", pkg="android"),
                           screens.button("Immer", "[580,2200][980,2300]", pkg="android"))
    assert isinstance(verdict(screens.screen(screens.app_window(), sheet)).clearance, BackClearance)


def test_a_comments_bottom_sheet_is_closed_by_its_close_button_or_back():
    pkg = "com.zhiliaoapp.musically"
    rows = "".join(node(f"comment {i}", pkg=pkg, rid=f"{pkg}:id/a{i}",
                        bounds=f"[0,{900 + 60 * i}][1080,{960 + 60 * i}]") for i in range(20))
    with_close = _bottom_window(rows, screens.button("", "[960,820][1060,900]", pkg=pkg, desc="Close comments"),
                                pkg=pkg, top=800)
    found = verdict(screens.screen(screens.app_window(pkg=pkg), with_close))
    assert found.kind is K.OVERLAY and isinstance(found.clearance, TapClearance), found.describe()
    assert found.clearance.label == "Close comments"
    without = _bottom_window(rows, node(pkg=pkg, rid=f"{pkg}:id/design_bottom_sheet", bounds="[0,800][1080,2400]"),
                             pkg=pkg, top=800)
    assert isinstance(verdict(screens.screen(screens.app_window(pkg=pkg), without)).clearance, BackClearance)


def _full_height_sheet(pkg: str) -> str:
    """A `bottom_sheet` expanded over a whole app window: the photo picker's layout (MediaProvider's
    PhotoPickerActivity) with its Cancel at the top left and a grid of photos."""
    cells = [(360 * (i % 3), 600 + 360 * (i // 3)) for i in range(9)]
    grid = "".join(node(pkg=pkg, desc=f"Photo taken on May {i}", clickable=True,
                        bounds=f"[{x},{y}][{x + 354},{y + 354}]") for i, (x, y) in enumerate(cells))
    sheet = node(cls="android.widget.LinearLayout", pkg=pkg, rid=f"{pkg}:id/bottom_sheet", bounds="[0,63][1080,2337]",
                 children=screens.button("", "[0,280][147,427]", pkg=pkg, desc="Cancel")
                 + node("Select photos and videos you allow this app to access", pkg=pkg, bounds="[105,179][975,228]")
                 + grid)
    return screens.screen(node(cls="android.widget.FrameLayout", pkg=pkg, bounds="[0,0][1080,2400]", children=sheet))


def test_the_system_photo_picker_over_the_app_is_cancelled_but_an_apps_own_full_page_sheet_is_its_page():
    found = verdict(_full_height_sheet("com.google.android.providers.media.module"))
    assert found.kind is K.OVERLAY and isinstance(found.clearance, TapClearance), found.describe()
    assert found.clearance.label == "Cancel"
    # an app's persistent sheet filling its own window is its page (a map's expanded place card)
    assert verdict(_full_height_sheet("com.example.gallery")).kind is K.READY


def _sheet_layout(*sheet_children: str) -> str:
    """A chat page holding Material's sheet layout in its own window (design_bottom_sheet_dialog.xml: `container`,
    `coordinator`, `touch_outside`, then the sheet), the sheet holding `sheet_children` or left out."""
    pkg = screens.APP
    sheet = node(cls="android.widget.FrameLayout", pkg=pkg, rid=f"{pkg}:id/design_bottom_sheet",
                 bounds=f"[0,1400][{W},{H}]", children="".join(sheet_children)) if sheet_children else ""
    coordinator = node(cls="android.view.ViewGroup", pkg=pkg, rid=f"{pkg}:id/coordinator", bounds=f"[0,132][{W},{H}]",
                       children=node(cls="android.view.View", pkg=pkg, rid=f"{pkg}:id/touch_outside",
                                     bounds=f"[0,132][{W},{H}]") + sheet)
    container = node(cls="android.widget.FrameLayout", pkg=pkg, rid=f"{pkg}:id/container", bounds=f"[0,132][{W},{H}]",
                     children=coordinator)
    return screens.screen(screens.app_window(container))


def test_a_material_sheet_in_the_page_is_closed_but_its_empty_shell_is_no_sheet():
    items = (screens.button("Share", "[0,1500][1080,1640]"), screens.button("Delete chat", "[0,1640][1080,1780]"))
    found = verdict(_sheet_layout(*items))
    assert found.kind is K.OVERLAY and isinstance(found.clearance, BackClearance), found.describe()
    # The sheet removed, its coordinator and touch_outside left in the layout: the page (LINE's chat, c4457).
    assert verdict(_sheet_layout()).kind is K.READY, verdict(_sheet_layout()).describe()


def test_a_sheet_the_step_acts_in_is_not_in_the_way():
    sheet = _bottom_window(screens.button("Copy link", "[100,2000][980,2100]", pkg="com.example"), pkg="com.example")
    found = verdict(screens.screen(screens.app_window(), sheet), target=Selector(text="Copy link"))
    assert found.kind is K.READY


def test_a_system_ui_dialog_in_a_dialog_only_dump_is_a_dialog_not_the_notification_shade():
    dialog = node(cls="android.widget.FrameLayout", pkg="com.android.systemui", bounds="[40,1700][1040,2350]",
                  children=(node("Battery saver", pkg="com.android.systemui", rid="android:id/alertTitle",
                                 bounds="[80,1750][1000,1850]")
                            + screens.button("Cancel", "[100,2200][500,2300]", pkg="com.android.systemui")
                            + screens.button("Turn on", "[580,2200][980,2300]", pkg="com.android.systemui")))
    found = verdict(hierarchy(dialog))
    assert "shade" not in found.detail
    # "Turn on" changes a setting: a person decides, even though "Cancel" is there.
    assert found.kind is K.UNKNOWN and found.clearance is None, found.describe()


def test_a_system_prompt_without_a_cancel_word_is_closed_with_back():
    prompt = node(cls="android.widget.FrameLayout", pkg="android", bounds="[60,900][1020,1500]",
                  children=(node("USB debugging connected", pkg="android", bounds="[100,950][980,1050]")
                            + screens.button("OK", "[580,1300][980,1400]", pkg="android")))
    found = verdict(screens.screen(screens.app_window(), prompt))
    assert found.kind is K.SYSTEM_DIALOG and isinstance(found.clearance, BackClearance), found.describe()


def test_a_one_ui_usb_access_prompt_goes_to_the_person():
    found = real("c061_AxiSightME_usb_repro_state.xml")
    assert found.kind is K.UNKNOWN and found.clearance is None, found.describe()


def test_a_cookie_banner_is_refused_and_never_accepted():
    banner = screens.dialog_window("We value your privacy", "We use cookies to improve your experience.",
                                   "Accept all", "Reject all")
    found = verdict(screens.screen(screens.app_window(), banner))
    assert isinstance(found.clearance, TapClearance) and found.clearance.label == "Reject all", found.describe()
    accept_only = screens.dialog_window("Cookies", "We use cookies.", "Accept all", "Manage options")
    found = verdict(screens.screen(screens.app_window(), accept_only))
    assert found.kind is K.UNKNOWN and found.clearance is None


def test_a_terms_of_service_gate_goes_to_the_person_never_refused_nor_accepted():
    gate = screens.dialog_window("Before you start", "We use cookies. Please read our Terms of Service.",
                                 "Decline", "Accept")
    found = verdict(screens.screen(screens.app_window(), gate))
    assert found.kind is K.UNKNOWN and found.clearance is None and "terms of service" in found.detail, found.describe()
    zh = screens.dialog_window("用户协议与隐私政策提示", "我们将依据《用户协议》及《隐私政策》来保护您的个人信息。",
                               "不同意", "同意并继续")
    found = verdict(screens.screen(screens.app_window(), zh))
    assert found.kind is K.UNKNOWN and found.clearance is None and "用户协议" in found.detail, found.describe()
    # Look-alike: a cookie banner that names no agreement is still refused for the person.
    cookies = screens.dialog_window("We value your privacy", "We use cookies to measure traffic.", "Accept", "Decline")
    found = verdict(screens.screen(screens.app_window(), cookies))
    assert isinstance(found.clearance, TapClearance) and found.clearance.label == "Decline", found.describe()


def test_an_in_app_update_prompt_is_put_off_never_accepted():
    prompt = screens.dialog_window("Update available", "A new version of Tasks is available.", "Update", "Not now")
    found = verdict(screens.screen(screens.app_window(), prompt))
    assert isinstance(found.clearance, TapClearance) and found.clearance.label == "Not now", found.describe()


def test_the_lock_screen_needs_its_person():
    for name in ("c064_AxiSightME_usb_overlay_dump.xml", "c078_PIBITI2017_window_dump.xml"):
        found = real(name)
        assert found.kind is K.SYSTEM_DIALOG and found.clearance is None, (name, found.describe())
    shade = verdict(dump("042").data)
    assert isinstance(shade.clearance, BackClearance)


def test_a_list_popup_without_buttons_is_closed_with_back_and_a_progress_dialog_is_waited_for():
    menu = real("c110_FitAi_launcher_dump.xml")
    assert menu.kind is K.OVERLAY and isinstance(menu.clearance, BackClearance), menu.describe()
    assert isinstance(real("c022_sfmlog_window_dump.xml").clearance, WaitClearance)


def test_oem_security_centre_prompts_are_system_dialogs_and_an_install_goes_to_the_person():
    # MIUI's "USB install" check: 继续安装 (continue installing) / 拒绝 (refuse); ColorOS asks the same.
    for pkg in ("com.miui.securitycenter", "com.coloros.safecenter", "com.huawei.systemmanager"):
        prompt = node(cls="android.widget.FrameLayout", pkg=pkg, bounds="[40,1500][1040,2350]",
                      children=(node("USB安装提示", pkg=pkg, bounds="[80,1550][1000,1650]")
                                + screens.button("继续安装", "[100,2200][500,2300]", pkg=pkg, rid="android:id/button2")
                                + screens.button("拒绝", "[580,2200][980,2300]", pkg=pkg, rid="android:id/button1")))
        found = verdict(hierarchy(prompt))
        assert found.kind is K.UNKNOWN and found.clearance is None, (pkg, found.describe())
    auto_start = node(cls="android.widget.FrameLayout", pkg="com.miui.securitycenter", bounds="[40,1500][1040,2350]",
                      children=(node("自启动管理", pkg="com.miui.securitycenter", bounds="[80,1550][1000,1650]")
                                + screens.button("取消", "[100,2200][500,2300]", pkg="com.miui.securitycenter")
                                + screens.button("确定", "[580,2200][980,2300]", pkg="com.miui.securitycenter")))
    found = verdict(screens.screen(screens.app_window(), auto_start))
    assert found.kind is K.SYSTEM_DIALOG and isinstance(found.clearance, TapClearance), found.describe()
    assert found.clearance.label == "取消"
