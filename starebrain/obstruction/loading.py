"""LOADING rule: an indeterminate spinner that dominates the content, or a "Loading…" message."""

from __future__ import annotations

import re

from starebrain.obstruction.kinds import Obstruction, ObstructionKind, WaitClearance
from starebrain.profiles import DeviceProfile
from starebrain.profiles.words import mentions, normalize_label
from starebrain.snapshot import Bounds, Node, ScreenSnapshot

_SPINNER_CLASS = re.compile(r"ProgressBar|ProgressIndicator|LoadingView|Loader\b")
# A determinate bar or a slider carries its value ("0.5", "54/88", "30%") in `text`.
_VALUE = re.compile(r"^\s*[\d.,/%\s]+\s*$")
MAX_LOADING_TEXT = 60
# Round progress rings that show a count or a level, not that something is loading.
_MEASURE_IDS = ("count", "level", "rating", "step", "seek", "volume", "battery", "storage", "quota", "timer")
# A screen's loading indicator has the default size (Widget.Material.ProgressBar 48dp, Material 3 / Compose
# CircularProgressIndicator 40dp); the small style (progressBarStyleSmall, 16dp) marks one row, tab or button
# as busy. At most this share of the display's short side is small (16-18dp on a phone).
SMALL_SPINNER_SHARE = 0.05


def loading(snap: ScreenSnapshot, profile: DeviceProfile) -> Obstruction | None:
    """LOADING with the profile's bounded backoff, or None."""
    for node in snap.content_nodes():
        if is_spinner(snap, node) and _dominates(snap, node):
            return Obstruction(ObstructionKind.LOADING, "a loading spinner fills the content", _wait(profile))
    texts = "\n".join(t for n in snap.content_nodes() for t in (n.text, n.content_desc) if t)
    if not mentions(texts, profile.words.loading_text):
        return None  # one search over all the texts: most screens say nothing about loading
    for node in snap.content_nodes():
        said = _loading_text(snap, profile, node)
        if said:
            return Obstruction(ObstructionKind.LOADING, f'the screen says "{said}"', _wait(profile))
    return None


def _wait(profile: DeviceProfile) -> WaitClearance:
    return WaitClearance(tuple(profile.words.loading_backoff.delays()))


def is_spinner(snap: ScreenSnapshot, node: Node) -> bool:
    """An indeterminate progress indicator: a roughly square, childless, non-interactive leaf."""
    if not _SPINNER_CLASS.search(node.class_name) or snap.children(node):
        return False
    if node.clickable or node.scrollable or _VALUE.match(node.text or "x") is not None:
        return False
    if any(m in node.short_id.casefold() for m in _MEASURE_IDS):
        return False
    b = node.bounds
    return 0.5 <= b.width / max(b.height, 1) <= 2.0


def _window_bounds(snap: ScreenSnapshot, node: Node) -> Bounds:
    return next(w.bounds for w in snap.windows if w.index == node.window_index)


def _dominates(snap: ScreenSnapshot, node: Node) -> bool:
    """Centred in its window (middle 60% both ways): not a list footer or a corner badge; and not a small
    indicator inside a row of the page."""
    w = _window_bounds(snap, node)
    x, y = node.center
    return (w.left + 0.2 * w.width <= x <= w.right - 0.2 * w.width
            and w.top + 0.2 * w.height <= y <= w.bottom - 0.2 * w.height) and not _inline(snap, node)


def _inline(snap: ScreenSnapshot, node: Node) -> bool:
    """A small spinner sharing its row with a label: a list item's, tab's or button's own busy state
    ("CPU Single-Core  ◌ Running…"), while the page around it stays usable."""
    d = snap.display
    b = node.bounds
    if max(b.width, b.height) > SMALL_SPINNER_SHARE * max(min(d.width, d.height), 1):
        return False
    y = node.center[1]
    return any(n.window_index == node.window_index and n is not node and (n.text.strip() or n.content_desc.strip())
               and n.bounds.top <= y <= n.bounds.bottom and not _encloses(n.bounds, b) for n in snap.content_nodes())


def _encloses(outer: Bounds, inner: Bounds) -> bool:
    """An ancestor or a label drawn around the spinner is not beside it."""
    return outer.contains(inner.left, inner.top) and outer.contains(inner.right, inner.bottom)


def _loading_text(snap: ScreenSnapshot, profile: DeviceProfile, node: Node) -> str:
    """A short loading message, backed by a spinner in its window or ending in an ellipsis (so a headline
    such as "Loading dock plans" is not one), and not tucked into the bottom fifth (a "loading more" footer)."""
    text = node.text.strip() or node.content_desc.strip()
    said = mentions(text, profile.words.loading_text) if len(text) <= MAX_LOADING_TEXT else None
    if not said:
        return ""
    spinner_near = any(is_spinner(snap, n) for n in snap.content_nodes() if n.window_index == node.window_index)
    if not (spinner_near or text.endswith(("…", "...")) or normalize_label(text) == said):
        return ""
    w = _window_bounds(snap, node)
    return text if node.center[1] <= w.bottom - 0.2 * w.height else ""
