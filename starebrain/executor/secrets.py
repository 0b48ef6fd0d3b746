"""`{secret:NAME}` references, resolved only at the moment of typing."""

from __future__ import annotations

import os
from collections.abc import Mapping

from starebrain.errors import BadInput

PREFIX = "STAREBRAIN_SECRET_"


class SecretStore:
    """Reads `STAREBRAIN_SECRET_<NAME>` from the environment (or a given mapping); never logs values."""

    def __init__(self, values: Mapping[str, str] | None = None) -> None:
        self._values = values

    def resolve(self, name: str) -> str:
        key = f"{PREFIX}{name.upper().replace('-', '_').replace('.', '_')}"
        value = self._source().get(key)
        if value is None:
            raise BadInput(f"secret {name!r} is not set: export {key}=...")
        return value

    def known(self) -> dict[str, str]:
        """Every secret there is, NAME → value (what a `Scrubber` must keep out of everything we write)."""
        return {key[len(PREFIX):]: value for key, value in self._source().items()
                if key.startswith(PREFIX) and len(key) > len(PREFIX) and value}

    def _source(self) -> Mapping[str, str]:
        return self._values if self._values is not None else os.environ
