"""The u2 server's HTTP and JSON-RPC layers over a pipe: routes, 100-Continue, error shapes (docs/sim.md)."""

from __future__ import annotations

import json
from typing import Any

from starebrain.sim.services.device import SimDevice
from starebrain.sim.u2server.server import U2Server
from tests.sim.local_device import new_device, talk_sync


def device_with_server() -> SimDevice:
    device = new_device()
    device.listen(9008, U2Server(device, 9008).serve)
    return device


def post(body: bytes) -> bytes:
    head = (f"POST /jsonrpc/0 HTTP/1.1\r\nHost: localhost:9008\r\nConnection: close\r\n"
            f"Content-Length: {len(body)}\r\n\r\n")
    return head.encode() + body


def rpc(method: str, params: Any = None) -> dict[str, Any]:
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": params or {}}).encode()
    raw = talk_sync(device_with_server(), "tcp:9008", post(body), timeout=1.0)
    return json.loads(raw.split(b"\r\n\r\n", 2)[-1])


def test_ping_and_404() -> None:
    requests = b"GET /ping HTTP/1.1\r\n\r\nGET /x HTTP/1.1\r\nConnection: close\r\n\r\n"
    raw = talk_sync(device_with_server(), "tcp:9008", requests,
                    timeout=1.0)
    assert raw.startswith(b"HTTP/1.1 200 OK") and b"\r\n\r\npong" in raw
    assert b"HTTP/1.1 404 Not Found" in raw and raw.endswith(b"Not Found!!!")


def test_100_continue_is_sent_when_the_body_is_still_missing() -> None:
    raw = talk_sync(device_with_server(), "tcp:9008", post(b"")[:-4] + b"\r\nContent-Length: 5\r\n\r\n",
                    timeout=0.2)
    assert raw == b"HTTP/1.1 100 Continue\r\n\r\n"


def test_result_is_always_present_and_errors_have_java_shapes() -> None:
    assert rpc("deviceInfo")["result"]["displayWidth"] == 1080
    assert "result" in rpc("wakeUp") and rpc("wakeUp")["result"] is None
    missing = rpc("objInfo", [{"mask": 1, "childOrSibling": [], "childOrSiblingSelector": [], "text": "Nope"}])
    assert missing["error"]["code"] == -32001
    assert missing["error"]["message"] == "androidx.test.uiautomator.UiObjectNotFoundException"
    assert missing["error"]["data"] == "UiSelector[TEXT=Nope]"
    assert rpc("noSuchMethod")["error"]["code"] == -32601
    assert rpc("swipe", [1])["error"]["code"] == -32602


def test_garbage_gets_protocol_errors() -> None:
    raw = talk_sync(device_with_server(), "tcp:9008", post(b"{not json"), timeout=1.0)
    assert json.loads(raw.split(b"\r\n\r\n", 2)[-1])["error"]["code"] == -32700
    assert talk_sync(device_with_server(), "tcp:9008", b"GET /jsonrpc/0 HTTP/1.1\r\nConnection: close\r\n\r\n",
                     timeout=1.0).startswith(b"HTTP/1.1 500")
    assert talk_sync(device_with_server(), "tcp:9008", b"\x00\x01garbage\r\n\r\n").startswith(b"HTTP/1.1 400")


def test_wait_for_exists_blocks_until_the_timeout() -> None:
    reply = rpc("waitForExists", [{"mask": 1, "childOrSibling": [], "childOrSiblingSelector": [], "text": "X"},
                                  300])
    assert reply["result"] is False
