"""A spinner that is the screen's loading indicator waits; a small one that marks one row, tab or button
as busy leaves the page usable."""

from __future__ import annotations

from functools import cache

import pytest

from starebrain.obstruction import ObstructionKind, WaitClearance, detect
from starebrain.obstruction.lexicon import languages
from starebrain.profiles import load_profiles
from starebrain.snapshot import ScreenSnapshot
from tests.obstruction import screens
from tests.snapshot.dumps import node

APP = screens.APP
W, H = screens.W, screens.H


@cache
def profile():
    return load_profiles().device_profile("google")


def _verdict(*children: str):
    page = node(cls="android.widget.FrameLayout", pkg=APP, bounds=f"[0,0][{W},{H}]", children=(
        node("Benchmarks", pkg=APP, bounds="[40,120][600,220]") + "".join(children)
        + node("Cancel run", cls="android.widget.Button", pkg=APP, bounds="[40,2100][1040,2240]", clickable=True)))
    return detect(ScreenSnapshot.from_xml(screens.screen(page)), profile())


def _spinner(bounds: str) -> str:
    return node(cls="android.widget.ProgressBar", pkg=APP, bounds=bounds)


def test_a_small_spinner_beside_a_row_label_is_that_rows_busy_state():
    row = node("CPU single-core", pkg=APP, bounds="[300,1180][900,1230]") + _spinner("[240,1190][280,1230]")
    assert _verdict(row).kind is ObstructionKind.READY


def test_a_default_size_spinner_in_the_middle_still_means_loading():
    alone = _verdict(_spinner("[480,1140][600,1260]"))
    assert alone.kind is ObstructionKind.LOADING and isinstance(alone.clearance, WaitClearance), alone.describe()
    # The same size beside a label (a progress dialog's "Syncing your notes" message) still waits.
    message = node("Syncing your notes", pkg=APP, bounds="[400,1170][900,1230]")
    beside = _verdict(_spinner("[240,1140][360,1260]"), message)
    assert beside.kind is ObstructionKind.LOADING, beside.describe()


def test_a_small_spinner_alone_in_the_middle_still_means_loading():
    assert _verdict(_spinner("[520,1180][560,1220]")).kind is ObstructionKind.LOADING


def _screen(*children: str):
    page = node(cls="android.widget.FrameLayout", pkg=APP, bounds=f"[0,0][{W},{H}]", children="".join(children))
    return detect(ScreenSnapshot.from_xml(screens.screen(page)), profile())


def _splash_image() -> str:
    return node(cls="android.widget.ImageView", pkg=APP, desc="Splash Screen Image", bounds="[340,1000][740,1400]")


def test_a_launch_screen_with_only_its_centred_image_and_name_waits():
    found = _screen(_splash_image(), node("Pickletour", pkg=APP, bounds="[420,1460][660,1520]"))
    assert found.kind is ObstructionKind.LOADING and isinstance(found.clearance, WaitClearance), found.describe()


def test_a_centred_image_with_a_button_or_two_texts_is_a_page():
    with_button = _screen(_splash_image(), node("Get started", cls="android.widget.Button", pkg=APP,
                                                bounds="[100,2000][980,2140]", clickable=True))
    empty_state = _screen(_splash_image(), node("No notes yet", pkg=APP, bounds="[300,1460][780,1520]"),
                          node("Notes you add appear here", pkg=APP, bounds="[200,1540][880,1600]"))
    assert with_button.kind is ObstructionKind.READY and empty_state.kind is ObstructionKind.READY


def _splash_screen_view(*extra: str) -> str:
    """The framework's SplashScreenView: its icon and branding image are plain Views with descriptions."""
    icon = node(cls="android.view.View", pkg=APP, rid="android:id/splashscreen_icon_view", desc="Splash Screen Image",
                bounds="[380,1040][700,1360]")
    brand = node(cls="android.view.View", pkg=APP, rid="android:id/splashscreen_branding_view",
                 desc="Splash Screen Branding Image", bounds="[340,2080][740,2200]")
    return node(cls="android.widget.FrameLayout", pkg=APP, bounds=f"[0,0][{W},{H}]",
                children=icon + brand + "".join(extra))


def test_the_frameworks_splash_screen_view_waits_but_with_a_button_it_is_a_page():
    found = _screen(_splash_screen_view())
    assert found.kind is ObstructionKind.LOADING and isinstance(found.clearance, WaitClearance), found.describe()
    page = _screen(_splash_screen_view(node("Get started", cls="android.widget.Button", pkg=APP,
                                            bounds="[100,1700][980,1840]", clickable=True)))
    assert page.kind is ObstructionKind.READY, page.describe()


def _control(label: str, top: int, *, enabled: bool) -> str:
    text = node(label, pkg=APP, bounds=f"[140,{top + 40}][900,{top + 100}]")
    return node("", cls="android.view.ViewGroup", pkg=APP, desc=label, bounds=f"[100,{top}][980,{top + 140}]",
                clickable=True, enabled=enabled, children=text)


def test_a_form_frozen_while_its_button_reads_like_an_ongoing_action_waits():
    found = _screen(_control("Barrie", 400, enabled=False), _control("Sudbury", 600, enabled=False),
                    _control("Pulling forecast...", 1400, enabled=False))
    assert found.kind is ObstructionKind.LOADING, found.describe()


def test_a_disabled_button_on_a_usable_form_or_a_frozen_form_without_ellipsis_stays_ready():
    usable = _screen(_control("Barrie", 400, enabled=True), _control("Sending…", 1400, enabled=False))
    frozen = _screen(_control("Barrie", 400, enabled=False), _control("Submit", 1400, enabled=False))
    assert usable.kind is ObstructionKind.READY and frozen.kind is ObstructionKind.READY


def test_a_ring_with_its_value_inside_is_a_level_but_a_ring_with_a_word_inside_still_loads():
    # Compose CircularProgressIndicator(progress) with a centred Text: the dump shows the value as a sibling.
    level = _spinner("[460,1120][620,1280]") + node("0%", pkg=APP, bounds="[510,1170][570,1230]")
    assert _verdict(level).kind is ObstructionKind.READY
    busy = _spinner("[460,1120][620,1280]") + node("Sync", pkg=APP, bounds="[500,1170][580,1230]")
    assert _verdict(busy).kind is ObstructionKind.LOADING


def _described(desc: str) -> str:
    """A custom ring in a container that describes it (a composer's "Post length 80%" counter)."""
    return node(cls="android.widget.FrameLayout", pkg=APP, desc=desc, bounds="[460,1120][620,1280]",
                children=_spinner("[460,1120][620,1280]") + _spinner("[490,1150][590,1250]"))


def test_a_ring_whose_container_states_a_percentage_is_a_level_but_a_described_spinner_still_loads():
    assert _verdict(_described("Post length 80%")).kind is ObstructionKind.READY
    assert _verdict(_described("Loading your feed")).kind is ObstructionKind.LOADING
    # a percentage said by a whole pane around a small spinner is not the ring's own value
    pane = node(cls="android.widget.FrameLayout", pkg=APP, desc="Storage 80% full", bounds=f"[0,300][{W},2000]",
                children=_spinner("[480,1140][600,1260]"))
    assert _verdict(pane).kind is ObstructionKind.LOADING


def test_a_spinner_inside_a_home_screen_widget_is_the_widgets_own_not_the_screen_loading():
    # AppWidgetHostView hosts another app's RemoteViews on the launcher.
    widget = node(cls="android.appwidget.AppWidgetHostView", pkg=APP, desc="Weather", bounds="[40,1000][1040,1400]",
                  children=_spinner("[440,1100][640,1300]"))
    assert _verdict(widget).kind is ObstructionKind.READY
    frame = node(cls="android.widget.FrameLayout", pkg=APP, desc="Weather", bounds="[40,1000][1040,1400]",
                 children=_spinner("[440,1100][640,1300]"))
    assert _verdict(frame).kind is ObstructionKind.LOADING


def test_a_message_ending_in_a_wait_phrase_waits_but_a_headline_starting_with_one_does_not():
    asks = _screen(node("Preparing your statistics, please wait", pkg=APP, bounds="[200,1100][880,1160]"))
    assert asks.kind is ObstructionKind.LOADING, asks.describe()
    headline = _screen(node("Please wait times are listed below", pkg=APP, bounds="[200,1100][880,1160]"),
                       node("Open", cls="android.widget.Button", pkg=APP, bounds="[100,2000][980,2140]",
                            clickable=True))
    assert headline.kind is ObstructionKind.READY, headline.describe()


def _bars(*body: str) -> str:
    """A Flutter page: a back button and title in the app bar, tabs at the bottom, `body` between them."""
    top = node("", cls="android.widget.Button", pkg=APP, desc="Back", bounds="[0,63][147,210]", clickable=True)
    tabs = "".join(node("", cls="android.widget.Button", pkg=APP, desc=f"Tab {i + 1} of 4",
                        bounds=f"[{270 * i},2200][{270 * i + 270},2340]", clickable=True) for i in range(4))
    return node(cls="android.view.View", pkg=APP, bounds=f"[0,0][{W},{H}]", children=top + "".join(body) + tabs)


def test_a_page_body_with_only_ellipsis_status_lines_waits():
    found = _screen(_bars(node("", cls="android.view.View", pkg=APP, desc="Fetching the roster...",
                                   bounds="[262,1300][818,1355]")))
    assert found.kind is ObstructionKind.LOADING, found.describe()


def test_a_page_body_with_a_status_line_beside_a_control_or_content_stays_ready():
    line = node("", cls="android.view.View", pkg=APP, desc="Fetching the roster...", bounds="[262,1300][818,1355]")
    with_button = _screen(_bars(line, node("Retry", cls="android.widget.Button", pkg=APP,
                                           bounds="[300,1500][780,1620]", clickable=True)))
    with_content = _screen(_bars(line, node("Team B2", pkg=APP, bounds="[262,600][818,660]")))
    assert with_button.kind is ObstructionKind.READY and with_content.kind is ObstructionKind.READY


def test_a_lone_unlabelled_square_in_the_page_body_is_flutters_unlabelled_spinner():
    # Flutter's CircularProgressIndicator without semanticsLabel: a bare View of its 36dp box (94px at 2.625x).
    found = _screen(_bars(node(cls="android.view.View", pkg=APP, bounds="[493,1037][587,1132]")))
    assert found.kind is ObstructionKind.LOADING, found.describe()


def test_an_unlabelled_square_off_centre_large_or_beside_a_text_stays_ready():
    off_centre = _screen(_bars(node(cls="android.view.View", pkg=APP, bounds="[60,600][154,695]")))
    large = _screen(_bars(node(cls="android.view.View", pkg=APP, bounds="[240,900][840,1500]")))
    beside = _screen(_bars(node(cls="android.view.View", pkg=APP, bounds="[493,1037][587,1132]"),
                           node("", cls="android.view.View", pkg=APP, desc="No messages yet",
                                bounds="[300,1200][780,1260]")))
    assert {v.kind for v in (off_centre, large, beside)} == {ObstructionKind.READY}


def _title_bar_page(*content: str, spinner: bool = True) -> str:
    """The framework's `screen_progress` decor: a title bar (title_container: the title, the window's
    progress_horizontal and progress_circular) over android:id/content holding `content`."""
    bar = node("Login to Facebook", pkg=APP, rid="android:id/title", bounds="[8,51][718,97]")
    if spinner:
        bar += (node(cls="android.widget.ProgressBar", pkg=APP, rid="android:id/progress_horizontal",
                     bounds="[12,55][718,95]")
                + node(cls="android.widget.ProgressBar", pkg=APP, rid="android:id/progress_circular",
                       bounds="[728,59][760,91]"))
    body = node(cls="android.widget.LinearLayout", pkg=APP, bounds="[0,100][768,1184]", children="".join(content))
    return screens.screen(node(cls="android.widget.LinearLayout", pkg=APP, bounds="[0,0][768,1184]", children=(
        node(cls="android.widget.RelativeLayout", pkg=APP, rid="android:id/title_container", bounds="[0,50][768,100]",
             children=bar)
        + node(cls="android.widget.FrameLayout", pkg=APP, rid="android:id/content", bounds="[0,100][768,1184]",
               children=body))))


def test_an_empty_page_under_a_title_bar_showing_its_progress_waits():
    found = detect(ScreenSnapshot.from_xml(_title_bar_page()), profile())
    assert found.kind is ObstructionKind.LOADING and isinstance(found.clearance, WaitClearance), found.describe()


def test_a_title_bar_spinner_over_content_or_an_empty_page_without_one_stays_ready():
    # A browser-like page keeps loading in its title bar while its content is already there to use.
    with_content = _title_bar_page(node("Email or phone", cls="android.widget.EditText", pkg=APP,
                                        bounds="[40,300][728,400]", clickable=True))
    with_picture = _title_bar_page(node(cls="android.view.SurfaceView", pkg=APP, bounds="[0,200][768,1000]"))
    without_spinner = _title_bar_page(spinner=False)
    verdicts = [detect(ScreenSnapshot.from_xml(x), profile()) for x in (with_content, with_picture, without_spinner)]
    assert {v.kind for v in verdicts} == {ObstructionKind.READY}, [v.describe() for v in verdicts]


def _dialog(*children: str) -> str:
    return node(cls="android.widget.FrameLayout", pkg=APP, bounds="[450,989][629,1168]", children="".join(children))


def test_an_app_dialog_holding_only_an_image_is_a_custom_progress_dialog():
    image = node(cls="android.widget.ImageView", pkg=APP, bounds="[450,989][629,1168]")
    found = detect(ScreenSnapshot.from_xml(screens.screen(_dialog(image))), profile())
    assert found.kind is ObstructionKind.LOADING and isinstance(found.clearance, WaitClearance), found.describe()
    # with something to press it is a dialog to answer, not a wait
    close = node("", cls="android.widget.ImageButton", pkg=APP, desc="Close", bounds="[580,989][629,1038]",
                 clickable=True)
    answered = detect(ScreenSnapshot.from_xml(screens.screen(_dialog(image, close))), profile())
    assert answered.kind is not ObstructionKind.LOADING, answered.describe()


def test_every_languages_loading_words_are_read_as_a_wait():
    # obstruction_languages.yaml `loading`: a busy button's status line in Chinese, a German and a Thai message.
    for said in ("正在读取作品…", "Daten werden geladen, bitte warten", "กำลังโหลด..."):
        found = _screen(node(said, pkg=APP, bounds="[200,1100][880,1160]"),
                        node("Home", cls="android.widget.Button", pkg=APP, bounds="[100,2000][980,2140]",
                             clickable=True))
        assert found.kind is ObstructionKind.LOADING and isinstance(found.clearance, WaitClearance), said


def test_a_loading_word_inside_a_headline_or_another_word_is_no_wait():
    # "Laden" (nl) only as a whole word that ends the message; "Opladen" (charging) and a headline stay the page.
    for said in ("Opladen", "Laden van de batterij gaat snel", "读取中的文件列表"):
        found = _screen(node(said, pkg=APP, bounds="[200,1100][880,1160]"),
                        node("Open", cls="android.widget.Button", pkg=APP, bounds="[100,2000][980,2140]",
                             clickable=True))
        assert found.kind is ObstructionKind.READY, (said, found.describe())


@pytest.mark.parametrize("lang", sorted(languages()))
def test_each_languages_first_loading_word_with_an_ellipsis_waits(lang):
    said = f"{languages()[lang].loading[0]}…"
    found = _screen(node(said, pkg=APP, bounds="[200,1100][880,1160]"))
    assert found.kind is ObstructionKind.LOADING, (lang, said, found.describe())
