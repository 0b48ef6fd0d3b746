"""`{secret:NAME}` references, resolved only at the moment of typing."""

from __future__ import annotations

import os
from collections.abc import Mapping

from starebrain.errors import BadInput


class SecretStore:
    """Reads `STAREBRAIN_SECRET_<NAME>` from the environment (or a given mapping); never logs values."""

    def __init__(self, values: Mapping[str, str] | None = None) -> None:
        self._values = values

    def resolve(self, name: str) -> str:
        key = f"STAREBRAIN_SECRET_{name.upper().replace('-', '_').replace('.', '_')}"
        source = self._values if self._values is not None else os.environ
        value = source.get(key)
        if value is None:
            raise BadInput(f"secret {name!r} is not set: export {key}=...")
        return value
