"""A deterministic token estimate, used on both sides of every prompt-size comparison.

tiktoken is not a dependency; an exact count is not the point. Words and punctuation marks each
count as one token, and long words count once per 4 characters, which tracks BPE tokenizers
closely enough to compare two prompts built from the same kind of text.
"""

from __future__ import annotations

import re
from typing import Any

_PIECE = re.compile(r"\w+|[^\w\s]", re.UNICODE)


def estimate_tokens(text: str) -> int:
    """Estimated tokens in `text` (0 for empty text)."""
    return sum(max(1, (len(p) + 3) // 4) for p in _PIECE.findall(text))


IMAGE_TOKENS = 765  # what OpenAI bills one high-detail image of a phone screen (a 512 px tile grid)


def estimate_messages_tokens(messages: list[dict[str, Any]]) -> int:
    """Estimated prompt tokens of chat messages: content (text parts, a fixed cost per image) plus a small
    per-message overhead."""
    return sum(4 + _content_tokens(m.get("content", "")) for m in messages)


def _content_tokens(content: Any) -> int:
    if not isinstance(content, list):
        return estimate_tokens(str(content))
    return sum(IMAGE_TOKENS if isinstance(p, dict) and p.get("type") == "image_url"
               else estimate_tokens(str(p.get("text", "") if isinstance(p, dict) else p)) for p in content)
