"""A page that cannot be left forward until its terms are accepted: accepting them is the person's."""

from __future__ import annotations

from starebrain.models.selector import Selector
from starebrain.obstruction.clearing import visible_target
from starebrain.obstruction.kinds import Obstruction, ObstructionKind
from starebrain.obstruction.lexicon import lexicon, said, word_of
from starebrain.profiles import DeviceProfile
from starebrain.snapshot import Node, ScreenSnapshot
from starebrain.snapshot.describe import clean
from starebrain.snapshot.windows import WindowKind

# Every toolkit reports a check box by the framework's class: CheckBox#getAccessibilityClassName (AppCompat /
# Material subclasses keep it), Compose's Role.Checkbox and Flutter's AccessibilityBridge for a node with a checked
# state but no toggled state both map to "android.widget.CheckBox", React Native's CheckBox is one. A Switch (a
# setting: "Enable sync") is not.
_CHECK_BOX = "CheckBox"
# A disabled button: Views and Compose keep it clickable; Flutter drops the tap action (so `clickable`) of a disabled
# button but keeps its class (AccessibilityBridge: isButton -> "android.widget.Button").
_BUTTON = "Button"


def agreement_gate(snap: ScreenSnapshot, profile: DeviceProfile, target: Selector | None = None) -> Obstruction | None:
    """UNKNOWN for the person when the top app window's way forward is a button saying "Agree", or is disabled
    until an unticked box saying "I agree…" is ticked, and there is no field to fill (a sign-up form is the page
    the step works on)."""
    top = snap.top_window
    if top is None or top.kind is not WindowKind.APP or visible_target(snap, target) is not None:
        return None
    nodes = [n for n in snap.by_window[top.index] if n.visible]
    if any(n.editable for n in nodes):
        return None
    agree = lexicon(profile.words).agree
    # A first-run consent page with a button saying only "Agree" (Material's buttons name the action they perform,
    # m3 "Buttons" guidelines): pressing it accepts the page's terms for the person.
    consent = next((n for n in nodes if n.clickable and n.enabled and word_of(snap.label_of(n), agree)), None)
    if consent is not None:
        return Obstruction(ObstructionKind.UNKNOWN, f'the page offers "{clean(snap.label_of(consent), 30)}"; '
                           "accepting its terms is for a person to decide", None)
    boxes = [n for n in nodes if _CHECK_BOX in n.short_class and n.checkable and not n.checked]
    if not boxes:
        return None
    # A disabled control saying "I Agree" waits for a box ("I understand this is not medical advice"): ticking it and
    # pressing it is agreeing, whatever the box says. (React Native reports a disabled Pressable as a plain ViewGroup,
    # neither clickable nor a Button: only `enabled` is false.)
    agreeing = next((n for n in nodes if not n.enabled and said(snap.label_of(n), agree)), None)
    if agreeing is not None:
        return Obstruction(ObstructionKind.UNKNOWN, f'the page\'s "{clean(snap.label_of(agreeing), 30)}" waits for a '
                           "box to be ticked; agreeing is for a person to decide", None)
    if not any(not n.enabled and (n.clickable or _BUTTON in n.short_class) and snap.label_of(n).strip() for n in nodes):
        return None  # nothing waits for the box: an optional tick on a page that stays usable
    # A box named after the terms themselves ("Terms of Service and Privacy Policy acceptance checkbox") accepts them
    # as much as one saying "I agree".
    accepts = (*agree, *lexicon(profile.words).terms)
    for box in boxes:
        says = next((t for t in _row_texts(box, nodes) if said(t, accepts)), None)
        if says is not None:
            return Obstruction(ObstructionKind.UNKNOWN, f'the page waits for "{clean(says, 60)}" to be ticked; '
                               "accepting it is for a person to decide", None)
    return None


def _row_texts(box: Node, nodes: list[Node]) -> list[str]:
    """The box's own label and the texts drawn beside it (a label overlapping its height)."""
    b = box.bounds
    beside = [n.text or n.content_desc for n in nodes if (n.text or n.content_desc) and not n.clickable
              and n.bounds.top < b.bottom and n.bounds.bottom > b.top]
    return [t for t in (box.text, box.content_desc, *beside) if t]
