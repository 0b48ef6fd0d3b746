"""The sync: service over a pipe: STAT, LIST, RECV, SEND, QUIT and malformed requests (docs/sim.md, "Sync")."""

from __future__ import annotations

import stat
import struct

from tests.sim.local_device import new_device, talk_sync


def req(tag: bytes, payload: bytes) -> bytes:
    return tag + struct.pack("<I", len(payload)) + payload


def test_stat_of_file_dir_and_missing_path() -> None:
    device = new_device()
    device.files.write("/sdcard/a.txt", b"12345", mode=0o100644, mtime=77)
    reply = talk_sync(device, "sync:", req(b"STAT", b"/sdcard/a.txt") + req(b"STAT", b"/sdcard")
                      + req(b"STAT", b"/missing") + req(b"QUIT", b""))
    (t1, m1, s1, mt1), (t2, m2, _, _), (t3, m3, s3, mt3) = (struct.unpack("<4sIII", reply[i:i + 16])
                                                          for i in (0, 16, 32))
    assert (t1, m1, s1, mt1) == (b"STAT", 0o100644, 5, 77)
    assert t2 == b"STAT" and stat.S_ISDIR(m2)
    assert (m3, s3, mt3) == (0, 0, 0)


def test_send_then_recv_round_trip_with_split_messages() -> None:
    device = new_device()
    body = bytes(range(256)) * 700  # 179,200 bytes: several DATA messages
    send = req(b"SEND", b"/data/local/tmp/x.bin,33261")
    for start in range(0, len(body), 65536):
        chunk = body[start:start + 65536]
        send += b"DATA" + struct.pack("<I", len(chunk)) + chunk
    send += b"DONE" + struct.pack("<I", 1234)
    assert talk_sync(device, "sync:", send + req(b"QUIT", b"")) == b"OKAY\0\0\0\0"
    entry = device.files.read("/data/local/tmp/x.bin")
    assert entry is not None and entry.data == body and entry.mode == 33261 and entry.mtime == 1234
    reply = talk_sync(device, "sync:", req(b"RECV", b"/data/local/tmp/x.bin") + req(b"QUIT", b""))
    received, offset = bytearray(), 0
    while reply[offset:offset + 4] == b"DATA":
        size = struct.unpack("<I", reply[offset + 4:offset + 8])[0]
        received += reply[offset + 8:offset + 8 + size]
        offset += 8 + size
    assert reply[offset:] == b"DONE\0\0\0\0" and bytes(received) == body


def test_list_directory() -> None:
    device = new_device()
    device.files.write("/sdcard/Download/b.txt", b"b")
    reply = talk_sync(device, "sync:", req(b"LIST", b"/sdcard/Download") + req(b"QUIT", b""))
    tag, mode, size, _, namelen = struct.unpack("<4sIIII", reply[:20])
    assert (tag, size, reply[20:20 + namelen]) == (b"DENT", 1, b"b.txt") and stat.S_ISREG(mode)
    assert reply[20 + namelen:] == b"DONE" + bytes(16)


def test_recv_of_missing_file_fails() -> None:
    reply = talk_sync(new_device(), "sync:", req(b"RECV", b"/nope"))
    assert reply.startswith(b"FAIL") and b"No such file" in reply


def test_unknown_request_and_bad_data_get_fail_then_close() -> None:
    assert talk_sync(new_device(), "sync:", req(b"XXXX", b"/a")).startswith(b"FAIL")
    assert talk_sync(new_device(), "sync:", b"STAT" + struct.pack("<I", 10**6)).startswith(b"FAIL")
    bad_send = req(b"SEND", b"/sdcard/f,33188") + b"DATA" + struct.pack("<I", 10**7)
    device = new_device()
    assert talk_sync(device, "sync:", bad_send).startswith(b"FAIL")
    assert device.files.read("/sdcard/f") is None
