from __future__ import annotations

from starebrain.models import Selector
from starebrain.snapshot import ScreenSnapshot
from tests.snapshot.dumps import dump, hierarchy, node


def snap(prefix: str) -> ScreenSnapshot:
    return ScreenSnapshot.from_xml(dump(prefix).data)


def test_all_given_fields_must_match():
    s = snap("002")
    allow = s.resolve(Selector(text="While using the app",
                               resource_id="com.android.permissioncontroller:id/permission_allow_foreground_only_button"))
    assert allow is not None and allow.clickable
    assert s.resolve(Selector(text="While using the app", resource_id="permission_deny_button")) is None


def test_short_resource_id_and_short_class_name_match():
    s = snap("008")
    wait = s.resolve(Selector(resource_id="aerr_wait", class_name="Button"))
    assert wait is not None and wait.text == "Wait"


def test_text_contains_ignores_case_and_text_is_exact():
    s = snap("008")
    assert s.resolve(Selector(text_contains="ISN'T RESPONDING")) is not None
    assert s.resolve(Selector(text="Wai")) is None


def test_index_picks_the_nth_match_in_document_order():
    s = snap("018")
    calls = s.resolve_all(Selector(text="Call Now"))
    assert len(calls) >= 3
    assert s.resolve(Selector(text="Call Now", index=2)) == calls[2]
    assert s.resolve(Selector(text="Call Now", index=len(calls))) is None


def test_visible_match_wins_over_a_hidden_one_earlier_in_the_document():
    xml = hierarchy(node(cls="android.widget.FrameLayout", bounds="[0,0][1080,1920]", children=(
        node("Send", bounds="[0,0][0,0]", clickable=True)
        + node("Send", bounds="[800,1700][1000,1800]", clickable=True))))
    s = ScreenSnapshot.from_xml(xml)
    found = s.resolve(Selector(text="Send"))
    assert found is not None and found.center == (900, 1750)
    assert len(s.resolve_all(Selector(text="Send"))) == 1


def test_only_hidden_matches_are_still_returned():
    xml = hierarchy(node("Send", bounds="[0,0][0,0]"))
    assert ScreenSnapshot.from_xml(xml).resolve(Selector(text="Send")) is not None


def test_content_desc_selects_an_icon_button():
    s = snap("028")
    send = s.resolve(Selector(content_desc="Send"))
    assert send is not None and send.package == "com.google.android.gm" and send.clickable


def test_label_inside_a_clickable_row_is_tapped_at_its_own_centre():
    s = snap("018")
    label = s.resolve(Selector(text_contains="Saboo Siddique"))
    assert label is not None
    row = s.click_target(label)
    assert row is not label and row.clickable
    assert s.tap_point(label) == label.center and row.bounds.contains(*label.center)


def test_label_without_area_is_tapped_at_its_clickable_ancestor():
    xml = hierarchy(node(cls="android.widget.LinearLayout", bounds="[0,100][1080,300]", clickable=True,
                         children=node("Alice", bounds="[0,0][0,0]")))
    s = ScreenSnapshot.from_xml(xml)
    alice = s.resolve(Selector(text="Alice"))
    assert alice is not None and s.tap_point(alice) == (540, 200)


def test_chinese_button_resolves_by_text():
    s = snap("006")
    allow = s.resolve(Selector(text="允许"))
    assert allow is not None and allow.resource_id.endswith("permission_allow_button")


def test_a_point_selector_names_a_place_and_matches_no_element():
    s = snap("002")
    assert s.resolve(Selector(point="50%,50%")) is None
    assert s.resolve(Selector(point="540,1200")) is None
