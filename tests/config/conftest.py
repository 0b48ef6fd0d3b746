"""Each settings test starts from an environment without any StareBrain or OpenAI variable."""

from __future__ import annotations

import os

import pytest


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name.startswith(("STAREBRAIN_", "OPENAI_")) or name == "ANDROID_SERIAL":
            monkeypatch.delenv(name)
