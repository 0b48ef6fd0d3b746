"""An app's own passcode pad: entering a PIN is the person's, never the assistant's."""

from __future__ import annotations

from starebrain.models.selector import Selector
from starebrain.obstruction.clearing import visible_target
from starebrain.obstruction.kinds import Obstruction, ObstructionKind
from starebrain.snapshot import ScreenSnapshot
from starebrain.snapshot.windows import WindowKind, is_system_dialog_package

# Apps copy the keyguard's PIN pad (SystemUI NumPadKey: the keys 0-9 plus delete / enter as icons, the digits
# drawn as dots by PasswordTextView, no editable field). Any other one-character key (a letter, "*", "#", "+",
# "=", ".") makes it a keyboard, a dialer or a calculator; an editable field is a form the step can type into.
_DIGITS = frozenset("0123456789")
MIN_KEYS = len(_DIGITS)


def passcode_pad(snap: ScreenSnapshot, target: Selector | None = None) -> Obstruction | None:
    """UNKNOWN (SYSTEM_DIALOG when a system package draws it) for the person when the top app window is a PIN pad
    of exactly the ten digit keys."""
    top = snap.top_window
    if top is None or top.kind is not WindowKind.APP or visible_target(snap, target) is not None:
        return None
    nodes = [n for n in snap.by_window[top.index] if n.visible]
    if any(n.editable for n in nodes) or sum(n.clickable for n in nodes) < MIN_KEYS:
        return None
    keys = {label for n in nodes for label in (n.text.strip(), n.content_desc.strip()) if len(label) == 1}
    if keys != _DIGITS:
        return None
    # A system package's pad (an OEM security centre's app lock) asks for the device's secret like the keyguard.
    kind = ObstructionKind.SYSTEM_DIALOG if is_system_dialog_package(top.package) else ObstructionKind.UNKNOWN
    return Obstruction(kind, "a passcode pad (the digits 0-9 and nothing else to type); "
                       "only the person may enter it", None)
