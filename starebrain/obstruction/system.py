"""SYSTEM_DIALOG rules: "isn't responding", "has stopped", system prompts (USB, battery, volume, OEM
security centres) and the notification shade."""

from __future__ import annotations

from functools import cache

from starebrain.models.selector import Selector
from starebrain.obstruction.clearing import by_ids, by_label, tap, target_inside, visible_target
from starebrain.obstruction.kinds import BackClearance, Obstruction, ObstructionKind
from starebrain.obstruction.lexicon import Lexicon, lexicon, offered, said, word_of
from starebrain.obstruction.loading import wait_out
from starebrain.obstruction.permission import grants_access
from starebrain.obstruction.surfaces import Surface, dialogs, is_system_ui, shade, surface_of
from starebrain.profiles import DeviceProfile
from starebrain.profiles.words import mentions, normalize_label
from starebrain.snapshot import Bounds, Node, ScreenSnapshot
from starebrain.snapshot.describe import clean
from starebrain.snapshot.node import WEBVIEW
from starebrain.snapshot.windows import SYSTEM_UI_PACKAGES, WindowKind, is_system_dialog_package

_WAIT = ("wait", "esperar", "aguardar", "等待")
_CLOSE = ("close app", "ok", "close", "cerrar app", "fechar app", "关闭应用", "确定")
KIND = ObstructionKind.SYSTEM_DIALOG
# AlertController's positive and negative buttons (alert_dialog.xml, android:id/button1 / button2)
_POSITIVE_ID, _NEGATIVE_ID = ":id/button1", ":id/button2"
_ALERT_BUTTON_IDS = (_POSITIVE_ID, _NEGATIVE_ID, ":id/button3")  # button3: BUTTON_NEUTRAL


def system_dialog(snap: ScreenSnapshot, profile: DeviceProfile, target: Selector | None) -> Obstruction | None:
    """An ANR or crash dialog, a system prompt, the lock screen, the recent-apps overview or the shade."""
    found = _keyguard_window(snap) or _biometric_prompt(snap)
    if found is not None:
        return found
    surfaces = dialogs(snap, profile)
    for surface in reversed(surfaces):
        if target_inside(snap, target, surface):
            continue
        found = _anr(snap, profile, surface) or _crash(snap, profile, surface) or _prompt(snap, profile, surface)
        if found is not None:
            return found
    found = _large_prompt(snap, profile, target, {s.window for s in surfaces}) or _setup_flow(snap, profile, target)
    if found is not None:
        return found
    return _dozing_keyguard(snap) or _system_ui_notice(snap, profile) or _incoming_call(snap, profile) \
        or _shade(snap, profile) or _recents(snap) or _screenshot_preview(snap, profile)


def _prompt(snap: ScreenSnapshot, profile: DeviceProfile, surface: Surface) -> Obstruction | None:
    """Any other floating system window: its cancel/deny button, else back; a person when it offers to
    grant, pay or install (even its "Cancel" would be a choice made for them); one that only offers to switch a
    setting on is declined with its negative button (`_declines_switch`)."""
    window = next((w for w in snap.windows if w.index == surface.window), None)
    if window is None or window.kind is not WindowKind.SYSTEM_DIALOG:
        return None
    words = lexicon(profile.words)
    title = clean(surface.texts[0], 60) if surface.texts else "system dialog"
    if grants_access(surface, words):
        return Obstruction(ObstructionKind.PERMISSION, f'system dialog "{title}" would give an app access; '
                                                       "a person must decide")
    if any(n.class_name.endswith(WEBVIEW) for n in snap.by_window[window.index]):
        # Play services draws Google's account pages (sign-in, OAuth consent, "unverified app") as web pages: no
        # AlertController button roles say which button declines, and the page is about the person's account.
        return Obstruction(ObstructionKind.UNKNOWN, f'system dialog "{title}" shows a web sign-in page; '
                                                    "a person must decide")
    # A refusal naming what it refuses (PermissionController's "Don't allow anyway") offers nothing risky.
    risky = next((b for b in surface.buttons if word_of(snap.label_of(b), words.never_tap)
                  or offered(snap.label_of(b), words.never_tap, words.deny)), None)
    risky_title = bool(surface.texts) and said(surface.texts[0], words.never_tap) is not None
    if risky is None and risky_title and len(surface.buttons) > 1 \
            and any(b.resource_id.endswith(_POSITIVE_ID) for b in surface.buttons):
        # "Allow X to access the USB device?": its OK (AlertController's positive button) grants, its Cancel
        # refuses. A title over a list (Play services' "Sign in with Google" account picker) asks no yes/no:
        # none of its buttons is pressed for the person, back closes it.
        risky = surface.buttons[-1]
    switch_off = _declines_switch(snap, profile, surface) if risky is not None else None
    if switch_off is not None:
        return Obstruction(KIND, f'system dialog "{title}" only asks to switch a setting on; its negative button '
                                 "declines", tap(snap, switch_off))
    if risky is not None:
        offer = clean(snap.label_of(risky), 30)
        return Obstruction(ObstructionKind.UNKNOWN, f'system dialog "{title}" offers "{offer}"; a person must decide')
    button = None if risky_title else \
        by_label(snap, surface.buttons, words.dismiss) or by_label(snap, surface.buttons, words.deny)
    if button is None and not risky_title and window.has_dialog_panel:
        # An AlertDialog (parentPanel / buttonPanel) built with only a positive button ("OK"): a notice whose
        # one button is the only way it ends; nothing risky is offered (checked above) or asked in its title.
        # Its negative button (AlertController's BUTTON_NEGATIVE, android:id/button2) is the one that declines,
        # so an acknowledge word there ("OK" beside "Don't show again") ends the notice choosing nothing.
        lone = len(surface.buttons) == 1 and surface.buttons[0].resource_id.endswith(_POSITIVE_ID)
        button = by_label(snap, surface.buttons if lone else
                          [b for b in surface.buttons if b.resource_id.endswith(_NEGATIVE_ID)], words.acknowledge)
    if button is not None:
        return Obstruction(KIND, f'system dialog "{title}"', tap(snap, button))
    return Obstruction(KIND, f'system dialog "{title}"; back cancels it without choosing', BackClearance())


def _declines_switch(snap: ScreenSnapshot, profile: DeviceProfile, surface: Surface) -> Node | None:
    """The negative button of a system AlertDialog whose only offer is to switch a setting on, else None.

    Play services' location prompts (LocationSettingsRequest's resolution dialog: "turn on device location" /
    "Location Accuracy" with No thanks / Turn on) are AlertDialogs: AlertController puts the refusal on
    BUTTON_NEGATIVE (android:id/button2), which closes the dialog changing nothing. Only a negative button with a
    dismiss or refusal word is tapped; the other dialog buttons must be the switch itself or an acknowledgement,
    and no text may name a danger, nor the title or a control anything riskier than a switch (grant, pay, account).
    """
    words = lexicon(profile.words)
    if not words.setting or any(mentions(t, profile.words.danger_text) for t in surface.texts):
        return None
    riskier = _riskier_than_switch(words)
    if surface.texts and said(surface.texts[0], riskier) is not None:
        return None
    negative = next((b for b in surface.buttons if b.resource_id.endswith(_NEGATIVE_ID)), None)
    if negative is None or not (word_of(snap.label_of(negative), words.dismiss)
                                or word_of(snap.label_of(negative), words.deny)):
        return None
    for b in surface.buttons:
        label = snap.label_of(b)
        if b is negative:
            continue
        if b.resource_id.endswith(_ALERT_BUTTON_IDS):
            if not (word_of(label, words.setting) or word_of(label, words.acknowledge)):
                return None
        elif said(label, riskier) is not None:  # a clickable message (its link) may only name the switch
            return None
    return negative


@cache
def _riskier_than_switch(words: Lexicon) -> tuple[str, ...]:
    """The never-tap words that do more than switch something on (grant, pay, install, agree, account)."""
    setting = set(words.setting)
    return tuple(w for w in words.never_tap if w not in setting)


def _large_prompt(snap: ScreenSnapshot, profile: DeviceProfile, target: Selector | None,
                  seen: set[int]) -> Obstruction | None:
    """A floating system window too large for a dialog surface (an account chooser listing many accounts)."""
    for window in snap.windows_by_layer:
        if window.kind is not WindowKind.SYSTEM_DIALOG or window.index in seen or is_system_ui(window, profile):
            continue
        surface = surface_of(snap, snap.by_window[window.index][0])
        if not target_inside(snap, target, surface):
            return _prompt(snap, profile, surface)
    return None


# Google's setup-flow layout (setupdesign's GlifLayout: sud_layout_content; setup-wizard-lib before it:
# suw_layout_content), used by Setup Wizard, Play services' add-account / sign-in flow (MinuteMaid), Settings'
# screen-lock and biometric enrolment: pages that ask for credentials, a fingerprint or consent.
_SETUP_CONTENT_IDS = (":id/sud_layout_content", ":id/suw_layout_content")


def _setup_flow(snap: ScreenSnapshot, profile: DeviceProfile, target: Selector | None) -> Obstruction | None:
    """A system package's setup or sign-in page filling the screen: the person's, or a wait while its page loads."""
    window = snap.top_window
    if window is None or window.kind is not WindowKind.APP or not is_system_dialog_package(window.package):
        return None
    nodes = snap.by_window[window.index]
    content = next((n for n in nodes if n.resource_id.endswith(_SETUP_CONTENT_IDS) and n.visible), None)
    web = content is None
    if web:  # the same flow before the setup layout: the WebView is the page itself (see `_web_form`)
        content = next((n for n in nodes if n.class_name.endswith(WEBVIEW) and n.visible), None)
    if content is None or visible_target(snap, target) is not None:
        return None
    inner = snap.descendants(content)
    if web:
        return _web_form(content, window.bounds, inner)
    if not any(n.text or n.content_desc for n in inner) and any(n.class_name.endswith(WEBVIEW) for n in inner):
        # Chromium gives a WebView accessibility children only once its page renders
        return Obstruction(ObstructionKind.LOADING, "a system sign-in page has not rendered yet", wait_out(profile))
    return Obstruction(KIND, "a system setup or sign-in flow fills the screen; signing in is the person's", None)


# Play services' account pages (MinuteMaid's sign-in, account creation) are web pages: an older flow puts its
# WebView straight into the activity, with only the native NEXT below it. A system package's full window whose
# WebView fills most of it and holds a text field asks for the person's credentials, whatever its words.
_WEB_PAGE_SHARE = 0.6


def _web_form(web: Node, window: Bounds, inner: list[Node]) -> Obstruction | None:
    """The person's, when the system window's WebView is its page and holds a field to fill."""
    if web.bounds.height < _WEB_PAGE_SHARE * window.height or not any(n.editable and n.visible for n in inner):
        return None
    return Obstruction(KIND, "a system web page asks for an account's credentials; signing in is the person's", None)


def _is_system(profile: DeviceProfile, surface: Surface) -> bool:
    ids = (*profile.system_dialog.anr_wait_ids, *profile.system_dialog.anr_close_ids)
    return surface.package in profile.system_dialog.packages or by_ids(surface.buttons, ids, loose=True) is not None


# The framework's error dialogs name their buttons in every language: AppNotRespondingDialog
# (app_anr_dialog.xml) has aerr_close and aerr_wait, AppErrorDialog (app_error_dialog.xml: "keeps stopping")
# aerr_close, aerr_app_info, aerr_restart, aerr_report, aerr_mute, but never aerr_wait. So a dialog of the
# framework's package with those ids is one of them even when its words are in no list.
def _anr(snap: ScreenSnapshot, profile: DeviceProfile, surface: Surface) -> Obstruction | None:
    said = next((t for t in surface.texts if mentions(t, profile.words.anr_text)), None)
    wait = by_ids(surface.buttons, profile.system_dialog.anr_wait_ids)
    if (said is None and wait is None) or not _is_system(profile, surface):
        return None
    wait = wait or by_ids(surface.buttons, profile.system_dialog.anr_wait_ids, loose=True) \
        or by_label(snap, surface.buttons, _WAIT)
    what = normalize_label(said) if said else (clean(surface.texts[0], 60) if surface.texts else "isn't responding")
    detail = f'"{what}" dialog; waiting once gives the app a chance'
    return Obstruction(KIND, detail, tap(snap, wait) if wait else None)


def _crash(snap: ScreenSnapshot, profile: DeviceProfile, surface: Surface) -> Obstruction | None:
    said = next((t for t in surface.texts if mentions(t, profile.words.crash_text)), None)
    if said is None and by_ids(surface.buttons, profile.system_dialog.anr_close_ids) is not None:
        said = surface.texts[0] if surface.texts else "the app keeps stopping"  # AppErrorDialog, by its ids
    if said is None or surface.package not in profile.system_dialog.packages:
        return None
    ok = by_ids(surface.buttons, profile.system_dialog.crash_ok_ids) or by_label(snap, surface.buttons, _CLOSE)
    return Obstruction(KIND, f'crash dialog "{said[:60]}"', tap(snap, ok) if ok else None)


def _shade(snap: ScreenSnapshot, profile: DeviceProfile) -> Obstruction | None:
    window = shade(snap, profile)
    if window is None or window.kind is WindowKind.BAR:
        return None  # a status bar alone in the dump fills the display the dump implies, yet is no shade
    if _locked(snap, profile, window.index):
        return _locked_screen()
    return Obstruction(KIND, "the notification shade / quick settings cover the screen", BackClearance())


# The shade always carries some keyguard containers; these appear only on the lock screen itself. The
# bouncer (PIN / pattern / password) lives in KeyguardHostView > KeyguardSecurityContainer; Android 14+
# draws the lock / fingerprint icon as DeviceEntryIconView (it replaced LockIconView, id lock_icon_view).
# The indication area under it (KeyguardIndicationController: "Swipe up to open", charging; id
# keyguard_indication_area / keyguard_indication_text) is shown only in StatusBarState.KEYGUARD, and so is
# the keyguard's own status bar (KeyguardStatusBarView, keyguard_status_bar.xml: keyguard_carrier_text); an
# unlocked phone's shade shows the quick-settings header's carrier group instead. KeyguardBottomAreaView
# (keyguard_bottom_area.xml: the camera / wallet affordances) is made visible by NotificationPanelViewController
# only in StatusBarState.KEYGUARD or SHADE_LOCKED (the shade pulled over the lock screen) and GONE otherwise.
# Android 16's System UI draws the keyguard in Compose inside its scene container (scene_window_root): there an
# element's test tag, exposed as its resource id, is "element:<key>" (compose scene ElementKey.testTag), and the
# Lockscreen scene's root element is keyed "lockscreen"; it is composed only while the keyguard shows.
_KEYGUARD_IDS = ("keyguard_clock", "keyguard_status_view", "bouncer", "lock_icon", "pinEntry", "pin_entry",
                 "lockPattern", "lock_pattern", "keyguard_host_view", "keyguard_security_container",
                 "device_entry_icon", "keyguard_indication", "keyguard_carrier_text", "keyguard_bottom_area",
                 "element:lockscreen")
# Keyguard as an app of its own: AOSP packages/Keyguard (Android 4.4, package com.android.keyguard) before it
# moved into SystemUI; MIUI still ships it so. A full (not floating, not bar) window of it is the lock screen.
_KEYGUARD_PACKAGES = ("com.android.keyguard",)
# BiometricPrompt (SystemUI AuthBiometricView, auth_biometric_contents.xml; One UI's biometrics app keeps the
# ids): the "Use PIN" fallback to the device credential, and, in System UI only (an app may name its own
# fingerprint icon so), the fingerprint / face icon. Authenticating is the person's.
_CREDENTIAL_ID, _BIOMETRIC_ICON_ID = ":id/button_use_credential", ":id/biometric_icon"
# The recent-apps overview: Launcher3 quickstep's RecentsView (overview_panel.xml, id overview_panel; OEM
# launchers number it) holding TaskViews whose thumbnail is TaskThumbnailView (task.xml, id snapshot).
# SystemUI's own recents of Android 7–8 (recents.xml: recents_view; recents_task_view.xml: task_view_thumbnail),
# which MIUI's launcher keeps, name the same two parts so.
_OVERVIEW_IDS, _THUMBNAIL_IDS = (":id/overview_panel", ":id/recents_view"), (":id/snapshot", ":id/task_view_thumbnail")
# The notification shade's window (NotificationShadeWindowView, legacy_window_root) is shown only while the
# keyguard shows or the shade is pulled down; a pulled-down shade always shows quick settings and notifications
# (texts, descriptions). The keyguard's root with not one word in the window is the lock screen dozing (AOD off).
# MIUI / HyperOS draw the always-on display (the com.miui.aod app's views) in System UI's aod_root_view, which is
# there only while the phone dozes under its keyguard; with no word in the window it is the same locked, dark screen.
# So is the shade's own panel (NotificationPanelView, status_bar_expanded.xml: notification_panel) with no word in
# the window: pulled down it would show tiles and notifications, so the window is up for the keyguard.
_KEYGUARD_ROOT_IDS = (":id/keyguard_root_view", ":id/aod_root_view", ":id/notification_panel")
# The framework's own windows (system_server: ImmersiveModeConfirmation before Android 14, the chooser, its dialogs).
_FRAMEWORK = "android"
# AOSP draws the screenshot preview in SystemUI (ScreenshotController); OEM skins draw it from their own screenshot
# app over whatever app was shown (Xiaomi com.miui.screenshot, Oppo / OnePlus com.oplus.screenshot and, before
# ColorOS 12, com.coloros.screenshot, Honor com.hihonor.screenshot, vivo com.vivo.smartshot, Samsung's capture
# toolbar com.samsung.android.app.smartcapture). It is system UI, not the app, and it goes by itself: waiting sends
# no key, while back would reach the app under it (AOSP's GlobalScreenshot window is FLAG_NOT_FOCUSABLE).
_SCREENSHOT_PACKAGES = frozenset({"com.miui.screenshot", "com.oplus.screenshot", "com.coloros.screenshot",
                                  "com.hihonor.screenshot", "com.vivo.smartshot",
                                  "com.samsung.android.app.smartcapture"})


def _locked(snap: ScreenSnapshot, profile: DeviceProfile, window: int) -> bool:
    """The lock screen: keyguard ids, or lock-screen words ("Enter PIN", "Swipe up to unlock")."""
    nodes = [n for n in snap.nodes if n.window_index == window and n.visible]
    words = lexicon(profile.words).lock_screen
    return any(any(k in n.short_id for k in _KEYGUARD_IDS) for n in nodes) or any(
        said(n.text or n.content_desc, words) for n in nodes if n.text or n.content_desc)


def _locked_screen() -> Obstruction:
    return Obstruction(KIND, "the phone is locked; a person must unlock it", None)


def _keyguard_window(snap: ScreenSnapshot) -> Obstruction | None:
    """A full window of the keyguard app: the phone is locked."""
    if any(w.package in _KEYGUARD_PACKAGES and w.kind is WindowKind.APP for w in snap.windows):
        return _locked_screen()
    return None


def _biometric_prompt(snap: ScreenSnapshot) -> Obstruction | None:
    """BiometricPrompt over the app: only the person's finger, face or PIN gets past it."""
    # One C-level `endswith` per node: this runs on every screen.
    if any(n.resource_id.endswith((_CREDENTIAL_ID, _BIOMETRIC_ICON_ID)) and n.visible
           and (n.resource_id.endswith(_CREDENTIAL_ID) or n.package in SYSTEM_UI_PACKAGES) for n in snap.nodes):
        return Obstruction(KIND, "a biometric prompt asks for the person's fingerprint, face or PIN", None)
    return None


def _recents(snap: ScreenSnapshot) -> Obstruction | None:
    """The recent-apps overview: back returns to where the person was, closing no app (its "Clear all" would)."""
    window = snap.top_window
    if window is None or window.kind is not WindowKind.APP:
        return None
    nodes = [n for n in snap.by_window[window.index] if n.visible]
    # The thumbnail test first: one C-level `endswith` per node, and most screens have no thumbnail.
    if any(n.resource_id.endswith(_THUMBNAIL_IDS) for n in nodes) \
            and any(any(i in n.resource_id for i in _OVERVIEW_IDS) for n in nodes):
        return Obstruction(KIND, "the recent-apps overview covers the screen", BackClearance())
    return None


def _dozing_keyguard(snap: ScreenSnapshot) -> Obstruction | None:
    """The shade window holding the keyguard's root (or MIUI's always-on display, or the shade's own panel) and no
    word at all: the phone is locked, its screen asleep."""
    for window in snap.windows:
        if not window.is_system_ui or window.floating:
            continue
        nodes = snap.by_window[window.index]
        if any(n.resource_id.endswith(_KEYGUARD_ROOT_IDS) for n in nodes) \
                and not any(n.text or n.content_desc for n in nodes):
            return _locked_screen()
    return None


def _system_ui_notice(snap: ScreenSnapshot, profile: DeviceProfile) -> Obstruction | None:
    """A System UI window over most of the display whose only control is an acknowledge button, under a text:
    SystemUI's ImmersiveModeConfirmation cling (immersive_mode_cling.xml: a title, a description and its "Got
    it" button `ok`, in a window as large as the display). A heads-up notification is clickable itself.
    Before Android 14 the framework drew the same cling from system_server (ImmersiveModeConfirmation in
    com.android.internal.policy.impl, then com.android.server.policy, then com.android.server.wm; layout in
    core/res, ids android:id/immersive_cling_*), so its window's package is the framework's, "android"."""
    words = lexicon(profile.words)
    for window in snap.windows:
        if not (window.is_system_ui or window.package == _FRAMEWORK) or window.kind is WindowKind.SHADE \
                or window.bounds.area < 0.5 * max(snap.display.area, 1):
            continue
        nodes = [n for n in snap.by_window[window.index] if n.visible]
        controls = [n for n in nodes if n.clickable]
        if len(controls) == 1 and any(n.text for n in nodes if n is not controls[0]) \
                and word_of(snap.label_of(controls[0]), words.acknowledge):
            return Obstruction(KIND, "a System UI notice; its button only acknowledges it", tap(snap, controls[0]))
    return None


# Every notification action is a button with the framework's id action0 (notification_material_action.xml, laid
# out by NotificationActionListLayout); Notification.CallStyle.forIncomingCall always adds a decline and an
# answer action, labelled by the framework (call_notification_decline_action / call_notification_answer_action).
_ACTION_ID = "android:id/action0"


def _incoming_call(snap: ScreenSnapshot, profile: DeviceProfile) -> Obstruction | None:
    """An incoming call's heads-up notification (System UI, not the pulled-down shade): the person's to take."""
    calls = lexicon(profile.words).incoming_call
    if not calls:
        return None
    for window in snap.windows:
        if not window.is_system_ui or window.kind is WindowKind.SHADE:
            continue
        offered = {word_of(snap.label_of(n), calls) for n in snap.by_window[window.index]
                   if n.visible and n.resource_id == _ACTION_ID}
        if len(offered - {None}) >= 2:
            return Obstruction(KIND, "an incoming call rings in a heads-up notification; answering or declining "
                                     "is the person's", None)
    return None


def _screenshot_preview(snap: ScreenSnapshot, profile: DeviceProfile) -> Obstruction | None:
    """An OEM screenshot app's preview or toolbar floating over the screen: wait until it goes."""
    if any(w.package in _SCREENSHOT_PACKAGES and w.kind is not WindowKind.BAR for w in snap.windows):
        return Obstruction(KIND, "the system's screenshot preview floats over the screen; it goes by itself",
                           wait_out(profile))
    return None
