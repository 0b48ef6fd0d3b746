"""Send one JSON-RPC call to the on-device uiautomator server at most once, and say what we know.

Why not uiautomator2's own call: `BasicUiautomatorServer.jsonrpc_call` restarts the server and
sends the call a second time after an HTTPError or "UiAutomation not connected" — a second tap
on "Send" if the first one landed but its answer was lost. Its non-retrying `core._jsonrpc_call`
is private, changed signature within 3.x (3.7 added a `device_port` argument), and reports "never
connected" and "sent, then got a 5xx" as the same HTTPError. `adb shell input` is slow on real phones (a JVM start per
tap) and cannot type non-ASCII text. So actions go through this small client: the JSON-RPC wire
format of the u2 server (docs/sim.md) is the stable contract, and the socket comes
from adbutils' public `AdbDevice.create_connection(Network.TCP, port)`, which every adbutils 2.x
has. The caller passes the socket opener, so this module imports neither library.

Outcomes: `RequestNotSent` (no byte of the request left us: safe to send later),
`AnswerLost` (the request may have been acted on: never re-send blindly), `ErrorReply` (the
server answered with a JSON-RPC error), or the call's result.
"""

from __future__ import annotations

import http.client
import json
import socket
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

NOT_CONNECTED_MARKERS = ("UiAutomation not connected",)


class RequestNotSent(Exception):
    """Nothing of the request reached the wire; `__cause__` says why."""


class AnswerLost(Exception):
    """The request was sent (maybe acted on) but no valid answer came back."""


class ErrorReply(Exception):
    """The server answered with a JSON-RPC error."""

    def __init__(self, method: str, message: str, data: str) -> None:
        super().__init__(f"{method}: {message}")
        self.method = method
        self.message = message
        self.data = data

    @property
    def server_not_connected(self) -> bool:
        """The server says its UiAutomation is gone: the call was not carried out."""
        return any(m in self.message or m in self.data for m in NOT_CONNECTED_MARKERS)


class SendGate:
    """Makes "stop waiting" and "start sending" mutually exclusive, so that a call abandoned
    at its deadline can never go out later, and an abandoned call knows whether it went out.

    `permit`, when given, is called under the same lock just before the first byte: it raises
    (e.g. LeaseLost) to stop a call from going out at all — the fencing check of the device lease,
    as late as it can be made, so a process that lost its lease never sends another action."""

    def __init__(self, permit: Callable[[], None] | None = None) -> None:
        self._lock = threading.Lock()
        self._sent = False
        self._abandoned = False
        self._permit = permit

    def open_for_send(self) -> bool:
        """Called just before the first byte is written; False if the caller gave up."""
        with self._lock:
            if self._abandoned:
                return False
            if self._permit is not None:
                self._permit()  # raises: nothing is sent
            self._sent = True
            return True

    def abandon(self) -> bool:
        """Give up on the call; returns True if the request had already been sent."""
        with self._lock:
            self._abandoned = True
            return self._sent


def _request_bytes(method: str, params: Any) -> bytes:
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}).encode()
    head = ("POST /jsonrpc/0 HTTP/1.1\r\nHost: localhost\r\nUser-Agent: starebrain\r\n"
            "Accept-Encoding: \r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n")
    # One write for head and body: no Nagle stall between them (docs/sim.md).
    return head.encode("ascii") + body


def _read_reply(sock: socket.socket, method: str) -> Any:
    response = http.client.HTTPResponse(sock, method="POST")
    response.begin()  # skips any "100 Continue"
    content = response.read()
    if response.status != 200:
        raise AnswerLost(f"{method}: HTTP {response.status} {response.reason}")
    try:
        data = json.loads(content)
    except ValueError as exc:
        raise AnswerLost(f"{method}: reply is not JSON") from exc
    if not isinstance(data, dict):
        raise AnswerLost(f"{method}: reply is not a JSON object")
    if "error" in data:
        err = data["error"] if isinstance(data["error"], dict) else {"message": str(data["error"])}
        raise ErrorReply(method, str(err.get("message", "")), str(err.get("data") or ""))
    if "result" not in data:
        raise AnswerLost(f"{method}: reply has no result")
    return data["result"]


@contextmanager
def _fresh(open_connection: Callable[[], Any], gate: SendGate, what: str, unreachable: str) -> Iterator[Any]:
    """A fresh connection, closed afterwards, once the gate let the first byte out (RequestNotSent before)."""
    try:
        conn = open_connection()
    except Exception as exc:
        raise RequestNotSent(f"{what}: cannot reach {unreachable} ({type(exc).__name__}: {exc})") from exc
    try:
        if not gate.open_for_send():
            raise RequestNotSent(f"{what}: abandoned before sending")
        yield conn
    finally:
        conn.close()


def call_at_most_once(open_socket: Callable[[], socket.socket], method: str, params: Any,
                      *, timeout_s: float, gate: SendGate | None = None) -> Any:
    """Open a fresh connection, send the call once, return its result (see module docstring)."""
    with _fresh(open_socket, gate or SendGate(), method, "the uiautomator server") as sock:
        sock.settimeout(timeout_s)
        try:
            sock.sendall(_request_bytes(method, params))
        except OSError as exc:  # part of it may be out; we cannot prove the server did not act
            raise AnswerLost(f"{method}: connection failed while sending") from exc
        try:
            return _read_reply(sock, method)
        except (OSError, http.client.HTTPException, EOFError) as exc:
            raise AnswerLost(f"{method}: no answer ({type(exc).__name__}: {exc})") from exc


def shell_at_most_once(open_transport: Callable[[], Any], command: str, *, gate: SendGate | None = None) -> str:
    """Run one `shell:` command at most once over a fresh adb transport and return its output.

    `open_transport` gives a connection to the phone's transport (adbutils' `AdbDevice.open_transport`,
    with its timeout), offering `send_command`, `check_okay`, `read_until_close` and `close`. Outcomes as
    for `call_at_most_once`: RequestNotSent before the command's first byte, AnswerLost after it."""
    with _fresh(open_transport, gate or SendGate(), "shell", "the phone's transport") as conn:
        try:
            conn.send_command(f"shell:{command}")
            conn.check_okay()
            output = conn.read_until_close()
        except Exception as exc:  # the command may have run: never re-sent
            raise AnswerLost(f"shell: no complete answer ({type(exc).__name__}: {exc})") from exc
    return output if isinstance(output, str) else bytes(output).decode("utf-8", "replace")
