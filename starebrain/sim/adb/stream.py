"""One ADB stream (OPEN..CLSE) on the device side, with the one-packet-in-flight flow control.

See docs/sim.md, "Transport messages".
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING

from starebrain.sim.adb.packet import A_CLSE, A_WRTE, Packet
from starebrain.sim.services.channel import ChannelClosed

if TYPE_CHECKING:
    from starebrain.sim.adb.transport import AdbTransport

# How long close() waits for the host to ack the last WRTE before closing anyway.
CLOSE_ACK_TIMEOUT_S = 10.0


class AdbStream:
    """A Channel over one ADB stream: host data arrives by WRTE, ours leaves by WRTE after each OKAY."""

    def __init__(self, transport: AdbTransport, local_id: int, remote_id: int, service: str) -> None:
        self.transport = transport
        self.local_id = local_id
        self.remote_id = remote_id
        self.service = service
        self._inbox: asyncio.Queue[bytes] = asyncio.Queue()
        self._can_send = asyncio.Event()
        self._can_send.set()  # our OKAY to the OPEN lets us send the first WRTE at once
        self._closed = asyncio.Event()

    @property
    def closed(self) -> bool:
        return self._closed.is_set()

    async def read(self) -> bytes:
        """Next chunk written by the host; b"" once the stream is closed."""
        if self.closed and self._inbox.empty():
            return b""
        return await self._inbox.get()

    async def write(self, data: bytes) -> None:
        """Send `data` as WRTEs no larger than the negotiated payload, each after the previous OKAY."""
        limit = self.transport.max_payload
        view = memoryview(bytes(data))
        for start in range(0, len(view), limit):
            await self._can_send.wait()
            if self.closed:
                raise ChannelClosed(self.service)
            self._can_send.clear()
            self.transport.send(Packet(A_WRTE, self.local_id, self.remote_id, bytes(view[start:start + limit])))
        await self.transport.drain()

    async def close(self) -> None:
        """CLSE after the last WRTE was acked (or the ack timed out)."""
        if self.closed:
            return
        with contextlib.suppress(TimeoutError):  # an unacked last WRTE must not hold the close forever
            await asyncio.wait_for(self._can_send.wait(), CLOSE_ACK_TIMEOUT_S)
        if self.closed:
            return
        self._mark_closed()
        self.transport.send(Packet(A_CLSE, self.local_id, self.remote_id))

    async def wait_closed(self) -> None:
        await self._closed.wait()

    def on_okay(self) -> None:
        """The host acked our last WRTE."""
        self._can_send.set()

    def on_data(self, data: bytes) -> None:
        """A WRTE from the host (already acked by the transport)."""
        if not self.closed and data:
            self._inbox.put_nowait(data)

    def on_remote_close(self) -> None:
        """The host closed the stream, or the whole connection went away."""
        self._mark_closed()

    def _mark_closed(self) -> None:
        if self.closed:
            return
        self._closed.set()
        self._can_send.set()  # wake a writer so it sees the close
        self._inbox.put_nowait(b"")
        self.transport.forget(self.local_id)
