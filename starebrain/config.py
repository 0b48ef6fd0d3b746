"""Typed settings from the environment (design §7, §8). Nothing is read or created on import."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import AliasChoices, Field, SecretStr, ValidationError, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from starebrain.errors import ConfigInvalid

APP_NAME = "starebrain"
DB_FILENAME = "starebrain.db"
ARTIFACTS_DIRNAME = "artifacts"


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
        description="Most replans one task may use (design §6).",
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
    value = err.get("input")
    shown = "" if name == "OPENAI_API_KEY" or isinstance(value, dict) else f"={value!r}"
    more = f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
    return f"invalid setting {name}{shown}: {err.get('msg', 'invalid')}{more}"


def load_settings(**overrides: Any) -> Settings:
    """Read settings from the environment (overrides by field name win); ConfigInvalid on bad values."""
    unknown = sorted(set(overrides) - set(Settings.model_fields))
    if unknown:
        raise ConfigInvalid(f"unknown setting {unknown[0]!r}")
    try:
        return Settings(**{_variable_of(k): v for k, v in overrides.items()})
    except ValidationError as exc:
        raise ConfigInvalid(_one_line(exc)) from None
