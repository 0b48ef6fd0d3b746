"""`python -m starebrain.sim ...` is `starebrain sim ...`."""

from __future__ import annotations

from cli.sim import app

if __name__ == "__main__":
    app(prog_name="python -m starebrain.sim")
