"""An isolated real adb server (adbutils' bundled binary) on its own port, HOME and TMPDIR.

Used by tests, the benchmark and the demo; nothing here imports adbutils, because adbutils reads
ANDROID_ADB_SERVER_PORT when it is first imported (callers set it first).
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

START_TIMEOUT_S = 15.0


def bundled_adb() -> str:
    """Path of the adb binary shipped inside the adbutils wheel (found without importing adbutils)."""
    spec = importlib.util.find_spec("adbutils")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("adbutils is not installed")
    path = Path(list(spec.submodule_search_locations)[0]) / "binaries" / "adb"
    if not path.is_file():
        raise RuntimeError(f"adbutils ships no adb binary at {path}")
    return str(path)


def free_port() -> int:
    """A free loopback port outside the adb emulator scan range 5554-5585."""
    while True:
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port: int = sock.getsockname()[1]
        if not 5554 <= port <= 5585:
            return port


def host_query(port: int, request: str, timeout: float = 5.0) -> str | None:
    """One smart-socket host query (`host:devices`, ...): the payload, or None if no server answers."""
    data = request.encode()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
            sock.sendall(f"{len(data):04x}".encode() + data)
            reply = _recv_all(sock)
    except OSError:
        return None
    if not reply.startswith(b"OKAY"):
        return None
    return reply[8:8 + int(reply[4:8] or b"0", 16)].decode(errors="replace") if len(reply) >= 8 else ""


def die_with_parent() -> None:
    """preexec_fn: on Linux, the child gets SIGKILL when we die, so a killed test run leaks no adb server."""
    if sys.platform.startswith("linux"):
        import ctypes

        pr_set_pdeathsig = 1
        ctypes.CDLL(None).prctl(pr_set_pdeathsig, signal.SIGKILL)


def child_guard() -> Callable[[], None] | None:
    """die_with_parent, but only from the main thread: the signal fires when the *spawning thread* ends."""
    return die_with_parent if threading.current_thread() is threading.main_thread() else None


def _recv_all(sock: socket.socket) -> bytes:
    chunks = []
    while chunk := sock.recv(65536):
        chunks.append(chunk)
    return b"".join(chunks)


class AdbServer:
    """A real adb server process we own: started on a free port, killed at close()."""

    def __init__(self, port: int | None = None, workdir: Path | None = None) -> None:
        self.port = port or free_port()
        self._own_workdir = workdir is None
        self.workdir = workdir or Path(tempfile.mkdtemp(prefix="starebrain-adb-"))
        self.adb_path = bundled_adb()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def env(self) -> dict[str, str]:
        """Environment for anything that talks to this server (the adb CLI, a sim subprocess)."""
        home = self.workdir / "home"
        home.mkdir(parents=True, exist_ok=True)
        return {**os.environ, "HOME": str(home), "TMPDIR": str(self.workdir),
                "ANDROID_ADB_SERVER_PORT": str(self.port), "ADB_MDNS": "0", "ADB_LIBUSB": "0"}

    def start(self) -> AdbServer:
        """Start `adb server nodaemon` and wait until it answers."""
        log = open(self.workdir / "adb-server.log", "ab")  # noqa: SIM115 - owned by the child
        self.process = subprocess.Popen([self.adb_path, "-P", str(self.port), "server", "nodaemon"],
                                        env=self.env, stdout=log, stderr=subprocess.STDOUT,
                                        stdin=subprocess.DEVNULL, preexec_fn=child_guard())
        log.close()
        deadline = time.monotonic() + START_TIMEOUT_S
        while host_query(self.port, "host:version", timeout=1.0) is None:
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"adb server did not start on port {self.port}")
            time.sleep(0.05)
        return self

    def kill(self) -> None:
        """Kill the server process (as a crash would); the port becomes free."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)
        self.process = None

    def restart(self) -> None:
        """Kill and start again on the same port."""
        self.kill()
        self.start()

    def close(self) -> None:
        """Kill the server and remove its scratch directory."""
        self.kill()
        if self._own_workdir:
            shutil.rmtree(self.workdir, ignore_errors=True)

    def devices(self) -> dict[str, str]:
        """serial -> state, as `adb devices` lists them."""
        text = host_query(self.port, "host:devices") or ""
        return dict(line.split("\t", 1) for line in text.splitlines() if "\t" in line)

    def wait_for(self, serial: str, state: str | None = "device", timeout: float = 15.0) -> bool:
        """Wait until `serial` is listed in `state` (None: until it is not listed at all)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.devices().get(serial) == state:
                return True
            time.sleep(0.05)
        return False

    def adb(self, *args: str, timeout: float = 60.0, input: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
        """Run the adb CLI against this server."""
        return subprocess.run([self.adb_path, "-P", str(self.port), *args], env=self.env, capture_output=True,
                              timeout=timeout, input=input, check=False)
