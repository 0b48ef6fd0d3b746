"""Record LLM exchanges once against a server, replay them with no network at all."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from starebrain.errors import ConfigInvalid
from starebrain.llm import Planner, PlanResult, ReplanRequest, build_planner
from starebrain.llm.cassette import CassetteError, CassetteMismatch
from starebrain.llmserver import ScriptedLlmServer, selector_dict
from starebrain.models import AgentStep, Selector, Tap
from tests.llm.conftest import SEED_INSTRUCTION, replan_answer, seed_context, seed_plan

SCRIPT: list[dict[str, Any]] = [
    {"purpose": "plan", "fault": {"kind": "status", "status": 429, "retry_after": 0}},
    {"purpose": "plan", "content": seed_plan()},
    {"purpose": "ground", "content": {"selector": selector_dict(text="Share"), "reason": "share icon"}},
    {"purpose": "replan", "fault": "malformed_json"},
    {"purpose": "replan", "content": replan_answer()},
]


def _settings(base_url: str) -> SimpleNamespace:
    return SimpleNamespace(openai_api_key="sk-test-RECORDING-KEY", openai_base_url=base_url, model="scripted",
                           llm_timeout_s=2.0, llm_max_retries=2)


def _errand(planner: Planner) -> tuple[PlanResult, Selector | None, PlanResult]:
    plan = planner.plan(SEED_INSTRUCTION, seed_context())
    grounded = planner.ground(plan.steps[2], "Current screen: com.example.invoices\n  - Share")
    request = ReplanRequest(original_instruction=SEED_INSTRUCTION, completed_steps=plan.steps[:2],
                            failed_step=plan.steps[2], failure_reason="no send button",
                            screen_summary="Current screen: com.example.invoices", remaining_step_count=3)
    return plan, grounded.selector, planner.replan(request)


def _shape(result: PlanResult) -> list[dict[str, Any]]:
    return [s.model_dump(mode="json", exclude={"id"}) for s in result.steps]


def _record(path: Path) -> tuple[tuple[PlanResult, Selector | None, PlanResult], str]:
    with ScriptedLlmServer(SCRIPT) as srv:
        recorded = _errand(build_planner(_settings(srv.base_url), record=path))
        assert srv.count() == 5
        return recorded, srv.base_url


def test_record_then_replay_gives_identical_plans_without_network(tmp_path: Path) -> None:
    cassette = tmp_path / "errand.json"
    (plan, selector, replan), dead_url = _record(cassette)
    # The server is gone: any network call would now fail with a connection error.
    replayed_plan, replayed_selector, replayed_replan = _errand(
        build_planner(_settings(dead_url), replay=cassette))
    assert _shape(replayed_plan) == _shape(plan)
    assert replayed_selector == selector == Selector(text="Share")
    assert _shape(replayed_replan) == _shape(replan)
    assert [c.outcome for c in replayed_plan.calls] == ["retried: http 429", "ok"]
    assert [c.outcome.split(":")[0] for c in replayed_replan.calls] == ["invalid", "repaired"]
    assert replayed_plan.prompt_tokens == plan.prompt_tokens


def test_cassette_file_is_versioned_and_holds_no_prompt_or_key(tmp_path: Path) -> None:
    cassette = tmp_path / "errand.json"
    _record(cassette)
    data = json.loads(cassette.read_text())
    assert data["format"] == "starebrain-cassette" and data["version"] == 1
    assert [e["purpose"] for e in data["exchanges"]] == ["plan", "plan", "ground", "replan", "replan"]
    assert data["exchanges"][0]["status"] == 429
    assert data["exchanges"][1]["usage"]["prompt_tokens"] > 0
    text = cassette.read_text()
    assert "RECORDING-KEY" not in text and SEED_INSTRUCTION not in text


def test_replay_of_a_different_request_names_the_exchange(tmp_path: Path) -> None:
    cassette = tmp_path / "errand.json"
    _, dead_url = _record(cassette)
    planner = build_planner(_settings(dead_url), replay=cassette)
    with pytest.raises(CassetteMismatch, match=r"exchange #1 does not match .*prompt changed"):
        planner.plan("delete all my photos", seed_context())


def test_replay_past_the_end_is_a_clear_error(tmp_path: Path) -> None:
    cassette = tmp_path / "errand.json"
    _, dead_url = _record(cassette)
    planner = build_planner(_settings(dead_url), replay=cassette)
    _errand(planner)
    step = AgentStep(instruction="Tap Share", action=Tap(selector=Selector(text="Share")))
    with pytest.raises(CassetteMismatch, match=r"request #6 \(ground\) was not recorded; it holds 5"):
        planner.ground(step, "Current screen: com.example.invoices")


def test_cassette_from_a_newer_format_version_is_refused(tmp_path: Path) -> None:
    cassette = tmp_path / "future.json"
    cassette.write_text(json.dumps({"format": "starebrain-cassette", "version": 2, "exchanges": []}))
    with pytest.raises(CassetteError, match="version 2; this StareBrain reads version 1 and older"):
        build_planner(_settings("http://127.0.0.1:9/v1"), replay=cassette)


@pytest.mark.parametrize("content", ['{"format": "something-else", "version": 1}', "not json", None])
def test_unusable_cassette_files_are_refused(tmp_path: Path, content: str | None) -> None:
    cassette = tmp_path / "bad.json"
    if content is not None:
        cassette.write_text(content)
    with pytest.raises(CassetteError):
        build_planner(_settings("http://127.0.0.1:9/v1"), replay=cassette)


def test_record_and_replay_together_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigInvalid):
        build_planner(_settings("http://127.0.0.1:9/v1"), record=tmp_path / "a", replay=tmp_path / "b")


def test_a_recorded_timeout_is_replayed_as_a_timeout(tmp_path: Path) -> None:
    cassette = tmp_path / "slow.json"
    script = [{"purpose": "plan", "fault": {"kind": "delay", "seconds": 5}},
              {"purpose": "plan", "content": seed_plan()}]
    fast = {"llm_timeout_s": 0.3}
    with ScriptedLlmServer(script) as srv:
        recorded = build_planner(SimpleNamespace(**{**vars(_settings(srv.base_url)), **fast}), record=cassette)
        first = recorded.plan(SEED_INSTRUCTION, seed_context())
        dead_url = srv.base_url
    replayed = build_planner(SimpleNamespace(**{**vars(_settings(dead_url)), **fast}), replay=cassette)
    again = replayed.plan(SEED_INSTRUCTION, seed_context())
    assert json.loads(cassette.read_text())["exchanges"][0]["error"] == "timeout"
    assert [c.outcome for c in again.calls] == [c.outcome for c in first.calls] == ["retried: timeout", "ok"]
    assert _shape(again) == _shape(first)


def test_a_recorded_cassette_holds_no_secret_even_when_the_model_echoes_one(tmp_path: Path) -> None:
    pin = "7391-canary"
    answer = {**seed_plan(), "explanation": f"I will type {pin} for you"}  # a model that learned it somehow
    path = tmp_path / "secret.json"
    with ScriptedLlmServer([{"purpose": "plan", "content": answer}]) as srv:
        planner = build_planner(_settings(srv.base_url), record=path, secrets={"PIN": pin})
        planner.plan(f"{SEED_INSTRUCTION} with pin {pin}", seed_context())
        sent = srv.requests[-1].raw
    assert pin not in sent and "{secret:PIN}" in sent  # the prompt carried the reference only
    stored = path.read_text()
    assert pin not in stored and "I will type {secret:PIN} for you" in stored
    assert path.stat().st_mode & 0o777 == 0o600
