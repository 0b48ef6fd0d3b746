"""The at-most-once JSON-RPC client against a tiny real socket peer (no library mocked)."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Callable

import pytest

from starebrain.device.at_most_once import (
    AnswerLost,
    ErrorReply,
    RequestNotSent,
    SendGate,
    call_at_most_once,
)


def _peer(reply: Callable[[bytes], bytes | None]) -> tuple[Callable[[], socket.socket], list[bytes]]:
    """A socket opener whose far end reads one request, records it and answers with `reply`."""
    received: list[bytes] = []

    def opener() -> socket.socket:
        ours, theirs = socket.socketpair()

        def serve() -> None:
            data = b""
            while b"\r\n\r\n" not in data:
                data += theirs.recv(65536)
            head, _, body = data.partition(b"\r\n\r\n")
            length = int(head.lower().split(b"content-length: ")[1].split(b"\r\n")[0])
            while len(body) < length:
                body += theirs.recv(65536)
            received.append(body)
            answer = reply(body)
            if answer is not None:
                theirs.sendall(answer)
            theirs.close()

        threading.Thread(target=serve, daemon=True).start()
        return ours

    return opener, received


def _http(payload: dict[str, object], status: str = "200 OK") -> bytes:
    body = json.dumps(payload).encode()
    return (f"HTTP/1.1 {status}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n").encode() + body


def test_result_comes_back_and_request_is_sent_once() -> None:
    opener, received = _peer(lambda body: _http({"jsonrpc": "2.0", "id": 1, "result": True}))
    assert call_at_most_once(opener, "click", [10, 20], timeout_s=2) is True
    assert [json.loads(b) for b in received] == [{"jsonrpc": "2.0", "id": 1, "method": "click",
                                                  "params": [10, 20]}]


def test_interim_100_continue_is_skipped() -> None:
    opener, _ = _peer(lambda body: b"HTTP/1.1 100 Continue\r\n\r\n" + _http({"result": None}))
    assert call_at_most_once(opener, "pressKey", ["back"], timeout_s=2) is None


def test_connection_closed_after_sending_is_answer_lost() -> None:
    opener, received = _peer(lambda body: None)
    with pytest.raises(AnswerLost):
        call_at_most_once(opener, "click", [1, 2], timeout_s=2)
    assert len(received) == 1  # it did reach the peer: the outcome is really unknown


def test_silent_peer_is_answer_lost_at_the_socket_timeout() -> None:
    ours, theirs = socket.socketpair()
    with pytest.raises(AnswerLost):
        call_at_most_once(lambda: ours, "click", [1, 2], timeout_s=0.2)
    theirs.close()


def test_opener_failure_is_not_sent() -> None:
    def refused() -> socket.socket:
        raise ConnectionRefusedError("closed")

    with pytest.raises(RequestNotSent) as info:
        call_at_most_once(refused, "click", [1, 2], timeout_s=1)
    assert isinstance(info.value.__cause__, ConnectionRefusedError)


def test_abandoned_gate_sends_nothing() -> None:
    opener, received = _peer(lambda body: _http({"result": True}))
    gate = SendGate()
    assert gate.abandon() is False  # nothing was sent when we gave up
    with pytest.raises(RequestNotSent):
        call_at_most_once(opener, "click", [1, 2], timeout_s=1, gate=gate)
    assert received == []


def test_error_reply_says_whether_the_server_lost_uiautomation() -> None:
    gone = _http({"error": {"code": -32001, "message": "java.lang.IllegalStateException",
                            "data": "UiAutomation not connected"}})
    opener, _ = _peer(lambda body: gone)
    with pytest.raises(ErrorReply) as info:
        call_at_most_once(opener, "click", [1, 2], timeout_s=2)
    assert info.value.server_not_connected


def test_http_error_status_is_answer_lost() -> None:
    opener, _ = _peer(lambda body: _http({"result": True}, status="500 Internal Server Error"))
    with pytest.raises(AnswerLost):
        call_at_most_once(opener, "click", [1, 2], timeout_s=2)


def test_a_refusing_permit_sends_nothing_and_says_why() -> None:
    from starebrain.errors import LeaseLost

    ours, theirs = socket.socketpair()

    def lease_gone() -> None:
        raise LeaseLost("lease on device emulator-5554 was lost")

    gate = SendGate(lease_gone)
    with pytest.raises(LeaseLost):
        call_at_most_once(lambda: ours, "click", [1, 2], timeout_s=1, gate=gate)
    theirs.settimeout(1)
    assert theirs.recv(65536) == b""  # closed without a byte of the request
    theirs.close()
    assert gate.abandon() is False
    opener, received = _peer(lambda body: _http({"result": True}))
    assert call_at_most_once(opener, "click", [1, 2], timeout_s=1, gate=SendGate(lambda: None)) is True
    assert len(received) == 1
