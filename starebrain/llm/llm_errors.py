"""Translate openai client errors into StareBrain's: retry or not, and one clear line for the person."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import openai

from starebrain.errors import LlmError, LlmTimeout, LlmUnavailable

_RETRYABLE_STATUS = {408, 409, 429}


class SchemaRejected(Exception):
    """The endpoint does not accept `response_format: json_schema`; the planner falls back to JSON mode."""


@dataclass(frozen=True)
class Verdict:
    """What to do about one failed request."""

    retryable: bool
    label: str  # short, for LlmCall.outcome
    error: Callable[[int], LlmError]  # builds the error to raise after `attempts` tries
    schema_rejected: bool = False


def classify(exc: openai.OpenAIError, *, structured: bool, timeout_s: float, base_url: str) -> Verdict:
    """Decide about one error raised by the openai client."""
    if isinstance(exc, openai.APITimeoutError):
        return Verdict(True, "timeout", lambda n: LlmTimeout(
            f"LLM endpoint {base_url} did not answer within {timeout_s:g}s ({_tries(n)})"))
    if isinstance(exc, openai.APIConnectionError):
        return Verdict(True, "connection error", lambda n: LlmUnavailable(
            f"cannot reach LLM endpoint {base_url} ({_tries(n)}): {one_line(exc.__cause__ or exc)}"))
    if isinstance(exc, openai.APIStatusError):
        return _classify_status(exc, structured=structured, base_url=base_url)
    return Verdict(False, type(exc).__name__, lambda n: LlmUnavailable(f"LLM client error: {one_line(exc)}"))


def _classify_status(exc: openai.APIStatusError, *, structured: bool, base_url: str) -> Verdict:
    status = exc.status_code
    message = _message(exc)
    if status == 400 and structured and _mentions_response_format(message):
        return Verdict(False, "json_schema rejected", lambda n: LlmUnavailable(message), schema_rejected=True)
    retryable = status in _RETRYABLE_STATUS or status >= 500
    label = f"http {status}"

    def build(n: int) -> LlmError:
        if status in (401, 403):
            return LlmUnavailable(f"LLM endpoint {base_url} refused our credentials ({status}): "
                                  "check OPENAI_API_KEY")
        if status == 404:
            return LlmUnavailable(f"LLM endpoint {base_url} has no such model or route (404): {message}")
        tries = f", {_tries(n)}" if retryable else ""
        return LlmUnavailable(f"LLM endpoint {base_url} answered {status}{tries}: {message}")

    return Verdict(retryable, label, build)


def retry_after_s(exc: openai.OpenAIError) -> float | None:
    """The server's Retry-After (or retry-after-ms) in seconds, if it sent one."""
    response = getattr(exc, "response", None)
    if response is None:
        return None
    headers = response.headers
    for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        if name in headers:
            try:
                return float(headers[name]) * scale
            except ValueError:
                continue  # an HTTP-date Retry-After: fall back to our own backoff
    return None


def _message(exc: openai.APIStatusError) -> str:
    body = exc.body
    if isinstance(body, dict):
        inner = body.get("error", body)
        if isinstance(inner, dict) and inner.get("message"):
            return one_line(inner["message"])
    return one_line(exc.message)


def _mentions_response_format(message: str) -> bool:
    text = message.lower()
    return "response_format" in text or "json_schema" in text or "structured output" in text


def one_line(text: object, limit: int = 300) -> str:
    """`text` with whitespace runs (newlines included) collapsed, cut at `limit` characters."""
    flat = " ".join(str(text).split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _tries(n: int) -> str:
    return f"{n} attempt{'s' if n != 1 else ''}"
