"""Risk vocabularies per language (risk_words_<lang>.yaml): words for each risky concept."""

from __future__ import annotations

from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

Concept = Literal["send", "pay", "transfer", "confirm", "delete", "install", "update", "agree", "add_account",
                  "grant"]
CONCEPTS: tuple[str, ...] = get_args(Concept)
VOCABULARY_PREFIX = "risk_words_"


class VocabularyFile(BaseModel):
    """The words one language uses for each concept that needs care (at least one word per concept)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    format_version: Literal[1]
    language: str = Field(min_length=2, max_length=8)
    name: str
    concepts: dict[Concept, tuple[str, ...]]

    @field_validator("concepts")
    @classmethod
    def _words_present(cls, v: dict[Concept, tuple[str, ...]]) -> dict[Concept, tuple[str, ...]]:
        for concept, entries in v.items():
            if not entries or any(not e.strip(" *") for e in entries):
                raise ValueError(f"concept {concept}: needs at least one non-empty word")
        return v

    @model_validator(mode="after")
    def _every_concept(self) -> VocabularyFile:
        missing = [c for c in CONCEPTS if c not in self.concepts]
        if missing:
            raise ValueError(f"no words for {', '.join(missing)}")
        return self
