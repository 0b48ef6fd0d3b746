"""Sheets and choosers: surfaces that slide over the app and that the back key closes without choosing.

A bottom sheet (comments, share targets, "more options") and the "Open with" chooser ("Just once" /
"Always") are both cleared with back: back never picks an app, never sets a default, never posts.
"""

from __future__ import annotations

from starebrain.models.selector import Selector
from starebrain.obstruction.clearing import by_label, tap, target_inside
from starebrain.obstruction.kinds import BackClearance, Obstruction, ObstructionKind
from starebrain.obstruction.lexicon import lexicon, said, word_of
from starebrain.obstruction.surfaces import Surface, is_keyboard, surface_of
from starebrain.profiles import DeviceProfile
from starebrain.snapshot import Node, ScreenSnapshot
from starebrain.snapshot.describe import clean
from starebrain.snapshot.windows import Window, WindowKind

_SHEET_IDS = ("design_bottom_sheet", "bottom_sheet", "bottomsheet", "touch_outside")
_MODAL_SHEET_IDS = ("design_bottom_sheet", "touch_outside")
_CHOOSER_IDS = ("resolver_list", "button_once", "button_always", "chooser_header", "resolver_page",
                "chooser_row", "profile_pager")
_CHOOSER_PACKAGES = ("com.android.intentresolver",)
# MediaProvider's photo picker (PhotoPickerActivity) lays its picker out in a `bottom_sheet` that may expand to
# the whole window; the activity exists only to hand picked media to the app that opened it, so its sheet is
# always a modal over that app (Cancel or back returns nothing).
_PICKER_PACKAGES = ("com.android.providers.media.module", "com.google.android.providers.media.module")
# A sheet window starts below this share of the display and reaches its bottom edge.
MIN_SHEET_TOP = 0.15


def _windows(snap: ScreenSnapshot, profile: DeviceProfile) -> list[Window]:
    skip = (WindowKind.BAR, WindowKind.SHADE)
    return [w for w in snap.windows_by_layer if w.kind not in skip and not is_keyboard(w, profile)]


def _root(snap: ScreenSnapshot, window: Window) -> Node:
    return snap.by_window[window.index][0]


def chooser(snap: ScreenSnapshot, profile: DeviceProfile, target: Selector | None) -> Obstruction | None:
    """The app chooser ("Open with", "Just once" / "Always"): press back, never pick or set a default."""
    words = lexicon(profile.words)
    for window in _windows(snap, profile):
        root = _root(snap, window)
        ids = " ".join(n.resource_id for n in snap.by_window[window.index] if n.resource_id)
        by_id = any(i in ids for i in _CHOOSER_IDS)
        if window.kind is WindowKind.APP and not (by_id or window.package in _CHOOSER_PACKAGES):
            break  # only what lies above the app, unless the app window is the chooser activity itself
        surface = surface_of(snap, root)
        labels = {word_of(snap.label_of(b), words.chooser) for b in surface.buttons} - {None}
        titled = any(said(snap.label_of(n), words.chooser) for n in surface.nodes
                     if not n.clickable and n.text and not any(n.order == b.order for b in surface.buttons))
        if (by_id or window.package in _CHOOSER_PACKAGES or len(labels) >= 2 or (titled and labels)) \
                and not target_inside(snap, target, surface):
            # The system's own chooser (ResolverActivity / ChooserActivity) is a system dialog, an app's an overlay
            kind = ObstructionKind.SYSTEM_DIALOG if window.kind is WindowKind.SYSTEM_DIALOG else ObstructionKind.OVERLAY
            return Obstruction(kind, f'app chooser "{_title(surface)}"; back picks nothing', BackClearance())
        if window.kind is WindowKind.APP:
            break  # only what lies above the app
    return None


def sheet(snap: ScreenSnapshot, profile: DeviceProfile, target: Selector | None) -> Obstruction | None:
    """A bottom sheet over the app (by its ids or its window's shape): press back to close it."""
    for window in _windows(snap, profile):
        panel = _sheet_panel(snap, window)
        if panel is not None:
            surface = surface_of(snap, panel)
            # A sheet says or offers something. An empty shell is no sheet: Material's `coordinator` and
            # `touch_outside` left in an activity's own layout after its `design_bottom_sheet` was removed.
            if (surface.texts or surface.buttons) and not target_inside(snap, target, surface):
                close = by_label(snap, surface.buttons, lexicon(profile.words).dismiss)
                how = tap(snap, close) if close is not None else BackClearance()
                return Obstruction(ObstructionKind.OVERLAY, f'bottom sheet "{_title(surface)}"', how)
        if window.kind is WindowKind.APP:
            break
    return None


def _sheet_panel(snap: ScreenSnapshot, window: Window) -> Node | None:
    root = _root(snap, window)
    # In the app's own window only a modal sheet counts (its scrim or dialog ids); a persistent sheet
    # (a map's place card) is part of the page.
    ids = _SHEET_IDS if window.kind is not WindowKind.APP or window.package in _PICKER_PACKAGES else _MODAL_SHEET_IDS
    every_id = " ".join(n.resource_id for n in snap.by_window[window.index] if n.resource_id).casefold()
    if not any(i in every_id for i in ids) and (window.kind is WindowKind.APP or not any(
            "BottomSheet" in n.class_name for n in snap.by_window[window.index])):
        return _anchored(snap, window, root)
    for node in [root, *snap.descendants(root)]:
        if node.visible and (any(i in node.short_id.casefold() for i in ids)
                             or (window.kind is not WindowKind.APP and "BottomSheet" in node.class_name)):
            return root if window.kind is not WindowKind.APP else _panel_parent(snap, node)
    return _anchored(snap, window, root)


def _anchored(snap: ScreenSnapshot, window: Window, root: Node) -> Node | None:
    """A dialog window anchored to the bottom edge across the display: a sheet."""
    d, b = snap.display, window.bounds
    anchored = (window.kind is WindowKind.DIALOG and b.left <= 0.02 * d.width and b.right >= 0.98 * d.width
                and b.bottom >= 0.97 * d.height and b.top >= MIN_SHEET_TOP * d.height)
    return root if anchored else None


def _panel_parent(snap: ScreenSnapshot, node: Node) -> Node:
    """The sheet's container: `touch_outside` is a sibling of the sheet, so take their parent."""
    if node.short_id == "touch_outside" and node.parent is not None:
        return snap.nodes[node.parent]
    return node


def _title(surface: Surface) -> str:
    return clean(surface.texts[0], 60) if surface.texts else "untitled"
