"""OVERLAY rule: app dialogs, cookie/consent banners, rate-us / what's-new / update / promo screens and
ads, dismissed without accepting anything; anything that installs, pays, agrees to terms or adds
accounts is left to a person. Words come from every language of obstruction_languages.yaml."""

from __future__ import annotations

from starebrain.models.selector import Selector
from starebrain.obstruction.clearing import by_label, cancel_with_back, tap, target_inside
from starebrain.obstruction.kinds import BackClearance, Obstruction, ObstructionKind
from starebrain.obstruction.lexicon import Lexicon, lexicon, normal_word, said, word_of
from starebrain.obstruction.loading import is_spinner
from starebrain.obstruction.promo_cover import promo_cover
from starebrain.obstruction.surfaces import Surface, dialogs, promo_overlays
from starebrain.profiles import DangerPolicy, DeviceProfile
from starebrain.profiles.words import has_cjk, mentions
from starebrain.snapshot import Node, ScreenSnapshot
from starebrain.snapshot.describe import clean

# A promo screen is sparse; a normal page that merely says "What's new" has many controls.
MAX_PROMO_BUTTONS = 12


def overlay(snap: ScreenSnapshot, profile: DeviceProfile, target: Selector | None) -> Obstruction | None:
    """The topmost dialog, consent banner or promo overlay in the way, with a safe button to dismiss it."""
    for surface in reversed(dialogs(snap, profile)):
        if target_inside(snap, target, surface):
            continue
        if not surface.buttons:
            # A "Please wait" progress dialog is waited for; a window without a single button (a popup
            # list, a developer menu, an autofill picker) is closed with back, which picks nothing.
            if _loading_inside(snap, profile, surface) or not _whole_window_without_buttons(snap, surface):
                continue
            return Obstruction(ObstructionKind.OVERLAY, f'menu "{_title(surface)}"; back picks nothing',
                               BackClearance())
        return (consent(snap, profile, surface) or handle(snap, profile, surface, "dialog")
                or cancel_with_back(surface, "dialog"))
    promos = promo_overlays(snap, profile)
    for surface in promos:
        if not target_inside(snap, target, surface):
            found = consent(snap, profile, surface)
            if found is not None:
                return found
    for surface in promos:
        if target_inside(snap, target, surface) or len(surface.buttons) > MAX_PROMO_BUTTONS:
            continue
        if _dismiss_button(snap, profile, surface) is not None:
            return handle(snap, profile, surface, "promotional overlay")
    return promo_cover(snap, profile, target)


def consent(snap: ScreenSnapshot, profile: DeviceProfile, surface: Surface) -> Obstruction | None:
    """A cookie / data-consent request: its "Reject all" / "Necessary only" button, else a person.

    Accepting is never pressed; refusing shares nothing, so it is the one answer made for the person.
    A request to accept a terms of service / user agreement is a gate, not a choice: the app cannot be
    used without it (a refusal quits or asks again, as China's first-launch privacy dialogs must), so the
    person decides both ways.
    """
    words = _words(profile)
    about = next((t for t in surface.texts if said(t, words.consent)), None)
    if about is None or not any(said(snap.label_of(b), words.never_tap) for b in surface.buttons):
        return None  # a page that mentions cookies is not a consent request unless it asks to accept
    terms = said("\n".join(surface.texts), words.terms) if words.terms else None
    if terms is not None:
        return Obstruction(ObstructionKind.UNKNOWN, f'consent request "{clean(about, 60)}" asks to accept the '
                           f'"{terms}", a gate to the app; a person must decide', None)
    refuse = by_label(snap, surface.buttons, words.deny)
    if refuse is None:
        return Obstruction(ObstructionKind.UNKNOWN, f'consent request "{clean(about, 60)}" with no way to refuse; '
                           "a person must decide", None)
    return Obstruction(ObstructionKind.OVERLAY, f'consent request "{clean(about, 60)}" refused', tap(snap, refuse))


def _loading_inside(snap: ScreenSnapshot, profile: DeviceProfile, surface: Surface) -> bool:
    return any(is_spinner(snap, n) for n in surface.nodes) or any(
        mentions(t, _words(profile).loading) for t in surface.texts)


def _whole_window_without_buttons(snap: ScreenSnapshot, surface: Surface) -> bool:
    window = [n for n in snap.nodes if n.window_index == surface.window]
    return bool(surface.texts) and not any(n.clickable for n in window)


def _title(surface: Surface) -> str:
    return clean(surface.texts[0], 60) if surface.texts else "untitled"


def _words(profile: DeviceProfile) -> Lexicon:
    return lexicon(profile.words)


def handle(snap: ScreenSnapshot, profile: DeviceProfile, surface: Surface, what: str) -> Obstruction | None:
    """A dialog-like surface: a person when it offers something risky, else its dismiss or acknowledge
    button; None when it has neither."""
    danger = danger_reason(snap, profile, surface)
    if danger and _lone_acknowledge(snap, profile, surface):
        danger = ""  # a notice about a payment or an account that can only be acknowledged chooses nothing
    if danger:
        return _setting_offer(snap, profile, surface, what) or _dangerous(snap, profile, surface, f"{what} {danger}")
    # A refusal ("Don't allow") before an acknowledgement: "OK" beside it would accept what is asked.
    button = (_dismiss_button(snap, profile, surface) or by_label(snap, surface.buttons, _words(profile).deny)
              or by_label(snap, surface.buttons, _words(profile).acknowledge))
    if button is None or untappable(snap, profile, button):
        return None
    title = clean(surface.texts[0], 60) if surface.texts else what
    nag = next((snap.label_of(b) for b in surface.buttons if untappable(snap, profile, b)), "")
    put_off = f' (its "{clean(nag, 30)}" is never pressed)' if nag else ""
    return Obstruction(ObstructionKind.OVERLAY, f'{what} "{title}"{put_off}', tap(snap, button))


def _lone_acknowledge(snap: ScreenSnapshot, profile: DeviceProfile, surface: Surface) -> bool:
    """A dialog whose one button acknowledges ("OK") and whose text names no terms to accept.

    An AlertDialog built with only `setPositiveButton` (AOSP AlertController shows `android:id/button1`
    alone) offers no choice: its button closes it, as back would, so an error about a subscription or a
    payment ("Subscription Error") is acknowledged. A notice naming terms may read "OK" as consent: a person.
    """
    if len(surface.buttons) != 1 or untappable(snap, profile, surface.buttons[0]):
        return False
    words = _words(profile)
    if by_label(snap, surface.buttons, words.acknowledge) is None:
        return False
    text = "\n".join(surface.texts)
    return not (words.terms and said(text, words.terms)) and said(text, words.consent) is None \
        and not (words.agree and said(text, words.agree))


def _setting_offer(snap: ScreenSnapshot, profile: DeviceProfile, surface: Surface, what: str) -> Obstruction | None:
    """An app dialog whose only risky button turns something on or confirms ("去开启" / "Confirm" beside
    "Cancel"): its dismiss button, which changes nothing.

    The danger policy is about installing, paying, agreeing to terms and accounts; a question that only asks
    to switch something on is an AlertDialog whose negative button (`DialogInterface.BUTTON_NEGATIVE`, a
    "Cancel") cancels it. Only a dismiss or refusal word ("暂不开启") is tapped, never an "OK" that might answer it.
    """
    words = _words(profile)
    if not words.setting or any(mentions(t, profile.words.danger_text) for t in surface.texts):
        return None
    for b in surface.buttons:
        label = snap.label_of(b)
        if word_of(label, words.deny) or not (word_of(label, words.never_tap) or said(label, words.never_tap)):
            continue
        # An app's own "Allow" only leads to the system's permission dialog, which asks again.
        if word_of(label, words.setting + words.grant) is None \
                and not _switch_named(label, words, profile.words.danger_text):
            return None  # something riskier than a switch is offered: the danger policy decides
    cancel = _dismiss_button(snap, profile, surface) or by_label(snap, surface.buttons, words.deny)
    if cancel is None or untappable(snap, profile, cancel):
        return None
    title = clean(surface.texts[0], 60) if surface.texts else what
    return Obstruction(ObstructionKind.OVERLAY, f'{what} "{title}" only asks to switch something on or confirm; '
                       "cancelled", tap(snap, cancel))


def _switch_named(label: str, words: Lexicon, danger: tuple[str, ...]) -> bool:
    """The label is a switch word followed by what it turns on ("Turn on notifications", "开启青少年模式"):
    Material's verb-first button naming, the same offer as the bare word, unless what follows is itself risky
    ("Confirm and pay", "Enable subscription") or the whole label is a never-tap entry ("Allow access to account")."""
    if word_of(label, words.never_tap) is not None:
        return False
    norm = normal_word(label)
    for w in words.setting:
        if norm.startswith(w) and len(norm) > len(w) and (has_cjk(w) or norm[len(w)] == " "):
            rest = norm[len(w):]
            return said(rest, words.never_tap) is None and not mentions(rest, danger)
    return False


def untappable(snap: ScreenSnapshot, profile: DeviceProfile, button: Node) -> bool:
    """True for buttons the detector must never press (install, pay, agree, account, update)."""
    label = snap.label_of(button)
    return not word_of(label, _words(profile).deny) and said(label, _words(profile).untappable) is not None


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
    return by_label(snap, surface.buttons, _words(profile).dismiss)


def danger_reason(snap: ScreenSnapshot, profile: DeviceProfile, surface: Surface) -> str:
    """Why this surface must not be handled automatically ("" when it may be)."""
    words = profile.words
    for b in surface.buttons:
        label = snap.label_of(b)
        if word_of(label, _words(profile).deny):
            continue  # the refusal itself ("Don't allow", AOSP's grant_dialog_button_deny) is the safe answer
        hit = word_of(label, _words(profile).never_tap) or said(label, _words(profile).never_tap)
        if hit:
            return f'offers "{clean(label, 40)}" (install, pay, agree or account)'
    for text in surface.texts:
        hit = mentions(text, words.danger_text)
        if hit:
            return f'is about "{hit}"'
    return ""
