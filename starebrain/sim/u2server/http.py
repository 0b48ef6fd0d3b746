"""The HTTP/1.1 layer of the in-sim uiautomator server (NanoHTTPD behaviour, docs/sim.md)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from starebrain.sim.services.channel import Channel, ChannelReader

MAX_HEAD = 64 * 1024
MAX_BODY = 16 * 1024 * 1024
REASONS = {100: "Continue", 200: "OK", 400: "Bad Request", 404: "Not Found", 405: "Method Not Allowed",
           413: "Payload Too Large", 431: "Request Header Fields Too Large", 500: "Internal Server Error"}
# Sent when the headers are in but the body is not: the segment carries the ACK that releases the
# client's Nagle-held body (docs/sim.md: 56 ms -> 12 ms per RPC).
CONTINUE = b"HTTP/1.1 100 Continue\r\n\r\n"


@dataclass
class HttpRequest:
    """One parsed request."""

    method: str
    path: str
    headers: dict[str, str]
    body: bytes = b""


@dataclass
class HttpResponse:
    """A response with a body of known length."""

    status: int
    body: bytes
    content_type: str = "text/plain"
    headers: dict[str, str] = field(default_factory=dict)

    def encode(self) -> bytes:
        """Status line, headers and body."""
        lines = [f"HTTP/1.1 {self.status} {REASONS.get(self.status, 'Unknown')}",
                 f"Content-Type: {self.content_type}", f"Content-Length: {len(self.body)}",
                 *(f"{k}: {v}" for k, v in self.headers.items())]
        return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + self.body


App = Callable[[HttpRequest], Awaitable[HttpResponse]]


class BadRequest(Exception):
    """The request cannot be parsed; the connection gets a 4xx and is closed."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


async def serve_http(channel: Channel, app: App) -> None:
    """Serve requests on one channel until the client closes it or sends garbage."""
    reader = ChannelReader(channel)
    while True:
        try:
            request = await _read_request(reader, channel)
        except BadRequest as exc:
            await channel.write(HttpResponse(exc.status, str(exc).encode()).encode())
            return
        if request is None:
            return
        response = await app(request)
        await channel.write(response.encode())
        if request.headers.get("connection", "").lower() == "close":
            return


async def _read_request(reader: ChannelReader, channel: Channel) -> HttpRequest | None:
    head = await reader.read_until(b"\r\n\r\n", MAX_HEAD)
    if head is None:
        if len(reader.buffer) > MAX_HEAD:
            raise BadRequest(431, "request head too large")
        return None
    method, path, headers = _parse_head(head)
    length = _content_length(headers)
    if length > len(reader.buffer):
        await channel.write(CONTINUE)
    body = await reader.read_exactly(length) if length else b""
    if body is None:
        return None
    return HttpRequest(method, path, headers, body)


def _parse_head(head: bytes) -> tuple[str, str, dict[str, str]]:
    lines = head.decode("latin-1").split("\r\n")
    parts = lines[0].split(" ")
    if len(parts) != 3 or not parts[2].startswith("HTTP/") or not parts[0].isalpha():
        raise BadRequest(400, "malformed request line")
    headers: dict[str, str] = {}
    for line in lines[1:]:
        if not line:
            continue
        name, sep, value = line.partition(":")
        if not sep or not name.strip():
            raise BadRequest(400, "malformed header line")
        headers[name.strip().lower()] = value.strip()
    if "chunked" in headers.get("transfer-encoding", "").lower():
        raise BadRequest(400, "chunked bodies are not supported")
    return parts[0].upper(), parts[1], headers


def _content_length(headers: dict[str, str]) -> int:
    text = headers.get("content-length", "0")
    if not text.isdigit():
        raise BadRequest(400, "bad Content-Length")
    length = int(text)
    if length > MAX_BODY:
        raise BadRequest(413, "body too large")
    return length
