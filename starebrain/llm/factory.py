"""Build the product's planner from settings: the openai client, its transport, record/replay."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import AliasChoices, Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

from starebrain.errors import ConfigInvalid
from starebrain.llm.base import Planner
from starebrain.redaction import Scrubber

DEFAULT_MODEL = "gpt-4o-mini"


class LlmSettings(BaseSettings):
    """The planner's part of `starebrain.config.Settings` (same field names), for use without it."""

    model_config = SettingsConfigDict(env_file=None, extra="ignore", env_ignore_empty=True)

    openai_api_key: SecretStr | None = Field(default=None, validation_alias=AliasChoices(
        "OPENAI_API_KEY", "openai_api_key"))
    openai_base_url: str | None = Field(default=None, validation_alias=AliasChoices(
        "OPENAI_BASE_URL", "openai_base_url"))
    model: str = Field(default=DEFAULT_MODEL, min_length=1, validation_alias=AliasChoices(
        "STAREBRAIN_MODEL", "model"))
    vision_model: str | None = Field(default=None, min_length=1, validation_alias=AliasChoices(
        "STAREBRAIN_VISION_MODEL", "vision_model"))
    vision: bool = Field(default=True, validation_alias=AliasChoices("STAREBRAIN_VISION", "vision"))
    llm_timeout_s: float = Field(default=60.0, gt=0, le=600, validation_alias=AliasChoices(
        "STAREBRAIN_LLM_TIMEOUT_S", "llm_timeout_s"))
    llm_max_retries: int = Field(default=2, ge=0, le=10, validation_alias=AliasChoices(
        "STAREBRAIN_LLM_MAX_RETRIES", "llm_max_retries"))


def build_planner(settings: Any = None, *, record: Path | None = None, replay: Path | None = None,
                  secrets: Scrubber | Mapping[str, str] | None = None) -> Planner:
    """An `OpenAIPlanner` for `settings` (`starebrain.config.Settings` or anything with `LlmSettings`'
    field names; None = read the environment).

    `record`: forward to the endpoint and write every exchange to that cassette.
    `replay`: answer from that cassette, no network. `secrets` (a `Scrubber`, or name → value) are
    scrubbed from prompts and cassettes; None = every `STAREBRAIN_SECRET_*` of the environment.
    """
    import httpx2
    import openai

    from starebrain.llm.openai_planner import OpenAIPlanner, RetryPolicy

    cfg = _settings(settings)
    if record is not None and replay is not None:
        raise ConfigInvalid("--record and --replay cannot be used together")
    scrubber = _scrubber(secrets)
    transport = _transport(record, replay, scrubber)
    http_client = httpx2.Client(transport=transport, timeout=cfg.llm_timeout_s) if transport else None
    client = openai.OpenAI(api_key=_api_key(cfg, replay), base_url=cfg.openai_base_url,
                           timeout=cfg.llm_timeout_s, max_retries=0, http_client=http_client)
    return OpenAIPlanner(client, model=cfg.model, timeout_s=cfg.llm_timeout_s,
                         retry=RetryPolicy(attempts=cfg.llm_max_retries + 1), secrets=scrubber,
                         vision_model=cfg.vision_model, vision=cfg.vision)


def _scrubber(secrets: Scrubber | Mapping[str, str] | None) -> Scrubber:
    from starebrain.executor.secrets import SecretStore
    from starebrain.llm.prompts import as_scrubber

    return Scrubber.from_store(SecretStore()) if secrets is None else as_scrubber(secrets)


def _settings(settings: Any) -> LlmSettings:
    if settings is None:
        return LlmSettings()
    if isinstance(settings, LlmSettings):
        return settings
    names = LlmSettings.model_fields
    values = {n: getattr(settings, n) for n in names if getattr(settings, n, None) is not None}
    if isinstance(values.get("openai_api_key"), SecretStr):
        values["openai_api_key"] = values["openai_api_key"].get_secret_value()
    try:
        return LlmSettings.model_validate(values)
    except ValueError as exc:
        raise ConfigInvalid(f"LLM settings do not validate: {exc}") from exc


def _api_key(cfg: LlmSettings, replay: Path | None) -> str:
    if cfg.openai_api_key is not None and cfg.openai_api_key.get_secret_value():
        return cfg.openai_api_key.get_secret_value()
    if replay is not None or cfg.openai_base_url:
        return "unused"  # replay never sends it; local OpenAI-compatible servers often ignore it
    raise ConfigInvalid("OPENAI_API_KEY is not set (or set OPENAI_BASE_URL to a server that needs no key)")


def _transport(record: Path | None, replay: Path | None, scrubber: Scrubber) -> Any:
    from starebrain.llm.cassette import Cassette, RecordingTransport, ReplayTransport

    if replay is not None:
        return ReplayTransport(Cassette.load(replay))
    if record is not None:
        return RecordingTransport(Cassette(record), scrubber=scrubber)
    return None
