"""Modals drawn inside the app's own window (Compose, Flutter, React Native) behind a clickable barrier."""

from __future__ import annotations

from functools import cache

from starebrain.models import Selector
from starebrain.obstruction import BackClearance, Obstruction, ObstructionKind, TapClearance, detect
from starebrain.profiles import load_profiles
from starebrain.snapshot import ScreenSnapshot
from tests.obstruction.corpus import DUMPS
from tests.snapshot.dumps import hierarchy, node

APP = "com.example.app"


@cache
def profile():
    return load_profiles().device_profile("google")


def _verdict(xml: str | bytes, target: Selector | None = None):
    return detect(ScreenSnapshot.from_xml(xml), profile(), target=target)


def _assert_closed_with_back(xml: str) -> Obstruction:
    found = _verdict(xml)
    assert found.kind is ObstructionKind.OVERLAY and isinstance(found.clearance, BackClearance), found.describe()
    return found


def _compose_dialog(*labels: str) -> str:
    """A Compose-style dialog: a full-window barrier "Close" holding a centred card."""
    buttons = "".join(node(label, cls="android.widget.Button", bounds=f"[{200 + 300 * i},1300][{450 + 300 * i},1420]",
                           clickable=True) for i, label in enumerate(labels))
    card = node("Delete your account?", cls="android.view.View", bounds="[150,900][930,1100]") + buttons
    barrier = node(desc="Close", cls="android.view.View", bounds="[0,0][1080,2337]", clickable=True, children=card)
    return hierarchy(node(cls="android.widget.FrameLayout", bounds="[0,0][1080,2400]", children=barrier))


def test_a_compose_dialog_inside_the_app_window_is_cancelled():
    found = _verdict(_compose_dialog("Cancel", "Next"))
    assert found.kind is ObstructionKind.OVERLAY, found.describe()
    assert isinstance(found.clearance, TapClearance) and found.clearance.label == "Cancel"


def test_without_a_dismiss_button_back_closes_it():
    _assert_closed_with_back(_compose_dialog("Next"))


def test_a_step_that_acts_in_the_modal_is_not_obstructed():
    assert _verdict(_compose_dialog("Cancel", "Next"), Selector(text="Next")).kind is ObstructionKind.READY


def test_a_wide_close_button_in_the_middle_of_a_page_is_no_barrier():
    page = node(cls="android.widget.FrameLayout", bounds="[0,0][1080,2400]", children=(
        node("Inbox", bounds="[0,100][1080,300]")
        + node("Close", cls="android.widget.Button", bounds="[0,1000][1080,1300]", clickable=True)))
    assert _verdict(hierarchy(page)).kind is ObstructionKind.READY


def test_the_real_account_deletion_modal_is_cancelled():
    found = _verdict((DUMPS / "c028_savepoint_window_dump11.xml").read_bytes())
    assert isinstance(found.clearance, TapClearance) and found.clearance.label == "キャンセル", found.describe()


def _flutter_sheet(barrier: str, *labels: str, barrier_alone: bool = False) -> str:
    """A Flutter modal bottom sheet: the barrier (labelled `barrier`) above it and the sheet's buttons."""
    buttons = "".join(node(desc=label, cls="android.widget.Button", clickable=True,
                           bounds=f"[40,{1400 + 150 * i}][1040,{1540 + 150 * i}]") for i, label in enumerate(labels))
    sheet = node(desc="Project", cls="android.view.View", bounds="[45,1320][400,1380]") + buttons
    scrim = node(desc=barrier, cls="android.view.View", bounds="[0,0][1080,1300]", clickable=True)
    if barrier_alone:  # the barrier in its own overlay entry, after the sheet's
        layers = (node(cls="android.view.View", bounds="[0,1300][1080,2400]", children=sheet)
                  + node(cls="android.view.View", bounds="[0,0][1080,2400]", children=scrim))
    else:
        layers = scrim + node(cls="android.view.View", bounds="[0,0][1080,2400]", children=sheet)
    root = node(cls="android.view.View", bounds="[0,0][1080,2400]", children=layers)
    return hierarchy(node(cls="android.widget.FrameLayout", bounds="[0,0][1080,2400]", children=root))


def test_a_flutter_sheet_behind_its_scrim_is_cancelled():
    found = _verdict(_flutter_sheet("Scrim", "Open", "Cancel"))
    assert isinstance(found.clearance, TapClearance) and found.clearance.label == "Cancel", found.describe()


def test_a_flutter_sheets_drag_handle_under_its_scrim_is_no_button_but_a_wide_dismiss_there_is():
    # bottom_sheet.dart's _DragHandle: labelled modalBarrierDismissLabel, closed only by a semantics tap.
    def sheet(handle_bounds: str) -> str:
        handle = node(desc="Dismiss", cls="android.widget.Button", clickable=True, bounds=handle_bounds)
        body = node(desc="Add teacher", cls="android.view.View", bounds="[45,1440][400,1500]") + node(
            desc="Save", cls="android.widget.Button", clickable=True, bounds="[40,2200][1040,2340]")
        scrim = node(desc="Scrim", cls="android.view.View", bounds="[0,0][1080,1300]", clickable=True)
        page = node(cls="android.view.View", bounds="[0,0][1080,2400]",
                    children=handle + node(cls="android.view.View", bounds="[40,1430][1040,2350]", children=body))
        root = node(cls="android.view.View", bounds="[0,0][1080,2400]",
                    children=page + node(cls="android.view.View", bounds="[0,0][1080,2400]", children=scrim))
        return hierarchy(node(cls="android.widget.FrameLayout", bounds="[0,0][1080,2400]", children=root))
    _assert_closed_with_back(sheet("[477,1300][603,1420]"))
    found = _verdict(sheet("[40,1300][1040,1420]"))  # the sheet's own full-width Dismiss button
    assert isinstance(found.clearance, TapClearance) and found.clearance.label == "Dismiss", found.describe()


def test_a_flutter_sheet_whose_barrier_has_its_own_layer_is_closed_with_back():
    found = _assert_closed_with_back(_flutter_sheet("Gitter", "Open", "Rename", barrier_alone=True))
    assert "Project" in found.detail


def test_a_wide_button_at_the_top_of_a_flutter_page_is_no_scrim():
    found = _verdict(_flutter_sheet("Scrim settings", "Open", "Cancel"))
    assert found.kind is ObstructionKind.READY, found.describe()


def test_a_sliver_of_a_flutter_scrim_above_a_full_height_sheet_is_a_barrier():
    # `showModalBottomSheet(isScrollControlled: true)` leaves only a strip of its "Scrim" barrier uncovered.
    sheet = node(desc="New task", cls="android.view.View", bounds="[45,120][400,200]") + node(
        desc="Save", cls="android.widget.Button", clickable=True, bounds="[40,2200][1040,2340]")
    scrim = node(desc="Scrim", cls="android.view.View", bounds="[0,0][1080,60]", clickable=True)
    root = node(cls="android.view.View", bounds="[0,0][1080,2400]",
                children=scrim + node(cls="android.view.View", bounds="[0,60][1080,2400]", children=sheet))
    _assert_closed_with_back(hierarchy(node(cls="android.widget.FrameLayout", bounds="[0,0][1080,2400]",
                                            children=root)))


def test_a_thin_close_bar_across_the_top_of_a_page_is_no_barrier():
    # Only a barrier labelled as a scrim may be a sliver; a dismiss word across the top still needs height.
    page = node("Inbox", bounds="[40,200][400,280]") + node(
        "Open", cls="android.widget.Button", clickable=True, bounds="[40,400][1040,540]")
    bar = node(desc="Close", cls="android.view.View", bounds="[0,0][1080,60]", clickable=True)
    root = node(cls="android.view.View", bounds="[0,0][1080,2400]", children=bar + page)
    found = _verdict(hierarchy(node(cls="android.widget.FrameLayout", bounds="[0,0][1080,2400]", children=root)))
    assert found.kind is ObstructionKind.READY, found.describe()


def _compose_drawer(strip: str, edge: int = 900, top: int = 0, bottom: int = 2340) -> str:
    """Compose's `ModalNavigationDrawer`: the scrim's uncovered strip, then the drawer sheet drawn over it
    (from `top` to `bottom`: an edge-to-edge window puts both between the system bars)."""
    items = "".join(node(label, cls="android.view.View", bounds=f"[40,{300 + 150 * i}][860,{440 + 150 * i}]",
                         clickable=True) for i, label in enumerate(("Inbox", "Install apps", "Settings")))
    title = node("Calendar", bounds="[40,150][400,250]")
    sheet = node(cls="android.view.View", bounds=f"[0,{top}][{edge},{bottom}]", children=title + items)
    scrim = node(desc=strip, cls="android.view.View", bounds=f"[{edge},{top}][1080,{bottom}]", clickable=True)
    box = node(cls="android.view.View", bounds="[0,0][1080,2340]", children=scrim + sheet)
    return hierarchy(node(cls="android.widget.FrameLayout", bounds="[0,0][1080,2340]", children=box))


def test_a_compose_drawer_beside_its_scrim_is_closed_with_back():
    _assert_closed_with_back(_compose_drawer("Close navigation menu"))


def test_a_russian_compose_drawer_beside_its_scrim_is_closed_with_back():
    # material3 `Strings.CloseDrawer` in Russian.
    _assert_closed_with_back(_compose_drawer("Закрыть меню навигации"))


def test_a_tall_side_button_without_a_dismiss_word_is_no_drawer_scrim():
    assert _verdict(_compose_drawer("Next page")).kind is ObstructionKind.READY


def test_a_wide_drawer_between_the_system_bars_leaves_a_narrow_scrim_strip():
    # M3's sheet is up to 360 dp wide, so on a phone the strip is ~30 dp, between the status and navigation bars.
    _assert_closed_with_back(_compose_drawer("Close navigation menu", edge=990, top=66, bottom=2274))


def test_a_close_button_down_the_side_of_a_page_below_its_toolbar_is_no_drawer_scrim():
    assert _verdict(_compose_drawer("Close", edge=990, top=400)).kind is ObstructionKind.READY


def _buttons(labels: tuple[str, ...], *, left: int, right: int, top: int, pitch: int, height: int) -> str:
    """A column of described, clickable buttons (menu items, drawer entries)."""
    return "".join(node(desc=label, cls="android.widget.Button", clickable=True,
                        bounds=f"[{left},{top + pitch * i}][{right},{top + pitch * i + height}]")
                   for i, label in enumerate(labels))


def _menu_barrier(barrier: str, bounds: str = "[0,0][1080,2400]") -> str:
    """Flutter's `PopupMenuRoute`: the page, its menu in the overlay, and the barrier labelled
    `MaterialLocalizations.menuDismissLabel` over the whole window."""
    page = node("Chats", bounds="[40,100][400,200]") + node("Alice", bounds="[40,400][1040,560]", clickable=True)
    menu = _buttons(("Add friend", "New group"), left=700, right=1040, top=180, pitch=130, height=120)
    scrim = node(desc=barrier, cls="android.view.View", bounds=bounds, clickable=True)
    root = node(cls="android.view.View", bounds="[0,0][1080,2400]", children=page + menu + scrim)
    return hierarchy(node(cls="android.widget.FrameLayout", bounds="[0,0][1080,2400]", children=root))


def test_a_flutter_popup_menu_over_its_barrier_is_closed():
    for label in ("Dismiss menu", "关闭菜单"):
        found = _verdict(_menu_barrier(label))
        assert found.kind is ObstructionKind.OVERLAY, found.describe()


def test_a_speed_dial_close_button_is_no_menu_barrier():
    assert _verdict(_menu_barrier("关闭菜单", "[940,2200][1050,2300]")).kind is ObstructionKind.READY


def test_a_chinese_flutter_sheet_behind_its_scrim_is_cancelled():
    found = _verdict(_flutter_sheet("纱罩", "确定", "取消"))
    assert isinstance(found.clearance, TapClearance) and found.clearance.label == "取消", found.describe()


def _react_navigation_drawer(backdrop: str) -> str:
    """@react-navigation/drawer: the screen, its overlay `Pressable` labelled "Close drawer" over it, then the
    drawer drawn over both against the start edge."""
    screen = node("Budget", bounds="[160,100][400,180]") + node("Add", cls="android.widget.Button",
                                                                 bounds="[890,2150][1040,2300]", clickable=True)
    overlay = node(desc=backdrop, cls="android.widget.Button", bounds="[0,0][1080,2400]", clickable=True)
    items = _buttons(("Home", "Settings"), left=50, right=880, top=560, pitch=150, height=140)
    drawer = node(cls="android.view.ViewGroup", bounds="[0,0][930,2400]", children=node("Ledger",
                                                                                          bounds="[50,340][880,430]")
                  + items)
    page = node(cls="android.view.ViewGroup", bounds="[0,0][1080,2400]", children=screen + overlay)
    root = node(cls="android.view.ViewGroup", bounds="[0,0][1080,2400]", children=page + drawer)
    return hierarchy(node(cls="android.widget.FrameLayout", bounds="[0,0][1080,2400]", children=root))


def test_a_react_navigation_drawer_over_its_overlay_is_closed_with_back():
    _assert_closed_with_back(_react_navigation_drawer("Close drawer"))


def test_a_full_screen_button_that_opens_something_is_no_drawer_overlay():
    assert _verdict(_react_navigation_drawer("Open drawer")).kind is ObstructionKind.READY


def _drawer_layout(*drawers: str) -> str:
    """An AndroidX `DrawerLayout`: the page, then any drawer child the layout shows (only an open one)."""
    page = node(cls="android.widget.ScrollView", bounds="[0,0][1080,2400]",
                children=node("Dashboard", bounds="[190,170][450,250]") + node("Total", bounds="[80,360][480,400]"))
    layout = node(cls="androidx.drawerlayout.widget.DrawerLayout", bounds="[0,0][1080,2400]",
                  children=page + "".join(drawers))
    return hierarchy(node(cls="android.widget.FrameLayout", bounds="[0,0][1080,2400]", children=layout))


def _nav(bounds: str) -> str:
    labels = ("Dashboard", "Clients", "Profile")
    rows = "".join(node(label, cls="android.widget.Button", clickable=True,
                        bounds=f"[100,{400 + 200 * i}][800,{500 + 200 * i}]") for i, label in enumerate(labels))
    return node(cls="android.view.ViewGroup", bounds=bounds, children=rows)


def test_an_open_drawer_of_a_drawer_layout_is_closed_with_back():
    _assert_closed_with_back(_drawer_layout(_nav("[0,0][912,2400]")))


def test_a_drawer_layout_showing_only_its_page_is_ready():
    assert _verdict(_drawer_layout()).kind is ObstructionKind.READY


def test_a_second_full_width_child_of_a_drawer_layout_is_no_drawer():
    assert _verdict(_drawer_layout(_nav("[0,0][1080,2400]"))).kind is ObstructionKind.READY


def _sheet_below_strip(close: str, strip_children: str = "") -> str:
    """An app's own sheet laid out like `BottomSheetDialog`: an empty clickable strip from the top, the sheet below."""
    strip = node(cls="android.view.View", bounds="[0,0][1080,650]", clickable=True, children=strip_children)
    head = node("1,180 comments", bounds="[380,660][700,780]") + node(desc=close, cls="android.widget.ImageView",
                                                                      bounds="[990,680][1050,740]", clickable=True)
    rows = "".join(node(text, bounds=f"[160,{900 + 200 * i}][1040,{1000 + 200 * i}]") for i, text in
                   enumerate(("Nice one", "Reply")))
    sheet = node(cls="android.widget.FrameLayout", bounds="[0,650][1080,2028]", children=head + rows)
    box = node(cls="android.widget.LinearLayout", bounds="[0,0][1080,2028]", clickable=True, children=strip + sheet)
    return hierarchy(node(cls="android.widget.FrameLayout", bounds="[0,0][1080,2028]", children=box))


def test_a_sheet_below_an_empty_touch_outside_strip_is_closed_with_its_close_button():
    found = _verdict(_sheet_below_strip("Close"))
    assert isinstance(found.clearance, TapClearance) and found.clearance.label == "Close", found.describe()


def test_a_page_below_an_empty_banner_without_a_dismiss_button_is_ready():
    assert _verdict(_sheet_below_strip("Share")).kind is ObstructionKind.READY


def test_a_header_with_content_above_a_panel_is_no_touch_outside_strip():
    logo = node(desc="Logo", cls="android.widget.ImageView", bounds="[40,100][300,300]")
    assert _verdict(_sheet_below_strip("Close", logo)).kind is ObstructionKind.READY


def _sheet_under_composer(composer: bool, z: bool = True) -> str:
    """A comments sheet behind its "Close" barrier; maybe a composer's full-window clickable layer drawn over both."""
    def n(text: str = "", order: int = 0, **kw) -> str:
        return node(text, **({"drawing_order": str(order)} if z else {}), **kw)
    close = n("Close", 0, cls="android.widget.Button", bounds="[980,620][1060,700]", clickable=True)
    sheet = n(order=1, cls="android.view.View", bounds="[0,600][1080,2400]", children=(
        n("12 comments", 1, bounds="[400,620][680,700]") + close
        + "".join(n(f"Comment {i}", 2 + i, bounds=f"[40,{800 + 200 * i}][1040,{950 + 200 * i}]") for i in range(3))))
    barrier = n(order=0, desc="Close", cls="android.view.View", bounds="[0,0][1080,600]", clickable=True)
    layer = n(order=1, cls="android.widget.FrameLayout", bounds="[0,0][1080,2400]", children=barrier + sheet)
    top = n(order=2, desc="Back, button", cls="android.view.View", bounds="[0,0][1080,2400]", clickable=True,
            children=n("Say something nice", 0, cls="android.widget.EditText", bounds="[40,2200][900,2350]",
                       editable=True, clickable=True)) if composer else ""
    return hierarchy(n(order=0, cls="android.widget.FrameLayout", bounds="[0,0][1080,2400]", children=layer + top))


def test_a_close_button_under_a_layer_drawn_over_its_sheet_is_left_for_back():
    # The composer's full-window layer takes the tap meant for the sheet's Close: back closes the composer first.
    _assert_closed_with_back(_sheet_under_composer(composer=True))
    # the sheet alone, or a dump without drawing orders (z unknown): its Close is tapped
    for xml in (_sheet_under_composer(composer=False), _sheet_under_composer(composer=True, z=False)):
        found = _verdict(xml)
        assert isinstance(found.clearance, TapClearance) and found.clearance.label == "Close", found.describe()


def _labelled_scrim_sheet(scrim: str, cancel: str = "Cancel") -> str:
    """Compose M3's `ModalBottomSheet`: its scrim above the sheet, labelled (`Strings.CloseSheet` in the phone's
    language), then the sheet with a title and its buttons."""
    buttons = "".join(node(label, cls="android.widget.Button", bounds=f"[40,{1500 + 130 * i}][1040,{1600 + 130 * i}]",
                           clickable=True) for i, label in enumerate(("Save to Photos", "Save as file", cancel)))
    sheet = node(cls="android.view.View", bounds="[0,1200][1080,2400]",
                 children=node("Export", bounds="[40,1300][400,1380]") + buttons)
    barrier = node(desc=scrim, cls="android.view.View", bounds="[0,0][1080,1200]", clickable=True)
    box = node(cls="android.view.View", bounds="[0,0][1080,2400]", children=barrier + sheet)
    return hierarchy(node(cls="android.widget.FrameLayout", bounds="[0,0][1080,2400]", children=box))


def test_a_compose_sheet_whose_scrim_says_close_sheet_in_the_phones_language_is_cancelled():
    for scrim, cancel in (("Закрыть лист", "Отмена"), ("시트 닫기", "취소"), ("关闭工作表", "取消"),
                          ("Close the export sheet", "Cancel")):
        found = _verdict(_labelled_scrim_sheet(scrim, cancel))
        assert found.kind is ObstructionKind.OVERLAY, (scrim, found.describe())
        assert isinstance(found.clearance, TapClearance) and found.clearance.label == cancel, found.describe()


def test_a_wide_top_area_whose_label_only_holds_a_letter_is_no_barrier():
    # "x" is a dismiss word alone ("×" buttons), not inside a longer label.
    assert _verdict(_labelled_scrim_sheet("Photo 3 x 4")).kind is ObstructionKind.READY


def test_a_full_width_button_at_the_bottom_edge_that_only_mentions_cancelling_is_the_pages():
    page = node("Your plan", bounds="[40,200][600,280]") + node("Premium, renews on May 1", bounds="[40,300][900,380]")
    bar = node(desc="Cancel subscription", cls="android.view.View", bounds="[0,2160][1080,2400]", clickable=True)
    root = node(cls="android.view.View", bounds="[0,0][1080,2400]", children=page + bar)
    found = _verdict(hierarchy(node(cls="android.widget.FrameLayout", bounds="[0,0][1080,2400]", children=root)))
    assert found.kind is ObstructionKind.READY, found.describe()


def test_a_react_native_backdrop_named_after_what_it_closes_is_a_barrier():
    # A `Pressable` across the window, accessibilityLabel "关闭模型选择" (close the model picker), then the sheet.
    buttons = node(desc="关闭", cls="android.view.ViewGroup", bounds="[920,600][1040,720]", clickable=True) + "".join(
        node(desc=f"Model {i}", cls="android.widget.RadioButton", bounds=f"[36,{760 + 210 * i}][1044,{960 + 210 * i}]",
             clickable=True) for i in range(3))
    inner = (node(desc="关闭模型选择", cls="android.view.ViewGroup", bounds="[0,0][1080,1920]", clickable=True)
             + node(cls="android.view.ViewGroup", bounds="[0,540][1080,1920]")
             + node("切换模型", bounds="[160,630][900,690]") + buttons)
    box = node(cls="android.view.ViewGroup", bounds="[0,0][1080,1920]", children=inner)
    found = _verdict(hierarchy(node(cls="android.widget.FrameLayout", bounds="[0,0][1080,1920]", children=box)))
    assert isinstance(found.clearance, TapClearance) and found.clearance.label == "关闭", found.describe()


def _gorhom_sheets(*sheets: tuple[str, ...]) -> str:
    """React Native @gorhom/bottom-sheet: the page, then for each open sheet its backdrop (accessibilityLabel
    "Bottom sheet backdrop", the library's default) and the sheet drawn right after it, all siblings of one
    container with drawing orders; each sheet starts a little lower than the one under it."""
    kids = node(cls="android.view.ViewGroup", bounds="[0,0][1080,2400]", drawing_order="1", children=(
        node("Models", bounds="[40,120][600,220]", drawing_order="1")
        + node("Add model", cls="android.widget.Button", bounds="[40,2100][1040,2240]", clickable=True,
               drawing_order="2")))
    for i, buttons in enumerate(sheets):
        top = 225 + 56 * i
        content = node(f"Sheet {i + 1}", bounds=f"[160,{top + 120}][900,{top + 200}]", drawing_order="1") + "".join(
            node(desc=label, cls="android.widget.Button", clickable=True, drawing_order=str(2 + j),
                 bounds=f"[{56 + 300 * j},{top + 98}][{300 + 300 * j},{top + 182}]") for j, label in enumerate(buttons))
        kids += (node(desc="Bottom sheet backdrop", cls="android.widget.Button", bounds="[0,0][1080,2400]",
                      clickable=True, drawing_order=str(2 + 2 * i))
                 + node(cls="android.view.ViewGroup", bounds=f"[0,{top}][1080,2400]", drawing_order=str(3 + 2 * i),
                        children=node(desc="Bottom Sheet", cls="android.view.ViewGroup",
                                      bounds=f"[0,{top}][1080,2400]", children=content)))
    box = node(cls="android.view.ViewGroup", bounds="[0,0][1080,2400]", children=kids)
    return hierarchy(node(cls="android.widget.FrameLayout", bounds="[0,0][1080,2400]", children=box))


def test_a_sheet_over_its_react_native_backdrop_is_closed_with_its_own_button():
    found = _verdict(_gorhom_sheets(("Close", "Download")))
    assert isinstance(found.clearance, TapClearance) and found.clearance.label == "Close", found.describe()


def test_a_second_sheet_over_the_first_is_the_one_in_the_way_and_the_covered_close_is_never_tapped():
    # The top sheet has no close of its own; the first sheet's Close lies under it.
    _assert_closed_with_back(_gorhom_sheets(("Close", "Search"), ("Download model",)))
    # With its own close, the top sheet is closed with it.
    found = _verdict(_gorhom_sheets(("Close", "Search"), ("Dismiss", "Download model")))
    assert isinstance(found.clearance, TapClearance) and found.clearance.label == "Dismiss", found.describe()
