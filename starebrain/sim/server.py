"""One simulated phone on the wire: a TCP listener speaking adbd, kept registered with the adb server."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from collections.abc import Callable
from pathlib import Path

from starebrain.sim.adb.packet import connect_banner
from starebrain.sim.adb.registration import register, serial_for
from starebrain.sim.adb.transport import AdbTransport
from starebrain.sim.phone import SimPhone
from starebrain.sim.services.device import SimDevice
from starebrain.sim.services.router import FEATURES, resolve_service

log = logging.getLogger(__name__)

EMULATOR_SCAN_PORTS = range(5554, 5586)  # the adb server probes these itself; never take them by accident
CONNECT_WAIT_S = 3.0  # after registering, how long the server gets to connect to us
RETRY_S = 0.25  # pause between registration attempts while no adb server answers


def bind_listener(port: int = 0) -> socket.socket:
    """A listening loopback socket; port 0 picks a free one outside the emulator scan range."""
    for _ in range(20):
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", port))
        if port or sock.getsockname()[1] not in EMULATOR_SCAN_PORTS:
            sock.listen(16)
            return sock
        sock.close()
    raise OSError("no free port outside the emulator scan range")


class SimServer:
    """Serve one SimDevice to the adb server on `adb_port` until stop()."""

    def __init__(self, device: SimDevice, sock: socket.socket, adb_port: int, mode: str = "emulator") -> None:
        self.device = device
        self.sock = sock
        self.port: int = sock.getsockname()[1]
        self.adb_port = adb_port
        self.mode = mode
        self.serial = serial_for(self.port, mode)
        self.transports: set[AdbTransport] = set()
        self._server: asyncio.Server | None = None
        self._keeper: asyncio.Task[None] | None = None
        self._changed = asyncio.Event()
        self._away_until = 0.0
        self._stopping = False
        device.on_disconnect_fault = self.drop

    @classmethod
    async def create(cls, phone_factory: Callable[[str], SimPhone], *, port: int = 0, adb_port: int = 5037,
                     mode: str = "emulator", files_dir: Path | None = None, android: int = 14) -> SimServer:
        """Bind the port, build the phone for the resulting serial, start serving and registering."""
        sock = bind_listener(port)
        phone = phone_factory(serial_for(sock.getsockname()[1], mode))
        server = cls(SimDevice(phone, files_dir, android), sock, adb_port, mode)
        await server.start()
        return server

    @property
    def online(self) -> bool:
        """True while the adb server holds a connection to us that finished CNXN."""
        return any(t.connected for t in self.transports)

    async def start(self) -> None:
        """Accept connections and keep the adb server aware of us."""
        self._server = await asyncio.start_server(self._on_connection, sock=self.sock)
        self._keeper = asyncio.get_running_loop().create_task(self._keep_registered())

    async def stop(self) -> None:
        """Stop registering, drop every connection, stop the u2 server; the phone's state stays."""
        self._stopping = True
        if self._keeper is not None:
            self._keeper.cancel()
            await asyncio.gather(self._keeper, return_exceptions=True)
        if self._server is not None:
            self._server.close()
        for transport in list(self.transports):
            transport.abort()
        for port in list(self.device.listeners):
            self.device.stop_listener(port)
        await asyncio.sleep(0)

    def drop(self, seconds: float) -> None:
        """Fault: drop the adb connection and refuse the server for `seconds`, then re-register."""
        loop = asyncio.get_running_loop()
        # Let the reply to the command that triggered the fault leave first.
        loop.call_later(0.02, self._drop_now, seconds)

    def _drop_now(self, seconds: float) -> None:
        self._away_until = asyncio.get_running_loop().time() + seconds
        for transport in list(self.transports):
            transport.abort()
        self._changed.set()

    def _away(self) -> bool:
        return asyncio.get_running_loop().time() < self._away_until

    async def _on_connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self._stopping or self._away():
            writer.transport.abort()
            return
        transport = AdbTransport(reader, writer, lambda name: resolve_service(self.device, name), self._banner)
        self.transports.add(transport)
        try:
            await transport.run()
        finally:
            self.transports.discard(transport)
            self._changed.set()

    def _banner(self) -> bytes:
        self._changed.set()  # a CNXN arrived: we are online
        phone = self.device.phone
        props = {name: phone.getprop(name) for name in
                 ("ro.product.name", "ro.product.model", "ro.product.device")}
        return connect_banner(props, FEATURES)

    async def _keep_registered(self) -> None:
        # Registers at start, after a fault, and whenever the adb server restarted (our connection ends).
        while not self._stopping:
            self._changed.clear()
            if self.online:
                await self._wait_change(None)
            elif self._away():
                await self._wait_change(self._away_until - asyncio.get_running_loop().time())
            elif await register(self.adb_port, self.port, self.mode):
                await self._wait_change(CONNECT_WAIT_S)
            else:
                await asyncio.sleep(RETRY_S)

    async def _wait_change(self, timeout: float | None) -> None:
        with contextlib.suppress(TimeoutError):  # the caller looks again either way
            await asyncio.wait_for(self._changed.wait(), timeout)
