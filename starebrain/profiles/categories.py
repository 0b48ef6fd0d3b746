"""App categories (banking, messaging, ...) and which package belongs to which (categories.yaml)."""

from __future__ import annotations

from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, model_validator

Category = Literal["banking", "payments", "messaging", "email", "social", "shopping", "notes", "tasks",
                   "settings", "system", "unknown"]
CATEGORY_NAMES: tuple[str, ...] = get_args(Category)


class CategoryRule(BaseModel):
    """How careful to be inside apps of one category."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    threshold: float = Field(ge=0.0, le=1.0, description="risk at which the person must confirm")
    base_risk: float = Field(ge=0.0, le=1.0, description="added to every step in such an app")
    word_weight: float = Field(ge=0.0, le=3.0, description="multiplies risk-word weights")
    unlabelled_needs_person: bool = Field(
        default=False, description="an icon-only or unlabelled button here needs the person")
    holds_data: bool = Field(
        default=True, description="its apps can pay or send or keep the person's data: clearing them needs the person")
    description: str = ""


class CategoryFile(BaseModel):
    """The contents of categories.yaml."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    format_version: Literal[1]
    categories: dict[Category, CategoryRule]
    packages: dict[str, Category] = Field(default_factory=dict)
    prefixes: dict[str, Category] = Field(default_factory=dict)
    # What an unlabelled element is, by resource id (`pkg:id/name`), so it is scored by these words.
    element_labels: dict[str, str] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _every_category_has_a_rule(self) -> CategoryFile:
        missing = [c for c in CATEGORY_NAMES if c not in self.categories]
        if missing:
            raise ValueError(f"categories: no rule for {', '.join(missing)}")
        return self

    def category_of(self, package: str | None) -> Category:
        """The category of a package: exact name, else the longest matching prefix, else unknown."""
        if not package:
            return "unknown"
        if package in self.packages:
            return self.packages[package]
        hits = [p for p in self.prefixes if package.startswith(p)]
        return self.prefixes[max(hits, key=len)] if hits else "unknown"
