"""Turn hierarchy bytes from any phone or tool into text an XML parser accepts."""

from __future__ import annotations

import codecs
import re

_DECLARATION = re.compile(r"^\s*<\?xml[^>]*\?>", re.IGNORECASE)
# Where a dump starts when console output came before it in the same capture.
_DUMP_START = re.compile(r"<\?xml|<hierarchy[\s>/]", re.IGNORECASE)
# Characters XML 1.0 forbids; some OEM dumps carry them raw inside text attributes.
_ILLEGAL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
_CONTROL_BYTES = bytes([*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20)])
_BOMS = (
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


def sniff_encoding(data: bytes) -> str:
    """The encoding the bytes really use, whatever their XML declaration claims."""
    for bom, name in _BOMS:
        if data.startswith(bom):
            return name
    head = data[:200]
    # A BOM-less UTF-16 file (e.g. a PowerShell redirect with the BOM stripped) has NULs in
    # every other byte of its ASCII prefix.
    if len(head) >= 4 and head[1::2].count(0) > len(head) // 4:
        return "utf-16-le"
    if len(head) >= 4 and head[0::2].count(0) > len(head) // 4:
        return "utf-16-be"
    return "utf-8"


def to_text(xml: str | bytes) -> str:
    """Decoded, declaration-free text with forbidden control characters removed."""
    if isinstance(xml, bytes):
        encoding = sniff_encoding(xml)
        text = xml.decode(encoding, errors="replace")
        # UTF-8 bytes below 0x80 are only ever ASCII characters, so deleting the control bytes tells in one
        # fast pass whether the text holds any (almost no dump does); the regex runs only when it may.
        plain = encoding.startswith("utf-8") and len(xml.translate(None, _CONTROL_BYTES)) == len(xml)
    else:
        text = xml
        plain = False
    text = _after_console_output(text.lstrip("\ufeff"))
    text = _DECLARATION.sub("", text, count=1)
    if plain and "\ufffe" not in text and "\uffff" not in text:
        return text
    return _ILLEGAL.sub("", text)


def _after_console_output(text: str) -> str:
    """The text from the dump's start on, when console output precedes it.

    A dump captured from the `uiautomator` tool's output rather than read from its file carries what the tool
    printed first: its own "UI hierchary dumped to: /sdcard/..." line when stdout and the file went to one
    place, or a framework warning an OEM build prints before the command runs (MIUI's
    `ThemeCompatibilityLoader` stack trace). Text that starts with a tag is left as it is.
    """
    if text.lstrip().startswith("<"):
        return text  # every plain dump: one check
    found = _DUMP_START.search(text)
    return text[found.start():] if found is not None else text
