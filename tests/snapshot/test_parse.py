from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from starebrain.errors import DeviceError, HierarchyInvalid
from starebrain.models import Selector
from starebrain.snapshot import Bounds, ScreenSnapshot
from tests.snapshot.dumps import dump, hierarchy, index, node


@pytest.mark.parametrize("d", index(), ids=lambda d: d.file[:3])
def test_every_real_dump_parses_to_the_indexed_node_count(d):
    snap = ScreenSnapshot.from_xml(d.data)
    assert len(snap.nodes) == d.node_count
    assert snap.foreground_package


def test_utf16_file_that_claims_utf8_is_read():
    snap = ScreenSnapshot.from_xml(dump("044").data)
    assert snap.foreground_package == "com.syncstone.app"
    assert any("SyncStone" in t for t in snap.visible_texts)


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be"])
def test_utf16_without_a_byte_order_mark_is_read(encoding):
    text = dump("044").data.decode("utf-16")
    assert len(ScreenSnapshot.from_xml(text.encode(encoding)).nodes) == 20


def test_very_deep_nesting_does_not_overflow():
    xml = "<hierarchy>" + '<node text="d" bounds="[0,0][9,9]">' * 3000 + "</node>" * 3000 + "</hierarchy>"
    snap = ScreenSnapshot.from_xml(xml)
    assert len(snap.descendants(snap.nodes[0])) == len(snap.nodes) - 1
    assert snap.interactables == [] and snap.hash


def test_text_given_as_str_parses_like_bytes():
    raw = dump("040").data
    assert len(ScreenSnapshot.from_xml(raw.decode("utf-8")).nodes) == len(ScreenSnapshot.from_xml(raw).nodes)


def test_doubled_cr_line_endings_parse():
    snap = ScreenSnapshot.from_xml(dump("030").data)
    assert snap.foreground_package == "com.miui.notes"


def test_entities_and_non_ascii_text_are_decoded():
    zh = ScreenSnapshot.from_xml(dump("024").data)
    message = zh.resolve(Selector(resource_id="android:id/message"))
    assert message is not None and "\n" in message.text and "批量交易失败" in message.text
    pt = ScreenSnapshot.from_xml(dump("040").data)
    # The emoji arrives as the entity &#128516;; the file also double-escapes newlines (&amp;#10;),
    # which is literal text the app showed, so it stays as it is.
    assert any("\U0001f604" in t for t in pt.visible_texts)


def test_zero_size_nodes_are_not_visible():
    snap = ScreenSnapshot.from_xml(dump("032").data)
    zero = [n for n in snap.nodes if n.bounds == Bounds(0, 0, 0, 0)]
    assert zero and not any(n.visible for n in zero)


def test_rotation_and_naf_are_kept():
    assert ScreenSnapshot.from_xml(dump("036").data).rotation == 1
    snap = ScreenSnapshot.from_xml(dump("018").data)
    jdpay = snap.resolve(Selector(resource_id="jdpay"))
    assert jdpay is not None and jdpay.naf


def test_missing_attributes_get_safe_defaults():
    snap = ScreenSnapshot.from_xml('<hierarchy><node text="Hello"><node bounds="[0,0][5,5]"/></node></hierarchy>')
    root, child = snap.nodes
    assert root.text == "Hello" and root.enabled and not root.clickable and not root.visible
    assert child.visible and child.parent == root.order and child.window_index == 0


def test_package_is_inherited_when_a_child_omits_it():
    xml = '<hierarchy><node package="com.a" bounds="[0,0][9,9]"><node text="x" bounds="[0,0][5,5]"/></node></hierarchy>'
    assert ScreenSnapshot.from_xml(xml).nodes[1].package == "com.a"


def test_empty_hierarchy_is_a_screen_with_nothing_on_it():
    empty = "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>\r\n<hierarchy rotation=\"0\" />"
    snap = ScreenSnapshot.from_xml(empty)
    assert snap.nodes == () and snap.foreground_package == "" and snap.visible_texts == []


@pytest.mark.parametrize("garbage", [b"", b"   ", b"not xml at all", b"\x89PNG\r\n\x1a\n\x00\x00",
                                     "<html><body>502 Bad Gateway</body></html>", b"{\"jsonrpc\": \"2.0\"}"])
def test_garbage_raises_a_device_error_that_says_so(garbage):
    with pytest.raises(HierarchyInvalid, match="not"):
        ScreenSnapshot.from_xml(garbage)
    assert issubclass(HierarchyInvalid, DeviceError)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300) | st.text(max_size=300))
def test_anything_either_parses_or_raises_hierarchy_invalid(blob):
    try:
        ScreenSnapshot.from_xml(blob)
    except HierarchyInvalid:
        pass


def test_truncated_dump_is_recovered():
    raw = dump("018").data
    snap = ScreenSnapshot.from_xml(raw[: len(raw) // 2])
    assert 10 < len(snap.nodes) < 192


def test_a_3000_node_dump_parses_and_resolves():
    rows = "".join(node(f"Row {i}", bounds=f"[0,{i}][1080,{i + 1}]", clickable=True) for i in range(3000))
    xml = hierarchy(node(cls="android.widget.FrameLayout", bounds="[0,0][1080,3000]", children=rows))
    snap = ScreenSnapshot.from_xml(xml)
    assert len(snap.nodes) == 3001
    assert snap.resolve(Selector(text="Row 2999")) is not None


_TTY_DUMP = ('<?xml version=\'1.0\' encoding=\'UTF-8\' standalone=\'yes\' ?><hierarchy rotation="0">'
             '<node index="0" text="Developer options" class="android.widget.TextView" package="com.android.settings" '
             'bounds="[0,0][1080,200]" /></hierarchy>')


@pytest.mark.parametrize("before", [
    "UI hierchary dumped to: /sdcard/ui_command.xml\r\n",  # the tool's stdout captured into the same file
    # An OEM framework's warning printed before the command runs (MIUI), then the dump and the tool's trailer.
    "java.io.FileNotFoundException: /data/system/theme_config/theme_compatibility.xml: open failed: ENOENT\n"
    "\tat libcore.io.IoBridge.open(IoBridge.java:574)\n\tat miui.content.res.ThemeCompatibilityLoader.getVersion"
    "(ThemeCompatibilityLoader.java:108)\n",
])
@pytest.mark.parametrize("encoding", ["utf-8", "utf-16"])
def test_console_output_before_a_dump_is_skipped(before, encoding):
    raw = (before + _TTY_DUMP + "UI hierchary dumped to: /dev/tty\r\n").encode(encoding)
    snap = ScreenSnapshot.from_xml(raw)
    assert [n.text for n in snap.nodes] == ["Developer options"]


def test_console_output_without_a_dump_is_still_no_hierarchy():
    with pytest.raises(HierarchyInvalid, match="not"):
        ScreenSnapshot.from_xml(b"ERROR: null root node returned by UiTestAutomationBridge.\n")
