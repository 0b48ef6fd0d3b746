"""Which window is which: system bars, keyboards, gesture strips and the app the person is in."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from starebrain.snapshot.node import WEBVIEW, Bounds, Node

SYSTEM_UI_PACKAGES = frozenset({"com.android.systemui", "com.miui.systemui", "com.samsung.android.systemui"})
# Packages that are keyboards on common phones; the device profiles add OEM ones for obstruction rules.
KEYBOARD_PACKAGES = frozenset({
    "com.google.android.inputmethod.latin", "com.android.inputmethod.latin",
    "com.samsung.android.honeyboard", "com.sec.android.inputmethod", "com.touchtype.swiftkey",
    "com.baidu.input", "com.baidu.input_mi", "com.sohu.inputmethod.sogou", "com.sohu.inputmethod.sogou.xiaomi",
    "com.iflytek.inputmethod", "com.tencent.qqpinyin", "com.google.android.inputmethod.pinyin",
})
# A window this thin is a gesture strip or a bar, never the app the person is in.
_STRIP_FRACTION = 0.06
# System UI this thin (status bar, navigation bar, a heads-up notification) is a bar, not a surface.
_BAR_FRACTION = 0.16
# A system package's full-window activity whose labelled content all starts below this share of the window is
# a translucent sheet over the caller, not a screen of its own (see `_sheet_windows`).
_SHEET_CONTENT_TOP = 0.3
# System UI flatter than this (height / width) is the status or navigation bar (SystemUI status_bar.xml,
# navigation_bar.xml), even when the dump holds nothing else to size the display by; a shade never is.
_BAR_ASPECT = 0.1
# Android TV's Settings asks its questions (Bluetooth pairing, forget network) in a full-screen DialogActivity
# (TvSettings dialog/old/DialogActivity: lb_dialog_fragment.xml holds dialog_fragment, whose DialogFragment puts
# the question in content_fragment and its answers in the list of action_fragment): a system dialog.
_TV_DIALOG_ID = ":id/action_fragment"
# The framework's ResolverActivity / ChooserActivity keep their targets in `resolver_list` (resolver_list.xml,
# chooser_grid.xml; also IntentResolver's), whatever height the drawer is pulled to: a system dialog too.
_SYSTEM_DIALOG_IDS = (_TV_DIALOG_ID, ":id/resolver_list")
# PermissionController asks for a role (RoleManager.createRequestRoleIntent: "Set X as your default home app?") in
# an AlertDialog (RequestRoleFragment), while its runtime-permission grants draw their own layout
# (GrantPermissionsActivity, grant_permissions.xml: no AlertDialog panels): the former is a system prompt.
_PERMISSION_CONTROLLERS = frozenset({"com.android.permissioncontroller", "com.google.android.permissioncontroller"})
# Ids AlertDialog gives its panels, on every Android version and OEM skin.
DIALOG_PANEL_IDS = frozenset({"parentPanel", "alertTitle", "buttonPanel", "topPanel", "contentPanel"})
_PANEL_ENDINGS = tuple(DIALOG_PANEL_IDS)
# Since Android 12L an input method draws its own navigation bar (android.inputmethodservice.NavigationBarController
# inflates the framework's input_method_navigation_bar.xml): a window holding it is an input method, whatever its
# package is called (ADB Keyboard, an OEM board).
_IME_NAV_BAR_ID = "android:id/input_method_navigation_bar_view"
# Packages whose floating windows are system dialogs (ANR, USB, chooser, volume, power).
SYSTEM_DIALOG_PACKAGES = frozenset({"android", "com.android.systemui", "com.android.intentresolver",
                                    "com.android.settings", "com.android.phone", "com.android.server.telecom",
                                    "com.android.tv.settings",
                                    # OEM security centres: USB-install checks, auto-start and battery prompts
                                    "com.miui.securitycenter", "com.coloros.safecenter", "com.oplus.safecenter",
                                    "com.huawei.systemmanager", "com.hihonor.systemmanager",
                                    "com.vivo.permissionmanager", "com.iqoo.secure",
                                    # vivo's host of the framework's own dialogs (OriginOS moves system_server's
                                    # AlertDialogs, such as InputMethodMenuController's input-method picker, there)
                                    "com.vivo.frameworkui",
                                    "com.samsung.android.sm.devicesecurity",
                                    # Google Play services (account chooser, sign-in consent) and the system
                                    # file picker (DocumentsUI: folder-access grants) float over the calling app
                                    "com.google.android.gms", "com.android.documentsui",
                                    # Play billing (BillingClient.launchBillingFlow: the Play Store's translucent sheet)
                                    "com.android.vending",
                                    # AOSP VpnDialogs: ConfirmDialog asks the person to let an app set up a VPN
                                    "com.android.vpndialogs",
                                    "com.google.android.documentsui",
                                    # OEM password keychains: the autofill service's own "save password?" dialog
                                    # (AOSP draws it from the framework, package "android": autofill SaveUi)
                                    "com.hihonor.keychain", "com.huawei.keychain",
                                    "com.samsung.android.samsungpassautofill"})
# Namespaces of the SoC vendors' system components (Qualcomm QTI / CodeAurora, MediaTek, Unisoc): shipped in the
# system or vendor image (device trees' PRODUCT_PACKAGES), never a store app, so their floating windows (a "no SIM
# card" alert of com.qualcomm.qti.*) are system dialogs.
_VENDOR_PREFIXES = ("com.qualcomm.", "com.qti.", "org.codeaurora.", "vendor.qti.", "com.mediatek.", "com.unisoc.",
                    "com.sprd.")


def is_system_dialog_package(package: str) -> bool:
    """A package whose floating windows are system dialogs: a known system one, or a SoC vendor's component."""
    return package in SYSTEM_DIALOG_PACKAGES or package.startswith(_VENDOR_PREFIXES)


class WindowKind(StrEnum):
    """What a window is, which decides its layer: apps at the bottom, the shade on top."""

    APP = "app"
    DIALOG = "dialog"
    KEYBOARD = "keyboard"
    BAR = "bar"
    SYSTEM_DIALOG = "system_dialog"
    SHADE = "shade"


# Layer of each kind (higher is drawn above); the dump's own window order only breaks ties.
_KIND_LAYER = {WindowKind.APP: 0, WindowKind.DIALOG: 1, WindowKind.KEYBOARD: 2, WindowKind.BAR: 3,
               WindowKind.SYSTEM_DIALOG: 4, WindowKind.SHADE: 5}


@dataclass(frozen=True)
class Window:
    """One top-level window of the dump."""

    index: int
    package: str
    bounds: Bounds
    node_count: int
    kind: WindowKind = WindowKind.APP
    layer: int = 0  # z position among the dump's windows: 0 is the bottom-most
    has_dialog_panel: bool = False  # AlertDialog ids (parentPanel, alertTitle, buttonPanel) inside
    # the framework's input-method navigation bar inside (left out of repr: the kind it gives already shows)
    has_ime_bar: bool = field(default=False, repr=False)

    @property
    def floating(self) -> bool:
        """A dialog-like window that does not fill the display (app or system)."""
        return self.kind in (WindowKind.DIALOG, WindowKind.SYSTEM_DIALOG)

    @property
    def is_system_ui(self) -> bool:
        return self.package in SYSTEM_UI_PACKAGES

    @property
    def is_keyboard(self) -> bool:
        return self.has_ime_bar or is_keyboard_package(self.package)


def is_keyboard_package(package: str) -> bool:
    """True for input-method packages (known ones, or any with `inputmethod` in the name)."""
    return package in KEYBOARD_PACKAGES or "inputmethod" in package


def windows_of(nodes: Sequence[Node]) -> list[Window]:
    """The windows in dump order, each with its root's package, bounds, kind and layer."""
    counts: dict[int, int] = {}
    for n in nodes:
        counts[n.window_index] = counts.get(n.window_index, 0) + 1
    roots = [n for n in nodes if n.parent is None]
    # `endswith` (one C call) passes over almost every id; the exact test runs only on the few it keeps.
    panels = {n.window_index for n in nodes if n.resource_id.endswith(_PANEL_ENDINGS)
              and n.resource_id.rpartition("/")[2] in DIALOG_PANEL_IDS}
    ime = {n.window_index for n in nodes if n.resource_id == _IME_NAV_BAR_ID}
    plain = [Window(r.window_index, _window_package(nodes, r), r.bounds, counts[r.window_index],
                    has_dialog_panel=r.window_index in panels, has_ime_bar=r.window_index in ime) for r in roots]
    display = display_bounds(plain)
    sheets = _sheet_windows(nodes, plain) | {n.window_index for n in nodes if n.resource_id.endswith(_SYSTEM_DIALOG_IDS)
                                             and n.package in SYSTEM_DIALOG_PACKAGES}
    kinds = [WindowKind.SYSTEM_DIALOG if w.index in sheets else window_kind(w, display) for w in plain]
    # Same kind: the earlier window is above (UiAutomation lists windows top-most first).
    order = sorted(range(len(plain)), key=lambda i: (_KIND_LAYER[kinds[i]], -i))
    layer = {i: z for z, i in enumerate(order)}
    return [Window(w.index, w.package, w.bounds, w.node_count, kinds[i], layer[i], w.has_dialog_panel,
                   w.has_ime_bar) for i, w in enumerate(plain)]


def _sheet_windows(nodes: Sequence[Node], windows: Sequence[Window]) -> set[int]:
    """Full windows of system-dialog packages that only draw a sheet in their lower part: the framework's
    ResolverActivity / ChooserActivity (Theme.DeviceDefault.Resolver, a translucent window holding a
    ResolverDrawerLayout) and Play services' account chooser / sign-in (a translucent activity holding a
    BottomSheetDialog or a Compose sheet) fill the display, yet leave the calling app visible above the sheet.
    A WebView is content wherever it starts, words or not: Chromium's accessibility tree gives it children only
    once the page has rendered (Play services' add-account flow hosts its sign-in page so, over the whole page)."""
    tall = {w.index: w.bounds for w in windows if w.package in SYSTEM_DIALOG_PACKAGES
            and w.package not in SYSTEM_UI_PACKAGES and not _starts_inset(w.bounds) and w.bounds.area > 0}
    if not tall:
        return set()
    top: dict[int, int] = {}
    for n in nodes:
        if n.window_index in tall and (n.text or n.content_desc or n.short_class == WEBVIEW) and n.bounds.area > 0:
            top[n.window_index] = min(top.get(n.window_index, n.bounds.top), n.bounds.top)
    return {i for i, t in top.items()
            if t - tall[i].top >= _SHEET_CONTENT_TOP * tall[i].height}


def _fills(w: Bounds, display: Bounds) -> bool:
    """From the top edge to the bottom: an activity's window (an input method's settings page or sheet). The
    input window itself (InputMethodService's SoftInputWindow) is only as tall as its input view, at the
    bottom; only its landscape extract mode (fullscreen editor) also fills the display."""
    return w.top < _STRIP_FRACTION * display.height and w.height >= 0.85 * display.height


def _starts_inset(b: Bounds) -> bool:
    return b.area > 0 and b.left > 0 and b.top > 0


def display_bounds(windows: Sequence[Window]) -> Bounds:
    """The display, estimated from the windows: a centred dialog implies a screen twice its margins."""
    width = height = 0
    for w in windows:
        b = w.bounds
        if b.area <= 0:
            continue
        width, height = max(width, b.right), max(height, b.bottom)
        if _starts_inset(b):
            width, height = max(width, b.left + b.right), max(height, b.top + b.bottom)
    return Bounds(0, 0, width, height)


def window_kind(w: Window, display: Bounds) -> WindowKind:
    """Classify a window by package and geometry (a dialog-only dump is still a dialog)."""
    b = display
    if w.is_keyboard and not _fills(w.bounds, b):
        return WindowKind.KEYBOARD
    thin = w.bounds.height < b.height * _STRIP_FRACTION or w.bounds.width < b.width * _STRIP_FRACTION
    floating = _starts_inset(w.bounds) or (w.bounds.top > 0.1 * b.height and w.bounds.height < 0.85 * b.height)
    if w.package in SYSTEM_UI_PACKAGES:
        if w.bounds.height < _BAR_ASPECT * w.bounds.width:
            return WindowKind.BAR
        if w.has_dialog_panel and (floating or w.bounds.area < 0.5 * max(b.area, 1)):
            return WindowKind.SYSTEM_DIALOG  # One UI puts its system dialogs at the bottom edge
        if not floating and w.bounds.area >= 0.5 * max(b.area, 1) and w.node_count > 10:
            return WindowKind.SHADE
        if thin or w.bounds.height < b.height * _BAR_FRACTION or w.bounds.width < b.width * _BAR_FRACTION:
            return WindowKind.BAR
        return WindowKind.SYSTEM_DIALOG if floating else WindowKind.BAR
    if thin:
        return WindowKind.BAR
    if floating:
        system = is_system_dialog_package(w.package) or (w.has_dialog_panel and w.package in _PERMISSION_CONTROLLERS)
        return WindowKind.SYSTEM_DIALOG if system else WindowKind.DIALOG
    return WindowKind.APP


def by_layer(windows: Sequence[Window]) -> list[Window]:
    """Top-most window first."""
    return sorted(windows, key=lambda w: -w.layer)


def _window_package(nodes: Sequence[Node], root: Node) -> str:
    if root.package:
        return root.package
    return next((n.package for n in nodes if n.window_index == root.window_index and n.package), "")


def screen_bounds(nodes: Sequence[Node]) -> Bounds:
    """The display as far as the dump shows it (the union of the window roots)."""
    roots = [n.bounds for n in nodes if n.parent is None and n.bounds.area > 0]
    if not roots:
        return Bounds(0, 0, 0, 0)
    return Bounds(min(b.left for b in roots), min(b.top for b in roots),
                  max(b.right for b in roots), max(b.bottom for b in roots))


def app_windows(windows: Sequence[Window], screen: Bounds) -> list[Window]:
    """Windows of apps: not system UI, not a keyboard, not a thin gesture/bar strip."""
    def is_strip(w: Window) -> bool:
        return (w.bounds.height < screen.height * _STRIP_FRACTION
                or w.bounds.width < screen.width * _STRIP_FRACTION)
    return [w for w in windows if not (w.is_system_ui or w.is_keyboard or is_strip(w))]


def foreground_window(windows: Sequence[Window], screen: Bounds) -> Window | None:
    """The largest app window; when only system windows are shown, the largest of those."""
    pool = app_windows(windows, screen) or list(windows)
    if not pool:
        return None
    # Larger area wins; among equals the later window, which the dump lists above the earlier.
    return max(enumerate(pool), key=lambda iw: (iw[1].bounds.area, iw[0]))[1]
