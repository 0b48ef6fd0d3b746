"""`umask_022`: the test (and every process it starts) runs under umask 022, the common default."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest


@pytest.fixture
def umask_022() -> Iterator[None]:
    """Without care, files would be created 0644 and folders 0755 under it."""
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)
