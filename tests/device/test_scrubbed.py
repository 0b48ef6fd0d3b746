"""`ScrubbedDevice`: what the engine observes never holds a secret; actions reach the phone unchanged."""

from __future__ import annotations

from starebrain.device.base import Device
from starebrain.device.scrubbed import ScrubbedDevice
from starebrain.redaction import Scrubber
from tests.fakes.fake_device import FakeDevice, FakeNode, FakeScreen, screen_xml

PASSWORD = "correct-horse-42"


def test_observations_are_scrubbed_and_everything_else_passes_through() -> None:
    memo = FakeNode(text="", resource_id="com.bank:id/memo", class_name="android.widget.EditText",
                    bounds=(0, 0, 500, 100), focused=True)
    form = FakeScreen("form", screen_xml("com.bank", [memo]), package="com.bank")
    inner = FakeDevice([form])
    dev = ScrubbedDevice(inner, Scrubber({"BANK": PASSWORD}))
    assert isinstance(dev, Device) and dev.serial == inner.serial
    dev.type_text(PASSWORD)  # the phone gets the value itself...
    assert inner.typed == [PASSWORD] and PASSWORD in inner.observe().hierarchy_xml
    seen = dev.observe(screenshot=True).hierarchy_xml  # ...what StareBrain sees holds its reference
    assert PASSWORD not in seen and 'text="{secret:BANK}"' in seen
    assert dev.current_app() == inner.current_app()
