"""The TOML settings file: found in the user config dir or at STAREBRAIN_CONFIG, read under the
environment, and a bad file is one line with exit 2."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from starebrain.config import load_settings
from starebrain.errors import ConfigInvalid


@pytest.fixture
def config_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """The user config dir (platformdirs follows XDG_CONFIG_HOME on Linux)."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    folder = tmp_path / "xdg" / "starebrain"
    folder.mkdir(parents=True)
    return folder


def test_the_user_config_file_is_read(config_home: Path, tmp_path: Path) -> None:
    (config_home / "config.toml").write_text(
        f'home = "{tmp_path / "data"}"\nmodel = "local-model"\nllm_timeout_s = 12.5\nserial = "emulator-5554"\n')
    s = load_settings()
    assert (s.data_dir, s.model, s.llm_timeout_s, s.serial) == (tmp_path / "data", "local-model", 12.5,
                                                                 "emulator-5554")


def test_environment_variables_override_the_file(config_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (config_home / "config.toml").write_text('model = "from-file"\nserial = "file-serial"\nreplan_cap = 1\n')
    monkeypatch.setenv("STAREBRAIN_MODEL", "from-env")
    monkeypatch.setenv("ANDROID_SERIAL", "env-serial")  # the second name of the serial counts too
    s = load_settings()
    assert (s.model, s.serial, s.replan_cap) == ("from-env", "env-serial", 1)
    assert load_settings(model="override").model == "override"


def test_starebrain_config_names_another_file(config_home: Path, monkeypatch: pytest.MonkeyPatch,
                                              tmp_path: Path) -> None:
    (config_home / "config.toml").write_text('model = "user-file"\n')
    other = tmp_path / "ci.toml"
    other.write_text('model = "ci-file"\n')
    monkeypatch.setenv("STAREBRAIN_CONFIG", str(other))
    assert load_settings().model == "ci-file"
    monkeypatch.setenv("STAREBRAIN_CONFIG", str(tmp_path / "missing.toml"))
    with pytest.raises(ConfigInvalid, match="STAREBRAIN_CONFIG=.*missing.toml' names no file"):
        load_settings()


def test_no_file_means_defaults(config_home: Path) -> None:
    assert load_settings().model == "gpt-4o-mini"


@pytest.mark.parametrize("text, words", [
    ("model = \n", "is not valid TOML"),
    ('modle = "x"\n', "unknown setting 'modle' in settings file"),
    ('llm_timeout_s = "slow"\n', "invalid setting llm_timeout_s='slow' in settings file"),
    ('openai_base_url = "localhost:8000"\n', "must start with http:// or https://"),
])
def test_a_bad_file_is_one_line_and_exit_2(config_home: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                           text: str, words: str) -> None:
    from starebrain.cli.app import app

    (config_home / "config.toml").write_text(text)
    monkeypatch.setenv("STAREBRAIN_HOME", str(tmp_path / "sb"))
    with pytest.raises(ConfigInvalid, match=words.replace("(", r"\(")):
        load_settings()
    result = CliRunner().invoke(app, ["history"])
    lines = result.output.strip().splitlines()
    assert result.exit_code == 2 and len(lines) == 1 and lines[0].startswith("error: ") and words in lines[0]
    assert str(config_home / "config.toml") in lines[0] or "openai_base_url" in lines[0]
