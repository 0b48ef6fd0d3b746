"""How a step names an element on the screen."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, model_validator


class Selector(BaseModel):
    """Fields that must all match one node; `index` picks the N-th match (0-based) in document order."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    text: str | None = None
    text_contains: str | None = None
    resource_id: str | None = None
    content_desc: str | None = None
    class_name: str | None = None
    index: int | None = None

    @model_validator(mode="after")
    def _not_empty(self) -> Selector:
        fields = (self.text, self.text_contains, self.resource_id, self.content_desc, self.class_name)
        if all(f is None for f in fields):
            raise ValueError("a selector needs at least one of text, text_contains, resource_id, "
                             "content_desc, class_name")
        if self.index is not None and self.index < 0:
            raise ValueError("selector index must be >= 0")
        return self

    def describe(self) -> str:
        """Short human form, e.g. `text="Send" #1`."""
        parts = [f'{k}="{v}"' for k, v in self.model_dump(exclude_none=True).items() if k != "index"]
        if self.index is not None:
            parts.append(f"#{self.index}")
        return " ".join(parts)
