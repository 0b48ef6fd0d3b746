"""The dump is byte-compatible with u2.jar's KXmlSerializer output (docs/sim.md)."""

from __future__ import annotations

import re

from lxml import etree

from starebrain.sim.world import build_phone
from starebrain.sim.world.nodes import format_bounds
from tests.sim.world.conftest import get, tap

ORDER = ["index", "text", "resource-id", "class", "package", "content-desc", "checkable", "checked", "clickable",
         "enabled", "focusable", "focused", "scrollable", "long-clickable", "password", "selected",
         "visible-to-user", "bounds", "drawing-order", "hint", "display-id"]
HEADER = "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>\r\n<hierarchy rotation=\"0\">\r\n"


def dump_of_compose() -> str:
    phone = build_phone()
    phone.start_app("com.google.android.gm")
    tap(phone, text="Compose")
    return phone.hierarchy_xml()


def test_document_framing_crlf_indent_and_empty_element_form() -> None:
    xml = dump_of_compose()
    assert xml.startswith(HEADER)
    assert xml.endswith("</hierarchy>") and not xml.endswith("\n")
    lines = xml.split("\r\n")
    assert all("\n" not in line and "\r" not in line for line in lines)
    for line in lines[2:-1]:
        indent = len(line) - len(line.lstrip(" "))
        assert indent % 2 == 0 and indent >= 2
        assert line.lstrip().startswith(("<node ", "</node>"))
        if line.lstrip().startswith("<node") and not line.endswith(">"):
            raise AssertionError(line)
    assert any(line.endswith('" />') for line in lines)


def test_every_node_has_the_u2_attributes_in_order() -> None:
    root = etree.fromstring(dump_of_compose().encode("utf-8"))
    nodes = root.iter("node")
    for node in nodes:
        assert list(node.attrib) == ORDER
        assert re.fullmatch(r"\[\d+,\d+\]\[\d+,\d+\]", node.attrib["bounds"])


def test_one_top_level_node_per_window_with_the_keyboard_as_its_own_window() -> None:
    root = etree.fromstring(dump_of_compose().encode("utf-8"))
    windows = [(w.attrib["index"], w.attrib["package"]) for w in root]
    assert windows == [("0", "com.android.systemui"), ("0", "com.google.android.gm"),
                       ("0", "com.google.android.inputmethod.latin")]
    ime = root[2]
    left, top, right, bottom = map(int, re.findall(r"\d+", ime.attrib["bounds"]))
    assert (left, right, bottom) == (0, 1080, 2400) and 0.35 < (bottom - top) / 2400 < 0.45


def test_bounds_are_clipped_to_the_display_and_match_root() -> None:
    phone = build_phone()
    phone.start_app("com.google.android.apps.messaging")
    for node in phone.root().iter()[1:]:
        left, top, right, bottom = node.bounds
        assert 0 <= left < right <= 1080 and 0 <= top < bottom <= 2400
        assert node.attrs["bounds"] == format_bounds(node.bounds)


def test_text_is_escaped_like_kxml() -> None:
    phone = build_phone()
    phone.inject("message", text='Tom & "Jerry" <b>\nnext line\ttab')
    phone.start_app("com.google.android.apps.messaging")
    tap(phone, text="Dana Whitfield")
    xml = phone.hierarchy_xml()
    assert 'text="Tom &amp; &quot;Jerry&quot; &lt;b&gt;&#10;next line&#9;tab"' in xml
    parsed = etree.fromstring(xml.encode("utf-8"))
    assert any(n.attrib["text"] == 'Tom & "Jerry" <b>\nnext line\ttab' for n in parsed.iter("node"))


def test_password_fields_are_marked_and_masked() -> None:
    phone = build_phone()
    phone.start_app("com.starebrain.bank")
    field = get(phone, rid="password_input")
    assert field.attrs["password"] == "true" and field.attrs["text"] == "Password"
    phone.set_text(field, "hunter2")
    field = get(phone, rid="password_input")
    assert field.attrs["text"] == "\u2022" * 7 and "hunter2" not in phone.hierarchy_xml()


def test_empty_fields_report_their_hint_as_text_like_android() -> None:
    phone = build_phone()
    phone.start_app("com.google.android.gm")
    tap(phone, text="Compose")
    subject = get(phone, rid="subject")
    assert (subject.attrs["text"], subject.attrs["hint"]) == ("Subject", "Subject")


def test_max_depth_cuts_the_tree() -> None:
    phone = build_phone()
    shallow = etree.fromstring(phone.hierarchy_xml(max_depth=2).encode("utf-8"))
    assert max(len(list(n.iterancestors())) for n in shallow.iter("node")) == 2


def test_root_is_a_synthetic_node_over_the_window_roots() -> None:
    phone = build_phone()
    root = phone.root()
    assert root.attrs == {} and [w.attrs["package"] for w in root.children] == [
        "com.android.systemui", "com.android.launcher3"]
    assert all(w.parent is root for w in root.children)
