"""The device side of one ADB connection: CNXN without AUTH, then multiplexed streams.

See docs/sim.md, "Transport messages".
"""

from __future__ import annotations

import asyncio
import logging
import socket
from collections.abc import Awaitable, Callable

from starebrain.sim.adb.packet import (
    A_CLSE,
    A_CNXN,
    A_OKAY,
    A_OPEN,
    A_VERSION,
    A_WRTE,
    DEVICE_MAX_PAYLOAD,
    HEADER_SIZE,
    Packet,
    PacketError,
    parse_header,
)
from starebrain.sim.adb.stream import AdbStream
from starebrain.sim.services.channel import Channel, ChannelClosed

log = logging.getLogger(__name__)

Handler = Callable[[Channel], Awaitable[None]]
ServiceResolver = Callable[[str], Handler | None]


class AdbTransport:
    """Serve one TCP connection from the adb server until it ends (or is dropped on purpose)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                 resolve: ServiceResolver, banner: Callable[[], bytes]) -> None:
        self.reader = reader
        self.writer = writer
        self.resolve = resolve
        self.banner = banner
        self.max_payload = DEVICE_MAX_PAYLOAD
        self.streams: dict[int, AdbStream] = {}
        self.tasks: set[asyncio.Task[None]] = set()
        self._next_id = 1
        self.connected = False  # True once the host's CNXN was answered
        _set_nodelay(writer)

    async def run(self) -> None:
        """Read and dispatch packets until EOF, a protocol error, or abort()."""
        try:
            while True:
                packet = await self._read_packet()
                if packet is None:
                    break
                self._dispatch(packet)
        except (PacketError, ConnectionError, OSError) as exc:
            log.info("dropping adb connection: %s", exc)
        finally:
            self._shutdown()

    def send(self, packet: Packet) -> None:
        """Queue one whole packet on the socket (header and payload in one write: no interleaving)."""
        if not self.writer.is_closing():
            self.writer.write(packet.encode())

    async def drain(self) -> None:
        """Wait while the socket's write buffer is full."""
        try:
            await self.writer.drain()
        except (ConnectionError, RuntimeError) as exc:
            raise ChannelClosed(str(exc)) from exc

    def forget(self, local_id: int) -> None:
        """Drop a closed stream; later packets for its id are ignored."""
        self.streams.pop(local_id, None)

    def abort(self) -> None:
        """Drop the TCP connection at once (fault injection, shutdown)."""
        self.writer.transport.abort()

    async def _read_packet(self) -> Packet | None:
        try:
            header = await self.reader.readexactly(HEADER_SIZE)
            command, arg0, arg1, length = parse_header(header)
            payload = await self.reader.readexactly(length) if length else b""
        except asyncio.IncompleteReadError:
            return None
        return Packet(command, arg0, arg1, payload)

    def _dispatch(self, packet: Packet) -> None:
        handlers = {A_CNXN: self._on_cnxn, A_OPEN: self._on_open, A_OKAY: self._on_okay,
                    A_WRTE: self._on_wrte, A_CLSE: self._on_clse}
        handler = handlers.get(packet.command)
        if handler is not None:  # AUTH, SYNC, STLS and unknown commands are ignored, like adbd
            handler(packet)

    def _on_cnxn(self, packet: Packet) -> None:
        # Answering CNXN with CNXN (never AUTH) makes the host skip authentication.
        self.max_payload = max(256, min(packet.arg1 or DEVICE_MAX_PAYLOAD, DEVICE_MAX_PAYLOAD))
        self.connected = True
        self.send(Packet(A_CNXN, A_VERSION, DEVICE_MAX_PAYLOAD, self.banner()))

    def _on_open(self, packet: Packet) -> None:
        if packet.arg0 == 0:
            return
        service = packet.payload.split(b"\0", 1)[0].decode("utf-8", "replace")
        handler = self.resolve(service)
        if handler is None:
            self.send(Packet(A_CLSE, 0, packet.arg0))
            return
        stream = AdbStream(self, self._allocate_id(), packet.arg0, service)
        self.streams[stream.local_id] = stream
        self.send(Packet(A_OKAY, stream.local_id, packet.arg0))
        task = asyncio.get_running_loop().create_task(_serve(stream, handler))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def _on_okay(self, packet: Packet) -> None:
        stream = self._stream_for(packet)
        if stream is not None:
            stream.on_okay()

    def _on_wrte(self, packet: Packet) -> None:
        stream = self._stream_for(packet)
        if stream is not None:
            self.send(Packet(A_OKAY, stream.local_id, stream.remote_id))
            stream.on_data(packet.payload)

    def _on_clse(self, packet: Packet) -> None:
        stream = self.streams.get(packet.arg1)
        if stream is not None and packet.arg0 in (0, stream.remote_id):
            stream.on_remote_close()
            self.send(Packet(A_CLSE, stream.local_id, stream.remote_id))

    def _stream_for(self, packet: Packet) -> AdbStream | None:
        stream = self.streams.get(packet.arg1)
        if stream is None or stream.remote_id != packet.arg0:
            return None
        return stream

    def _allocate_id(self) -> int:
        while True:
            local_id = self._next_id
            self._next_id = self._next_id + 1 if self._next_id < 0x7FFFFFFF else 1
            if local_id not in self.streams:
                return local_id

    def _shutdown(self) -> None:
        for stream in list(self.streams.values()):
            stream.on_remote_close()
        self.streams.clear()
        for task in list(self.tasks):  # e.g. a waitForExists or `sleep` nobody can answer any more
            task.cancel()
        if not self.writer.is_closing():
            self.writer.close()


async def _serve(stream: AdbStream, handler: Handler) -> None:
    try:
        await handler(stream)
    except ChannelClosed:
        pass  # the peer went away; nothing left to serve
    except Exception:  # a service bug must never take the connection down
        log.exception("service %r failed", stream.service)
    finally:
        await stream.close()


def _set_nodelay(writer: asyncio.StreamWriter) -> None:
    # docs/sim.md, "Transport messages".
    # MUST: without TCP_NODELAY, Nagle holds OKAY+WRTE pairs and each RPC costs ~97 ms.
    sock = writer.get_extra_info("socket")
    if sock is not None:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
