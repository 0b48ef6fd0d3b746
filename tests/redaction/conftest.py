"""The planning tests' scripted LLM server fixture, for the `do` secrets test."""

from tests.agent.conftest import llm  # noqa: F401 - a fixture, used by name
