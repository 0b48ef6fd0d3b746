"""`starebrain do --record FILE` against the scripted server, then `--replay FILE` with the server stopped:
the same task (same steps) with no network."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.agent.support import SEED, LlmCli, llm_env, plan_entry, seed_steps, side_effects

pytestmark = pytest.mark.e2e


def _steps(cli: LlmCli) -> list[tuple[str, str, str | None, bool]]:
    task = cli.show(cli.latest_task_id())["task"]
    return [(s["instruction"], json.dumps(s["action"], sort_keys=True), s["target_package"], s["irreversible"])
            for s in task["steps"]]


def test_replay_reproduces_the_recorded_task_without_the_server(sim: Any, tmp_path: Path, llm: Any) -> None:
    cassette = tmp_path / "seed.cassette.json"
    server = llm([plan_entry(seed_steps())])
    recording = LlmCli(tmp_path / "rec", llm_env(server))
    first = recording.run("do", SEED, "--device", sim.serial, "--record", str(cassette))
    assert first.returncode == 3, first.stderr
    recorded = json.loads(cassette.read_text())
    assert recorded["format"] == "starebrain-cassette" and [e["purpose"] for e in recorded["exchanges"]] == ["plan"]
    assert "test-key" not in cassette.read_text()  # no key, no prompt on disk: requests are kept as hashes

    base_url = server.base_url
    server.stop()  # from here on, any network call to the LLM would fail
    sim.reset(scenario="default")
    replaying = LlmCli(tmp_path / "replay", {"OPENAI_BASE_URL": base_url, "STAREBRAIN_MODEL": "scripted"})
    second = replaying.run("do", SEED, "--device", sim.serial, "--replay", str(cassette))
    assert second.returncode == 3, second.stderr
    assert _steps(replaying) == _steps(recording) and len(_steps(replaying)) == len(seed_steps())
    assert len(server.requests) == 1  # the replay never reached the (stopped) server
    assert side_effects(sim) == {}
