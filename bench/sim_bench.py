"""Speed of the simulated phone through the full stack (u2 -> adbutils -> real adb server -> sim).

Figures (medians, ms): one u2 RPC (`d.info`), dump_hierarchy + click(x, y), dump + selector click, the
loopback floor (a hand-written RPC through the adb server, no adbutils), and the per-RPC slowdown when
4 sims are driven in parallel (threads, one u2 client each). Sims run as separate processes.
"""

from __future__ import annotations

import json
import socket
import statistics
import threading
import time
from collections.abc import Callable
from typing import Any

from starebrain.sim.adb_server import AdbServer
from starebrain.sim.harness import SimProcess

N_RPC = 60
N_ACTION = 30
N_PARALLEL = 40
MESSAGES_ICON = (945, 629)  # centre of the launcher's Messages icon in the default scenario


def timed(fn: Callable[[], Any], n: int, after: Callable[[], Any] | None = None) -> list[float]:
    """Milliseconds of each of n calls (after() runs untimed between calls)."""
    samples = []
    for _ in range(n):
        start = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - start) * 1000)
        if after is not None:
            after()
    return samples


def median(samples: list[float]) -> float:
    return round(statistics.median(samples), 2)


def _smart(sock: socket.socket, request: str) -> None:
    sock.sendall(f"{len(request):04x}{request}".encode())
    if sock.recv(4) != b"OKAY":
        raise RuntimeError(f"adb refused {request}")


def raw_rpc(adb_port: int, serial: str) -> dict[str, Any]:
    """One JSON-RPC with a bare socket: transport, tcp:9008, one POST send, read by Content-Length."""
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "deviceInfo", "params": {}}).encode()
    request = (f"POST /jsonrpc/0 HTTP/1.1\r\nHost: localhost:9008\r\nContent-Length: {len(body)}\r\n"
               "Content-Type: application/json\r\n\r\n").encode() + body
    with socket.create_connection(("127.0.0.1", adb_port), timeout=10) as sock:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        _smart(sock, f"host:transport:{serial}")
        _smart(sock, "tcp:9008")
        sock.sendall(request)
        data = b""
        while b"\r\n\r\n" not in data or len(data.split(b"\r\n\r\n", 1)[1]) < _length(data):
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
    return json.loads(data.split(b"\r\n\r\n", 1)[1])  # type: ignore[no-any-return]


def _length(data: bytes) -> int:
    for line in data.split(b"\r\n\r\n", 1)[0].split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            return int(line.split(b":", 1)[1])
    return 0


def single_sim(adb: AdbServer, serial: str, results: dict[str, Any]) -> None:
    """RPC, dump + click, dump + selector click, and the floor, on one sim."""
    import adbutils
    import uiautomator2 as u2

    d = u2.connect(adbutils.AdbClient(port=adb.port).device(serial))
    d.press("home")
    timed(lambda: d.info, 10)  # warm-up
    results["sim.rpc_ms"] = median(timed(lambda: d.info, N_RPC))
    home = lambda: d.press("home")  # noqa: E731
    results["sim.dump_click_ms"] = median(timed(lambda: (d.dump_hierarchy(), d.click(*MESSAGES_ICON)),
                                                N_ACTION, home))
    results["sim.dump_selector_click_ms"] = median(timed(lambda: (d.dump_hierarchy(), d(text="Messages").click()),
                                                         N_ACTION, home))
    raw_rpc(adb.port, serial)
    results["sim.floor_rpc_ms"] = median(timed(lambda: raw_rpc(adb.port, serial), N_RPC))


def parallel(adb: AdbServer, serials: list[str]) -> list[float]:
    """Per-RPC ms of 4 threads, one u2 client per sim, all at once."""
    import adbutils
    import uiautomator2 as u2

    devices = [u2.connect(adbutils.AdbClient(port=adb.port).device(s)) for s in serials]
    for device in devices:
        for _ in range(5):  # warm-up
            assert device.info
    samples: list[float] = []
    lock = threading.Lock()
    barrier = threading.Barrier(len(devices))

    def drive(d: Any) -> None:
        barrier.wait(timeout=30)
        mine = timed(lambda: d.info, N_PARALLEL)
        with lock:
            samples.extend(mine)
    threads = [threading.Thread(target=drive, args=(d,)) for d in devices]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return samples


def run(results: dict[str, Any]) -> None:
    """Start an isolated adb server and 4 sim processes; measure; tear everything down."""
    adb = AdbServer().start()
    sims: list[SimProcess] = []
    try:
        sims = [SimProcess(adb) for _ in range(4)]
        for sim in sims:
            sim.wait_online()
        single_sim(adb, sims[0].serial, results)
        parallel_median = median(parallel(adb, [sim.serial for sim in sims]))
        results["sim.parallel4_rpc_ms"] = parallel_median
        results["sim.parallel4_rpc_ratio"] = round(parallel_median / results["sim.rpc_ms"], 2)
    finally:
        for sim in sims:
            sim.stop()
        adb.close()
