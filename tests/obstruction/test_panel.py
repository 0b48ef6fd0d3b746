"""See-through modals: a sheet, drawer or card alone in the app's window, its scrim not in the tree."""

from __future__ import annotations

from functools import cache

import pytest

from starebrain.models import Selector
from starebrain.obstruction import BackClearance, ObstructionKind, TapClearance, detect
from starebrain.obstruction.lexicon import languages
from starebrain.profiles import load_profiles
from starebrain.snapshot import ScreenSnapshot
from tests.snapshot.dumps import hierarchy, node


@cache
def profile():
    return load_profiles().device_profile("google")


def _verdict(xml: str, target: Selector | None = None):
    return detect(ScreenSnapshot.from_xml(xml), profile(), target=target)


def _window(content: str) -> str:
    """An app window: the decor containers spanning it, `content` inside, the navigation bar's backdrop."""
    inner = node(cls="android.view.ViewGroup", bounds="[0,0][1080,2400]", children=content)
    decor = node(cls="android.widget.FrameLayout", rid="android:id/content", bounds="[0,0][1080,2400]", children=inner)
    bar = node(cls="android.view.View", rid="android:id/navigationBarBackground", bounds="[0,2330][1080,2400]")
    return hierarchy(node(cls="android.widget.FrameLayout", bounds="[0,0][1080,2400]", children=decor + bar))


def _rows(*labels: str, top: int, left: int = 0, right: int = 1080) -> str:
    return "".join(node(label, cls="android.widget.Button", clickable=True,
                        bounds=f"[{left},{top + 140 * i}][{right},{top + 140 * (i + 1)}]")
                   for i, label in enumerate(labels))


def _panel(bounds: str, title: str, *labels: str, top: int, left: int = 0, right: int = 1080) -> str:
    kids = node(title, bounds=f"[{left},{top - 100}][{right},{top}]") + _rows(*labels, top=top, left=left, right=right)
    return node(cls="android.view.ViewGroup", bounds=bounds, children=kids)


def test_a_sheet_alone_at_the_bottom_of_its_window_is_cancelled():
    found = _verdict(_window(_panel("[0,1200][1080,2330]", "Choose an address", "Home", "Cancel", top=1400)))
    assert found.kind is ObstructionKind.OVERLAY, found.describe()
    assert isinstance(found.clearance, TapClearance) and found.clearance.label == "Cancel"


def test_a_drawer_alone_against_the_side_is_closed_with_back():
    found = _verdict(_window(_panel("[0,0][850,2400]", "My app", "Inbox", "Settings", top=400, right=850)))
    assert found.kind is ObstructionKind.OVERLAY and isinstance(found.clearance, BackClearance), found.describe()


def test_a_card_alone_in_the_middle_is_closed_with_back():
    found = _verdict(_window(_panel("[110,400][970,1900]", "Message", "Copy", "Reply", top=600, left=110, right=970)))
    assert found.kind is ObstructionKind.OVERLAY and isinstance(found.clearance, BackClearance), found.describe()


def test_a_card_centred_in_a_page_body_between_the_system_bars_is_the_page():
    # Flutter's `Scaffold` body of an edge-to-edge window: full width, from the status bar to the navigation bar.
    card = _panel("[110,600][970,1900]", "Test results", "Save", "Retry", top=800, left=110, right=970)
    body = node(cls="android.view.View", bounds="[0,136][1080,2330]", children=card)
    assert _verdict(_window(body)).kind is ObstructionKind.READY


def test_a_notice_card_in_the_safe_area_of_a_flutter_dialog_is_acknowledged():
    # `showDialog(useSafeArea: true)` puts the card in a `SafeArea` between the bars, like a page's body.
    card = _panel("[110,900][970,1500]", "Switched.", "OK", top=1100, left=110, right=970)
    body = node(cls="android.view.View", bounds="[0,136][1080,2330]", children=card)
    found = _verdict(_window(body))
    assert isinstance(found.clearance, TapClearance) and found.clearance.label == "OK", found.describe()


def test_a_card_in_containers_as_large_as_the_window_is_still_a_dialog():
    card = _panel("[110,600][970,1900]", "Test results", "Save", "Retry", top=800, left=110, right=970)
    route = node(cls="android.view.View", bounds="[0,0][1080,2400]", children=card)
    found = _verdict(_window(route))
    assert found.kind is ObstructionKind.OVERLAY and isinstance(found.clearance, BackClearance), found.describe()


def test_a_card_that_sells_something_goes_to_the_person():
    found = _verdict(_window(_panel("[110,400][970,1900]", "Go premium", "Subscribe", "Later", top=600,
                                    left=110, right=970)))
    assert found.needs_person, found.describe()


def test_a_step_inside_the_panel_is_not_obstructed():
    xml = _window(_panel("[0,1200][1080,2330]", "Choose an address", "Home", "Cancel", top=1400))
    assert _verdict(xml, Selector(text="Home")).kind is ObstructionKind.READY


def test_an_ordinary_screen_with_a_toolbar_and_a_bottom_bar_is_ready():
    page = (node("Inbox", bounds="[0,0][1080,160]") + _rows("Mail one", "Mail two", top=200)
            + _panel("[0,2170][1080,2330]", "Tabs", "Home", top=2190))
    assert _verdict(_window(page)).kind is ObstructionKind.READY


def test_a_sign_in_card_on_an_empty_page_is_the_page():
    form = (node("Sign in", bounds="[110,500][970,600]")
            + node(cls="android.widget.EditText", bounds="[110,650][970,780]", clickable=True)
            + _rows("Continue", top=900, left=110, right=970))
    assert _verdict(_window(node(cls="android.view.ViewGroup", bounds="[110,400][970,1200]", children=form))).kind \
        is ObstructionKind.READY


def test_a_lone_button_on_an_empty_page_is_no_modal():
    button = node(cls="android.view.View", bounds="[900,170][1040,310]", desc="Main menu", clickable=True)
    assert _verdict(_window(button)).kind is ObstructionKind.READY


def test_an_empty_state_card_with_one_retry_button_is_the_page():
    found = _verdict(_window(_panel("[110,800][970,1300]", "No connection", "Retry", top=1000, left=110, right=970)))
    assert found.kind is ObstructionKind.READY, found.describe()


def _backdrop(clickable: bool) -> str:
    """React Native's `Modal` backdrop: a full-window `Pressable`, or an empty dimming `View`."""
    return node(cls="android.view.ViewGroup", bounds="[0,0][1080,2330]", clickable=clickable)


def test_a_card_drawn_beside_an_empty_backdrop_is_cancelled():
    # The card's texts and buttons are loose siblings of the card's box, as React Native flattens them.
    card = (node(cls="android.view.ViewGroup", bounds="[100,1000][980,1400]")
            + node("Delete task", bounds="[140,1040][940,1100]")
            + node(cls="android.widget.EditText", bounds="[140,1120][940,1220]", clickable=True)
            + _rows("Cancel", top=1250, left=480, right=700) + _rows("Delete", top=1250, left=720, right=940))
    found = _verdict(_window(_backdrop(clickable=False) + card))
    assert isinstance(found.clearance, TapClearance) and found.clearance.label == "Cancel", found.describe()


def _scrolled(content: str) -> str:
    """React Native's root `ScrollView` around the whole page (keyboard-aware screens), content inside it."""
    return node(cls="android.widget.ScrollView", bounds="[0,0][1080,2330]",
                children=node(cls="android.view.ViewGroup", bounds="[0,0][1080,2330]", children=content))


def test_an_empty_leaf_inside_a_scroll_container_is_the_page_background_not_a_scrim():
    # An error page centred in a ScrollView's content, over a full-window empty View: the colour scrolls with the
    # page (a modal's dimming view stays fixed over the window), so its Retry / Go back are the page's own.
    page = (node(cls="android.view.ViewGroup", bounds="[0,0][1080,2330]")
            + node("Couldn't complete release.", bounds="[120,940][960,1200]")
            + _rows("Try again", top=1550, left=200, right=880) + _rows("Go back", top=1810, left=200, right=880))
    assert _verdict(_window(_scrolled(page))).kind is ObstructionKind.READY
    # The same card beside an empty backdrop outside any scroll container is still a modal.
    found = _verdict(_window(_backdrop(clickable=False) + page))
    assert found.kind is ObstructionKind.OVERLAY, found.describe()


def test_a_clickable_backdrop_inside_a_scroll_container_still_closes_its_drawer():
    # A drawer's `Pressable` overlay closes the drawer when tapped, wherever the page's layout put it.
    drawer = node(cls="android.view.ViewGroup", bounds="[0,72][778,2330]", children=node(
        "Sessions", bounds="[60,180][700,260]") + _rows("Session one", "Session two", top=500, right=775))
    overlay = node(cls="android.view.ViewGroup", bounds="[0,72][1080,2330]",
                   children=node(cls="android.view.ViewGroup", bounds="[0,72][1080,2330]", clickable=True))
    found = _verdict(_window(_scrolled(overlay + drawer)))
    assert found.kind is ObstructionKind.OVERLAY and isinstance(found.clearance, BackClearance), found.describe()


def test_a_sheet_inside_a_clickable_backdrop_with_one_close_button_is_closed():
    sheet = node(cls="android.view.ViewGroup", bounds="[0,1300][1080,2330]",
                 children=node("Build here?", bounds="[40,1340][800,1400]")
                 + node("This tile is taken", bounds="[40,1420][800,1480]") + _rows("✕", top=1500, left=900))
    backdrop = node(cls="android.view.ViewGroup", bounds="[0,0][1080,2330]", clickable=True, children=sheet)
    found = _verdict(_window(backdrop))
    assert isinstance(found.clearance, TapClearance) and found.clearance.label == "✕", found.describe()


def test_a_sheet_inside_a_labelled_clickable_backdrop_is_cancelled():
    # React Native's `Pressable accessibilityLabel="Add attachment"` around its action sheet: a node holding
    # buttons is no button, so its label does not make it content.
    sheet = node(cls="android.view.ViewGroup", bounds="[0,1485][1080,2330]") + node(
        "Add attachment", bounds="[63,1548][1017,1605]") + _rows("Photo Library", "Camera", "Cancel", top=1650)
    backdrop = node(cls="android.view.ViewGroup", desc="Add attachment", bounds="[0,0][1080,2330]", clickable=True,
                    children=sheet)
    found = _verdict(_window(backdrop))
    assert isinstance(found.clearance, TapClearance) and found.clearance.label == "Cancel", found.describe()
    # A labelled full-window button with nothing to press inside ("Tap to continue") is the page's own content.
    words = node("Welcome", bounds="[63,1548][1017,1605]") + node("Tap anywhere", bounds="[63,1650][1017,1700]")
    splash = node(cls="android.view.ViewGroup", desc="Tap to continue", bounds="[0,0][1080,2330]", clickable=True,
                  children=words)
    assert _verdict(_window(splash)).kind is ObstructionKind.READY


def test_a_page_over_a_background_view_is_ready():
    # An empty full-window leaf (a gradient background) under a page whose content reaches its edges.
    page = (node("Enroll face", bounds="[22,22][600,70]") + _rows("Front", "Rear", top=200, left=22, right=600)
            + node("Position your face here", bounds="[700,500][1000,540]"))
    assert _verdict(_window(_backdrop(clickable=False) + page)).kind is ObstructionKind.READY


def test_a_page_under_a_clickable_root_is_ready():
    page = node("Inbox", bounds="[0,0][1080,160]") + _rows("Mail one", "Mail two", "Settings", top=1500)
    root = node(cls="android.view.ViewGroup", bounds="[0,0][1080,2330]", clickable=True, children=page)
    assert _verdict(_window(root)).kind is ObstructionKind.READY


def _picker(notice_kids: str, *items: str) -> str:
    """A sheet alone in its window: a header row, then a notice (its own text and button) among the items."""
    header = node("Photos", bounds="[40,800][400,880]") + _rows("More", top=780, left=900)
    notice = node(cls="android.view.View", bounds="[40,900][1040,1160]", children=notice_kids)
    grid = node(cls="android.view.View", bounds="[0,900][1080,2330]", children=notice + "".join(
        node(desc=d, cls="android.view.View", clickable=True, bounds=f"[{360 * i},1200][{360 * (i + 1)},1560]")
        for i, d in enumerate(items)))
    return _window(node(cls="android.view.View", bounds="[0,760][1080,2330]", children=header + grid))


def test_a_dismiss_of_a_notice_among_the_items_of_a_sheet_leaves_the_sheet_to_back():
    notice = node("The app will only see the photos you pick", bounds="[200,920][1000,1010]") + _rows(
        "Dismiss", top=1014, left=820, right=1010)
    found = _verdict(_picker(notice, "Photo one", "Photo two", "Photo three"))
    assert found.kind is ObstructionKind.OVERLAY and isinstance(found.clearance, BackClearance), found.describe()


def test_a_close_button_in_a_header_among_form_fields_is_tapped():
    header = node(cls="android.view.ViewGroup", bounds="[0,1050][1080,1210]", children=node(
        "Choose an address", bounds="[40,1100][600,1160]") + _rows("✕", top=1090, left=980, right=1040))
    fields = "".join(node(cls="android.widget.EditText", clickable=True, bounds=f"[40,{1250 + 150 * i}][1040,"
                          f"{1380 + 150 * i}]") for i in range(2)) + _rows("District", top=1600)
    form = node(cls="android.view.ViewGroup", bounds="[0,1050][1080,2330]", children=header + fields)
    found = _verdict(_window(form))
    assert isinstance(found.clearance, TapClearance) and found.clearance.label == "✕", found.describe()


def _sheet_over_page(backdrop_order: int) -> str:
    """A page, and beside it a layer with a full-window `Pressable` backdrop and a sheet drawn after it."""
    page = node(cls="android.view.ViewGroup", bounds="[0,0][1080,2330]", drawing_order="2", children=node(
        "Welcome", bounds="[100,300][980,400]") + _rows("Create account", "Log in", top=700))
    backdrop = node(cls="android.view.ViewGroup", bounds="[0,0][1080,2330]", clickable=True, drawing_order="1")
    sheet = node(cls="android.view.ViewGroup", bounds="[0,1500][1080,2330]", drawing_order="2", children=node(
        "This is the developer menu", bounds="[60,1550][1000,1650]") + _rows("Continue", "Reload", top=1700))
    layer = node(cls="android.view.ViewGroup", bounds="[0,0][1080,2330]", drawing_order=str(backdrop_order),
                 children=backdrop + sheet)
    return _window(page + layer)


def test_a_sheet_over_a_backdrop_that_takes_the_taps_off_the_page_is_closed():
    found = _verdict(_sheet_over_page(backdrop_order=3))
    assert found.kind is ObstructionKind.OVERLAY and isinstance(found.clearance, BackClearance), found.describe()


def test_a_backdrop_drawn_under_the_page_is_no_modal():
    assert _verdict(_sheet_over_page(backdrop_order=1)).kind is ObstructionKind.READY


def _flattened(*buttons: str) -> str:
    """Flutter's semantics tree flattened: a notice's texts and buttons loose in a window-sized `View`."""
    kids = (node(desc="Privacy notice", cls="android.view.View", bounds="[250,1330][830,1400]")
            + node(desc="We collect your location to show nearby places", cls="android.view.View",
                   bounds="[105,1470][975,2000]")
            + "".join(node(desc=label, cls="android.widget.Button", clickable=True,
                           bounds=f"[{105 + 440 * i},2140][{535 + 440 * i},2270]") for i, label in enumerate(buttons)))
    return _window(node(cls="android.view.View", bounds="[0,0][1080,2400]", children=kids))


def test_a_notice_that_can_only_be_acknowledged_is_acknowledged():
    # A non-dismissible Flutter dialog: `ModalBarrier` hides the page and itself from semantics.
    found = _verdict(_flattened("Got it"))
    assert isinstance(found.clearance, TapClearance) and found.clearance.label == "Got it", found.describe()


def test_loose_content_with_a_choice_and_no_backdrop_is_the_page():
    # An onboarding page drawn low in its window: its buttons are the page's own, not a modal's answers.
    assert _verdict(_flattened("Get started", "Log in")).kind is ObstructionKind.READY


def test_a_lone_retry_in_loose_content_is_the_page():
    assert _verdict(_flattened("Retry")).kind is ObstructionKind.READY


def test_a_full_screen_modal_over_a_blurred_page_is_cancelled():
    # A composer over an empty leaf that draws the page behind it blurred; its content 4% from the sides.
    composer = node(cls="android.view.View", bounds="[0,0][1080,2330]", children=node(
        "Send a note", bounds="[46,300][600,360]") + node(cls="android.widget.EditText", clickable=True,
                                                          bounds="[46,1300][1034,1400]")
        + _rows("Send", "Cancel", top=1450, left=46, right=1034))
    found = _verdict(_window(_backdrop(clickable=False) + composer))
    assert isinstance(found.clearance, TapClearance) and found.clearance.label == "Cancel", found.describe()


def _drawer_over(page_button_beside: bool, top: int = 72) -> str:
    """@react-navigation/drawer without `drawing-order`: the page's parts listed after the backdrop's wrapper
    and the drawer (from `top` down), as the accessibility location sort leaves them."""
    overlay = node(cls="android.view.ViewGroup", bounds="[0,0][1080,2330]", children=node(
        cls="android.view.ViewGroup", bounds="[0,0][1080,2330]", clickable=True))
    drawer = node(cls="android.view.ViewGroup", bounds=f"[0,{top}][780,2330]", children=node(
        "My agent", bounds=f"[60,{top + 100}][700,{top + 180}]") + _rows("Session one", "Session two", top=600,
                                                                         right=780))
    page = node("Chat", bounds="[0,72][1080,360]") + node(
        "Hello there", cls="android.view.ViewGroup", bounds="[0,360][1080,2200]",
        clickable=page_button_beside)
    return _window(overlay + drawer + page)


def test_a_drawer_beside_a_wrapped_backdrop_is_closed_with_back():
    found = _verdict(_drawer_over(page_button_beside=False))
    assert found.kind is ObstructionKind.OVERLAY and isinstance(found.clearance, BackClearance), found.describe()


def test_a_side_pane_where_the_page_takes_the_taps_is_no_drawer():
    assert _verdict(_drawer_over(page_button_beside=True)).kind is ObstructionKind.READY


def test_a_drawer_below_the_status_bar_inset_is_closed_but_a_pane_below_a_toolbar_is_no_drawer():
    # An edge-to-edge window lays a drawer out below the status bar (React Native's safe area: 132 px of 2400,
    # 50 dp); a pane that starts below a toolbar (240 px) is part of the page.
    found = _verdict(_drawer_over(page_button_beside=False, top=132))
    assert found.kind is ObstructionKind.OVERLAY and isinstance(found.clearance, BackClearance), found.describe()
    assert _verdict(_drawer_over(page_button_beside=False, top=240)).kind is ObstructionKind.READY


def _m3_sheet(above: str = "", handle: str = "Drag handle") -> str:
    """Compose Material 3's `ModalBottomSheet` window: the sheet's layout node at its pre-offset place, its
    `BottomSheetDefaults.DragHandle` (labelled `handle`) and content below, laid out further down."""
    sheet = node(cls="android.view.View", bounds="[0,0][1080,1750]",
                 children=node(cls="android.view.View", bounds="[492,620][588,760]",
                               children=node(cls="android.view.View", desc=handle, bounds="[492,684][588,696]"))
                 + node("Add task", bounds="[72,830][600,900]") + node("Task group", bounds="[72,950][300,1020]")
                 + _rows("Work", "Study", top=1040) + _rows("Add", top=2110))
    return _window(above + node(cls="android.view.View", bounds="[0,1750][1080,2330]") + sheet)


def test_a_material_sheet_alone_in_its_window_by_its_drag_handle_is_closed_with_back():
    found = _verdict(_m3_sheet())
    assert found.kind is ObstructionKind.OVERLAY and isinstance(found.clearance, BackClearance), found.describe()


@pytest.mark.parametrize(("lang", "label"), [(lang, label) for lang, words in sorted(languages().items())
                                             for label in words.drag_handle])
def test_a_material_sheet_is_known_by_its_drag_handle_in_every_language(lang, label):
    # The phone's language labels the handle ("Ziehpunkt", "拖动手柄"), in the translations' sentence case.
    found = _verdict(_m3_sheet(handle=label[:1].upper() + label[1:]))
    assert found.kind is ObstructionKind.OVERLAY and isinstance(found.clearance, BackClearance), found.describe()


def test_a_material_sheet_with_an_unknown_handle_label_is_not_known_by_it():
    assert _verdict(_m3_sheet(handle="Griff")).kind is not ObstructionKind.OVERLAY


def test_a_standard_sheet_under_its_page_in_the_same_window_is_ready():
    # `BottomSheetScaffold`: the page stays in the window above the sheet's drag handle.
    page = node("Projects", bounds="[40,100][600,180]") + _rows("Today", top=250)
    assert _verdict(_m3_sheet(above=page)).kind is ObstructionKind.READY


def _tall_sheet(grip: bool, corner: str = "Edit", top: int = 190, clickable: bool = True) -> str:
    """A sheet expanded near the top over a backdrop: maybe a pill handle first, a button in its header's
    corner, a list, "Close" at its foot."""
    pill = node(cls="android.view.ViewGroup", bounds=f"[493,{top + 10}][587,{top + 20}]") if grip else ""
    sheet = node(cls="android.view.ViewGroup", bounds=f"[0,{top}][1080,2330]",
                 children=pill + node("Add exercise", bounds=f"[50,{top + 70}][900,{top + 150}]")
                 + node("Pick the next lift", bounds=f"[50,{top + 160}][900,{top + 210}]")
                 + _rows(corner, top=top + 70, left=930) + _rows("Bench press", "Squat", top=500)
                 + _rows("Close", top=2180))
    backdrop = node(cls="android.view.ViewGroup", bounds="[0,0][1080,2330]", clickable=clickable)
    return _window(backdrop + sheet)


def test_a_tall_sheet_with_a_drag_handle_over_a_backdrop_is_closed():
    found = _verdict(_tall_sheet(grip=True))
    assert isinstance(found.clearance, TapClearance) and found.clearance.label == "Close", found.describe()


def test_a_tall_panel_without_a_drag_handle_over_a_backdrop_is_the_page():
    assert _verdict(_tall_sheet(grip=False)).kind is ObstructionKind.READY


def test_a_tall_sheet_with_a_close_button_in_its_header_over_an_empty_backdrop_is_closed():
    # The Expo developer menu's shape: a Compose sheet up to the status bar over an empty backdrop leaf.
    found = _verdict(_tall_sheet(grip=False, corner="Close", top=120, clickable=False))
    assert isinstance(found.clearance, TapClearance) and found.clearance.label == "Close", found.describe()


def test_a_fully_expanded_sheet_over_its_scrim_is_closed_but_the_same_content_without_a_scrim_is_the_page():
    # Compose M3 ModalBottomSheet: a Scrim, then the sheet inset only by the status bar; its content may span
    # over 90% of the window, which alone would read as a page.
    header = node("Schedule", bounds="[50,130][900,200]") + _rows("Close", top=125, left=930)
    sheet = node(cls="android.view.View", bounds="[0,121][1080,2400]",
                 children=header + _rows("Reload", "Go home", "Settings", top=400) + _rows("Version", top=2200))
    scrim = node(cls="android.view.View", bounds="[0,0][1080,2400]")
    found = _verdict(_window(scrim + sheet))
    assert isinstance(found.clearance, TapClearance) and found.clearance.label == "Close", found.describe()
    assert _verdict(_window(sheet)).kind is ObstructionKind.READY


def _tour(*buttons: str) -> str:
    """A welcome tour page filling its window: a logo, a title, a line, its buttons across the bottom."""
    page = (node(cls="android.widget.ImageView", bounds="[350,300][730,700]")
            + node("New in Mail", bounds="[350,1170][730,1260]")
            + node("All the features you love with a fresh new look", bounds="[110,1300][970,1360]")
            + _rows(*buttons, top=2190))
    return _window(page)


def test_a_page_whose_only_control_acknowledges_it_is_a_notice():
    found = _verdict(_tour("Got it"))
    assert isinstance(found.clearance, TapClearance) and found.clearance.label == "Got it", found.describe()


def test_a_page_with_one_way_forward_or_more_than_one_control_is_ready():
    assert _verdict(_tour("Get started")).kind is ObstructionKind.READY
    assert _verdict(_tour("Learn more", "Got it")).kind is ObstructionKind.READY


def _drawer_layout(*children: str) -> str:
    return _window(node(cls="androidx.drawerlayout.widget.DrawerLayout", bounds="[0,128][1080,2400]",
                        children="".join(children)))


def test_a_drawer_layout_showing_only_its_drawer_is_closed_with_back():
    # DrawerLayout hides its content from accessibility while a drawer is open: only the drawer is dumped.
    drawer = node(cls="android.widget.LinearLayout", bounds="[0,128][735,2400]", children=(
        node("Open from", bounds="[42,148][340,233]") + node("Recent", bounds="[168,323][714,374]")
        + node("Downloads", bounds="[168,470][714,521]")))
    found = _verdict(_drawer_layout(drawer))
    assert found.kind is ObstructionKind.OVERLAY and isinstance(found.clearance, BackClearance), found.describe()


def test_a_closed_drawer_layout_showing_its_content_is_the_page():
    # Look-alike: the drawer closed (INVISIBLE, so not dumped): the content fills the layout.
    content = node(cls="android.widget.FrameLayout", bounds="[0,128][1080,2400]", children=(
        node("Recent files", bounds="[40,200][1040,300]") + _rows("report.pdf", "photo.jpg", top=400)))
    found = _verdict(_drawer_layout(content))
    assert found.kind is ObstructionKind.READY, found.describe()



def _web_page_with(panel_top: int, *labels: str, shift: int = 0) -> str:
    """A web app without `drawing-order`: the page, a panel at the bottom edge over it holding `labels`, then a
    full-window clickable element, all listed in the document's order inside the WebView. The items are reported
    `shift` pixels higher than they are (a WebView reporting a scrolled list's items from the list's top)."""
    page = node(cls="android.view.View", bounds="[0,0][1080,2400]", children=(
        node("Meeting Notes", cls="android.widget.EditText", clickable=True, bounds="[60,280][1000,380]")
        + node("Daily Standup", cls="android.widget.EditText", clickable=True, bounds="[60,410][1000,2200]")))
    step = (2400 - panel_top) // (len(labels) + 1)
    items = "".join(node(label, cls="android.view.View", clickable=True,
                         bounds=f"[40,{panel_top - shift + step * (i + 1) - step // 2}]"
                                f"[1040,{panel_top - shift + step * (i + 1)}]")
                    for i, label in enumerate(labels))
    panel = node(cls="android.view.View", bounds=f"[0,{panel_top}][1080,2400]", clickable=True, children=items)
    backdrop = node(cls="android.widget.TextView", bounds="[0,0][1080,2400]", clickable=True)
    web = node(cls="android.webkit.WebView", bounds="[0,0][1080,2400]", children=page + panel + backdrop)
    return hierarchy(node(cls="android.widget.FrameLayout", bounds="[0,0][1080,2400]", children=web))


@pytest.mark.parametrize("shift", [0, 1600])
def test_a_web_sheet_over_its_page_under_a_backdrop_listed_last_is_closed_with_back(shift):
    found = _verdict(_web_page_with(1600, "Reading view", "Rename...", "Delete file", shift=shift))
    assert found.kind is ObstructionKind.OVERLAY and isinstance(found.clearance, BackClearance), found.describe()


def test_a_web_page_with_a_bottom_bar_over_its_content_and_a_trailing_click_catcher_is_ready():
    # A bottom navigation bar, a twelfth of the window, laid over the page's content.
    found = _verdict(_web_page_with(2200, "Home", "Search", "Files", "Settings"))
    assert found.kind is ObstructionKind.READY, found.describe()
