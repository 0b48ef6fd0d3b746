"""open_link's pieces: the quoted `am start` line, reading am's answer, and the at-most-once shell send."""

from __future__ import annotations

import shlex

import pytest

from starebrain.device.at_most_once import AnswerLost, RequestNotSent, SendGate, shell_at_most_once
from starebrain.device.u2_device import link_refusal, view_command
from starebrain.errors import LeaseLost


class FakeTransport:
    """A transport that records what was sent and fails where told."""

    def __init__(self, output: str = "Starting: Intent { act=android.intent.action.VIEW }", fail_at: str = "") -> None:
        self.output, self.fail_at = output, fail_at
        self.sent: list[str] = []
        self.closed = False

    def send_command(self, command: str) -> None:
        if self.fail_at == "send":
            raise ConnectionResetError("reset")
        self.sent.append(command)

    def check_okay(self) -> None:
        if self.fail_at == "okay":
            raise EOFError("closed")

    def read_until_close(self) -> str:
        return self.output

    def close(self) -> None:
        self.closed = True


def test_the_url_travels_as_one_quoted_argument() -> None:
    url = "https://x.example/a?b=1&c=$(reboot)'"
    command = view_command(url, "com.android.chrome")
    assert shlex.split(command) == ["am", "start", "-a", "android.intent.action.VIEW", "-d", url,
                                    "-p", "com.android.chrome"]


def test_am_reports_a_link_nobody_handles_on_its_output() -> None:
    assert link_refusal("Starting: Intent { act=android.intent.action.VIEW dat=mailto:... }") == ""
    assert link_refusal("Starting: Intent { ... }\nError: Activity not started, unable to resolve Intent { ... }") \
        .startswith("Error: Activity not started")


def test_one_send_and_its_output() -> None:
    transport = FakeTransport()
    assert shell_at_most_once(lambda: transport, "am start -d x").startswith("Starting")
    assert transport.sent == ["shell:am start -d x"] and transport.closed


def test_a_transport_that_cannot_be_opened_sent_nothing() -> None:
    def refuse() -> FakeTransport:
        raise ConnectionRefusedError("no adb")
    with pytest.raises(RequestNotSent):
        shell_at_most_once(refuse, "am start -d x")


def test_a_lost_lease_stops_the_send_before_its_first_byte() -> None:
    transport = FakeTransport()

    def permit() -> None:
        raise LeaseLost("another process holds the phone")
    with pytest.raises(LeaseLost):
        shell_at_most_once(lambda: transport, "am start -d x", gate=SendGate(permit))
    assert transport.sent == [] and transport.closed


@pytest.mark.parametrize("where", ["send", "okay"])
def test_a_failure_once_sending_began_is_an_unknown_outcome(where: str) -> None:
    with pytest.raises(AnswerLost):
        shell_at_most_once(lambda: FakeTransport(fail_at=where), "am start -d x")


def test_an_abandoned_call_never_goes_out() -> None:
    gate, transport = SendGate(), FakeTransport()
    assert gate.abandon() is False
    with pytest.raises(RequestNotSent):
        shell_at_most_once(lambda: transport, "am start -d x", gate=gate)
    assert transport.sent == []
