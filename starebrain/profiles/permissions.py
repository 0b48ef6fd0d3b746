"""Which runtime permission requests the engine may answer by itself (permissions.yaml)."""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator


class PermissionRules(BaseModel):
    """Permission groups that need the person, the words that name them, and what the person allows."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    format_version: Literal[1]
    needs_person: dict[str, tuple[str, ...]] = Field(min_length=1)
    person_allows: tuple[str, ...] = ()
    other_app_needs_person: bool = True

    @model_validator(mode="after")
    def _known_groups(self) -> PermissionRules:
        unknown = [g for g in self.person_allows if g not in self.needs_person]
        if unknown:
            raise ValueError(f"person_allows names unknown permission groups: {', '.join(unknown)}")
        return self

    def group_of(self, request_text: str) -> str | None:
        """The first group that needs the person whose words the request mentions, unless the person allows it."""
        from starebrain.guard.text import strongest

        for group in self.needs_person:
            if group not in self.person_allows and strongest(request_text, _weights(self.needs_person[group]))[0]:
                return group
        return None


@lru_cache(maxsize=64)
def _weights(entries: tuple[str, ...]) -> dict[str, float]:
    """One dict per word list, so the guard's compiled vocabulary cache is reused."""
    return {e: 1.0 for e in entries}
