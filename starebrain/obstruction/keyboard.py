"""KEYBOARD rule: the on-screen keyboard is in the way only when it covers (or may hide) the target."""

from __future__ import annotations

from starebrain.models.selector import Selector
from starebrain.obstruction.clearing import visible_target
from starebrain.obstruction.kinds import BackClearance, Obstruction, ObstructionKind
from starebrain.obstruction.surfaces import keyboard_windows
from starebrain.profiles import DeviceProfile
from starebrain.snapshot import ScreenSnapshot


def keyboard(snap: ScreenSnapshot, profile: DeviceProfile, target: Selector | None) -> Obstruction | None:
    """KEYBOARD (press back) when the target lies under the keyboard or cannot be seen while it is open."""
    boards = keyboard_windows(snap, profile)
    if not boards or target is None:
        return None
    node = visible_target(snap, target)
    if node is None:
        # An app resized above the keyboard drops what is below it from the dump: hide it and look again.
        return Obstruction(ObstructionKind.KEYBOARD, f"{target.describe()} is not visible while the keyboard "
                                                     "is open; it may be under it", BackClearance())
    board = next((b for b in boards if b.bounds.intersects(node.bounds) and b.index != node.window_index), None)
    if board is None:
        return None
    return Obstruction(ObstructionKind.KEYBOARD, f"the keyboard ({board.package}) covers {target.describe()}",
                       BackClearance())
