"""Maestro's text matching: a regular expression against an element's whole text, description or hint.

Maestro compiles every `text:` with IGNORE_CASE, DOT_MATCHES_ALL and MULTILINE and accepts an element
when the expression matches its whole text (also with line breaks read as spaces), or when the text is
the expression written out. A selector is a field of the engine's `Selector` model, which has no regex,
so a flow resolves the expression on the screen just before the step runs: the step that is recorded,
confirmed and reported names the element that was found (`text="Send"`), never the expression.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from starebrain.models import Selector
from starebrain.snapshot.node import Node
from starebrain.snapshot.resolve import matches
from starebrain.snapshot.snapshot import ScreenSnapshot

FLAGS = re.IGNORECASE | re.DOTALL | re.MULTILINE
_META = frozenset(".^$*+?()[]{}|\\")


def is_literal(text: str) -> bool:
    """True when `text` has no regex syntax, so matching it is plain text equality."""
    return not _META & set(text)


@lru_cache(maxsize=256)
def _compiled(regex: str) -> re.Pattern[str] | None:
    try:
        return re.compile(regex, FLAGS)
    except re.error:  # Maestro escapes an invalid expression and matches it as plain text
        return None


@dataclass(frozen=True)
class TextPattern:
    """A text regex, optionally with the element's resource id and an index among the matches."""

    regex: str
    resource_id: str | None = None
    index: int | None = None

    def matches_text(self, value: str) -> bool:
        """Maestro's rule for one text: a whole match, or the expression written out."""
        if not value:
            return False
        compiled = _compiled(self.regex)
        for candidate in (value, value.replace("\n", " ")):
            if candidate == self.regex or (compiled is not None and compiled.fullmatch(candidate)):
                return True
        return False

    def matches(self, node: Node) -> bool:
        """True when the node's text, description or hint matches (and its id, when one is given)."""
        if self.resource_id is not None and not matches(node, Selector(resource_id=self.resource_id)):
            return False
        return any(self.matches_text(v) for v in (node.text, node.content_desc, node.hint))

    def find(self, snap: ScreenSnapshot) -> Node | None:
        """The `index`-th matching node: those in plain sight when any is, else visible ones, else all."""
        found = [n for n in snap.nodes if self.matches(n)]
        shown = [n for n in found if n.visible]
        on_top = [n for n in shown if snap.in_sight(n)] if len(shown) > 1 else []
        pool = on_top or shown or found
        i = self.index or 0
        return pool[i] if i < len(pool) else None

    def selector_for(self, snap: ScreenSnapshot, node: Node) -> Selector:
        """A plain selector that names `node` on this screen (its text, else description, else id)."""
        fields: dict[str, str] = {}
        if self.matches_text(node.text):
            fields["text"] = node.text
        elif self.matches_text(node.content_desc):
            fields["content_desc"] = node.content_desc
        if node.resource_id:
            fields["resource_id"] = node.resource_id
        if not fields:  # only the hint matched and the field has no id
            fields["class_name"] = node.class_name
        plain = Selector.model_validate(fields)
        same = [n.order for n in snap.resolve_all(plain)]
        at = same.index(node.order) if node.order in same else 0
        return plain if at == 0 else plain.model_copy(update={"index": at})

    def accepts(self, selector: Selector) -> bool:
        """True when a recorded selector could have come from this pattern (a resumed flow checks it)."""
        if self.resource_id is not None and selector.resource_id is None:
            return False
        return any(self.matches_text(v or "") for v in (selector.text, selector.content_desc)) or \
            (selector.text is None and selector.content_desc is None)

    def placeholder(self) -> Selector:
        """The selector shown before the screen is read (the expression as text)."""
        return Selector(text=self.regex, resource_id=self.resource_id, index=self.index)

    def describe(self) -> str:
        """Short human form, e.g. `text~/Sen.*/ #1`."""
        parts = [f"text~/{self.regex}/"]
        if self.resource_id is not None:
            parts.append(f'resource_id="{self.resource_id}"')
        if self.index is not None:
            parts.append(f"#{self.index}")
        return " ".join(parts)
