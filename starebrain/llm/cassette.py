"""Record and replay LLM exchanges at the HTTP boundary, so CI runs are deterministic and free.

The openai client sends through an `httpx2.Client`; a custom transport is that library's documented
extension point. `RecordingTransport` forwards to the real endpoint and appends each exchange to a
cassette; `ReplayTransport` serves them back in order and never touches the network.

Cassette file (JSON)::

    {"format": "starebrain-cassette", "version": 1, "exchanges": [
      {"purpose": "plan", "request_hash": "<sha256>", "status": 200,
       "headers": {"content-type": "application/json"}, "body": {...}, "usage": {...}, "error": null}]}

Requests are stored only as a hash (of their messages and response_format type): no prompt, API key
or header of ours is written to disk. Answers are stored scrubbed (a secret value the model echoed
becomes its `{secret:NAME}` reference), in a file only its owner may read (0600).
A timeout is recorded as `"error": "timeout"` and replayed as one.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import httpx2

from starebrain.config import PRIVATE_DIR_MODE
from starebrain.errors import BadInput
from starebrain.llm.prompts import PURPOSE_HEADER
from starebrain.redaction import Scrubber

FORMAT = "starebrain-cassette"
VERSION = 1
_KEPT_HEADERS = ("content-type", "retry-after", "retry-after-ms")
_WIRE_HEADERS = ("content-encoding", "transfer-encoding", "content-length")


class CassetteError(BadInput):
    """A cassette file that cannot be used."""


class CassetteMismatch(CassetteError):
    """Replay got a request the cassette did not record at this point."""


@dataclass
class Exchange:
    """One request/response pair."""

    purpose: str
    request_hash: str
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    body: Any = None
    usage: dict[str, Any] | None = None
    error: str | None = None  # "timeout" or "connection error": what the transport raised instead


class Cassette:
    """An ordered list of exchanges, bound to a file."""

    def __init__(self, path: Path, exchanges: list[Exchange] | None = None) -> None:
        self.path = Path(path)
        self.exchanges = list(exchanges or [])

    @classmethod
    def load(cls, path: Path) -> Cassette:
        """Read a cassette; refuse other formats and newer versions with one clear line."""
        data = _read_json(Path(path))
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise CassetteError(f"{path} is not a StareBrain cassette (format must be {FORMAT!r})")
        version = data.get("version")
        if not isinstance(version, int) or version > VERSION:
            raise CassetteError(f"{path} is cassette format version {version}; this StareBrain reads "
                                f"version {VERSION} and older — upgrade StareBrain or re-record it")
        try:
            return cls(Path(path), [Exchange(**e) for e in data.get("exchanges", [])])
        except TypeError as exc:
            raise CassetteError(f"{path} has a malformed exchange: {exc}") from exc

    def save(self) -> None:
        """Write atomically, so a killed recording leaves the last complete cassette."""
        payload = {"format": FORMAT, "version": VERSION, "exchanges": [asdict(e) for e in self.exchanges]}
        self.path.parent.mkdir(mode=PRIVATE_DIR_MODE, parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".cassette-", dir=self.path.parent)  # mode 0600
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(payload, out, indent=1, ensure_ascii=False)
            out.write("\n")
        os.replace(tmp, self.path)


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise CassetteError(f"no cassette at {path}") from exc
    except (OSError, json.JSONDecodeError) as exc:
        raise CassetteError(f"cannot read cassette {path}: {exc}") from exc


def fingerprint(request: httpx2.Request) -> tuple[str, str]:
    """(purpose, hash) of a chat request: what replay matches on."""
    body = json.loads(request.content or b"{}")
    fmt = (body.get("response_format") or {}).get("type")
    canonical = json.dumps({"messages": body.get("messages"), "response_format": fmt},
                           sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    purpose = request.headers.get(PURPOSE_HEADER, "unknown")
    return purpose, hashlib.sha256(canonical.encode()).hexdigest()


class RecordingTransport(httpx2.BaseTransport):
    """Forward to `inner` (a real transport) and append every exchange to `cassette`, saving each time."""

    def __init__(self, cassette: Cassette, inner: httpx2.BaseTransport | None = None, *,
                 scrubber: Scrubber | None = None) -> None:
        self.cassette = cassette
        self._inner = inner or httpx2.HTTPTransport()
        self._scrubber = scrubber or Scrubber()

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        request.read()
        purpose, digest = fingerprint(request)
        try:
            response = self._inner.handle_request(request)
            content = response.read()
        except httpx2.TimeoutException:
            self._append(Exchange(purpose, digest, status=0, error="timeout"))
            raise
        except httpx2.TransportError:
            self._append(Exchange(purpose, digest, status=0, error="connection error"))
            raise
        self._append(_exchange_of(purpose, digest, response, content, self._scrubber))
        # `read()` already decoded the body: drop headers that describe the encoded bytes.
        headers = [(k, v) for k, v in response.headers.items() if k.lower() not in _WIRE_HEADERS]
        return httpx2.Response(response.status_code, headers=headers, content=content, request=request)

    def _append(self, exchange: Exchange) -> None:
        self.cassette.exchanges.append(exchange)
        self.cassette.save()

    def close(self) -> None:
        self._inner.close()


def _exchange_of(purpose: str, digest: str, response: httpx2.Response, content: bytes,
                 scrubber: Scrubber) -> Exchange:
    try:
        body: Any = json.loads(content or b"null")
    except json.JSONDecodeError:
        body = content.decode("utf-8", "replace")
    body = scrubber.data(body)
    headers = {k: response.headers[k] for k in _KEPT_HEADERS if k in response.headers}
    usage = body.get("usage") if isinstance(body, dict) else None
    return Exchange(purpose, digest, response.status_code, headers, body, usage)


class ReplayTransport(httpx2.BaseTransport):
    """Serve a cassette's exchanges in order; never opens a connection."""

    def __init__(self, cassette: Cassette) -> None:
        self.cassette = cassette
        self.position = 0

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        request.read()
        exchange = self._next(*fingerprint(request))
        if exchange.error == "timeout":
            raise httpx2.ReadTimeout("replayed timeout", request=request)
        if exchange.error:
            raise httpx2.ConnectError(f"replayed {exchange.error}", request=request)
        content = exchange.body if isinstance(exchange.body, str) else json.dumps(exchange.body)
        return httpx2.Response(exchange.status, headers=exchange.headers, content=content.encode(),
                               request=request)

    def _next(self, purpose: str, digest: str) -> Exchange:
        number = self.position + 1
        if self.position >= len(self.cassette.exchanges):
            raise CassetteMismatch(f"cassette {self.cassette.path}: request #{number} ({purpose}) was not "
                                   f"recorded; it holds {len(self.cassette.exchanges)} exchanges")
        exchange = self.cassette.exchanges[self.position]
        if exchange.purpose != purpose or exchange.request_hash != digest:
            what = "purpose" if exchange.purpose != purpose else "request (prompt changed)"
            raise CassetteMismatch(
                f"cassette {self.cassette.path}: exchange #{number} does not match — recorded "
                f"{exchange.purpose} {exchange.request_hash[:12]}, got {purpose} {digest[:12]}; {what} "
                "differs, re-record with --record")
        self.position += 1
        return exchange
