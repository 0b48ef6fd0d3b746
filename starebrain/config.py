"""Typed settings from the environment over a TOML settings file (docs/architecture.md). Nothing is read
or created on import."""

from __future__ import annotations

import os
import stat
import tomllib
from pathlib import Path
from typing import Any, Literal

from pydantic import AliasChoices, Field, SecretStr, ValidationError, field_validator
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

from starebrain.errors import ConfigInvalid

APP_NAME = "starebrain"
CONFIG_VARIABLE = "STAREBRAIN_CONFIG"  # a settings file other than <user config dir>/config.toml
CONFIG_FILENAME = "config.toml"
DB_FILENAME = "starebrain.db"
ARTIFACTS_DIRNAME = "artifacts"
# What StareBrain writes (database, dumps, screenshots, cassettes) may show what was on the phone:
# only the person's own account may read it, whatever the umask.
PRIVATE_DIR_MODE = 0o700
PRIVATE_FILE_MODE = 0o600


class Settings(BaseSettings):
    """Everything a StareBrain process can be configured with; each field names its variable.

    No field is read under its own name (a stray `HOME` or `MODEL` is never picked up);
    `load_settings` maps field-name overrides to the variable names.
    """

    model_config = SettingsConfigDict(
        frozen=True, extra="ignore", env_ignore_empty=True, env_file=None,
    )

    home: Path | None = Field(
        None, validation_alias="STAREBRAIN_HOME",
        description="Data directory (database, artifacts). Default: the platform's user data dir.",
    )
    db_file: Path | str | None = Field(
        None, validation_alias="STAREBRAIN_DB",
        description="Database file, or a PostgreSQL URL (postgresql+psycopg://...) for a farm. "
                    "Default: <home>/starebrain.db.",
    )
    artifacts_root: Path | None = Field(
        None, validation_alias="STAREBRAIN_ARTIFACTS_DIR",
        description="Screenshots and hierarchy dumps. Default: <home>/artifacts.",
    )
    artifact_retention_days: int = Field(
        30, ge=0, validation_alias="STAREBRAIN_ARTIFACT_RETENTION_DAYS",
        description="Artifacts older than this may be pruned by the retention function; 0 keeps forever.",
    )
    openai_api_key: SecretStr | None = Field(
        None, validation_alias="OPENAI_API_KEY",
        description="Key for the OpenAI-compatible endpoint. Never logged or stored.",
    )
    openai_base_url: str | None = Field(
        None, validation_alias="OPENAI_BASE_URL",
        description="Base URL of any OpenAI-compatible endpoint; None means api.openai.com.",
    )
    model: str = Field(
        "gpt-4o-mini", min_length=1, validation_alias="STAREBRAIN_MODEL",
        description="Model name sent to the endpoint for plan, ground and replan calls.",
    )
    vision_model: str | None = Field(
        None, min_length=1, validation_alias="STAREBRAIN_VISION_MODEL",
        description="Model that reads screenshots of screens without a usable hierarchy; None means `model`.",
    )
    vision: bool = Field(
        True, validation_alias="STAREBRAIN_VISION",
        description="Whether the model may be sent screenshots (false: a model without image input).",
    )
    llm_timeout_s: float = Field(
        60.0, gt=0, le=600, validation_alias="STAREBRAIN_LLM_TIMEOUT_S",
        description="Timeout of one LLM request, in seconds.",
    )
    llm_max_retries: int = Field(
        2, ge=0, le=10, validation_alias="STAREBRAIN_LLM_MAX_RETRIES",
        description="Retries of an LLM request on connection errors, 5xx and 429.",
    )
    device_timeout_s: float = Field(
        20.0, gt=0, le=600, validation_alias="STAREBRAIN_DEVICE_TIMEOUT_S",
        description="Timeout of one device call (dump, tap, shell), in seconds.",
    )
    replan_cap: int = Field(
        3, ge=0, le=20, validation_alias="STAREBRAIN_REPLAN_CAP",
        description="Most replans one task may use (docs/architecture.md, Obstructions and replanning).",
    )
    db_busy_timeout_ms: int = Field(
        5000, ge=0, le=600_000, validation_alias="STAREBRAIN_DB_BUSY_TIMEOUT_MS",
        description="How long a write waits for another writer before DatabaseLocked, in ms.",
    )
    lease_ttl_s: float = Field(
        30.0, gt=0, le=3600, validation_alias="STAREBRAIN_LEASE_TTL_S",
        description="Life of a device lease between renewals; an expired lease can be taken over.",
    )
    profiles_dir: Path | None = Field(
        None, validation_alias=AliasChoices("STAREBRAIN_PROFILES_DIR"),
        description="Folder of device_profiles YAML files that replace or extend the packaged ones.",
    )
    serial: str | None = Field(
        None, validation_alias=AliasChoices("STAREBRAIN_SERIAL", "ANDROID_SERIAL"),
        description="Device serial to use when a command names none.",
    )
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = Field(
        "WARNING", validation_alias="STAREBRAIN_LOG_LEVEL",
        description="Logging threshold of the starebrain logger.",
    )

    @classmethod
    def settings_customise_sources(cls, settings_cls: type[BaseSettings], init_settings: PydanticBaseSettingsSource,
                                   env_settings: PydanticBaseSettingsSource,
                                   dotenv_settings: PydanticBaseSettingsSource,
                                   file_secret_settings: PydanticBaseSettingsSource,
                                   ) -> tuple[PydanticBaseSettingsSource, ...]:
        """Overrides, then the environment, then the settings file (no .env, no secrets dir)."""
        return init_settings, env_settings, SettingsFile(settings_cls, settings_file_path())

    @field_validator("openai_base_url")
    @classmethod
    def _http_url(cls, v: str | None) -> str | None:
        if v is not None and not v.startswith(("http://", "https://")):
            raise ValueError("must start with http:// or https://")
        return v

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper(cls, v: object) -> object:
        return v.upper() if isinstance(v, str) else v

    @property
    def data_dir(self) -> Path:
        """The data directory; the platform default is computed only when asked for."""
        if self.home is not None:
            return self.home.expanduser()
        from platformdirs import user_data_dir  # lazy: nothing computed at import

        return Path(user_data_dir(APP_NAME, appauthor=False))

    @property
    def db_path(self) -> Path:
        """The SQLite database file."""
        return Path(self.db_file or self.data_dir / DB_FILENAME).expanduser()

    @property
    def db_url(self) -> str | None:
        """The PostgreSQL URL when STAREBRAIN_DB is one (a farm's shared store), else None (SQLite)."""
        return str(self.db_file) if isinstance(self.db_file, str) and "://" in self.db_file else None

    @property
    def artifacts_dir(self) -> Path:
        """Where screenshots and hierarchy dumps are written (files referenced from rows)."""
        return (self.artifacts_root or self.data_dir / ARTIFACTS_DIRNAME).expanduser()


class SettingsFile(TomlConfigSettingsSource):
    """The TOML settings file: its keys are the field names (`model = "gpt-4o-mini"`); a setting whose
    variable is in the environment is taken from there."""

    def __init__(self, settings_cls: type[BaseSettings], path: Path) -> None:
        self.path = path
        try:
            super().__init__(settings_cls, toml_file=path)
        except tomllib.TOMLDecodeError as exc:
            raise ConfigInvalid(f"settings file {path} is not valid TOML: {exc}") from None
        except OSError as exc:
            raise ConfigInvalid(f"cannot read settings file {path}: {exc.strerror or exc}") from None

    def __call__(self) -> dict[str, Any]:
        unknown = sorted(set(self.toml_data) - set(Settings.model_fields))
        if unknown:
            raise ConfigInvalid(f"unknown setting {unknown[0]!r} in settings file {self.path} (keys are "
                                f"setting names such as model, openai_base_url, llm_timeout_s)")
        return {_variable_of(k): v for k, v in self.toml_data.items() if not _in_environment(k)}


def settings_file_path() -> Path:
    """STAREBRAIN_CONFIG (which must exist), else config.toml in the user config dir (read if present)."""
    named = os.environ.get(CONFIG_VARIABLE)
    if named:
        path = Path(named).expanduser()
        if not path.is_file():
            raise ConfigInvalid(f"{CONFIG_VARIABLE}={named!r} names no file")
        return path
    from platformdirs import user_config_dir  # lazy: nothing computed at import

    return Path(user_config_dir(APP_NAME, appauthor=False)) / CONFIG_FILENAME


def _in_environment(field: str) -> bool:
    alias = Settings.model_fields[field].validation_alias
    names = alias.choices if isinstance(alias, AliasChoices) else [alias or field]
    return any(os.environ.get(str(name)) for name in names)  # empty counts as unset (env_ignore_empty)


def _variable_of(field: str) -> str:
    info = Settings.model_fields.get(field)
    alias = info.validation_alias if info else None
    if isinstance(alias, AliasChoices) and alias.choices:
        return str(alias.choices[0])
    return alias if isinstance(alias, str) else field


def _one_line(exc: ValidationError) -> str:
    err = exc.errors()[0]
    loc = err.get("loc") or ("settings",)
    name = _variable_of(str(loc[0]))
    field = _field_of(name)
    where = ""
    if field is not None and (path := _file_with(field)) is not None:
        name, where = field, f" in settings file {path}"
    value = err.get("input")
    shown = "" if name in ("OPENAI_API_KEY", "openai_api_key") or isinstance(value, dict) else f"={value!r}"
    more = f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
    return f"invalid setting {name}{shown}{where}: {err.get('msg', 'invalid')}{more}"


def _file_with(field: str) -> Path | None:
    """The settings file, when the value of `field` came from it."""
    if _in_environment(field):
        return None
    path = settings_file_path()
    return path if field in SettingsFile(Settings, path).toml_data else None


def _field_of(variable: str) -> str | None:
    return next((f for f in Settings.model_fields if _variable_of(f) == variable or f == variable), None)


def load_settings(**overrides: Any) -> Settings:
    """Read settings from the environment over the settings file (overrides by field name win);
    ConfigInvalid on bad values or a bad file."""
    unknown = sorted(set(overrides) - set(Settings.model_fields))
    if unknown:
        raise ConfigInvalid(f"unknown setting {unknown[0]!r}")
    try:
        return Settings(**{_variable_of(k): v for k, v in overrides.items()})
    except ValidationError as exc:
        raise ConfigInvalid(_one_line(exc)) from None


def private_dir(path: Path) -> Path:
    """Create `path` (and missing parents) readable by the owner only; tighten it if it already exists."""
    path.mkdir(mode=PRIVATE_DIR_MODE, parents=True, exist_ok=True)
    _tighten(path, PRIVATE_DIR_MODE)
    return path


def private_file(path: Path) -> Path:
    """Create `path` empty if missing, readable by the owner only; tighten it if it already exists."""
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT, PRIVATE_FILE_MODE))
    _tighten(path, PRIVATE_FILE_MODE)
    return path


def write_private(path: Path, data: bytes) -> None:
    """Write `data` to `path` (mode 0600 from its creation on, never readable by others meanwhile)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, PRIVATE_FILE_MODE)
    with os.fdopen(fd, "wb") as out:
        os.fchmod(out.fileno(), PRIVATE_FILE_MODE)  # an existing file keeps its mode on O_CREAT
        out.write(data)


def _tighten(path: Path, mode: int) -> None:
    # Only what we own, and never a shared sticky folder such as /tmp (a database put there directly).
    info = path.stat()
    if info.st_uid == os.getuid() and not info.st_mode & stat.S_ISVTX and info.st_mode & 0o777 != mode:
        os.chmod(path, mode)
