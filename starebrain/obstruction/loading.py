"""LOADING rule: an indeterminate spinner that dominates the content, or a "Loading…" message."""

from __future__ import annotations

import re

from starebrain.obstruction.kinds import Obstruction, ObstructionKind, WaitClearance
from starebrain.obstruction.lexicon import lexicon
from starebrain.profiles import DeviceProfile
from starebrain.profiles.words import mentions, normalize_label
from starebrain.snapshot import Bounds, Node, ScreenSnapshot
from starebrain.snapshot.windows import WindowKind

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
# A launch screen (Android 12 SplashScreenView: the app icon centred, splashscreen_icon_view, and at most a
# branding line; expo-splash-screen and react-native-bootsplash draw the same) shows one centred image and at
# most one text, and nothing to act on, until the app's first frame.
MAX_SPLASH_TEXTS = 1
# The framework's SplashScreenView (core/res/res/layout/splash_screen_view.xml) draws its icon and branding image as
# plain `View`s, `splashscreen_icon_view` and `splashscreen_branding_view`, each with a content description; an app
# that keeps it for its exit animation (androidx core-splashscreen) shows them in its own window.
_SPLASH_ICON_ID, _SPLASH_BRANDING_ID = ":id/splashscreen_icon_view", ":id/splashscreen_branding_view"
# An ongoing action's label ends in an ellipsis (Material writing guidelines: "Saving…"); the form disables
# every control until it is done (React Native `disabled`, View#setEnabled(false)).
ELLIPSIS = ("…", "...")
MIN_FROZEN_CONTROLS = 2
# The app bar and the navigation bar lie in this share of the window at its top and bottom edges; the page's
# body is between them.
BAR_SHARE = 0.12
# A progress indicator is at most this share of the window's short side (Flutter's 36dp box: ~9% of a phone).
INDICATOR_SHARE = 0.15
# A determinate indicator tells TalkBack its value: ProgressBar's RangeInfo, which a dump does not show, or, as
# apps do for a custom ring, a description on the container around it ("Post length 110%"). A percentage in
# the description of a container at most this many times the ring's size is its level.
_PERCENT = re.compile(r"\d\s*[%٪]")
VALUE_HOLDER_SIZE = 2.0
# AppWidgetHostView: a launcher draws other apps' widgets (RemoteViews) in it; a ProgressBar in a widget is
# that widget's own animation or level, never the screen loading.
_WIDGET_HOST = "AppWidgetHostView"


def loading(snap: ScreenSnapshot, profile: DeviceProfile) -> Obstruction | None:
    """LOADING with the profile's bounded backoff, or None."""
    for node in snap.content_nodes():
        if is_spinner(snap, node) and _dominates(snap, node):
            return Obstruction(ObstructionKind.LOADING, "a loading spinner fills the content", wait_out(profile))
    found = _splash(snap, profile) or _busy_form(snap, profile) or _waiting_body(snap, profile)
    if found is not None:
        return found
    texts = "\n".join(t for n in snap.content_nodes() for t in (n.text, n.content_desc) if t)
    if not mentions(texts, lexicon(profile.words).loading):
        return None  # one search over all the texts: most screens say nothing about loading
    for node in snap.content_nodes():
        said = _loading_text(snap, profile, node)
        if said:
            return Obstruction(ObstructionKind.LOADING, f'the screen says "{said}"', wait_out(profile))
    return None


def wait_out(profile: DeviceProfile) -> WaitClearance:
    """Waiting with the profile's bounded backoff: for whatever goes by itself."""
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
    return 0.5 <= b.width / max(b.height, 1) <= 2.0 and not _shows_value(snap, node)


def _shows_value(snap: ScreenSnapshot, ring: Node) -> bool:
    """A determinate ring with its value drawn inside ("0%", "3/5": Compose's CircularProgressIndicator(progress)
    with a centred Text, which a dump shows as a sibling): a level, not something loading."""
    b = ring.bounds
    return any(n.window_index == ring.window_index and n.text and _VALUE.match(n.text) is not None
               and _encloses(b, n.bounds) for n in snap.content_nodes()) or _described_level(snap, ring)


def _described_level(snap: ScreenSnapshot, ring: Node) -> bool:
    """A container about the ring's size whose description states a percentage: the ring shows that level."""
    b = ring.bounds
    for a in snap.ancestors(ring):
        if a.bounds.width > VALUE_HOLDER_SIZE * b.width or a.bounds.height > VALUE_HOLDER_SIZE * b.height:
            return False
        if _PERCENT.search(a.content_desc or a.text) is not None:
            return True
    return False


def _window_bounds(snap: ScreenSnapshot, node: Node) -> Bounds:
    return next(w.bounds for w in snap.windows if w.index == node.window_index)


def _dominates(snap: ScreenSnapshot, node: Node) -> bool:
    """Centred in its window (middle 60% both ways): not a list footer or a corner badge; and not a small
    indicator inside a row of the page."""
    w = _window_bounds(snap, node)
    x, y = node.center
    return (w.left + 0.2 * w.width <= x <= w.right - 0.2 * w.width
            and w.top + 0.2 * w.height <= y <= w.bottom - 0.2 * w.height) and not _inline(snap, node) \
        and not any(a.short_class == _WIDGET_HOST for a in snap.ancestors(node))


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
    # The profile's loading words and every language's (obstruction_languages.yaml `loading`).
    said = mentions(text, lexicon(profile.words).loading) if len(text) <= MAX_LOADING_TEXT else None
    if not said:
        return ""
    spinner_near = any(is_spinner(snap, n) for n in snap.content_nodes() if n.window_index == node.window_index)
    # The phrase ending the message ("Preparing the page, please wait", "…，请稍候") asks to wait; a headline
    # only starts with it ("Loading dock plans").
    if not (spinner_near or text.endswith(("…", "...")) or normalize_label(text).endswith(said)):
        return ""
    w = _window_bounds(snap, node)
    return text if node.center[1] <= w.bottom - 0.2 * w.height else ""


def _splash(snap: ScreenSnapshot, profile: DeviceProfile) -> Obstruction | None:
    """The app's launch screen: one centred image, at most one text (its name), nothing to act on."""
    top = snap.top_window
    # An app dialog holding only an image is a custom progress dialog (an animated ImageView or Lottie view in a
    # Dialog, the look ProgressDialog's deprecation left to apps): nothing to press, the same wait.
    if top is None or top.kind not in (WindowKind.APP, WindowKind.DIALOG):
        return None
    nodes = [n for n in snap.by_window[top.index] if n.visible]
    if any(n.interactive for n in nodes):
        return None
    images = [n for n in nodes if "Image" in n.short_class or n.resource_id.endswith(_SPLASH_ICON_ID)]
    texts = [n for n in nodes if (n.text.strip() or n.content_desc.strip()) and n not in images
             and not n.resource_id.endswith(_SPLASH_BRANDING_ID)]
    if len(images) != 1 or len(texts) > MAX_SPLASH_TEXTS or not _centred(images[0], top.bounds):
        return None
    return Obstruction(ObstructionKind.LOADING, "the app's launch screen (only its splash image)", wait_out(profile))


def _centred(node: Node, w: Bounds) -> bool:
    x, y = node.center
    return (w.left + 0.3 * w.width <= x <= w.right - 0.3 * w.width
            and w.top + 0.3 * w.height <= y <= w.bottom - 0.3 * w.height)


def _busy_form(snap: ScreenSnapshot, profile: DeviceProfile) -> Obstruction | None:
    """Every control of the top window disabled while one of them reads like an ongoing action ("Pulling
    forecast..."): the form waits for it. A screen with one disabled button (an empty form's "Submit") stays
    READY, since its other controls are enabled."""
    top = snap.top_window
    if top is None or top.kind is not WindowKind.APP:
        return None
    controls = [n for n in snap.by_window[top.index] if n.visible and (n.clickable or n.editable or n.checkable)]
    if len(controls) < MIN_FROZEN_CONTROLS or any(n.enabled for n in controls):
        return None
    busy = next((label for label in map(snap.label_of, controls) if label.rstrip().endswith(ELLIPSIS)), None)
    if busy is None:
        return None
    return Obstruction(ObstructionKind.LOADING, f'every control is disabled while "{busy[:60]}" runs',
                       wait_out(profile))


def _waiting_body(snap: ScreenSnapshot, profile: DeviceProfile) -> Obstruction | None:
    """A page whose bars are drawn but whose body, between them, holds only status lines ending in an ellipsis
    ("Accessing the database...") or one unlabelled square leaf in its centre, or nothing at all while a bar
    shows a spinner, nothing to act on: the content has not arrived. Flutter's CircularProgressIndicator
    (material/progress_indicator.dart) has no semantics label unless the app gives one, so a dump shows it as a
    bare `View` of its 36dp box."""
    top = snap.top_window
    if top is None or top.kind is not WindowKind.APP:
        return None
    w = top.bounds
    band = BAR_SHARE * w.height
    body = [n for n in snap.by_window[top.index] if n.visible and n.bounds.top >= w.top + band
            and n.bounds.bottom <= w.bottom - band and (n.interactive or _said(n) or not snap.children(n))]
    if not body and _bar_spinner(snap, top.index):
        return Obstruction(ObstructionKind.LOADING, "the page body is empty while its bar shows a progress indicator",
                           wait_out(profile))
    if not body or any(n.interactive for n in body):
        return None
    lines = [_said(n) for n in body]
    if all(lines) and all(t.endswith(ELLIPSIS) for t in lines) and all(_centred_x(n, w) for n in body):
        return Obstruction(ObstructionKind.LOADING, f'the page body only says "{lines[0][:60]}"', wait_out(profile))
    if len(body) == 1 and not lines[0] and _unlabelled_indicator(body[0], w):
        return Obstruction(ObstructionKind.LOADING, "an unlabelled progress indicator alone in the page body",
                           wait_out(profile))
    return None


def _bar_spinner(snap: ScreenSnapshot, window: int) -> bool:
    """A spinner in a window whose body is empty, so in its bars: the title bar's own progress (the framework's
    `screen_progress` decor, `android:id/progress_circular`, shown by Activity#setProgressBarIndeterminateVisibility)
    or an app bar's, the activity's way of saying its content is on its way."""
    return any(n.visible and is_spinner(snap, n) for n in snap.by_window[window])


def _said(node: Node) -> str:
    return node.text.strip() or node.content_desc.strip()


def _centred_x(node: Node, w: Bounds) -> bool:
    x = node.center[0]
    return w.left + 0.3 * w.width <= x <= w.right - 0.3 * w.width


def _unlabelled_indicator(node: Node, w: Bounds) -> bool:
    """A square leaf, small against the window's short side, centred both ways."""
    b = node.bounds
    square = 0.8 <= b.width / max(b.height, 1) <= 1.25
    return square and max(b.width, b.height) <= INDICATOR_SHARE * min(w.width, w.height) and _centred(node, w)
