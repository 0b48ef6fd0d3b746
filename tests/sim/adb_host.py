"""A hand-written ADB *host* (what the adb server does), talking straight to a sim's port.

Used to test the device side packet by packet, including malformed input the real server never sends.
"""

from __future__ import annotations

import socket
import struct

from starebrain.sim.adb.packet import A_CLSE, A_CNXN, A_OKAY, A_OPEN, A_WRTE, HEADER, Packet


class RawHost:
    """One TCP connection to a sim, speaking the host side of the ADB transport."""

    def __init__(self, port: int, timeout: float = 5.0) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def close(self) -> None:
        self.sock.close()

    def send(self, packet: Packet) -> None:
        self.sock.sendall(packet.encode())

    def send_raw(self, data: bytes) -> None:
        self.sock.sendall(data)

    def _recv_exact(self, size: int) -> bytes:
        data = bytearray()
        while len(data) < size:
            chunk = self.sock.recv(size - len(data))
            if not chunk:
                raise ConnectionError("closed by the sim")
            data += chunk
        return bytes(data)

    def recv(self) -> Packet:
        """The next packet from the sim."""
        command, arg0, arg1, length, _check, magic = HEADER.unpack(self._recv_exact(24))
        assert magic == command ^ 0xFFFFFFFF
        return Packet(command, arg0, arg1, self._recv_exact(length) if length else b"")

    def connect(self, max_payload: int = 1024 * 1024) -> Packet:
        """CNXN handshake; returns the sim's CNXN."""
        self.send(Packet(A_CNXN, 0x01000001, max_payload, b"host::features=shell_v2"))
        reply = self.recv()
        assert reply.command == A_CNXN
        return reply

    def open(self, local_id: int, service: str) -> Packet:
        """OPEN; returns OKAY (accepted) or CLSE (refused)."""
        self.send(Packet(A_OPEN, local_id, 0, service.encode() + b"\0"))
        return self.recv()

    def collect(self, local_id: int, remote_id: int, ack: bool = True) -> bytes:
        """Read WRTEs of one stream (acking each) until its CLSE; other streams' packets are an error."""
        data = bytearray()
        while True:
            packet = self.recv()
            assert packet.arg1 == local_id, packet
            if packet.command == A_CLSE:
                return bytes(data)
            assert packet.command == A_WRTE
            data += packet.payload
            if ack:
                self.send(Packet(A_OKAY, local_id, remote_id))

    def write(self, local_id: int, remote_id: int, data: bytes) -> None:
        """WRTE and wait for its OKAY."""
        self.send(Packet(A_WRTE, local_id, remote_id, data))
        reply = self.recv()
        assert reply.command == A_OKAY and reply.arg1 == local_id, reply

    def shell(self, local_id: int, command: str) -> bytes:
        """A whole shell: v1 exchange."""
        okay = self.open(local_id, f"shell:{command}")
        assert okay.command == A_OKAY, okay
        return self.collect(local_id, okay.arg0)


def u32(data: bytes) -> int:
    return int(struct.unpack("<I", data[:4])[0])
