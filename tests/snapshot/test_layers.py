"""Order and occlusion: window layers, drawing-order, what a tap at a point reaches, what is hidden."""

from __future__ import annotations

from starebrain.guard.tap_target import cover_at, receiver
from starebrain.snapshot import ScreenSnapshot
from starebrain.snapshot.layers import Cover
from starebrain.snapshot.windows import WindowKind
from tests.obstruction.corpus import DUMPS
from tests.snapshot.dumps import dump, hierarchy, node

APP = "com.example.app"


def _real(name: str) -> ScreenSnapshot:
    return ScreenSnapshot.from_xml((DUMPS / name).read_bytes())


def _app_with_dialog() -> ScreenSnapshot:
    app = node(cls="android.widget.FrameLayout", bounds="[0,0][1080,2400]", children=(
        node("Delete all", cls="android.widget.Button", bounds="[0,1000][1080,1200]", clickable=True)
        + node("Inbox", cls="android.widget.Button", bounds="[0,100][1080,300]", clickable=True)))
    dialog = node(cls="android.widget.FrameLayout", bounds="[60,900][1020,1500]", children=(
        node("Keep it?", bounds="[100,950][980,1050]")
        + node("Cancel", cls="android.widget.Button", bounds="[100,1100][500,1300]", clickable=True)))
    # The dialog is listed first, as UiAutomation lists windows (top-most first).
    return ScreenSnapshot.from_xml(hierarchy(dialog, app))


def test_a_tap_inside_a_dialog_reaches_its_button_and_outside_reaches_nothing():
    s = _app_with_dialog()
    assert s.touch_target_at(300, 1200).text == "Cancel"
    assert s.node_on_top_at(300, 1200).text == "Cancel"
    # The modal dialog swallows taps outside itself: the app's "Inbox" is drawn there but not touchable.
    assert s.node_on_top_at(540, 200).text == "Inbox"
    assert s.touch_target_at(540, 200) is None
    assert s.node_on_top_at(5000, 5000) is None


def test_window_layers_do_not_depend_on_dump_order():
    s = _app_with_dialog()
    flipped = ScreenSnapshot.from_xml(hierarchy(*reversed(_split_windows())))
    for snap in (s, flipped):
        assert [w.kind for w in snap.windows_by_layer] == [WindowKind.DIALOG, WindowKind.APP]
        assert snap.top_window.kind is WindowKind.DIALOG
        delete = next(n for n in snap.nodes if n.text == "Delete all")
        assert snap.cover(delete) is Cover.DIALOG


def _split_windows() -> list[str]:
    app = node(cls="android.widget.FrameLayout", bounds="[0,0][1080,2400]", children=node(
        "Delete all", cls="android.widget.Button", bounds="[0,1000][1080,1200]", clickable=True))
    dialog = node(cls="android.widget.FrameLayout", bounds="[60,900][1020,1500]", children=node(
        "Cancel", cls="android.widget.Button", bounds="[100,1100][500,1300]", clickable=True))
    return [dialog, app]


def test_drawing_order_not_document_order_decides_which_sibling_is_on_top():
    a = node("Under", cls="android.widget.Button", bounds="[0,0][500,500]", clickable=True, **{"drawing-order": "2"})
    b = node("Over", cls="android.widget.Button", bounds="[0,0][500,500]", clickable=True, **{"drawing-order": "1"})
    s = ScreenSnapshot.from_xml(hierarchy(node(cls="android.widget.FrameLayout", bounds="[0,0][1080,2400]",
                                                children=a + b, **{"drawing-order": "0"})))
    assert s.touch_target_at(250, 250).text == "Under"  # drawn last, so on top, although listed first
    over = next(n for n in s.nodes if n.text == "Over")
    assert s.cover(over) is Cover.OVERLAY and not s.in_sight(over)


def test_a_tap_falls_through_a_label_to_its_clickable_row():
    row = node(cls="android.widget.LinearLayout", bounds="[0,0][1080,200]", clickable=True,
               children=node("Dana", bounds="[20,20][500,180]"))
    s = ScreenSnapshot.from_xml(hierarchy(node(cls="android.widget.FrameLayout", bounds="[0,0][1080,2400]",
                                                children=row)))
    assert s.node_on_top_at(100, 100).text == "Dana"
    assert s.touch_target_at(100, 100).clickable


def test_the_keyboard_is_above_the_app_whichever_way_the_dump_lists_them():
    for name in ("028_kbd_gmail_compose_gboard_miui.xml", "030_kbd_miui_notes_gboard.xml"):
        s = _real(name)
        kinds = [w.kind for w in s.windows_by_layer]
        assert kinds.index(WindowKind.KEYBOARD) < kinds.index(WindowKind.APP), name
        board = next(w for w in s.windows if w.kind is WindowKind.KEYBOARD)
        x, y = board.bounds.center
        assert s.node_on_top_at(x, y).window_index == board.index


def test_elements_under_the_keyboard_are_marked_as_such():
    s = _real("c080_habibiscrapping_hierarchy.xml")
    hidden = [n for n in s.content_nodes() if n.interactive and s.cover(n) is Cover.KEYBOARD]
    assert hidden and all(n.center[1] >= 900 for n in hidden)


def test_a_dialog_only_dump_is_a_dialog_over_something():
    for prefix in ("022", "024", "026"):
        s = ScreenSnapshot.from_xml(dump(prefix).data)
        assert s.top_window.kind is WindowKind.DIALOG
        assert s.display.width > s.top_window.bounds.width


def test_a_one_ui_system_dialog_at_the_bottom_edge_is_a_dialog_not_a_bar_or_the_shade():
    s = _real("c061_AxiSightME_usb_repro_state.xml")
    assert s.top_window.kind is WindowKind.SYSTEM_DIALOG
    ok = next(n for n in s.nodes if n.text == "OK")
    assert s.touch_target_at(*ok.center) == ok


def test_a_row_half_under_a_floating_button_is_tapped_where_the_tap_reaches_it():
    row = node("Call the bank", cls="android.widget.TextView", bounds="[0,2000][1080,2200]", clickable=True)
    fab = node("", cls="android.widget.ImageButton", desc="Add task", bounds="[400,1950][700,2250]", clickable=True)
    s = ScreenSnapshot.from_xml(hierarchy(node(cls="android.widget.FrameLayout", bounds="[0,0][1080,2400]",
                                                children=row + fab)))
    target = next(n for n in s.nodes if n.text == "Call the bank")
    x, y = s.tap_point(target)
    assert s.touch_target_at(x, y) == target and target.bounds.contains(x, y)
    assert (x, y) != target.center  # the centre is under the button


def test_a_disabled_button_takes_the_touch_though_it_does_nothing_with_it():
    row = node(cls="android.widget.LinearLayout", bounds="[0,0][1080,300]", clickable=True, children=(
        node("Pay", cls="android.widget.Button", bounds="[700,50][1000,250]", clickable=True, enabled=False)))
    s = ScreenSnapshot.from_xml(hierarchy(row))
    hit = s.layers.at(850, 150)
    assert hit.on_top.text == "Pay"
    assert hit.receiver.text == "Pay"  # the tap-jacking check: the row behind it gets nothing
    assert hit.touch.class_name == "android.widget.LinearLayout"  # the enabled node a tap acts on


def test_the_tap_jacking_check_reads_the_same_screen_model():
    s = _app_with_dialog()
    assert receiver(s, 300, 1200) == s.touch_target_at(300, 1200)
    inbox = next(n for n in s.nodes if n.text == "Inbox")
    cover = cover_at(s, inbox, inbox.center)
    assert cover is not None and cover.node.window_index != inbox.window_index  # the modal dialog's
    assert receiver(s, 5000, 5000) is None
