"""OVERLAY rule: app dialogs, rate-us / what's-new / promo screens and ads, dismissed without accepting
anything; anything that installs, pays, agrees to terms or adds accounts is left to a person."""

from __future__ import annotations

from starebrain.models.selector import Selector
from starebrain.obstruction.clearing import by_label, tap, target_inside
from starebrain.obstruction.kinds import Obstruction, ObstructionKind
from starebrain.obstruction.surfaces import Surface, dialogs, promo_overlays
from starebrain.profiles import DangerPolicy, DeviceProfile
from starebrain.profiles.words import label_in, mentions
from starebrain.snapshot import Node, ScreenSnapshot
from starebrain.snapshot.describe import clean

# A promo screen is sparse; a normal page that merely says "What's new" has many controls.
MAX_PROMO_BUTTONS = 12


def overlay(snap: ScreenSnapshot, profile: DeviceProfile, target: Selector | None) -> Obstruction | None:
    """The topmost dialog or promo overlay in the way, with a safe button to dismiss it."""
    for surface in reversed(dialogs(snap, profile)):
        # A dialog without buttons (a "Please wait" progress dialog, a toast) is not dismissed by a tap.
        if surface.buttons and not target_inside(snap, target, surface):
            return _handle(snap, profile, surface, "dialog") or _needs_person(surface, "a dialog with no safe "
                                                                               "button to dismiss it")
    for surface in promo_overlays(snap, profile):
        if target_inside(snap, target, surface) or len(surface.buttons) > MAX_PROMO_BUTTONS:
            continue
        if _dismiss_button(snap, profile, surface) is not None:
            return _handle(snap, profile, surface, "promotional overlay")
    return None


def _handle(snap: ScreenSnapshot, profile: DeviceProfile, surface: Surface, what: str) -> Obstruction | None:
    danger = danger_reason(snap, profile, surface)
    if danger:
        return _dangerous(snap, profile, surface, f"{what} {danger}")
    button = _dismiss_button(snap, profile, surface) or by_label(snap, surface.buttons, profile.words.acknowledge)
    if button is None or untappable(snap, profile, button):
        return None
    title = clean(surface.texts[0], 60) if surface.texts else what
    nag = next((snap.label_of(b) for b in surface.buttons if untappable(snap, profile, b)), "")
    put_off = f' (its "{clean(nag, 30)}" is never pressed)' if nag else ""
    return Obstruction(ObstructionKind.OVERLAY, f'{what} "{title}"{put_off}', tap(snap, button))


def untappable(snap: ScreenSnapshot, profile: DeviceProfile, button: Node) -> bool:
    """True for buttons the detector must never press (install, pay, agree, account, update)."""
    label = snap.label_of(button)
    return mentions(label, profile.words.untappable) is not None


def _dangerous(snap: ScreenSnapshot, profile: DeviceProfile, surface: Surface, said: str) -> Obstruction:
    """UNKNOWN for the person; under `safe_exit`, the safe dismiss button instead (never the risky one)."""
    exit_button = _dismiss_button(snap, profile, surface)
    if exit_button is not None and untappable(snap, profile, exit_button):
        exit_button = None
    if exit_button is None:
        return Obstruction(ObstructionKind.UNKNOWN, f"{said}; a person must decide", None)
    if profile.words.danger_policy is DangerPolicy.SAFE_EXIT:
        return Obstruction(ObstructionKind.OVERLAY, f"{said}; taking the safe way out", tap(snap, exit_button))
    safe = clean(snap.label_of(exit_button), 30)
    return Obstruction(ObstructionKind.UNKNOWN, f'{said}; a person must decide (safe way out: "{safe}")', None)


def _dismiss_button(snap: ScreenSnapshot, profile: DeviceProfile, surface: Surface) -> Node | None:
    return by_label(snap, surface.buttons, profile.words.dismiss)


def danger_reason(snap: ScreenSnapshot, profile: DeviceProfile, surface: Surface) -> str:
    """Why this surface must not be handled automatically ("" when it may be)."""
    words = profile.words
    for b in surface.buttons:
        label = snap.label_of(b)
        hit = label_in(label, words.never_tap) or mentions(label, words.never_tap)
        if hit:
            return f'offers "{clean(label, 40)}" (install, pay, agree or account)'
    for text in surface.texts:
        hit = mentions(text, words.danger_text)
        if hit:
            return f'is about "{hit}"'
    return ""


def _needs_person(surface: Surface, why: str) -> Obstruction:
    title = clean(surface.texts[0], 60) if surface.texts else "untitled"
    return Obstruction(ObstructionKind.UNKNOWN, f'{why} ("{title}")', None)
