"""Faults: clients vanishing mid-stream, the adb server restarting, concurrent clients, injected faults."""

from __future__ import annotations

import socket
import threading
from typing import Any

import adbutils
import pytest
import uiautomator2 as u2

from starebrain.sim.phone import Faults
from tests.sim.fake_phone import NOTES, build_fake_phone

pytestmark = pytest.mark.e2e


def smart(sock: socket.socket, request: str) -> None:
    sock.sendall(f"{len(request):04x}{request}".encode())
    assert sock.recv(4) == b"OKAY", request


def open_service(adb_port: int, serial: str, service: str) -> socket.socket:
    """A raw client stream to a device service through the adb server."""
    sock = socket.create_connection(("127.0.0.1", adb_port), timeout=5)
    smart(sock, f"host:transport:{serial}")
    smart(sock, service)
    return sock


def test_client_disconnecting_mid_stream_disturbs_nothing(fake_sim: Any, adb_server: Any) -> None:
    device = adbutils.adb.device(fake_sim.serial)
    device.sync.push(b"x" * 3_000_000, "/sdcard/big.bin")
    sock = open_service(adb_server.port, fake_sim.serial, "sync:")
    sock.sendall(b"RECV" + len(b"/sdcard/big.bin").to_bytes(4, "little") + b"/sdcard/big.bin")
    assert sock.recv(65536)
    sock.close()  # gone halfway through the file
    waiting = open_service(adb_server.port, fake_sim.serial, "shell:sleep 5")
    waiting.close()
    assert device.shell("echo alive") == "alive"
    assert device.sync.read_bytes("/sdcard/big.bin") == b"x" * 3_000_000


def test_adb_server_restart_makes_the_sim_register_again(fake_sim: Any, adb_server: Any) -> None:
    fake_sim.call(lambda phone: phone.saved.append("kept"))
    adb_server.restart()
    fake_sim.wait_online(timeout=15)
    assert adbutils.adb.device(fake_sim.serial).shell("content query --uri content://notes/saved") == "Row: 0 text=kept"
    d = u2.connect(fake_sim.serial)
    assert d.info["displayWidth"] == 1080


def test_two_clients_at_once(fake_sim: Any) -> None:
    errors: list[BaseException] = []

    def rpc_client() -> None:
        try:
            d = u2.connect(fake_sim.serial)
            for _ in range(15):
                assert d.info["displayWidth"] == 1080
                assert d(text="Notes").exists
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    def file_client() -> None:
        try:
            device = adbutils.adb.device(fake_sim.serial)
            for i in range(10):
                device.sync.push(bytes([i]) * 50_000, f"/sdcard/f{i}")
                assert device.sync.read_bytes(f"/sdcard/f{i}") == bytes([i]) * 50_000
                assert device.shell2(f"echo {i}").output.strip() == str(i)
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)

    threads = [threading.Thread(target=rpc_client), threading.Thread(target=file_client)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert errors == []


def faulty_phone(faults: Faults) -> Any:
    def build(**kwargs: Any) -> Any:
        phone = build_fake_phone(**kwargs)
        phone.faults = faults
        return phone
    return build


def test_disconnect_fault_drops_then_comes_back_with_state(start_sim: Any, adb_server: Any) -> None:
    handle = start_sim(factory=faulty_phone(Faults(disconnect_after_commands=3, disconnect_for_s=1.0)))
    device = adbutils.adb.device(handle.serial)
    device.shell(f"am start -n {NOTES}/.MainActivity")
    device.shell("echo two")
    device.shell("echo three")  # the third command triggers the fault
    assert adb_server.wait_for(handle.serial, None, timeout=5)  # gone
    handle.wait_online(timeout=15)  # back after disconnect_for_s, registered again
    assert device.shell("dumpsys window windows").count(NOTES) >= 1
    assert handle.call(lambda phone: phone.current) == NOTES


def test_u2_crash_fault_is_survived_by_a_relaunch(start_sim: Any) -> None:
    handle = start_sim(factory=faulty_phone(Faults(u2_crash_after_rpcs=3)))
    d = u2.connect(handle.serial)
    for _ in range(6):
        assert d.info["displayWidth"] == 1080
    assert handle.server.device.u2_launches == 2


def test_world_u2_crash_scenario_is_applied_by_the_wire_side(start_sim: Any) -> None:
    handle = start_sim(scenario="u2_crash")
    limit = handle.call(lambda phone: phone.faults.u2_crash_after_rpcs)
    d = u2.connect(handle.serial)
    for _ in range(limit + 3):
        assert d.info["displayWidth"] > 0
    assert handle.server.device.u2_launches == 2
