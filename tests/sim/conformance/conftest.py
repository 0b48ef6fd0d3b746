"""Conformance fixtures: the session sim (default world, Android 14) seen through unmodified clients."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

U2_APK = "app-uiautomator.apk"  # a real APK shipped inside the uiautomator2 wheel


@pytest.fixture(scope="session")
def real_apk() -> Path:
    """uiautomator2's own AdbKeyboard APK: a real, signed APK with an IME service."""
    import uiautomator2

    return Path(uiautomator2.__file__).parent / "assets" / U2_APK


@pytest.fixture
def dev(sim: Any) -> Any:
    """adbutils' AdbDevice for the sim (fresh default world)."""
    import adbutils

    return adbutils.adb.device(sim.serial)


@pytest.fixture(scope="session")
def u2_session(sim_phone: Any) -> Iterator[Any]:
    """One uiautomator2 connection, shared by the session."""
    import uiautomator2 as u2

    yield u2.connect(sim_phone.serial)


@pytest.fixture
def d(sim: Any, u2_session: Any) -> Any:
    """The u2 device on a fresh default world, screen on."""
    u2_session.screen_on()
    return u2_session
