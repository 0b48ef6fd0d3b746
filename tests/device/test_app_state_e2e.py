"""U2Device.stop_app and clear_state on the simulated phone: a force-stop leaves the data, `pm clear` really
deletes what was done in the app (the sim state shows it), and a package the phone does not have is BadInput."""

from __future__ import annotations

from typing import Any

import pytest

from starebrain.device import U2Device
from starebrain.errors import BadInput

pytestmark = pytest.mark.e2e

KEEP = "com.google.android.keep"


def _titles(sim: Any) -> list[str]:
    return [n["title"] for n in sim.call(lambda phone: phone.state()["apps"][KEEP]["notes"])]


def test_stop_keeps_the_data_and_clear_deletes_it(sim: Any) -> None:
    dev = U2Device(sim.serial)
    try:
        seeded = _titles(sim)
        sim.call(lambda phone: phone.world.app(KEEP)["notes"].insert(0, {"id": "n9", "title": "Mine", "text": "x"}))
        dev.open_app(KEEP)
        dev.stop_app(KEEP)
        assert dev.current_app()[0] != KEEP
        assert _titles(sim) == ["Mine", *seeded]  # a force-stop keeps what the app stored
        dev.open_app(KEEP)
        dev.clear_state(KEEP)
        assert dev.current_app()[0] != KEEP
        assert _titles(sim) == seeded  # back to what the phone was set up with
        assert sim.call(lambda phone: phone.state()["side_effects"]).get("app_data_cleared") == 1
        with pytest.raises(BadInput, match="pm clear com.no.such did not succeed: Failed"):
            dev.clear_state("com.no.such")
    finally:
        dev.close()
