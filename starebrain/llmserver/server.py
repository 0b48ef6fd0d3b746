"""`ScriptedLlmServer`: an OpenAI-compatible chat completions server on loopback that follows a script.

Tests and the demo point the real openai client at it. It answers `POST /v1/chat/completions`
and `GET /v1/models` with real OpenAI response shapes, and logs every request it receives.
"""

from __future__ import annotations

import json
import re
import threading
import time
import uuid
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import TracebackType
from typing import Any

from starebrain.llm.prompts import PURPOSE_HEADER
from starebrain.llm.tokens import estimate_messages_tokens, estimate_tokens
from starebrain.llmserver.script import Entry, Script, content_text, load_script

_PURPOSE_LINE = re.compile(r"^purpose: (plan|ground|replan|locate)\s*$", re.MULTILINE)
NO_VISION = "Invalid content type. image_url is only supported by certain models."
LOOPBACK = "127.0.0.1"


@dataclass
class ReceivedRequest:
    """One request as the server saw it."""

    number: int
    method: str
    path: str
    purpose: str | None
    body: dict[str, Any]
    raw: str
    headers: dict[str, str]
    fault: str | None = None
    response_format: str | None = None

    @property
    def messages(self) -> list[dict[str, Any]]:
        return list(self.body.get("messages", []))

    def message_text(self, role: str | None = None) -> str:
        """All message contents (of one role, if given), joined; of a message with parts, its text parts."""
        return "\n".join(_text_of(m.get("content", "")) for m in self.messages if role in (None, m.get("role")))

    @property
    def images(self) -> list[str]:
        """The `image_url` URLs of every message part (data: URLs as the client sent them). The server never
        looks inside them: what it answers is what the script says."""
        return [p["image_url"]["url"] for m in self.messages if isinstance(m.get("content"), list)
                for p in m["content"] if isinstance(p, dict) and p.get("type") == "image_url"]


@dataclass
class _State:
    script: Script
    queues: dict[str, deque[Entry]] = field(default_factory=dict)
    log: list[ReceivedRequest] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    stop: threading.Event = field(default_factory=threading.Event)

    def __post_init__(self) -> None:
        for entry in self.script.entries:
            for _ in range(entry.repeat):
                self.queues.setdefault(entry.purpose, deque()).append(entry)


class ScriptedLlmServer:
    """Serve `script` on 127.0.0.1 (free port by default) in a background thread."""

    def __init__(self, script: Script | dict[str, Any] | list[Any] | str | Path, *, port: int = 0) -> None:
        self.script = load_script(script)
        self._state = _State(self.script)
        self._port = port
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> ScriptedLlmServer:
        """Bind and start serving."""
        httpd = ThreadingHTTPServer((LOOPBACK, self._port), _Handler)
        httpd.daemon_threads = True
        httpd.state = self._state  # type: ignore[attr-defined]
        self._httpd = httpd
        self._thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05},
                                        name="scripted-llm-server", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving; delayed answers in flight are abandoned at once."""
        self._state.stop.set()
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._httpd = self._thread = None

    def __enter__(self) -> ScriptedLlmServer:
        return self.start()

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()

    @property
    def port(self) -> int:
        if self._httpd is None:
            raise RuntimeError("the scripted LLM server is not running")
        return int(self._httpd.server_address[1])

    @property
    def base_url(self) -> str:
        """What to pass as the openai client's `base_url`."""
        return f"http://{LOOPBACK}:{self.port}/v1"

    @property
    def requests(self) -> list[ReceivedRequest]:
        """Every request received so far, in order."""
        with self._state.lock:
            return list(self._state.log)

    def requests_for(self, purpose: str) -> list[ReceivedRequest]:
        """Chat completion requests of one purpose."""
        return [r for r in self.requests if r.purpose == purpose]

    def count(self, purpose: str | None = None) -> int:
        """Number of chat completion requests (of one purpose, if given)."""
        return len([r for r in self.requests if r.path.endswith("/chat/completions")
                    and purpose in (None, r.purpose)])

    def remaining(self, purpose: str) -> int:
        """Scripted answers not yet served for `purpose`."""
        with self._state.lock:
            return len(self._state.queues.get(purpose, ()))


class _Handler(BaseHTTPRequestHandler):
    server_version = "StareBrainScriptedLLM/1"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib signature
        pass  # the request log is the record; stderr noise would drown test output

    @property
    def state(self) -> _State:
        return self.server.state  # type: ignore[attr-defined, no-any-return]

    def do_GET(self) -> None:  # noqa: N802 - stdlib naming
        self._log({}, "", None)
        if self.path.rstrip("/").endswith("/models"):
            model = {"id": self.state.script.model, "object": "model", "created": 0, "owned_by": "starebrain"}
            self._json(200, {"object": "list", "data": [model]})
        else:
            self._error(404, f"no route {self.path}", "not_found_error")

    def do_POST(self) -> None:  # noqa: N802 - stdlib naming
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0)).decode("utf-8", "replace")
        try:
            body = json.loads(raw or "{}")
        except json.JSONDecodeError:
            body = {}
        if not self.path.rstrip("/").endswith("/chat/completions"):
            self._log(body, raw, None)
            return self._error(404, f"no route {self.path}", "not_found_error")
        self._chat(body, raw)

    def _chat(self, body: dict[str, Any], raw: str) -> None:
        purpose = _purpose_of(self.headers.get(PURPOSE_HEADER), body)
        fmt = (body.get("response_format") or {}).get("type")
        if self.state.script.reject_json_schema and fmt == "json_schema":
            self._log(body, raw, purpose, fault="rejected json_schema")
            return self._error(400, "Invalid parameter: response_format of type 'json_schema' is not "
                                    "supported with this model.", "invalid_request_error", "response_format")
        if not self.state.script.vision and _has_image(body):
            self._log(body, raw, purpose, fault="no vision")
            return self._error(400, NO_VISION, "invalid_request_error", "messages")
        entry = self._next_entry(purpose)
        self._log(body, raw, purpose, fault=entry.fault.kind if entry and entry.fault else None)
        if entry is None:
            return self._error(400, f"scripted LLM server: no scripted answer left for purpose "
                                    f"{purpose!r}", "invalid_request_error")
        self._answer(entry, body)

    def _next_entry(self, purpose: str | None) -> Entry | None:
        with self.state.lock:
            queue = self.state.queues.get(purpose or "")
            return queue.popleft() if queue else None

    def _answer(self, entry: Entry, body: dict[str, Any]) -> None:
        fault = entry.fault
        if fault is not None and fault.kind == "delay":
            if self.state.stop.wait(fault.seconds):
                return  # shutting down: abandon the answer
        if fault is not None and fault.kind == "status":
            headers = {"Retry-After": f"{fault.retry_after:g}"} if fault.retry_after is not None else {}
            kind = "rate_limit_error" if fault.status == 429 else "server_error"
            return self._error(fault.status, fault.message or f"scripted {fault.status}", kind, headers=headers)
        self._json(200, completion_body(self.state.script.model, body, content_text(entry)))

    def _log(self, body: dict[str, Any], raw: str, purpose: str | None, *, fault: str | None = None) -> None:
        with self.state.lock:
            fmt = (body.get("response_format") or {}).get("type") if isinstance(body, dict) else None
            self.state.log.append(ReceivedRequest(
                number=len(self.state.log) + 1, method=self.command, path=self.path, purpose=purpose,
                body=body, raw=raw, headers={k.lower(): v for k, v in self.headers.items()}, fault=fault,
                response_format=fmt))

    def _error(self, status: int, message: str, kind: str, param: str | None = None,
               headers: dict[str, str] | None = None) -> None:
        payload = {"error": {"message": message, "type": kind, "param": param, "code": None}}
        self._json(status, payload, headers)

    def _json(self, status: int, payload: dict[str, Any], headers: dict[str, str] | None = None) -> None:
        data = json.dumps(payload).encode()
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client timed out and left; nothing to tell it


def _purpose_of(header: str | None, body: dict[str, Any]) -> str | None:
    """The purpose from our header, else from the `purpose:` line of the system prompt."""
    if header in ("plan", "ground", "replan", "locate"):
        return header
    for message in body.get("messages", []):
        if message.get("role") == "system":
            found = _PURPOSE_LINE.search(str(message.get("content", "")))
            if found:
                return found.group(1)
    return None


def _text_of(content: Any) -> str:
    if not isinstance(content, list):
        return str(content)
    return "\n".join(str(p.get("text", "")) for p in content if isinstance(p, dict) and p.get("type") == "text")


def _has_image(body: dict[str, Any]) -> bool:
    return any(isinstance(m.get("content"), list) and any(
        isinstance(p, dict) and p.get("type") == "image_url" for p in m["content"])
        for m in body.get("messages", []) if isinstance(m, dict))


def completion_body(model: str, request: dict[str, Any], content: str) -> dict[str, Any]:
    """A chat.completion object as OpenAI returns it."""
    prompt_tokens = estimate_messages_tokens(request.get("messages", []))
    completion_tokens = estimate_tokens(content)
    return {
        "id": f"chatcmpl-{uuid.uuid4().hex[:24]}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": request.get("model") or model,
        "choices": [{"index": 0, "finish_reason": "stop", "logprobs": None,
                     "message": {"role": "assistant", "content": content, "refusal": None}}],
        "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                  "total_tokens": prompt_tokens + completion_tokens},
    }
