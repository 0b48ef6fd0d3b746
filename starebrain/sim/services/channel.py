"""The byte channel every device service runs on: an ADB stream, or any other duplex pipe."""

from __future__ import annotations

import asyncio
from typing import Protocol


class ChannelClosed(Exception):
    """The peer closed the channel; nothing more can be written."""


class Channel(Protocol):
    """A bidirectional byte stream seen from the device side."""

    async def read(self) -> bytes:
        """The next chunk from the peer; b"" once the peer has closed."""
        ...

    async def write(self, data: bytes) -> None:
        """Send bytes (may split them); ChannelClosed if the peer is gone."""
        ...

    async def close(self) -> None:
        """Finish the stream after everything written has been delivered."""
        ...

    @property
    def closed(self) -> bool: ...

    async def wait_closed(self) -> None:
        """Return once either side has closed the channel."""
        ...


class ChannelReader:
    """Exact-size and delimiter reads on top of a chunked Channel (requests arrive split or merged)."""

    def __init__(self, channel: Channel) -> None:
        self.channel = channel
        self.buffer = bytearray()
        self.eof = False

    async def fill(self) -> bool:
        """Read one more chunk; False at EOF."""
        if self.eof:
            return False
        chunk = await self.channel.read()
        if not chunk:
            self.eof = True
            return False
        self.buffer += chunk
        return True

    async def read_exactly(self, size: int) -> bytes | None:
        """Exactly `size` bytes, or None if the channel ends first."""
        while len(self.buffer) < size:
            if not await self.fill():
                return None
        data = bytes(self.buffer[:size])
        del self.buffer[:size]
        return data

    async def read_until(self, separator: bytes, limit: int) -> bytes | None:
        """Bytes up to and including `separator`; None at EOF or when `limit` is exceeded first."""
        start = 0
        while True:
            index = self.buffer.find(separator, start)
            if index >= 0:
                end = index + len(separator)
                data = bytes(self.buffer[:end])
                del self.buffer[:end]
                return data
            if len(self.buffer) > limit:
                return None
            start = max(0, len(self.buffer) - len(separator) + 1)
            if not await self.fill():
                return None


class PipeChannel:
    """An in-memory Channel end; two of them make a pipe (tests, and front ends without ADB)."""

    def __init__(self) -> None:
        self.inbox: asyncio.Queue[bytes] = asyncio.Queue()
        self.peer: PipeChannel | None = None
        self._closed = asyncio.Event()

    @classmethod
    def pair(cls) -> tuple[PipeChannel, PipeChannel]:
        """Two connected ends."""
        a, b = cls(), cls()
        a.peer, b.peer = b, a
        return a, b

    async def read(self) -> bytes:
        if self._closed.is_set() and self.inbox.empty():
            return b""
        return await self.inbox.get()

    async def write(self, data: bytes) -> None:
        if self._closed.is_set() or self.peer is None:
            raise ChannelClosed("pipe closed")
        if data:
            self.peer.inbox.put_nowait(bytes(data))

    async def close(self) -> None:
        for end in (self, self.peer):
            if end is not None and not end._closed.is_set():
                end._closed.set()
                end.inbox.put_nowait(b"")

    @property
    def closed(self) -> bool:
        return self._closed.is_set()

    async def wait_closed(self) -> None:
        await self._closed.wait()
