"""The adbd side, packet by packet: handshake, OPEN/refuse, flow control, payload splitting, garbage."""

from __future__ import annotations

from typing import Any

import pytest

from starebrain.sim.adb.packet import A_CLSE, A_CNXN, A_OKAY, A_OPEN, A_WRTE, Packet
from tests.sim.adb_host import RawHost

pytestmark = pytest.mark.e2e


@pytest.fixture
def host(fake_sim: Any) -> Any:
    raw = RawHost(fake_sim.port)
    yield raw
    raw.close()


def test_cnxn_is_answered_without_auth_and_carries_the_banner(host: RawHost) -> None:
    reply = host.connect()
    assert reply.arg0 == 0x01000001 and reply.arg1 == 256 * 1024
    assert reply.payload.startswith(b"device::") and b"ro.product.model=SimFake" in reply.payload
    assert b"features=shell_v2" in reply.payload


def test_unknown_service_and_closed_tcp_port_are_refused_with_clse(host: RawHost) -> None:
    host.connect()
    assert host.open(7, "nosuchservice:") == Packet(A_CLSE, 0, 7)
    assert host.open(8, "tcp:1234") == Packet(A_CLSE, 0, 8)


def test_shell_output_and_stream_ids(host: RawHost) -> None:
    host.connect()
    assert host.shell(3, "echo one; echo two") == b"one\ntwo\n"
    assert host.shell(4, "getprop ro.product.name") == b"sim_fake\n"


def test_device_waits_for_okay_before_the_next_wrte_and_splits_at_max_payload(host: RawHost) -> None:
    host.connect(max_payload=4096)
    okay = host.open(5, "shell:screencap -p")
    first = host.recv()
    assert first.command == A_WRTE and len(first.payload) == 4096
    host.sock.settimeout(0.3)
    with pytest.raises(TimeoutError):  # nothing more until we ack
        host.recv()
    host.sock.settimeout(5)
    host.send(Packet(A_OKAY, 5, okay.arg0))
    rest = host.collect(5, okay.arg0)
    assert (first.payload + rest).startswith(b"\x89PNG")


def test_packets_for_unknown_streams_are_ignored(host: RawHost) -> None:
    host.connect()
    host.send(Packet(A_WRTE, 1, 999, b"x"))
    host.send(Packet(A_OKAY, 1, 999))
    host.send(Packet(A_CLSE, 1, 999))
    host.send(Packet(0x12345678, 0, 0))  # unknown command
    host.send(Packet(A_OPEN, 0, 0, b"shell:echo\0"))  # id 0 is invalid
    assert host.shell(9, "echo still here") == b"still here\n"


def test_a_bad_header_drops_only_that_connection(host: RawHost, fake_sim: Any) -> None:
    host.connect()
    host.send_raw(b"\x00" * 24)  # wrong magic
    with pytest.raises((ConnectionError, OSError)):
        host.recv()
    other = RawHost(fake_sim.port)
    try:
        assert other.connect().command == A_CNXN
        assert other.shell(1, "echo ok") == b"ok\n"
    finally:
        other.close()
    assert fake_sim.adb.wait_for(fake_sim.serial, "device", 5)
