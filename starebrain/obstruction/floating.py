"""Large floating app windows: dialog-themed activities and popup menus with many controls.

An app window that does not fill the display floats over what is below it: a `Dialog`, an activity with a
floating theme (`Theme.DeviceDefault.DialogWhenLarge` makes editors float on tablets), a `PopupWindow`
(`ListPopupWindow` / `PopupMenu`, Compose `DropdownMenu`). The dialog rules take the small ones; a large
one (a filter panel, an editor, a long menu) is a dialog too when it offers a dismiss word, and a menu
when all it holds is a column of items spanning its width. Back closes a menu without picking anything.
Only a window clear of both side edges counts: a split-screen half is as wide as the display.
"""

from __future__ import annotations

from starebrain.models.selector import Selector
from starebrain.obstruction.clearing import by_label, target_inside
from starebrain.obstruction.kinds import BackClearance, Obstruction, ObstructionKind
from starebrain.obstruction.lexicon import lexicon
from starebrain.obstruction.overlay import danger_reason, handle
from starebrain.obstruction.surfaces import Surface, is_keyboard, is_system_ui, surface_of
from starebrain.profiles import DeviceProfile
from starebrain.snapshot import Node, ScreenSnapshot
from starebrain.snapshot.describe import clean
from starebrain.snapshot.windows import Window, WindowKind

MIN_ROW_WIDTH = 0.9  # a menu item spans its menu's width (share of the window)
# Launcher3's long-press popup (`PopupContainerWithArrow`, an `AbstractFloatingView` added to the drag layer)
# holds its shortcuts in these containers (popup_container.xml, system_shortcut_rows_container.xml).
_LAUNCHER_POPUP_IDS = ("deep_shortcuts_container", "system_shortcuts_container")


def floating_window(snap: ScreenSnapshot, profile: DeviceProfile, target: Selector | None) -> Obstruction | None:
    """OVERLAY for the top-most floating app window: its dismiss button, or back for a bare menu."""
    window = next((w for w in snap.windows_by_layer
                   if w.kind not in (WindowKind.BAR, WindowKind.KEYBOARD) and not is_keyboard(w, profile)), None)
    if window is not None and window.kind is WindowKind.APP:
        return _launcher_popup(snap, window, target)
    if window is None or window.kind is not WindowKind.DIALOG or is_system_ui(window, profile):
        return None
    if window.bounds.left <= 0 or window.bounds.right >= snap.display.right:
        return None  # against a side edge: a split-screen half or a sheet, not a window floating over the app
    surface = surface_of(snap, snap.by_window[window.index][0])
    if not surface.buttons or target_inside(snap, target, surface):
        return None
    if danger_reason(snap, profile, surface) or by_label(snap, surface.buttons, lexicon(profile.words).dismiss):
        return handle(snap, profile, surface, "floating window")
    if _menu(snap, surface):
        title = clean(surface.texts[0], 60) if surface.texts else "untitled"
        return Obstruction(ObstructionKind.OVERLAY, f'popup menu "{title}"; back picks nothing', BackClearance())
    return None


def _menu(snap: ScreenSnapshot, surface: Surface) -> bool:
    """Every control is an item of one column: as wide as the window, stacked without overlapping; above the
    items the menu may hold one row of labelled icon buttons (a browser's back / forward / refresh: Chrome's
    app menu `icon_row_menu_item`, DuckDuckGo's popup `header`)."""
    width = max(surface.root.bounds.width, 1)
    controls = [n for n in surface.nodes if n.clickable or n.checkable or n.editable]
    rows = sorted((n for n in controls if n.bounds.width >= MIN_ROW_WIDTH * width), key=lambda n: n.bounds.top)
    if len(rows) < 2 or any(n.editable for n in controls):
        return False
    icons = [n for n in controls if n.bounds.width < MIN_ROW_WIDTH * width]
    if icons and not _icon_row(snap, icons, rows[0]):
        return False
    return all(a.bounds.bottom <= b.bounds.top for a, b in zip(rows, rows[1:], strict=False)) and all(
        snap.label_of(n) for n in rows)


def _icon_row(snap: ScreenSnapshot, icons: list[Node], first: Node) -> bool:
    """Labelled buttons side by side in one row above the menu's first item."""
    lowest_top = max(n.bounds.top for n in icons)
    highest_bottom = min(n.bounds.bottom for n in icons)
    return len(icons) >= 2 and lowest_top < highest_bottom and max(n.bounds.bottom for n in icons) <= first.bounds.top \
        and all(not snap.children(n) and snap.label_of(n) for n in icons)


def _launcher_popup(snap: ScreenSnapshot, window: Window, target: Selector | None) -> Obstruction | None:
    """OVERLAY (back) for a home screen's long-press popup: `AbstractFloatingView#onBackPressed` closes it."""
    for node in snap.by_window[window.index]:
        if not (node.resource_id and node.visible and node.short_id in _LAUNCHER_POPUP_IDS):
            continue
        surface = surface_of(snap, node)
        if not surface.buttons or target_inside(snap, target, surface):
            return None
        title = clean(surface.texts[0], 60) if surface.texts else "untitled"
        return Obstruction(ObstructionKind.OVERLAY, f'launcher popup "{title}"; back closes it', BackClearance())
    return None
