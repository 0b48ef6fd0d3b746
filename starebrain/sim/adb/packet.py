"""ADB transport messages: the 24-byte header and its payload (docs/sim.md, Transport messages)."""

from __future__ import annotations

import struct
from dataclasses import dataclass

A_CNXN = 0x4E584E43
A_AUTH = 0x48545541
A_OPEN = 0x4E45504F
A_OKAY = 0x59414B4F
A_WRTE = 0x45545257
A_CLSE = 0x45534C43
A_SYNC = 0x434E5953
A_STLS = 0x534C5453

# The "skip checksum" version: data_check may be 0 in both directions.
A_VERSION = 0x01000001
DEVICE_MAX_PAYLOAD = 256 * 1024
# Refuse anything bigger than this from the host: adb never sends more than 1 MiB.
HOST_MAX_PAYLOAD_LIMIT = 1024 * 1024

HEADER = struct.Struct("<6I")
HEADER_SIZE = HEADER.size


class PacketError(Exception):
    """A header that cannot belong to a well-formed ADB stream; the connection must be dropped."""


@dataclass(frozen=True)
class Packet:
    """One ADB message."""

    command: int
    arg0: int
    arg1: int
    payload: bytes = b""

    def encode(self) -> bytes:
        """Header plus payload, ready to write; data_check is 0 (A_VERSION skips checksums)."""
        header = HEADER.pack(self.command, self.arg0, self.arg1, len(self.payload), 0,
                             self.command ^ 0xFFFFFFFF)
        return header + self.payload

    @property
    def name(self) -> str:
        """The four-letter command name, for logs."""
        return struct.pack("<I", self.command).decode("latin-1")


def parse_header(raw: bytes) -> tuple[int, int, int, int]:
    """(command, arg0, arg1, data_length) of a header; PacketError if it is not a valid one."""
    command, arg0, arg1, length, _check, magic = HEADER.unpack(raw)
    if magic != command ^ 0xFFFFFFFF:
        raise PacketError(f"bad magic {magic:#x} for command {command:#x}")
    if length > HOST_MAX_PAYLOAD_LIMIT:
        raise PacketError(f"payload of {length} bytes exceeds {HOST_MAX_PAYLOAD_LIMIT}")
    return command, arg0, arg1, length


def connect_banner(props: dict[str, str], features: list[str]) -> bytes:
    """The CNXN payload: `device::k=v;...;features=a,b` (the prefix is the state)."""
    parts = [f"{key}={value}" for key, value in props.items()]
    parts.append("features=" + ",".join(features))
    return ("device::" + ";".join(parts)).encode()
