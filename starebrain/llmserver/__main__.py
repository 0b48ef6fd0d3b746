"""`python -m starebrain.llmserver --script FILE [--port 0]`: serve a script on loopback for the demo.

Prints the base URL (e.g. `http://127.0.0.1:40123/v1`) on the first line of stdout, then serves until
SIGINT/SIGTERM or `--exit-after` seconds. With `--log FILE`, every received request is appended to
FILE as one JSON line when the server stops.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading
from pathlib import Path

from starebrain.llmserver.script import ScriptError
from starebrain.llmserver.server import ScriptedLlmServer


def _parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m starebrain.llmserver", description=__doc__)
    parser.add_argument("--script", type=Path, required=True, help="YAML or JSON script file")
    parser.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (0 = a free one)")
    parser.add_argument("--log", type=Path, default=None, help="write received requests here (JSON lines)")
    parser.add_argument("--exit-after", type=float, default=None, help="stop after this many seconds")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """Run the server in the foreground."""
    args = _parse(argv)
    try:
        server = ScriptedLlmServer(args.script, port=args.port)
    except ScriptError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    with server:
        print(server.base_url, flush=True)
        stop.wait(args.exit_after)
    if args.log is not None:
        _write_log(server, args.log)
    return 0


def _write_log(server: ScriptedLlmServer, path: Path) -> None:
    with path.open("a", encoding="utf-8") as out:
        for r in server.requests:
            out.write(json.dumps({"number": r.number, "path": r.path, "purpose": r.purpose,
                                  "fault": r.fault, "body": r.body}, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    sys.exit(main())
