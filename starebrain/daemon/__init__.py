"""`starebrain daemon`: the host service that tracks its phones and runs their tasks, one worker each."""

from __future__ import annotations

from starebrain.daemon.service import Daemon, DaemonOptions

__all__ = ["Daemon", "DaemonOptions"]
