"""Library errors map onto our tree by what they mean: offline, server gone or timeout.

Real exception objects of the installed libraries (nothing mocked): the mapping is what the engine
relies on to choose between "wait for the phone", "relaunch the server" and "try later".
"""

from __future__ import annotations

import http.client

import adbutils
import pytest
import requests
from adbutils import errors as adb_errors
from uiautomator2 import exceptions as u2err

from starebrain.device.deadline import DeadlineExceeded
from starebrain.device.u2_device import classify_error
from starebrain.errors import DeviceOffline, DeviceTimeout, StepFailed, UiServerGone

UNAMBIGUOUS = [
    (adbutils.AdbTimeout("adb read timeout"), DeviceTimeout),
    (u2err.HTTPTimeoutError("HTTP request timeout"), DeviceTimeout),
    (requests.Timeout("read timed out"), DeviceTimeout),
    (TimeoutError("timed out"), DeviceTimeout),
    (DeadlineExceeded("tap did not finish within 10s"), DeviceTimeout),
    (adb_errors.AdbConnectionError("connect to adb server failed"), DeviceOffline),
    (u2err.ConnectError("device emulator-5554 not online"), DeviceOffline),
    (adbutils.AdbError("device 'emulator-5554' not found"), DeviceOffline),
    (adbutils.AdbError("device offline"), DeviceOffline),
    (u2err.UiAutomationNotConnectedError("UiAutomation not connected"), UiServerGone),
    (u2err.LaunchUiAutomationError("server quit unexpectly"), UiServerGone),
    (u2err.AccessibilityServiceAlreadyRegisteredError("already registered"), UiServerGone),
    (u2err.RPCUnknownError("Unknown RPC error: -32001 java.lang.NullPointerException"), UiServerGone),
]

AMBIGUOUS = [
    adbutils.AdbError("closed"),  # tcp:9008 refused: nothing listens there, or the phone just left
    u2err.HTTPError("Unable to connect to uiautomator2 server: closed"),
    ConnectionResetError(104, "Connection reset by peer"),
    http.client.RemoteDisconnected("Remote end closed connection without response"),
    requests.ConnectionError("connection aborted"),
    EOFError("Expected 4 bytes, got 0"),
]


def _never_asked() -> bool:
    raise AssertionError("the error itself says what happened; adb need not be asked")


@pytest.mark.parametrize(("exc", "expected"), UNAMBIGUOUS, ids=lambda v: type(v).__name__)
def test_errors_that_say_what_happened(exc: BaseException, expected: type) -> None:
    assert classify_error(exc, _never_asked) is expected


@pytest.mark.parametrize("exc", AMBIGUOUS, ids=lambda v: type(v).__name__)
def test_dropped_streams_ask_adb_whether_the_phone_is_still_there(exc: BaseException) -> None:
    assert classify_error(exc, lambda: True) is UiServerGone
    assert classify_error(exc, lambda: False) is DeviceOffline


def test_a_failed_shell_on_a_listed_phone_is_the_transport_not_the_server() -> None:
    assert classify_error(u2err.AdbShellError("closed"), lambda: True) is DeviceOffline


@pytest.mark.parametrize("exc", [e for e, _ in UNAMBIGUOUS] + AMBIGUOUS, ids=lambda v: type(v).__name__)
def test_infrastructure_failures_are_never_step_failures(exc: BaseException) -> None:
    assert not issubclass(classify_error(exc, lambda: True), StepFailed)  # never "element not found"
