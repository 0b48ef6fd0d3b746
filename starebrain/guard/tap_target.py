"""Which element a tap at a point would really reach, read off the snapshot's own screen model.

Android gives a touch to the topmost window containing the point, and inside it to the node drawn on
top (highest `drawing-order`) that takes touches. A heads-up notification, a system-UI dialog or another
app's overlay over the intended element takes the tap instead: then the step must not tap. Window order,
drawing order and occlusion are the snapshot's (`ScreenSnapshot.layers`): the detector, the summaries and
this check see the same screen.
"""

from __future__ import annotations

from dataclasses import dataclass

from starebrain.snapshot import Node, ScreenSnapshot
from starebrain.snapshot.layers import Cover as LayerCover
from starebrain.snapshot.windows import SYSTEM_UI_PACKAGES, is_keyboard_package


@dataclass(frozen=True)
class Cover:
    """What would take a tap meant for another element."""

    node: Node
    package: str
    what: str  # "a heads-up notification", "a system-UI window", "another app's window", ...

    @property
    def transient(self) -> bool:
        """A heads-up notification goes away by itself; waiting clears it."""
        return self.what == "a heads-up notification"

    def describe(self) -> str:
        label = (self.node.text or self.node.content_desc or self.node.short_id).strip()[:60]
        return f'{self.what} ({self.package}{f", {label!r}" if label else ""})'


def receiver(snap: ScreenSnapshot, x: int, y: int) -> Node | None:
    """The node a tap at (x, y) reaches: in the topmost window there, the node drawn on top that takes
    touches (enabled or not), else that window's root; None where no window is."""
    hit = snap.layers.at(x, y)
    if hit.receiver is not None or hit.on_top is None:
        return hit.receiver
    return snap.by_window[hit.on_top.window_index][0]


def cover_at(snap: ScreenSnapshot, target: Node, point: tuple[int, int]) -> Cover | None:
    """What would take the tap at `point` instead of `target` (None when the tap reaches it).

    Besides the point itself, a modal dialog above the target's window (it swallows every tap outside
    itself) and another window over the target's centre count: the screen model may pick a point off
    the centre to avoid an element of the app drawn over it, never to slip past a notification, a
    system-UI dialog or another app's overlay.
    """
    modal = _modal_over(snap, target)
    if modal is not None:
        return modal
    for at in dict.fromkeys((point, target.center)):
        hit = receiver(snap, *at)
        if hit is None or _reaches(snap, hit, target):
            continue
        if at != point and hit.window_index == target.window_index:
            continue  # inside the app, an element over the centre is what the off-centre point avoids
        return _cover(snap, hit, target)
    return None


def _cover(snap: ScreenSnapshot, hit: Node, target: Node) -> Cover:
    window = snap.layers.window_of(hit)
    package = (window.package if window else "") or hit.package
    return Cover(hit, package, _what(snap, hit, target, package, window is not None and window.is_keyboard))


def _modal_over(snap: ScreenSnapshot, target: Node) -> Cover | None:
    """The dialog window whose touch-modality keeps every tap away from the target's app window."""
    if snap.cover(target) is not LayerCover.DIALOG:
        return None
    dialogs = [w for w in snap.windows if w.floating and w.index != target.window_index]
    top = max(dialogs, key=lambda w: w.layer, default=None)
    return _cover(snap, snap.by_window[top.index][0], target) if top is not None else None


def _reaches(snap: ScreenSnapshot, hit: Node, target: Node) -> bool:
    """The tap reaches the target: the hit is it, its click target, inside it, or a container under it
    (nothing drawn over the target took the touch: it fell through to what holds the target)."""
    if hit.order == target.order or hit.order == snap.click_target(target).order:
        return True
    if any(a.order == hit.order for a in snap.ancestors(target)):
        return True
    return any(a.order == target.order for a in snap.ancestors(hit))


def _what(snap: ScreenSnapshot, hit: Node, target: Node, package: str, keyboard: bool) -> str:
    if hit.window_index == target.window_index:
        return "another element drawn over it"
    if keyboard or is_keyboard_package(package):  # the window knows an IME by its navigation bar too
        return "the keyboard"
    if package in SYSTEM_UI_PACKAGES:
        small = hit.bounds.height < snap.screen.height * 0.25
        notification = "notification" in hit.resource_id.lower() or "notification" in hit.content_desc.lower()
        return "a heads-up notification" if (notification and small) else "a system-UI window"
    target_package = target.package
    return "another app's window" if package != target_package else "another window of the app"
