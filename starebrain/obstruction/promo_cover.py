"""Full-window promo covers that name no promo phrase: a sign-in / subscribe upsell with a put-off beside its call to
action, and an image creative with a labelled close icon. Only the put-off or the close is ever tapped."""

from __future__ import annotations

from starebrain.models.selector import Selector
from starebrain.obstruction.clearing import tap, visible_target
from starebrain.obstruction.kinds import Obstruction, ObstructionKind
from starebrain.obstruction.lexicon import Lexicon, lexicon, normal_word, said, word_of
from starebrain.profiles import DeviceProfile
from starebrain.snapshot import Node, ScreenSnapshot
from starebrain.snapshot.describe import clean
from starebrain.snapshot.windows import WindowKind

# An upsell cover is its call to action (one, or a pair like "Sign in" / "Create account") and the put-off.
MAX_CALLS_TO_ACTION = 2
# An image creative keeps few controls (close, paging, its call to action); a gallery or feed has more.
MAX_CREATIVE_BUTTONS = 6
# The creative's image fills the window (it may leave the system bars' insets).
MIN_CREATIVE_SHARE = 0.85
# Both covers put their close / skip in the window's top band, as a top-app-bar action or a corner icon.
TOP_BAND = 0.15


def promo_cover(snap: ScreenSnapshot, profile: DeviceProfile, target: Selector | None) -> Obstruction | None:
    """OVERLAY dismissed by its put-off or close when the top app window is one of the two covers, else None."""
    top = snap.top_window
    if top is None or top.kind is not WindowKind.APP or visible_target(snap, target) is not None:
        return None
    nodes = [n for n in snap.by_window[top.index] if n.visible]
    if any(n.editable for n in nodes):
        return None  # a form (a sign-in page's own fields) is the app's page, not a cover over it
    buttons = [n for n in nodes if n.clickable and n.enabled and snap.label_of(n)]
    band = top.bounds.top + TOP_BAND * top.bounds.height
    words = lexicon(profile.words)
    return _upsell(snap, words, buttons, band) or _image_creative(snap, words, nodes, buttons, band, top.bounds.area)


def _upsell(snap: ScreenSnapshot, words: Lexicon, buttons: list[Node], band: float) -> Obstruction | None:
    """A text put-off ("SKIP", "Not now") in the top band beside only never-tap calls to action ("Sign in").

    Google's sign-in promos and Play Billing upsells draw a full-screen card whose only ways on are its call to
    action and a Material text button (`MaterialButton` in the TextButton style, so the word is its text, not an
    icon's description like a toolbar's "Navigate up"). Skipping signs in, buys and installs nothing.
    """
    put_off = [b for b in buttons if b.bounds.bottom <= band and b.text.strip() and word_of(b.text, words.dismiss)]
    calls = [b for b in buttons if b not in put_off]
    if len(put_off) != 1 or not 0 < len(calls) <= MAX_CALLS_TO_ACTION:
        return None
    if not all(word_of(snap.label_of(b), words.untappable) or said(snap.label_of(b), words.never_tap) for b in calls):
        return None
    offer = clean(snap.label_of(calls[0]), 30)
    return Obstruction(ObstructionKind.OVERLAY, f'full-screen promo offering "{offer}" (never pressed); skipped',
                       tap(snap, put_off[0]))


def _image_creative(snap: ScreenSnapshot, words: Lexicon, nodes: list[Node], buttons: list[Node], band: float,
                    area: int) -> Obstruction | None:
    """An ImageView filling the window under a top-band close whose label starts with a dismiss word.

    Story-style and interstitial promos draw the creative as one full-bleed image with its close at top|end (as
    Firebase In-App Messaging's image.xml puts `collapse_button` at top|end over its `image_view`); the close icon's
    description names what it closes ("Close promotion"), as accessibility guidance asks of icon buttons.
    """
    if len(buttons) > MAX_CREATIVE_BUTTONS:
        return None
    if not any(n.short_class == "ImageView" and n.bounds.area >= MIN_CREATIVE_SHARE * area for n in nodes):
        return None
    close = next((b for b in buttons if b.bounds.bottom <= band and _leads_with(snap.label_of(b), words.dismiss)),
                 None)
    if close is None or word_of(snap.label_of(close), words.untappable):
        return None
    label = clean(snap.label_of(close), 30)
    return Obstruction(ObstructionKind.OVERLAY, f'full-screen image promo closed with "{label}"', tap(snap, close))


def _leads_with(label: str, dismiss: tuple[str, ...]) -> bool:
    """The label is a dismiss word, or one followed by what it closes ("Close promotion")."""
    norm = normal_word(label)
    return any(norm == w or norm.startswith(w + " ") for w in dismiss)
