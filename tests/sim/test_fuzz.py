"""Property tests: garbage on every layer never crashes the sim, never disturbs other streams, and gets
protocol-correct answers. Bounded and derandomized so the suite stays fast and deterministic."""

from __future__ import annotations

import asyncio
import json
import struct
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from starebrain.sim.adb.packet import A_CLSE, A_CNXN, A_OKAY, A_OPEN, A_WRTE, Packet
from starebrain.sim.services.channel import ChannelClosed, PipeChannel
from starebrain.sim.services.device import SimDevice
from starebrain.sim.services.sync_service import serve_sync
from starebrain.sim.u2server.jsonrpc import dispatch
from starebrain.sim.u2server.server import U2Server
from tests.sim.adb_host import RawHost
from tests.sim.local_device import new_device

FUZZ = settings(max_examples=40, derandomize=True, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
SYNC_TAGS = (b"STAT", b"DENT", b"DONE", b"DATA", b"OKAY", b"FAIL")


async def feed(handler: Any, data: bytes, timeout: float = 2.0) -> bytes:
    """Give `data` to a device-side handler, then close; everything it answered (it must finish)."""
    host, dev = PipeChannel.pair()

    async def serve() -> None:
        try:
            await handler(dev)
        except ChannelClosed:
            pass  # the client left first: the transport treats this as a normal end
    task = asyncio.ensure_future(serve())
    await host.write(data)
    await asyncio.sleep(0)
    received = bytearray()
    async with asyncio.timeout(timeout):
        while not task.done():
            try:
                chunk = await asyncio.wait_for(host.read(), 0.005)
            except TimeoutError:
                await host.close()  # no more input: like the client closing its end
                continue
            received += chunk
    task.result()
    while not host.inbox.empty():  # what arrived while the handler was finishing
        received += host.inbox.get_nowait()
    return bytes(received)


@FUZZ
@given(st.binary(max_size=300))
def test_sync_garbage_gets_fail_or_valid_replies(data: bytes) -> None:
    device = new_device()
    reply = asyncio.run(feed(lambda ch: serve_sync(ch, device), data))
    assert reply == b"" or reply[:4] in SYNC_TAGS
    stat = asyncio.run(feed(lambda ch: serve_sync(ch, device), b"STAT\x07\0\0\0/sdcard"))
    assert stat[:4] == b"STAT" and stat[4:8] != b"\0\0\0\0"  # the device still answers


@FUZZ
@given(st.binary(max_size=400) | st.text(max_size=200).map(lambda t: t.encode()))
def test_http_garbage_gets_http_answers(data: bytes) -> None:
    device = new_device()
    server = U2Server(device, 9008)
    reply = asyncio.run(feed(server.serve, data))
    assert reply == b"" or reply.startswith(b"HTTP/1.1 ")


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                                max_size=4), max_leaves=12)
FAST_METHODS = sorted(set(U2Server(new_device(), 9008).methods) - {"waitForExists", "waitUntilGone"})


@FUZZ
@given(st.sampled_from(FAST_METHODS), JSON)
def test_jsonrpc_with_random_params_always_answers_an_envelope(method: str, params: Any) -> None:
    server = U2Server(new_device(), 9008)
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}).encode()
    reply = json.loads(asyncio.run(dispatch(body, server.methods)))
    assert reply["jsonrpc"] == "2.0" and ("result" in reply) != ("error" in reply)
    if "error" in reply:
        assert isinstance(reply["error"]["code"], int) and isinstance(reply["error"]["message"], str)


@FUZZ
@given(JSON | st.binary(max_size=100))
def test_jsonrpc_garbage_bodies(body: Any) -> None:
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    reply = json.loads(asyncio.run(dispatch(raw, U2Server(new_device(), 9008).methods)))
    assert "error" in reply or "result" in reply


def test_u2_server_methods_are_not_disturbed_by_garbage_on_other_streams() -> None:
    device: SimDevice = new_device()
    server = U2Server(device, 9008)

    async def both() -> tuple[bytes, bytes]:
        good = b"GET /ping HTTP/1.1\r\nConnection: close\r\n\r\n"
        return await asyncio.gather(feed(server.serve, b"\xff" * 70_000), feed(server.serve, good))
    bad, good = asyncio.run(both())
    assert bad.startswith(b"HTTP/1.1 4") and good.endswith(b"pong")


PACKETS = st.builds(
    Packet,
    st.sampled_from([A_CNXN, A_OPEN, A_OKAY, A_WRTE, A_CLSE, 0x48545541, 0x0BADF00D]),
    st.integers(0, 2**32 - 1) | st.integers(0, 5), st.integers(0, 2**32 - 1) | st.integers(0, 5),
    st.binary(max_size=64) | st.sampled_from([b"sync:\0", b"tcp:9008\0", b"shell,v2:\0", b"reboot:\0"]))


@pytest.mark.e2e
@FUZZ
@given(st.lists(PACKETS, max_size=6), st.binary(max_size=48))
def test_malformed_adb_traffic_never_hurts_the_sim(fake_sim: Any, packets: list[Packet], tail: bytes) -> None:
    host = RawHost(fake_sim.port, timeout=2)
    try:
        host.connect()
        for packet in packets:
            host.send(packet)
        host.send_raw(tail)  # often a broken header: the sim drops this connection only
    finally:
        host.close()
    other = RawHost(fake_sim.port, timeout=5)
    try:
        other.connect()
        assert other.shell(1, "echo ok") == b"ok\n"
    finally:
        other.close()


def test_bad_magic_and_oversized_header_are_rejected() -> None:
    from starebrain.sim.adb.packet import PacketError, parse_header

    with pytest.raises(PacketError):
        parse_header(struct.pack("<6I", A_OPEN, 1, 0, 0, 0, 0))
    with pytest.raises(PacketError):
        parse_header(struct.pack("<6I", A_WRTE, 1, 1, 2**31, 0, A_WRTE ^ 0xFFFFFFFF))


@pytest.mark.e2e
def test_garbage_connections_do_not_disturb_a_stream_in_flight(fake_sim: Any, fake_u2: Any) -> None:
    import threading

    results: list[bool] = []
    waiter = threading.Thread(target=lambda: results.append(fake_u2(text="Absent").wait(timeout=0.8)))
    waiter.start()
    for junk in (b"\x00" * 24, b"CNXN" + b"\xff" * 40, struct.pack("<6I", A_WRTE, 1, 1, 5, 0, 0) + b"hello"):
        host = RawHost(fake_sim.port)
        host.send_raw(junk)
        host.close()
    waiter.join(timeout=30)
    assert results == [False]  # the wait ran its course, it was not cut off
    assert fake_sim.adb.devices()[fake_sim.serial] == "device"
    assert fake_u2.info["displayWidth"] == 1080
