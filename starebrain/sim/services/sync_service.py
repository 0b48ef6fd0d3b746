"""The `sync:` file-transfer service: STAT, LIST, RECV, SEND, QUIT (docs/sim.md, Sync)."""

from __future__ import annotations

import struct

from starebrain.sim.services.channel import Channel, ChannelReader
from starebrain.sim.services.device import SimDevice
from starebrain.sim.services.files import S_IFREG

MAX_PATH = 1024
MAX_DATA = 64 * 1024  # adbd's SYNC_DATA_MAX
MAX_FILE = 512 * 1024 * 1024
RECV_BATCH = 1024 * 1024  # DATA messages are coalesced into writes of about this size


class SyncAbort(Exception):
    """The request stream is broken; FAIL was (or will be) sent and the session ends."""


def _message(tag: bytes, *numbers: int) -> bytes:
    return tag + struct.pack(f"<{len(numbers)}I", *numbers)


def _fail(message: str) -> bytes:
    data = message.encode()
    return b"FAIL" + struct.pack("<I", len(data)) + data


async def serve_sync(channel: Channel, device: SimDevice) -> None:
    """Answer sync requests until QUIT, EOF, or a malformed request (which gets FAIL, then close)."""
    reader = ChannelReader(channel)
    while True:
        header = await reader.read_exactly(8)
        if header is None:
            return
        tag, length = header[:4], struct.unpack("<I", header[4:])[0]
        if tag == b"QUIT":
            return
        if tag not in (b"STAT", b"LIST", b"RECV", b"SEND") or length > MAX_PATH:
            await channel.write(_fail(f"unknown or malformed sync request {tag!r}"))
            return
        raw = await reader.read_exactly(length)
        if raw is None:
            return
        path = raw.decode("utf-8", "replace")
        try:
            await HANDLERS[tag](channel, reader, device, path)
        except SyncAbort as exc:
            await channel.write(_fail(str(exc)))
            return


async def _stat(channel: Channel, reader: ChannelReader, device: SimDevice, path: str) -> None:
    mode, size, mtime = device.files.stat(path) or (0, 0, 0)
    await channel.write(_message(b"STAT", mode, size & 0xFFFFFFFF, mtime))  # one write: adbutils recv(12)


async def _list(channel: Channel, reader: ChannelReader, device: SimDevice, path: str) -> None:
    out = bytearray()
    for name, (mode, size, mtime) in device.files.listdir(path) or []:
        encoded = name.encode()
        out += _message(b"DENT", mode, size & 0xFFFFFFFF, mtime, len(encoded)) + encoded
    out += _message(b"DONE", 0, 0, 0, 0)
    await channel.write(bytes(out))


async def _recv(channel: Channel, reader: ChannelReader, device: SimDevice, path: str) -> None:
    entry = device.files.read(path)
    if entry is None:
        reason = "Is a directory" if device.files.is_dir(path) else "No such file or directory"
        raise SyncAbort(f"open failed: {reason}")
    data = entry.data
    batch = bytearray()
    for start in range(0, len(data), MAX_DATA):
        chunk = data[start:start + MAX_DATA]
        batch += _message(b"DATA", len(chunk)) + chunk
        if len(batch) >= RECV_BATCH:
            await channel.write(bytes(batch))
            batch.clear()
    batch += _message(b"DONE", 0)
    await channel.write(bytes(batch))


async def _send(channel: Channel, reader: ChannelReader, device: SimDevice, spec: str) -> None:
    path, _, mode_text = spec.rpartition(",")
    if not path:
        path, mode_text = spec, str(S_IFREG | 0o644)
    mode = int(mode_text) if mode_text.isdigit() else S_IFREG | 0o644
    body, mtime = await _receive_file(reader)
    error = device.files.write(path, bytes(body), mode, mtime or None)
    if error:
        raise SyncAbort(error)
    await channel.write(_message(b"OKAY", 0))


async def _receive_file(reader: ChannelReader) -> tuple[bytearray, int]:
    body = bytearray()
    while True:
        header = await reader.read_exactly(8)
        if header is None:
            raise SyncAbort("connection closed during SEND")
        tag, value = header[:4], struct.unpack("<I", header[4:])[0]
        if tag == b"DONE":
            return body, value
        if tag != b"DATA" or value > MAX_DATA or len(body) + value > MAX_FILE:
            raise SyncAbort(f"bad SEND message {tag!r} of {value} bytes")
        chunk = await reader.read_exactly(value)
        if chunk is None:
            raise SyncAbort("connection closed during SEND")
        body += chunk


HANDLERS = {b"STAT": _stat, b"LIST": _list, b"RECV": _recv, b"SEND": _send}
