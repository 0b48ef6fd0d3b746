"""Settings come from the environment, fail with one clear line, and do nothing on import."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from starebrain.config import Settings, load_settings
from starebrain.errors import ConfigInvalid
from tests.store.processes import run_python


def test_starebrain_home_places_database_and_artifacts(monkeypatch: pytest.MonkeyPatch,
                                                       tmp_path: Path) -> None:
    monkeypatch.setenv("STAREBRAIN_HOME", str(tmp_path / "sb"))
    s = load_settings()
    assert s.data_dir == tmp_path / "sb"
    assert s.db_path == tmp_path / "sb" / "starebrain.db"
    assert s.artifacts_dir == tmp_path / "sb" / "artifacts"


def test_default_home_is_the_platform_user_data_dir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from platformdirs import user_data_dir

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    s = load_settings()
    assert s.home is None
    assert s.data_dir == Path(user_data_dir("starebrain", appauthor=False))
    assert s.db_path.parent == s.data_dir


def test_db_and_artifact_paths_can_be_set_apart(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("STAREBRAIN_HOME", str(tmp_path))
    monkeypatch.setenv("STAREBRAIN_DB", str(tmp_path / "other.db"))
    monkeypatch.setenv("STAREBRAIN_ARTIFACTS_DIR", str(tmp_path / "shots"))
    s = load_settings()
    assert (s.db_path, s.artifacts_dir) == (tmp_path / "other.db", tmp_path / "shots")


def test_every_documented_variable_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    env = {"OPENAI_API_KEY": "sk-test", "OPENAI_BASE_URL": "http://127.0.0.1:9/v1",
           "STAREBRAIN_MODEL": "local-model", "STAREBRAIN_LLM_TIMEOUT_S": "12.5",
           "STAREBRAIN_LLM_MAX_RETRIES": "0", "STAREBRAIN_DEVICE_TIMEOUT_S": "3",
           "STAREBRAIN_REPLAN_CAP": "1", "STAREBRAIN_DB_BUSY_TIMEOUT_MS": "250",
           "STAREBRAIN_LEASE_TTL_S": "9", "STAREBRAIN_ARTIFACT_RETENTION_DAYS": "7",
           "ANDROID_SERIAL": "emulator-5554", "STAREBRAIN_LOG_LEVEL": "debug"}
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    s = load_settings()
    assert s.openai_api_key is not None and s.openai_api_key.get_secret_value() == "sk-test"
    assert "sk-test" not in repr(s)
    got = (s.openai_base_url, s.model, s.llm_timeout_s, s.llm_max_retries, s.device_timeout_s,
           s.replan_cap, s.db_busy_timeout_ms, s.lease_ttl_s, s.artifact_retention_days, s.serial,
           s.log_level)
    assert got == ("http://127.0.0.1:9/v1", "local-model", 12.5, 0, 3.0, 1, 250, 9.0, 7,
                   "emulator-5554", "DEBUG")


def test_starebrain_serial_wins_over_android_serial(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANDROID_SERIAL", "a")
    monkeypatch.setenv("STAREBRAIN_SERIAL", "b")
    assert load_settings().serial == "b"


def test_unrelated_variables_named_like_fields_are_ignored(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", "/somewhere")
    monkeypatch.setenv("MODEL", "nope")
    monkeypatch.setenv("SERIAL", "nope")
    s = load_settings()
    assert (s.home, s.model, s.serial) == (None, Settings.model_fields["model"].default, None)


def test_overrides_by_field_name_win_over_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STAREBRAIN_MODEL", "from-env")
    assert load_settings(model="from-code").model == "from-code"


@pytest.mark.parametrize(("name", "value", "words"), [
    ("STAREBRAIN_LLM_TIMEOUT_S", "soon", "invalid setting STAREBRAIN_LLM_TIMEOUT_S='soon'"),
    ("STAREBRAIN_REPLAN_CAP", "-1", "invalid setting STAREBRAIN_REPLAN_CAP='-1'"),
    ("OPENAI_BASE_URL", "localhost:8000", "must start with http:// or https://"),
    ("STAREBRAIN_LOG_LEVEL", "loud", "invalid setting STAREBRAIN_LOG_LEVEL"),
])
def test_invalid_values_raise_config_invalid_in_one_line(monkeypatch: pytest.MonkeyPatch, name: str,
                                                         value: str, words: str) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(ConfigInvalid) as info:
        load_settings()
    assert words in str(info.value)
    assert "\n" not in str(info.value)
    assert info.value.exit_code == 2


def test_unknown_override_is_refused() -> None:
    with pytest.raises(ConfigInvalid, match="unknown setting 'modle'"):
        load_settings(modle="x")


def test_settings_are_frozen() -> None:
    with pytest.raises(ValueError):
        load_settings().model = "x"  # type: ignore[misc]


def test_nothing_is_read_created_or_printed_on_import(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    env = {"HOME": str(home), "XDG_DATA_HOME": str(home / "xdg"), "XDG_CONFIG_HOME": str(home / "cfg")}
    code = """
        import json, sys
        import starebrain.config, starebrain.store, starebrain.store.schema
        from starebrain.config import load_settings
        on_import = "platformdirs" in sys.modules
        s = load_settings()  # looks for the settings file (platformdirs), creates nothing
        print(json.dumps({"platformdirs": on_import, "alembic": "alembic" in sys.modules}))
    """
    result = run_python(code, cwd=tmp_path, env=env)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {"platformdirs": False, "alembic": False}
    assert result.stderr == ""
    assert list(home.iterdir()) == []
