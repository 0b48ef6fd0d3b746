"""Risk weights for the confirmation guard (risk.yaml)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from starebrain.profiles.categories import Category
from starebrain.profiles.vocabulary import Concept

ActionKind = Literal["open_app", "tap", "long_press", "type", "press", "swipe", "scroll_to", "wait_for"]


class ActionRisk(BaseModel):
    """Risk an action kind carries by itself, and how much target words count for it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    base: float = Field(ge=0.0, le=1.0)
    word_factor: float = Field(ge=0.0, le=2.0)


class WordGroup(BaseModel):
    """Risk words of one kind (money, communication, ...), and the app categories where they do not count."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    not_in: tuple[Category, ...] = ()
    words: dict[str, float] = Field(min_length=1)

    @field_validator("words")
    @classmethod
    def _weights_in_range(cls, v: dict[str, float]) -> dict[str, float]:
        bad = [w for w, weight in v.items() if not 0.0 <= weight <= 1.0 or not w.strip()]
        if bad:
            raise ValueError(f"risk word weights must be between 0 and 1 (check {bad[0]!r})")
        return {w.strip().casefold(): weight for w, weight in v.items()}


class ConceptRisk(BaseModel):
    """Which word group a concept of the language vocabularies belongs to, and its weight."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    group: str
    weight: float = Field(ge=0.0, le=1.0)


class RiskFile(BaseModel):
    """The contents of risk.yaml."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    format_version: Literal[1]
    actions: dict[ActionKind, ActionRisk]
    press_keys: dict[Literal["back", "home", "enter", "recents"], float] = Field(default_factory=dict)
    irreversible_floor: float = Field(ge=0.0, le=1.0)
    irreversible_always_confirms: bool = True
    word_groups: dict[str, WordGroup] = Field(min_length=1)
    concepts: dict[Concept, ConceptRisk] = Field(default_factory=dict)
    unlabelled_risk: float = Field(default=0.7, ge=0.0, le=1.0, description="weight of an unlabelled button")
    dialog_positive_ids: tuple[str, ...] = ("android:id/button1",)

    @model_validator(mode="after")
    def _concept_groups_exist(self) -> RiskFile:
        unknown = sorted({c.group for c in self.concepts.values()} - set(self.word_groups))
        if unknown:
            raise ValueError(f"concepts name word groups that do not exist: {', '.join(unknown)}")
        return self

    @field_validator("actions")
    @classmethod
    def _all_actions(cls, v: dict[ActionKind, ActionRisk]) -> dict[ActionKind, ActionRisk]:
        missing = sorted(set(ActionKind.__args__) - set(v))  # type: ignore[attr-defined]
        if missing:
            raise ValueError(f"no risk given for action kinds {', '.join(missing)}")
        return v

    @property
    def words(self) -> dict[str, float]:
        """Every risk word with its weight, whatever the category."""
        return {w: weight for g in self.word_groups.values() for w, weight in g.words.items()}

    def words_for(self, category: str) -> dict[str, float]:
        """The risk words that count inside apps of `category`."""
        groups = [g for g in self.word_groups.values() if category not in g.not_in]
        return {w: weight for g in groups for w, weight in g.words.items()}
