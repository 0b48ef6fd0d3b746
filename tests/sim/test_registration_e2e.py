"""The three ways a sim gets attached to an adb server (docs/sim.md)."""

from __future__ import annotations

import socket
from typing import Any

import adbutils
import pytest

from starebrain.sim.adb_server import AdbServer
from tests.sim.fake_phone import build_fake_phone

pytestmark = pytest.mark.e2e


def test_host_emulator_registration_names_it_emulator_port_minus_one(fake_sim: Any) -> None:
    assert fake_sim.serial == f"emulator-{fake_sim.port - 1}"
    assert not 5554 <= fake_sim.port <= 5585  # never in the server's own scan range by accident


def test_host_connect_registration_uses_ip_port_serial(start_sim: Any) -> None:
    handle = start_sim(factory=build_fake_phone, mode="connect")
    assert handle.serial == f"127.0.0.1:{handle.port}"
    assert adbutils.adb.device(handle.serial).shell("getprop ro.product.device") == "simfake"


def _free_emulator_port() -> int | None:
    for port in range(5585, 5554, -2):  # odd ports: emulator adb ports
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    return None


def test_auto_detection_at_adb_server_start(sim_host: Any, adb_server: Any) -> None:
    """The one test that listens in 5555-5585: a server started afterwards finds the sim on its own."""
    port = _free_emulator_port()
    if port is None:
        pytest.skip("every emulator port is taken on this machine")
    handle = sim_host.start_sim(adb_server, port=port, mode="none", wait=False, factory=build_fake_phone)
    second = AdbServer()
    try:
        second.start()
        assert second.wait_for(f"emulator-{port - 1}", "device", timeout=15)
    finally:
        handle.stop()
        second.close()
