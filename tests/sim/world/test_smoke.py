"""The world builds and shows the launcher and Messages."""

from __future__ import annotations

from starebrain.sim.world import build_phone, scenario_names


def test_default_scenario_starts_on_the_launcher() -> None:
    phone = build_phone()
    assert "default" in scenario_names()
    assert phone.current_focus()[0] == "com.android.launcher3"
    assert 'text="Messages"' in phone.hierarchy_xml()


def test_messages_lists_the_client_first() -> None:
    phone = build_phone()
    phone.start_app("com.google.android.apps.messaging")
    names = [n.attrs["text"] for n in phone.root().iter()
             if n.attrs.get("resource-id", "").endswith("conversation_name")]
    assert names[0] == "Dana Whitfield"
