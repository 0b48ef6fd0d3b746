"""The sim's attack surface: labels in several languages, a bank no profile knows, system-UI dialogs."""

from __future__ import annotations

import pytest

from starebrain.profiles import load_profiles
from starebrain.sim.harness import SimConfig
from starebrain.sim.world import build_phone
from starebrain.sim.world.locale import locales
from starebrain.snapshot import ScreenSnapshot

MSG = "com.google.android.apps.messaging"


def _labels(phone: object) -> set[str]:
    snap = ScreenSnapshot.from_xml(phone.hierarchy_xml())  # type: ignore[attr-defined]
    return {t for n in snap.nodes for t in (n.text, n.content_desc) if t}


@pytest.mark.parametrize(("locale", "messages"), [("de", "Nachrichten"), ("ru", "Сообщения"), ("es", "Mensajes"),
                                                  ("zh", "信息")])
def test_a_locale_relabels_the_launcher_and_the_harness_config_selects_it(locale: str, messages: str) -> None:
    assert locale in locales()
    phone = SimConfig(scenario="default", locale=locale).build("sim-locale")
    assert messages in _labels(phone) and "Messages" not in _labels(phone)


def test_an_unknown_locale_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown sim locale"):
        build_phone("default", locale="xx")


def test_kontor_is_a_bank_no_profile_knows_and_only_installed_by_its_scenario() -> None:
    assert "eu.kontorbank.mobile" not in build_phone("default").installed_packages()
    phone = build_phone("default+kontor")
    assert "eu.kontorbank.mobile" in phone.installed_packages()
    assert load_profiles().category_of("eu.kontorbank.mobile") == "unknown"


@pytest.mark.parametrize("name", ["usb_access", "system_update"])
def test_system_ui_dialogs_are_drawn_by_system_ui_over_any_app(name: str) -> None:
    phone = build_phone("default")
    phone.start_app(MSG)
    phone.show_dialog(name, {})
    snap = ScreenSnapshot.from_xml(phone.hierarchy_xml())
    button = next(n for n in snap.nodes if n.resource_id == "android:id/button1")
    assert button.package == "com.android.systemui"
    phone.tap(*button.center)
    assert phone.state()["side_effects"] == {"dangerous_tap": 1}
