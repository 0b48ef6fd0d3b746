"""Find what may cover the app: dialogs, promo overlays, keyboards and the notification shade."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

from starebrain.obstruction.lexicon import lexicon, said
from starebrain.profiles import DeviceProfile
from starebrain.profiles.words import ObstructionWords, label_in
from starebrain.snapshot import Node, ScreenSnapshot
from starebrain.snapshot.windows import SYSTEM_UI_PACKAGES, Window, WindowKind

# Ids that AlertDialog, AppCompat dialogs and the permission controller give their panels.
_DIALOG_IDS = ("parentPanel", "alertTitle", "buttonPanel", "grant_dialog", "dialog_container", "dialog_root")
# Ids of dialogs that fill their window, so the window is the dialog: React Native's `RedBoxDialog` /
# `RedBoxContentView` (devsupport redbox_view.xml: the error stack over "Dismiss" / "Reload").
_WINDOW_DIALOG_IDS = ("rn_redbox_stack",)
MAX_FLOATING_NODES = 40
MAX_FLOATING_BUTTONS = 6


@dataclass(frozen=True)
class Surface:
    """A dialog-like region: its root node, visible nodes, clickable buttons and texts."""

    window: int
    root: Node
    nodes: tuple[Node, ...]
    texts: tuple[str, ...]
    package: str
    snap: ScreenSnapshot = field(repr=False, compare=False)
    not_a_button: tuple[int, ...] = ()  # `order`s of nodes inside that are no button (an in-window modal's barrier)

    @cached_property
    def buttons(self) -> tuple[Node, ...]:
        """Enabled clickable nodes with a label, worked out on first use (most screens never ask)."""
        return tuple(n for n in self.nodes if n.clickable and n.enabled and n.order not in self.not_a_button
                     and self.snap.label_of(n))

    def contains(self, node: Node) -> bool:
        """True when `node` is this surface's root or inside it."""
        return node.window_index == self.window and any(n.order == node.order for n in self.nodes)


def is_keyboard(window: Window, profile: DeviceProfile) -> bool:
    """True for input-method windows (profile packages or any `inputmethod` package)."""
    return window.package in profile.keyboard_packages or window.is_keyboard


def is_system_ui(window: Window, profile: DeviceProfile) -> bool:
    return window.package in profile.system_ui_packages or window.package in SYSTEM_UI_PACKAGES


def surface_of(snap: ScreenSnapshot, root: Node) -> Surface:
    """The visible content under `root`, with the labels a person would read."""
    return _surface(snap, root.order)


@lru_cache(maxsize=256)
def _surface(snap: ScreenSnapshot, order: int) -> Surface:
    # Several rules look at the same window of the same snapshot; build each surface once.
    root = snap.nodes[order]
    nodes = tuple(n for n in [root, *snap.descendants(root)] if n.visible)
    texts = tuple(t for n in nodes for t in (n.text.strip(), n.content_desc.strip()) if t and not n.password)
    return Surface(root.window_index, root, nodes, texts, root.package, snap)


def dialogs(snap: ScreenSnapshot, profile: DeviceProfile) -> list[Surface]:
    """Dialog surfaces of app and system windows (never of keyboards, bars or the shade), topmost last."""
    out: list[Surface] = []
    for window in reversed(snap.windows_by_layer):
        if is_keyboard(window, profile) or window.kind in (WindowKind.BAR, WindowKind.SHADE):
            continue
        if is_system_ui(window, profile) and window.kind is not WindowKind.SYSTEM_DIALOG:
            continue
        root = _window_root(snap, window)
        panel = _dialog_panel(snap, root)
        if panel is not None:
            out.append(surface_of(snap, panel))
        elif _is_floating(snap, window, root) or (window.floating and not _has_clickable(snap, root)):
            out.append(surface_of(snap, root))
    return out


def promo_overlays(snap: ScreenSnapshot, profile: DeviceProfile) -> list[Surface]:
    """Whole app windows that read like a promo/nag screen ("Rate us", "What's new") or carry an ad close."""
    out = []
    for window in snap.windows_by_layer:
        if is_keyboard(window, profile) or is_system_ui(window, profile) or window.kind is WindowKind.BAR:
            continue
        surface = surface_of(snap, _window_root(snap, window))
        # One search over the window's joined texts: most windows mention none of these phrases.
        if said("\n".join(surface.texts), _promo_phrases(profile.words)) or _ad_close(surface, profile):
            out.append(surface)
    return out


@lru_cache(maxsize=16)
def _promo_phrases(words: ObstructionWords) -> tuple[str, ...]:
    """Rate-us / what's-new / promo phrases, in-app update and consent words, as one list."""
    return tuple(dict.fromkeys((*words.overlay_text, *lexicon(words).update, *lexicon(words).consent)))


def _ad_close(surface: Surface, profile: DeviceProfile) -> bool:
    ad_id = _ad_ids(profile.words.overlay_ids)
    for n in surface.nodes:
        if not (n.clickable and n.enabled):
            continue
        rid = n.resource_id.casefold()
        # The id tests first: only a node that passes them needs its label (is it one of the buttons?).
        if ad_id.search(rid) and ("close" in rid or label_in(n.content_desc, profile.words.dismiss)) \
                and n in surface.buttons:
            return True
    return False


@lru_cache(maxsize=16)
def _ad_ids(ids: tuple[str, ...]) -> re.Pattern[str]:
    """One search for "the id contains any of these" (a regex never matches when the list is empty)."""
    return re.compile("|".join(map(re.escape, ids)) if ids else "(?!)")


def _window_root(snap: ScreenSnapshot, window: Window) -> Node:
    return snap.by_window[window.index][0]


def _dialog_panel(snap: ScreenSnapshot, root: Node) -> Node | None:
    """The outermost node that AlertDialog-style ids mark as a dialog panel."""
    for node in [root, *snap.descendants(root)]:
        if not node.visible:
            continue
        # The full strings hold the short ones: look at those only when they can match.
        if node.resource_id and node.short_id in _WINDOW_DIALOG_IDS:
            return root
        if (node.resource_id and node.short_id in _DIALOG_IDS) or (
                "Dialog" in node.class_name and "Dialog" in node.short_class):
            if snap.children(node):
                return node
            if node.text.strip() or node.content_desc.strip():
                return root  # a bare title (alertTitle without its parentPanel) stands for the whole window
            # An empty container is where an app would mount a dialog (a `dialog_container` kept in the
            # layout); with nothing in it, nothing is drawn.
            continue
    return None


def _has_clickable(snap: ScreenSnapshot, root: Node) -> bool:
    return any(n.clickable and n.visible for n in [root, *snap.descendants(root)])


def _is_floating(snap: ScreenSnapshot, window: Window, root: Node) -> bool:
    """A small window that does not start at the screen's corner: a custom dialog (WeCom's, say). A window from
    the top edge to the bottom is an activity's, even beside the corner: in landscape the default cutout mode
    (WindowManager.LayoutParams LAYOUT_IN_DISPLAY_CUTOUT_MODE_DEFAULT) lays it out beside the notch, so it starts
    the cutout's depth in from the left edge. (A dialog is centred or at the bottom; it never starts at the top
    edge and reaches the bottom.)"""
    b = window.bounds
    if (b.left <= 0 and b.top <= snap.screen.height * 0.05) or (b.top <= 0 and b.height >= 0.85 * snap.display.height):
        return False
    nodes = [root, *snap.descendants(root)]
    clickable = [n for n in nodes if n.clickable and n.visible]
    return len(nodes) <= MAX_FLOATING_NODES and 0 < len(clickable) <= MAX_FLOATING_BUTTONS


def keyboard_windows(snap: ScreenSnapshot, profile: DeviceProfile) -> list[Window]:
    return [w for w in snap.windows if is_keyboard(w, profile)]


def shade(snap: ScreenSnapshot, profile: DeviceProfile) -> Window | None:
    """The notification shade / quick settings: system UI filling most of the display (not a dialog)."""
    screen_area = max(snap.display.area, 1)
    for window in snap.windows_by_layer:
        if window.kind is WindowKind.SHADE or (is_system_ui(window, profile) and not window.floating
                                               and window.bounds.area >= 0.6 * screen_area and window.node_count > 10):
            return window
    return None
