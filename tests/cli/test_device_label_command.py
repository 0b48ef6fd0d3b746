"""`starebrain devices label`: bad input is one line with exit 2 and writes nothing; set, print, remove."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from starebrain.config import load_settings
from starebrain.store import Store
from starebrain.store.device_tags import DeviceTags


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("STAREBRAIN_HOME", str(tmp_path / "sb"))
    return tmp_path / "sb"


def starebrain(*args: str) -> tuple[int, str, str]:
    from starebrain.cli.app import app

    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def stored(home: Path) -> dict[str, dict[str, str]]:
    with Store.open(settings=load_settings(home=home)) as store:
        return DeviceTags(store).all_tags()


@pytest.mark.parametrize(("args", "said"), [
    (("bank",), "tag 'bank' is not key=value"),
    (("=yes",), "a tag needs a key (key=value)"),
    (("sim=prepaid", "bank="), "tag 'bank=' has no value (--remove bank drops a tag)"),
    (("sim=prepaid", "model=Pixel 8"), "tag 'model' is reserved: the daemon sets host, model, android, brand itself"),
    (("--remove", "android"), "tag 'android' is reserved: the daemon sets host, model, android, brand itself"),
])
def test_bad_input_is_one_line_exit_2_and_sets_nothing(home: Path, args: tuple[str, ...], said: str) -> None:
    code, out, err = starebrain("devices", "label", "emulator-5554", *args)
    assert (code, out, err) == (2, "", f"error: {said}\n")
    assert stored(home) == {}


def test_an_empty_serial_is_refused(home: Path) -> None:
    code, _, err = starebrain("devices", "label", " ", "bank=yes")
    assert (code, err) == (2, "error: a phone serial is needed (see `starebrain devices`)\n")


def test_set_then_print_then_remove(home: Path) -> None:
    assert starebrain("devices", "label", "emulator-5554", "bank=logged-in", "sim=prepaid") == (
        0, "bank=logged-in sim=prepaid\n", "")
    assert starebrain("devices", "label", "emulator-5554", "sim=contract")[1] == "bank=logged-in sim=contract\n"
    assert starebrain("devices", "label", "emulator-5554") == (0, "bank=logged-in sim=contract\n", "")
    code, out, _ = starebrain("devices", "label", "emulator-5554", "--json")
    assert code == 0 and json.loads(out) == {"serial": "emulator-5554",
                                             "tags": {"bank": "logged-in", "sim": "contract"}}
    assert starebrain("devices", "label", "emulator-5554", "--remove", "sim") == (0, "bank=logged-in\n", "")
    assert starebrain("devices", "label", "emulator-5554", "-r", "sim") == (
        0, "bank=logged-in\n", "note: emulator-5554 had no tag 'sim'\n")
    assert starebrain("devices", "label", "emulator-5554", "-r", "bank") == (0, "", "emulator-5554 has no tags\n")
    assert stored(home) == {}


def test_help_shows_examples(home: Path) -> None:
    code, out, _ = starebrain("devices", "label", "--help")
    assert code == 0 and "starebrain devices label emulator-5554 --remove sim" in out
    code, out, _ = starebrain("devices", "--help")
    assert code == 0 and "label" in out and "starebrain devices --json" in out
