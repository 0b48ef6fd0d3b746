from __future__ import annotations

import pytest

from starebrain.errors import HierarchyInvalid
from starebrain.snapshot.decode import to_text
from starebrain.snapshot.parse import NodeBuilder, iter_nodes, parse_root, read_nodes
from starebrain.snapshot.scan import scan
from tests.obstruction.corpus import entries


def _by_lxml(xml: str | bytes):
    root, rotation = parse_root(xml)
    return list(iter_nodes(root)), rotation


@pytest.mark.parametrize("entry", entries(), ids=lambda e: e.id)
def test_every_real_dump_takes_the_fast_reader_and_reads_the_same_as_lxml(entry):
    assert scan(to_text(entry.data), NodeBuilder().node) is not None
    assert read_nodes(entry.data) == _by_lxml(entry.data)


@pytest.mark.parametrize("xml", [
    '<hierarchy rotation="1"><node text="a&amp;b&#10;c&#x41;&lt;&quot;" bounds="[0,0][9,9]"/></hierarchy>',
    "<hierarchy><node text='x\ny\r\nz\tw' class=\"a\"><node/></node><node package='p'><node/></node></hierarchy>",
    '<hierarchy><!-- a comment --><node text="a&gt;b" /></hierarchy>  ',
    '<node package="p"><node bounds=" [ 1 , 2 ] [ 3 , 4 ] " clickable="TRUE "/></node>',
    '<hierarchy rotation="x"></hierarchy>',
    '<hierarchy><node text="a"/></hierarchy>UI hierchary dumped to: /dev/tty\n',  # `uiautomator dump /dev/tty`
    '<hierarchy><node/></hierarchy><node text="after the root"/>',
])
def test_well_formed_documents_read_the_same_both_ways(xml):
    assert scan(to_text(xml), NodeBuilder().node) is not None
    assert read_nodes(xml) == _by_lxml(xml)


@pytest.mark.parametrize("xml", [
    '<hierarchy><node text="&nbsp;"/></hierarchy>',  # an entity XML does not define
    '<hierarchy><node a="1" a="2"/></hierarchy>',  # a repeated attribute
    '<hierarchy><node text="a & b"/></hierarchy>',  # a bare ampersand
    '<hierarchy><node><node></hierarchy>',  # unclosed tags
    '<hierarchy><node xmlns:x="u" x:y="1"/></hierarchy>',  # namespaces
    '<hierarchy><node/><other><node/></other></hierarchy>',  # a tag uiautomator never writes
])
def test_anything_else_is_left_to_lxml_recovery_with_the_same_result(xml):
    assert scan(to_text(xml), NodeBuilder().node) is None
    assert read_nodes(xml) == _by_lxml(xml)


def test_a_document_that_is_not_a_hierarchy_is_refused_either_way():
    with pytest.raises(HierarchyInvalid):
        read_nodes("<html><body/></html>")


@pytest.mark.parametrize(("raw", "text"), [
    (b"<a b='x\x01y\x0bz'/>", "<a b='xyz'/>"),  # control characters XML forbids are dropped
    ("<a>\ufffe\uffff</a>".encode(), "<a></a>"),  # and the two non-characters
    (b"<a>\xe2\x01\x82</a>", "<a>\ufffd\ufffd</a>"),  # invalid UTF-8 around one: replaced, then dropped
    (b"\xef\xbb\xbf<?xml version='1.0'?><a/>", "<a/>"),  # BOM and declaration go too
    ("<a>\x01é</a>".encode("utf-16"), "<a>é</a>"),  # UTF-16 is cleaned after decoding
])
def test_decoding_drops_what_xml_forbids_however_the_bytes_come(raw, text):
    assert to_text(raw) == text
