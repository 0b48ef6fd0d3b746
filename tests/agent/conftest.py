"""Fixtures of the planning tests: scripted LLM servers on loopback, stopped when the test ends."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from starebrain.llmserver import ScriptedLlmServer


@pytest.fixture
def llm() -> Iterator[Callable[[Any], ScriptedLlmServer]]:
    """Factory: `llm(script)` starts a `ScriptedLlmServer` on a free loopback port."""
    started: list[ScriptedLlmServer] = []

    def start(script: Any) -> ScriptedLlmServer:
        server = ScriptedLlmServer(script).start()
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()
