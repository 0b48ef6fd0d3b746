"""`OpenAIPlanner`: plans, groundings and replans from any OpenAI-compatible endpoint.

The only planner module that imports openai. The client is injected; we turn its own retries off
and retry here, so that every attempt becomes an `LlmCall` record (reports show retries).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

import openai
from pydantic import BaseModel

from starebrain.errors import LlmError, LlmUnavailable, PlanInvalid
from starebrain.llm import prompts
from starebrain.llm.base import (
    GroundResult,
    LocateResult,
    PlanningContext,
    PlanResult,
    ReplanRequest,
    attach_calls,
)
from starebrain.llm.llm_errors import SchemaRejected, classify, one_line, retry_after_s
from starebrain.llm.schema import (
    AnswerInvalid,
    GroundAnswer,
    LocateAnswer,
    PlanAnswer,
    check_packages,
    parse_answer,
    response_format_for,
    strict_schema,
    to_agent_steps,
)
from starebrain.llm.tokens import estimate_messages_tokens, estimate_tokens
from starebrain.models import AgentStep, LlmCall, LlmPurpose
from starebrain.redaction import Scrubber

A = TypeVar("A", bound=BaseModel)
Messages = list[dict[str, Any]]
BuildMessages = Callable[[dict[str, Any] | None], Messages]

MAX_ECHOED_CHARS = 4000  # of a rejected answer, quoted back in the repair request
# Words of an endpoint's error when the model takes no image input ("image_url is only supported by certain
# models", "this model does not support vision", "multimodal input is not enabled").
_NO_IMAGE_WORDS = ("image", "vision", "multimodal", "multi-modal")
REPAIR_TEMPLATE = ("Your previous answer was rejected: {error}\n"
                   "Answer again with one corrected JSON object only, following the same rules.")


@dataclass(frozen=True)
class RetryPolicy:
    """Bounded retries of one request on timeouts, connection errors, 429 and 5xx."""

    attempts: int = 3  # total tries of one request, first included
    backoff_s: float = 0.5  # doubled after each failed try
    max_backoff_s: float = 8.0  # also caps a server's Retry-After

    def __post_init__(self) -> None:
        if self.attempts < 1 or self.backoff_s < 0 or self.max_backoff_s < 0:
            raise ValueError("RetryPolicy needs attempts >= 1 and non-negative delays")

    def delay(self, attempt: int, retry_after: float | None) -> float:
        """Seconds to wait after failed try number `attempt` (1-based)."""
        wanted = retry_after if retry_after is not None else self.backoff_s * 2 ** (attempt - 1)
        return max(0.0, min(wanted, self.max_backoff_s))


class OpenAIPlanner:
    """A `Planner` over an injected `openai.OpenAI` client."""

    def __init__(
        self,
        client: openai.OpenAI,
        *,
        model: str,
        timeout_s: float = 30.0,
        retry: RetryPolicy | None = None,
        secrets: Scrubber | Mapping[str, str] | None = None,
        sleep: Callable[[float], None] = time.sleep,
        vision_model: str | None = None,
        vision: bool = True,
    ) -> None:
        self._client = client.with_options(max_retries=0, timeout=timeout_s)
        self.model = model
        self.timeout_s = timeout_s
        self.retry = retry or RetryPolicy()
        self._scrubber = prompts.as_scrubber(secrets)
        self._sleep = sleep
        self.structured_outputs = True  # flips to False once the server rejects json_schema
        self.vision_model = vision_model or model  # reads screenshots (locate)
        self.vision = vision

    def plan(self, instruction: str, context: PlanningContext) -> PlanResult:
        """The full step list for an instruction."""
        def check(answer: PlanAnswer) -> None:
            if not answer.steps:
                raise AnswerInvalid("steps: a plan needs at least one step")
            check_packages(answer, context.launchable_packages)

        answer, calls = self._ask(LlmPurpose.PLAN, lambda s: prompts.plan_messages(instruction, context, s),
                                  PlanAnswer, check)
        return PlanResult(steps=to_agent_steps(answer), explanation=answer.explanation, calls=calls)

    def replan(self, request: ReplanRequest) -> PlanResult:
        """Revised steps for the remainder, indexed from the failed step's position."""
        answer, calls = self._ask(LlmPurpose.REPLAN, lambda s: prompts.replan_messages(request, s), PlanAnswer,
                                  lambda a: check_packages(a, request.launchable_packages))
        start = len(request.completed_steps)
        return PlanResult(steps=to_agent_steps(answer, start), explanation=answer.explanation, calls=calls)

    def ground(self, step: AgentStep, screen_summary: str) -> GroundResult:
        """One element on this screen for `step`, or none. The engine still resolves it on the snapshot."""
        answer, calls = self._ask(LlmPurpose.GROUND, lambda s: prompts.ground_messages(step, screen_summary, s),
                                  GroundAnswer, lambda a: None)
        return GroundResult(selector=answer.selector, reason=answer.reason, calls=calls)

    def locate(self, step: AgentStep, screenshot_jpeg: bytes, screen_facts: str) -> LocateResult:
        """Where on the screenshot `step`'s element is (percent of the image), from the vision model.

        LlmUnavailable, naming the settings, when vision is off or the endpoint refuses image input."""
        if not self.vision:
            raise LlmUnavailable("this screen has no usable hierarchy and reading its screenshot is off (vision = "
                                 "false); set vision_model (STAREBRAIN_VISION_MODEL) to a model with image input "
                                 "and vision = true (STAREBRAIN_VISION)")
        try:
            answer, calls = self._ask(LlmPurpose.LOCATE, lambda s: prompts.locate_messages(
                step, screenshot_jpeg, screen_facts, s), LocateAnswer, lambda a: None)
        except LlmError as exc:
            if not any(w in str(exc).lower() for w in _NO_IMAGE_WORDS):
                raise
            error = LlmUnavailable(one_line(
                f"the model {self.vision_model} does not take screenshots (the endpoint said: {exc}); set "
                f"vision_model (STAREBRAIN_VISION_MODEL) to a model with image input, or vision = false", 400))
            raise attach_calls(error, getattr(exc, "llm_calls", [])) from exc
        return LocateResult(point=answer.point, reason=answer.reason, calls=calls)

    def close(self) -> None:
        """Release the HTTP connections of the underlying client."""
        self._client.close()

    def _ask(self, purpose: LlmPurpose, build: BuildMessages, model: type[A],
             check: Callable[[A], None]) -> tuple[A, list[LlmCall]]:
        calls: list[LlmCall] = []
        try:
            return self._ask_with_repair(purpose, build, model, check, calls), calls
        except LlmError as exc:
            attach_calls(exc, calls)
            raise

    def _ask_with_repair(self, purpose: LlmPurpose, build: BuildMessages, model: type[A],
                         check: Callable[[A], None], calls: list[LlmCall]) -> A:
        content = self._exchange(purpose, build, model, calls)
        try:
            return _validated(model, content, check)
        except AnswerInvalid as first:
            calls[-1].outcome = one_line(f"invalid: {first}")
            repair = [{"role": "assistant", "content": (content or "")[:MAX_ECHOED_CHARS]},
                      {"role": "user", "content": REPAIR_TEMPLATE.format(error=first)}]
            content = self._exchange(purpose, build, model, calls, extra=repair)
        try:
            answer = _validated(model, content, check)
        except AnswerInvalid as second:
            calls[-1].outcome = one_line(f"invalid: {second}")
            message = one_line(f"LLM {purpose.value} answer invalid after one repair: {second}", 500)
            raise PlanInvalid(message) from second
        calls[-1].outcome = "repaired"
        return answer

    def _exchange(self, purpose: LlmPurpose, build: BuildMessages, model: type[A], calls: list[LlmCall],
                  extra: Messages | None = None) -> str | None:
        """Send (with retries); on a json_schema rejection, switch to JSON mode once and resend."""
        try:
            return self._send(purpose, self._messages(build, model, extra), model, calls)
        except SchemaRejected:
            self.structured_outputs = False
            return self._send(purpose, self._messages(build, model, extra), model, calls)

    def _messages(self, build: BuildMessages, model: type[A], extra: Messages | None) -> Messages:
        schema = None if self.structured_outputs else strict_schema(model)
        messages = build(schema) + list(extra or [])
        return [{"role": m["role"], "content": self._scrubbed(m["content"])} for m in messages]

    def _scrubbed(self, content: str | list[dict[str, Any]]) -> str | list[dict[str, Any]]:
        """Secrets out of a message's text (of each text part of a message with an image)."""
        if isinstance(content, str):
            return self._scrubber.text(content)
        return [{**part, "text": self._scrubber.text(part["text"])} if part.get("type") == "text" else part
                for part in content]

    def _send(self, purpose: LlmPurpose, messages: Messages, model: type[A], calls: list[LlmCall]) -> str | None:
        fmt = response_format_for(model) if self.structured_outputs else {"type": "json_object"}
        for attempt in range(1, self.retry.attempts + 1):
            started = time.monotonic()
            try:
                completion = self._client.chat.completions.create(  # type: ignore[call-overload]
                    model=self._model_for(purpose), messages=messages, response_format=fmt,
                    extra_headers={prompts.PURPOSE_HEADER: purpose.value})
            except openai.OpenAIError as exc:
                self._on_failure(exc, purpose, calls, attempt, started)
                continue
            calls.append(self._record(purpose, completion, messages, started))
            return _content_of(completion)
        raise AssertionError("unreachable: the last failed attempt raises")  # pragma: no cover

    def _on_failure(self, exc: openai.OpenAIError, purpose: LlmPurpose, calls: list[LlmCall],
                    attempt: int, started: float) -> None:
        """Record the failed try; sleep before the next one, or raise the translated error."""
        verdict = classify(exc, structured=self.structured_outputs, timeout_s=self.timeout_s,
                           base_url=str(self._client.base_url))
        last = attempt >= self.retry.attempts or not verdict.retryable
        prefix = "fallback: " if verdict.schema_rejected else "error: " if last else "retried: "
        calls.append(LlmCall(purpose=purpose, model=self._model_for(purpose), latency_ms=_ms_since(started),
                             outcome=prefix + verdict.label))
        if verdict.schema_rejected:
            raise SchemaRejected(verdict.label) from exc
        if last:
            raise verdict.error(attempt) from exc
        self._sleep(self.retry.delay(attempt, retry_after_s(exc)))

    def _model_for(self, purpose: LlmPurpose) -> str:
        return self.vision_model if purpose is LlmPurpose.LOCATE else self.model

    def _record(self, purpose: LlmPurpose, completion: Any, messages: Messages, started: float) -> LlmCall:
        usage = getattr(completion, "usage", None)
        content = _content_of(completion) or ""
        return LlmCall(
            purpose=purpose, model=getattr(completion, "model", None) or self._model_for(purpose),
            prompt_tokens=usage.prompt_tokens if usage else estimate_messages_tokens(messages),
            completion_tokens=usage.completion_tokens if usage else estimate_tokens(content),
            latency_ms=_ms_since(started), outcome="ok")


def _validated(model: type[A], content: str | None, check: Callable[[A], None]) -> A:
    answer = parse_answer(model, content)
    check(answer)
    return answer


def _content_of(completion: Any) -> str | None:
    if not completion.choices:
        return None
    message = completion.choices[0].message
    if getattr(message, "refusal", None):
        return None  # parsed as "empty reply", then repaired once
    content: str | None = message.content
    return content


def _ms_since(started: float) -> float:
    return round((time.monotonic() - started) * 1000, 1)
