"""One line per daemon event, on stdout (journald adds the time when run as a systemd unit)."""

from __future__ import annotations

import sys
import threading

_lock = threading.Lock()  # workers print from their own threads: whole lines, never interleaved


def say(host: str, text: str, serial: str | None = None) -> None:
    """`[daemon] host serial: text`, flushed at once."""
    where = f"{host} {serial}" if serial else host
    with _lock:
        print(f"[daemon] {where}: {text}", file=sys.stdout, flush=True)
