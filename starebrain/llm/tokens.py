"""A deterministic token estimate, used on both sides of every prompt-size comparison.

tiktoken is not a dependency; an exact count is not the point. Words and punctuation marks each
count as one token, and long words count once per 4 characters, which tracks BPE tokenizers
closely enough to compare two prompts built from the same kind of text.
"""

from __future__ import annotations

import re

_PIECE = re.compile(r"\w+|[^\w\s]", re.UNICODE)


def estimate_tokens(text: str) -> int:
    """Estimated tokens in `text` (0 for empty text)."""
    return sum(max(1, (len(p) + 3) // 4) for p in _PIECE.findall(text))


def estimate_messages_tokens(messages: list[dict[str, str]]) -> int:
    """Estimated prompt tokens of chat messages: content plus a small per-message overhead."""
    return sum(4 + estimate_tokens(str(m.get("content", ""))) for m in messages)
