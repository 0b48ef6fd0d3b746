"""`apply_log_level`: StareBrain's own log lines to stderr at the level `STAREBRAIN_LOG_LEVEL` names.

Only the `starebrain` logger is configured: uiautomator2 logs every request's parameters at DEBUG,
and a typed text may be a secret, so the libraries keep Python's default (warnings and up).
"""

from __future__ import annotations

import logging
import sys

FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def apply_log_level(level: str) -> logging.Logger:
    """Set the `starebrain` logger's level and give it one stderr handler (calling again only sets the level)."""
    logger = logging.getLogger("starebrain")
    logger.setLevel(level)
    if not any(getattr(h, "starebrain_handler", False) for h in logger.handlers):
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter(FORMAT))
        handler.starebrain_handler = True  # type: ignore[attr-defined]
        logger.addHandler(handler)
        logger.propagate = False  # one line per record, not one more per root handler
    return logger
