"""`Scrubber`: every known secret value out of what StareBrain sends, stores or shows.

Built once from the `SecretStore` and handed to whatever writes or sends text: prompts, observations
(so summaries, context and events never see a value), saved hierarchies, event payloads and
cassettes. A value is replaced by its `{secret:NAME}` reference, in its raw form and in the escaped
forms XML and JSON give it, so it cannot survive in a dump or a JSON file either. Password fields
(`password="true"`) are blanked in saved hierarchies whatever they hold.
"""

from __future__ import annotations

import dataclasses
import html
import json
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from starebrain.device.base import Observation
    from starebrain.executor.secrets import SecretStore

MASK = "•••"
# A one- or two-character "secret" would blank out ordinary words and numbers everywhere.
MIN_SECRET_CHARS = 3
_NODE = re.compile(r'<node\b(?:[^<>"]|"[^"]*")*>')  # one start tag; quoted values may hold `>`
_PASSWORD = re.compile(r'\spassword="true"')
_BOUNDS = re.compile(r'\sbounds="\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]"')
_SHOWN_SECRET = re.compile(r'\s(?:text|content-desc)="[^"]*\{secret:')
_TEXT = re.compile(r'(\stext=")[^"]*(")')


def _forms(value: str) -> set[str]:
    """The value as it may appear: raw, XML-escaped (Android dumps, lxml) and JSON-escaped."""
    xml = html.escape(value, quote=False)
    return {value, xml, xml.replace('"', "&quot;"), html.escape(value, quote=True),
            xml.replace('"', "&quot;").replace("'", "&apos;"),
            json.dumps(value)[1:-1], json.dumps(value, ensure_ascii=False)[1:-1]}


class Scrubber:
    """Replaces known secret values by `{secret:NAME}`; holds the values, never shows them."""

    def __init__(self, secrets: Mapping[str, str] | None = None) -> None:
        pairs = {(form, "{secret:" + name + "}")
                 for name, value in (secrets or {}).items() if len(value) >= MIN_SECRET_CHARS
                 for form in _forms(value)}
        self._pairs = sorted(pairs, key=lambda p: (-len(p[0]), p))  # longest first: no partial overlap

    @classmethod
    def from_store(cls, store: SecretStore) -> Scrubber:
        """A scrubber for every secret the store can resolve."""
        return cls(store.known())

    def __bool__(self) -> bool:
        return bool(self._pairs)

    def __repr__(self) -> str:
        return f"Scrubber({len(self._pairs)} forms)"  # never the values

    def text(self, text: str) -> str:
        """`text` with every secret value replaced by its reference."""
        for form, ref in self._pairs:
            if form in text:
                text = text.replace(form, ref)
        return text

    def data(self, value: Any) -> Any:
        """A JSON-like value (dicts, lists, strings, numbers) with every string scrubbed."""
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, dict):
            return {self.data(k): self.data(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return type(value)(self.data(v) for v in value)
        return value

    def leaks(self, blob: bytes | str) -> bool:
        """Whether `blob` still holds a secret value (in any form we know)."""
        text = blob.decode("utf-8", "replace") if isinstance(blob, bytes) else blob
        return any(form in text for form, _ in self._pairs)

    def hierarchy(self, xml: str) -> str:
        """A dump fit to save: secrets scrubbed, and the text of every password field masked."""
        return _mask_passwords(self.text(xml))

    def observation(self, obs: Observation) -> Observation:
        """The observation with its hierarchy scrubbed (the same object when nothing changes)."""
        if not self._pairs:
            return obs
        xml = self.text(obs.hierarchy_xml)
        return obs if xml == obs.hierarchy_xml else dataclasses.replace(obs, hierarchy_xml=xml)


def secret_boxes(xml: str) -> list[tuple[int, int, int, int]]:
    """Bounds (x1, y1, x2, y2) of every node of a scrubbed dump whose text or description held a secret."""
    boxes = []
    for match in _NODE.finditer(xml):
        tag = match.group(0)
        bounds = _BOUNDS.search(tag)
        if bounds and _SHOWN_SECRET.search(tag):
            x1, y1, x2, y2 = map(int, bounds.groups())
            boxes.append((x1, y1, x2, y2))
    return boxes


def _mask_passwords(xml: str) -> str:
    def mask(match: re.Match[str]) -> str:
        tag = match.group(0)
        return _TEXT.sub(lambda m: m.group(1) + MASK + m.group(2), tag) if _PASSWORD.search(tag) else tag

    return _NODE.sub(mask, xml)
