"""`U2Device`: the `Device` protocol over uiautomator2 → adbutils → the adb server → a phone.

The only module of StareBrain that imports uiautomator2 or adbutils.

Two kinds of calls, on purpose:
- Observations and idempotent calls (dump, screenshot, current app, package list, open_app) go
  through uiautomator2 as usual. Repeating them is harmless, so uiautomator2's own "restart the
  server and send again" is welcome, and we add one reconnect + retry on top.
- Actions that change the phone (tap, long press, typing, key press, swipe) are sent at most
  once through `at_most_once.call_at_most_once` (see there why not u2's path). If the request
  provably never left, the error says so (DeviceOffline / UiServerGone / DeviceTimeout); if it
  left and no answer came back, `ActionOutcomeUnknown` — the engine then treats the step as
  interrupted instead of tapping "Send" a second time.
Every call has an overall deadline (`DeviceTimeouts`) on top of the libraries' socket timeouts.
"""

from __future__ import annotations

import base64
import concurrent.futures
import http.client
import logging
import shlex
import socket
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

import adbutils
import requests
import uiautomator2 as u2
from adbutils import errors as adb_errors
from uiautomator2 import exceptions as u2err

from starebrain.device.at_most_once import (
    AnswerLost,
    ErrorReply,
    RequestNotSent,
    SendGate,
    call_at_most_once,
    shell_at_most_once,
)
from starebrain.device.base import Direction, Key, Observation
from starebrain.device.deadline import DeadlineExceeded, run_with_deadline
from starebrain.device.gestures import swipe_points
from starebrain.device.window_facts import WindowFacts
from starebrain.errors import (
    ActionOutcomeUnknown,
    BadInput,
    DeviceError,
    DeviceNotFound,
    DeviceOffline,
    DeviceTimeout,
    UiServerGone,
)

log = logging.getLogger(__name__)
T = TypeVar("T")

U2_KEYS: dict[str, str] = {"back": "back", "home": "home", "enter": "enter", "recents": "recent"}
FOCUSED: dict[str, Any] = dict(u2.Selector(focused=True))  # the field that has input focus, as u2 sends it
DEFAULT_U2_PORT = 9008
_TIMEOUTS = (adbutils.AdbTimeout, u2err.HTTPTimeoutError, requests.Timeout, TimeoutError, DeadlineExceeded)
_SERVER_GONE = (u2err.UiAutomationError, u2err.RPCError)
# "cannot reach the adb server" (adbutils >= 2.x has a class for it; keep working without).
_ADB_SERVER_DOWN = tuple(c for c in (getattr(adb_errors, "AdbConnectionError", None),) if c is not None)
_AMBIGUOUS = (adbutils.AdbError, u2err.DeviceError, requests.RequestException, OSError,
              http.client.HTTPException, EOFError)


@dataclass(frozen=True)
class DeviceTimeouts:
    """Overall deadlines (seconds) for one call, whatever the libraries' own timeouts are."""

    connect_s: float = 60.0  # includes pushing u2.jar and launching the server
    observe_s: float = 30.0  # dump (+ screenshot; + display size, current app when they changed)
    action_s: float = 10.0  # one tap / press / swipe / paste
    query_s: float = 20.0  # current_app, installed_packages, open_app
    probe_s: float = 3.0  # "is the phone still listed by adb?" after an ambiguous failure

    @classmethod
    def uniform(cls, timeout_s: float) -> DeviceTimeouts:
        """Every call bounded by `timeout_s`; connecting gets more (it may push u2.jar and launch)."""
        return cls(connect_s=max(3 * timeout_s, 30.0), observe_s=timeout_s, action_s=timeout_s,
                   query_s=timeout_s, probe_s=min(3.0, timeout_s))


class U2Device:
    """A phone reached through the adb server. Connects on construction."""

    def __init__(self, serial: str, *, adb_host: str | None = None, adb_port: int | None = None,
                 u2_port: int = DEFAULT_U2_PORT, timeouts: DeviceTimeouts | None = None,
                 send_permit: Callable[[], None] | None = None) -> None:
        self.serial = serial
        self.timeouts = timeouts or DeviceTimeouts()
        self._client = adbutils.AdbClient(host=adb_host, port=adb_port)
        self._u2_port = u2_port
        self._u2: u2.Device | None = None
        self._broken = False  # set after a failure: the next call reconnects first
        self._size = (0, 0)
        self._facts = WindowFacts(self._read_size, self._current_app_once)
        self._shots: concurrent.futures.ThreadPoolExecutor | None = None
        self.reconnects = 0
        self.send_permit = send_permit  # the lease's fencing check, right before each action (SendGate)
        self._connect(time.monotonic() + self.timeouts.connect_s, first=True)

    @classmethod
    def connect(cls, serial: str, *, timeout_s: float | None = None, adb_host: str | None = None,
                adb_port: int | None = None, send_permit: Callable[[], None] | None = None) -> U2Device:
        """Connect to `serial`; `timeout_s` bounds each device call (see `DeviceTimeouts.uniform`)."""
        timeouts = DeviceTimeouts.uniform(timeout_s) if timeout_s else None
        return cls(serial, adb_host=adb_host, adb_port=adb_port, timeouts=timeouts, send_permit=send_permit)

    # observations (safe to repeat)
    def observe(self, *, screenshot: bool = False) -> Observation:
        """Dump the hierarchy (and optionally a screenshot) of what is on screen now."""
        return self._safe_call(lambda: self._observe_once(screenshot), "observe", self.timeouts.observe_s)

    def current_app(self) -> tuple[str, str]:
        """(package, activity) of the focused window; ("", "") when nothing has focus."""
        return self._safe_call(self._current_app_once, "current_app", self.timeouts.query_s)

    def installed_packages(self) -> list[str]:
        """Every installed package name, sorted."""
        return self._safe_call(lambda: self._dev.adb_device.list_packages(), "installed_packages",
                               self.timeouts.query_s)

    def open_app(self, package: str, *, fresh: bool = False) -> None:
        """Launch `package` (monkey launcher intent); `fresh` force-stops it first. Safe to repeat."""
        self._safe_call(lambda: self._dev.app_start(package, stop=fresh), f"open_app {package}",
                        self.timeouts.query_s)

    def brand(self) -> str:
        """`ro.product.brand`, lower-cased (selects the device profile)."""
        value = self._safe_call(lambda: self._dev.adb_device.getprop("ro.product.brand"), "brand",
                                self.timeouts.query_s)
        return (value or "").strip().lower()

    def wait_online(self, timeout_s: float = 30.0, poll_s: float = 0.5) -> None:
        """Block until the phone is back (listed by adb, server answering); DeviceOffline if not."""
        deadline = time.monotonic() + timeout_s
        self._broken = True  # check for real, even if the last call went well
        while True:
            try:
                self._ensure_connected(deadline)
                return
            except (DeviceOffline, UiServerGone, DeviceTimeout):
                self._broken = True
                if time.monotonic() + poll_s >= deadline:
                    raise
                time.sleep(poll_s)

    def display_size(self) -> tuple[int, int]:
        """(width, height) in pixels, as currently rotated."""
        if self._size == (0, 0):
            self._safe_call(self._refresh_size, "display_size", self.timeouts.query_s)
        return self._size

    # actions (sent at most once)
    def tap(self, x: int, y: int) -> None:
        self._action("click", [x, y], f"tap ({x},{y})")

    def long_press(self, x: int, y: int, duration_s: float = 0.8) -> None:
        self._action("click", [x, y, int(duration_s * 1000)], f"long press ({x},{y})",
                     extra_s=duration_s)

    def press(self, key: Key) -> None:
        if key not in U2_KEYS:
            raise ValueError(f"unknown key {key!r}; expected one of {sorted(U2_KEYS)}")
        self._action("pressKey", [U2_KEYS[key]], f"press {key}")

    def swipe(self, direction: Direction) -> None:
        """Move a finger across the middle of the display; "up" = finger moves up."""
        width, height = self.display_size()
        self._action("swipe", swipe_points(direction, width, height), f"swipe {direction}")

    def type_text(self, text: str) -> None:
        """Replace the focused field's content with `text` (ACTION_SET_TEXT on the focused node).

        Never through the clipboard: any app may read it and it outlives the step, and the text
        may be a secret. Nor through uiautomator2's own calls, which log request params at DEBUG:
        the text never appears in logs or errors. BadInput when no field has focus (nothing sent)."""
        focused = self._safe_call(lambda: self._quiet_rpc("exist", [FOCUSED]), "type (find the focused field)",
                                  self.timeouts.action_s)
        if not focused:
            raise BadInput(f"{self.serial}: no focused field to type into; nothing was typed")
        if self._action("setText", [FOCUSED, text], "type") is False:
            raise BadInput(f"{self.serial}: the focused field did not take the text")

    def open_link(self, url: str, package: str | None = None) -> None:
        """Open `url` with a VIEW intent (in `package` if given), sent at most once like any action.

        BadInput when no app on the phone handles it (nothing opened)."""
        output = self._shell_action(view_command(url, package), f"open_link {url[:80]}")
        refused = link_refusal(output)
        if refused:
            raise BadInput(f"{self.serial}: no app opened {url[:80]}: {refused}")

    def stop_app(self, package: str) -> None:
        """Force-stop `package` (`am force-stop`), sent at most once like any action."""
        self._shell_action(f"am force-stop {shlex.quote(package)}", f"stop_app {package}")

    def clear_state(self, package: str) -> None:
        """Delete `package`'s data (`pm clear`), sent at most once; BadInput unless pm answers Success."""
        output = self._shell_action(f"pm clear {shlex.quote(package)}", f"clear_state {package}")
        if "Success" not in output:
            raise BadInput(f"{self.serial}: pm clear {package} did not succeed: {output.strip()[:120] or 'no output'}")

    def _shell_action(self, command: str, what: str) -> str:
        """Run one shell command that changes the phone, at most once behind the send gate, with a deadline."""
        deadline = time.monotonic() + self.timeouts.action_s
        self._ensure_connected(deadline)  # may raise; nothing has been sent yet
        gate = SendGate(self.send_permit)
        remaining = max(0.0, deadline - time.monotonic())
        adb_dev = self._dev.adb_device
        opener = lambda: adb_dev.open_transport(timeout=remaining)  # noqa: E731
        try:
            return run_with_deadline(lambda: shell_at_most_once(opener, command, gate=gate), remaining,
                                     f"{self.serial}:{what}")
        except DeadlineExceeded as exc:
            if gate.abandon():
                raise self._unknown(what, "no answer before the deadline") from exc
            raise DeviceTimeout(f"{self.serial}: {what} not sent within {remaining:.1f}s") from exc
        except RequestNotSent as exc:
            self._broken = True
            err = self._translate(exc.__cause__ or exc, what)
            raise type(err)(f"{err} (not sent)") from exc
        except AnswerLost as exc:
            raise self._unknown(what, str(exc)) from exc

    def close(self) -> None:
        """Stop the uiautomator server we launched (a later call would connect afresh)."""
        if self._shots is not None:
            self._shots.shutdown(wait=False, cancel_futures=True)
        dev, self._u2 = self._u2, None
        if dev is not None:
            try:
                run_with_deadline(lambda: _stop_server(dev), self.timeouts.probe_s)
            except Exception as exc:  # noqa: BLE001 - closing must not fail
                log.debug("%s: ignoring error on close: %r", self.serial, exc)

    # connection
    @property
    def _dev(self) -> u2.Device:
        if self._u2 is None:
            raise DeviceOffline(f"{self.serial}: device is closed")
        return self._u2

    def _connect(self, deadline: float, *, first: bool = False) -> None:
        adb_dev = self._listed_device(first=first)
        if self._u2 is None:
            self._u2 = self._bounded(lambda: u2.connect(adb_dev), deadline, "connect")
        else:  # same adb serial: relaunching the server is what u2.connect would do after listing
            self._bounded(self._dev.start_uiautomator, deadline, "reconnect")
            self._facts.forget()
            self.reconnects += 1
        self._broken = False

    def _listed_device(self, *, first: bool) -> adbutils.AdbDevice:
        try:
            infos = run_with_deadline(self._client.list, self.timeouts.probe_s, "adb devices")
        except Exception as exc:  # noqa: BLE001 - any failure here means no adb server
            raise DeviceOffline(f"{self.serial}: adb server unreachable ({exc})") from exc
        states = {i.serial: i.state for i in infos}
        if states.get(self.serial) == "device":
            return self._client.device(serial=self.serial)
        if self.serial in states:
            raise DeviceOffline(f"{self.serial}: adb lists it as {states[self.serial]!r}")
        attached = ", ".join(f"{s} ({st})" for s, st in sorted(states.items())) or "none"
        if first:
            raise DeviceNotFound(f"no device with serial {self.serial!r}; attached: {attached}")
        raise DeviceOffline(f"{self.serial}: no longer attached; attached: {attached}")

    def _ensure_connected(self, deadline: float) -> None:
        if self._u2 is None or self._broken:
            self._connect(deadline)

    # call paths
    def _bounded(self, fn: Callable[[], T], deadline: float, what: str) -> T:
        """Run `fn` until `deadline`; library errors come back translated to our tree."""
        try:
            return run_with_deadline(fn, max(0.0, deadline - time.monotonic()), f"{self.serial}:{what}")
        except DeviceError:
            raise
        except (*_TIMEOUTS, *_SERVER_GONE, *_AMBIGUOUS) as exc:
            raise self._translate(exc, what) from exc

    def _safe_call(self, fn: Callable[[], T], what: str, timeout_s: float) -> T:
        """An idempotent call: reconnect if needed, and retry once after the server went away."""
        deadline = time.monotonic() + timeout_s
        for attempt in (1, 2):
            try:
                self._ensure_connected(deadline)
                return self._bounded(fn, deadline, what)
            except UiServerGone:
                self._broken = True
                if attempt == 2 or time.monotonic() >= deadline:
                    raise
            except DeviceError:
                self._broken = True
                raise
        raise AssertionError("unreachable")

    def _action(self, method: str, params: Any, what: str, *, extra_s: float = 0.0) -> Any:
        """Send one state-changing RPC at most once (module docstring)."""
        deadline = time.monotonic() + self.timeouts.action_s + extra_s
        for attempt in (1, 2):
            self._ensure_connected(deadline)  # may raise; nothing has been sent yet
            try:
                return self._send_once(method, params, what, deadline)
            except UiServerGone:
                self._broken = True
                # The request never left (a refused connection): relaunching the server and
                # sending it now is the first send, not a repeat.
                if attempt == 2 or time.monotonic() >= deadline:
                    raise
            except DeviceError:
                self._broken = True
                raise
        raise AssertionError("unreachable")

    def _send_once(self, method: str, params: Any, what: str, deadline: float) -> Any:
        gate = SendGate(self.send_permit)
        remaining = max(0.0, deadline - time.monotonic())
        opener = self._socket_opener()
        call = lambda: call_at_most_once(opener, method, params, timeout_s=remaining, gate=gate)  # noqa: E731
        try:
            return run_with_deadline(call, remaining, f"{self.serial}:{what}")
        except DeadlineExceeded as exc:
            if gate.abandon():
                raise self._unknown(what, "no answer before the deadline") from exc
            raise DeviceTimeout(f"{self.serial}: {what} not sent within {remaining:.1f}s") from exc
        except RequestNotSent as exc:
            cause = exc.__cause__ or exc
            err = self._translate(cause, what)
            raise type(err)(f"{err} (not sent)") from exc
        except AnswerLost as exc:
            raise self._unknown(what, str(exc)) from exc
        except ErrorReply as exc:
            if exc.server_not_connected:
                raise UiServerGone(f"{self.serial}: {what} refused: UiAutomation not connected") from exc
            raise self._unknown(what, f"server error {exc.message}") from exc

    def _socket_opener(self) -> Callable[[], socket.socket]:
        adb_dev, port = self._dev.adb_device, self._u2_port
        return lambda: adb_dev.create_connection(adbutils.Network.TCP, port)

    def _unknown(self, what: str, detail: str) -> ActionOutcomeUnknown:
        self._broken = True
        return ActionOutcomeUnknown(f"{self.serial}: {what} was sent but its outcome is unknown "
                                    f"({detail}); it may have happened — not re-sent")

    # error translation
    def _translate(self, exc: BaseException, what: str) -> DeviceError:
        """Map a uiautomator2/adbutils/socket error to our tree; never to ElementNotFound."""
        reason = str(exc) or str(exc.__cause__ or exc.__context__ or "") or "no reason given by the library"
        return classify_error(exc, self._still_listed)(f"{self.serial}: {what}: {type(exc).__name__}: {reason}")

    def _still_listed(self) -> bool:
        try:
            infos = run_with_deadline(self._client.list, self.timeouts.probe_s, "adb devices")
        except Exception:  # noqa: BLE001 - no adb server: certainly not reachable
            return False
        return any(i.serial == self.serial and i.state == "device" for i in infos)

    # the calls themselves (run inside the deadline thread)
    def _observe_once(self, screenshot: bool) -> Observation:
        # The screenshot is taken while the phone dumps, not after: it is for the record, not the decision.
        shot = self._screenshot_pool().submit(self._screenshot_once) if screenshot else None
        try:
            xml = self._dev.dump_hierarchy()
            width, height = self._facts.size(xml)
            package, activity = self._facts.app(xml)
        except BaseException:
            if shot is not None:
                shot.cancel()
            raise
        return Observation(hierarchy_xml=xml, package=package, activity=activity,
                           screenshot=shot.result() if shot is not None else None, width=width, height=height)

    def _screenshot_pool(self) -> concurrent.futures.ThreadPoolExecutor:
        if self._shots is None:
            self._shots = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix=f"screenshot-{self.serial}")
        return self._shots

    def _read_size(self) -> tuple[int, int]:
        self._refresh_size()
        return self._size

    def _current_app_once(self) -> tuple[str, str]:
        try:
            info = self._dev.adb_device.app_current()
        except adbutils.AdbError as exc:
            if "focused app" in str(exc):  # nothing focused (lock screen, transition)
                return "", ""
            raise
        return info.package or "", info.activity or ""

    def _refresh_size(self) -> None:
        info = self._dev.jsonrpc.deviceInfo(http_timeout=self.timeouts.query_s)
        self._size = (int(info.get("displayWidth") or 0), int(info.get("displayHeight") or 0))

    def _screenshot_once(self) -> bytes:
        data = self._dev.jsonrpc.takeScreenshot(1, 80, http_timeout=self.timeouts.observe_s)
        if data:
            return base64.b64decode(data)  # JPEG
        return bytes(self._dev.adb_device.shell("screencap -p", encoding=None))  # PNG

    def _quiet_rpc(self, method: str, params: Any) -> Any:
        """An idempotent RPC sent once, unlogged; failures come back in our error tree."""
        try:
            return call_at_most_once(self._socket_opener(), method, params, timeout_s=self.timeouts.action_s)
        except RequestNotSent as exc:
            raise self._translate(exc.__cause__ or exc, method) from exc
        except (AnswerLost, ErrorReply) as exc:
            raise self._translate(exc, method) from exc


def view_command(url: str, package: str | None = None) -> str:
    """The `am start` command line of a VIEW intent for `url` (each argument shell-quoted)."""
    args = ["am", "start", "-a", "android.intent.action.VIEW", "-d", url]
    if package:
        args += ["-p", package]
    return " ".join(shlex.quote(a) for a in args)


def link_refusal(output: str) -> str:
    """`am start`'s complaint ("" when the activity started): am exits 0 either way, so its output tells."""
    return next((line.strip() for line in output.splitlines() if line.strip().startswith("Error")), "")


def classify_error(exc: BaseException, still_listed: Callable[[], bool]) -> type[DeviceError]:
    """Which of our errors a library/socket error is. `still_listed` asks adb whether the phone is
    still attached; it is only called when the error itself cannot tell (a dropped stream)."""
    if isinstance(exc, _TIMEOUTS):
        return DeviceTimeout
    if isinstance(exc, (*_ADB_SERVER_DOWN, u2err.ConnectError)):
        return DeviceOffline
    if isinstance(exc, adbutils.AdbError) and ("offline" in str(exc) or "not found" in str(exc)):
        return DeviceOffline  # the adb server's own words: the phone is not there
    if isinstance(exc, _SERVER_GONE):
        return UiServerGone
    # A dropped stream or "closed" may be the phone leaving or only its server dying: ask adb.
    if not still_listed() or isinstance(exc, u2err.AdbShellError):
        return DeviceOffline
    return UiServerGone


def adb_device_list(timeout_s: float = 5.0, *, adb_host: str | None = None,
                    adb_port: int | None = None) -> list[dict[str, Any]]:
    """Every phone the adb server knows (serial, state, model, product, transport_id).

    Raises DeviceOffline if no adb server answers within `timeout_s`."""
    client = adbutils.AdbClient(host=adb_host, port=adb_port)
    try:
        infos = run_with_deadline(lambda: client.list(extended=True), timeout_s, "adb devices")
    except (DeadlineExceeded, adbutils.AdbError, OSError) as exc:
        raise DeviceOffline(f"adb server not reachable ({exc or type(exc).__name__})") from exc
    return [{"serial": i.serial, "state": i.state, "model": i.tags.get("model", ""),
             "product": i.tags.get("product", ""), "transport_id": getattr(i, "transport_id", None)}
            for i in infos]


def _stop_server(dev: u2.Device) -> None:
    """Close the server's launch stream without waiting for it to die."""
    try:
        dev.stop_uiautomator(wait=False)
    except TypeError:  # uiautomator2 before 3.x's `wait` argument
        dev.stop_uiautomator()


def track_device_events() -> Iterator[tuple[str, bool]]:
    """(serial, ready) for every change the adb server's `host:track-devices` stream reports, until it breaks."""
    client = adbutils.AdbClient(socket_timeout=None)  # the stream is idle while nothing changes
    for event in client.track_devices():
        yield event.serial, event.status == "device"


def device_properties(serial: str, props: dict[str, str], timeout_s: float) -> dict[str, str]:
    """`getprop` values of one phone by our names (`{"model": "ro.product.model"}`); errors propagate."""
    device = adbutils.AdbClient(socket_timeout=timeout_s).device(serial)
    return {key: str(device.getprop(prop) or "").strip() for key, prop in props.items()}
