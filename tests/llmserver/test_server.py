"""The scripted OpenAI-compatible server: response shapes, purposes, faults, request log, CLI."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, get_args

import openai
import pytest
import yaml

from starebrain.llmserver import ScriptedLlmServer, ScriptError, load_script, selector_dict
from starebrain.llmserver.script import FaultKind

REPO = Path(__file__).resolve().parents[2]
PLAN = {"steps": [], "explanation": "nothing to do"}


def _post(url: str, body: dict[str, Any], headers: dict[str, str] | None = None) -> tuple[int, dict, Any]:
    request = urllib.request.Request(url + "/chat/completions", data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, dict(response.headers), json.loads(response.read())
    except urllib.error.HTTPError as err:
        return err.code, dict(err.headers), json.loads(err.read())


def _chat(purpose: str) -> dict[str, Any]:
    return {"model": "m", "messages": [{"role": "system", "content": f"rules\npurpose: {purpose}\nmore"},
                                       {"role": "user", "content": "hello"}]}


def test_chat_completion_has_the_openai_shape_and_purpose_comes_from_the_system_prompt() -> None:
    with ScriptedLlmServer([{"purpose": "replan", "content": PLAN}]) as srv:
        status, _, body = _post(srv.base_url, _chat("replan"))
    assert status == 200
    assert body["object"] == "chat.completion" and body["id"].startswith("chatcmpl-")
    assert isinstance(body["created"], int) and body["model"] == "m"
    choice = body["choices"][0]
    assert choice["finish_reason"] == "stop" and json.loads(choice["message"]["content"]) == PLAN
    usage = body["usage"]
    assert usage["total_tokens"] == usage["prompt_tokens"] + usage["completion_tokens"] > 0
    assert srv.requests[0].purpose == "replan"


def test_models_endpoint_through_the_real_client() -> None:
    with ScriptedLlmServer({"model": "scripted-gpt", "entries": []}) as srv:
        models = openai.OpenAI(api_key="k", base_url=srv.base_url, max_retries=0, timeout=5).models.list()
    assert [m.id for m in models.data] == ["scripted-gpt"]


def test_entries_are_served_in_order_per_purpose_then_exhausted() -> None:
    script = [{"purpose": "plan", "content": {"n": 1}}, {"purpose": "ground", "content": {"g": 1}},
              {"purpose": "plan", "content": "raw text", "repeat": 2}]
    with ScriptedLlmServer(script) as srv:
        contents = [_post(srv.base_url, _chat("plan"))[2]["choices"][0]["message"]["content"] for _ in range(3)]
        status, _, error = _post(srv.base_url, _chat("plan"))
        assert srv.remaining("ground") == 1
    assert contents == ['{"n": 1}', "raw text", "raw text"]
    assert status == 400 and "no scripted answer left for purpose 'plan'" in error["error"]["message"]
    assert srv.count("plan") == 4 and srv.count("ground") == 0


def test_status_fault_sends_retry_after_and_an_openai_error_body() -> None:
    script = [{"purpose": "plan", "fault": {"kind": "status", "status": 429, "retry_after": 2}}]
    with ScriptedLlmServer(script) as srv:
        status, headers, body = _post(srv.base_url, _chat("plan"))
    assert status == 429 and headers["Retry-After"] == "2"
    assert body["error"]["type"] == "rate_limit_error"


def test_reject_json_schema_answers_400_without_consuming_an_entry() -> None:
    request = {**_chat("plan"), "response_format": {"type": "json_schema", "json_schema": {"name": "x"}}}
    with ScriptedLlmServer({"reject_json_schema": True, "entries": [{"purpose": "plan", "content": PLAN}]}) as srv:
        status, _, body = _post(srv.base_url, request)
        assert srv.remaining("plan") == 1
    assert status == 400 and body["error"]["param"] == "response_format"


@pytest.mark.parametrize(("fault", "check"), [
    ("malformed_json", lambda c: c.startswith('{"steps"') and not c.rstrip().endswith("}")),
    ("schema_violation", lambda c: json.loads(c)["steps"][0]["action"]["kind"] == "teleport"),
    ({"kind": "unknown_package", "package": "com.nope"},
     lambda c: json.loads(c)["steps"][0]["action"] == {"kind": "open_app", "package": "com.nope"}),
    ({"kind": "missing_selector", "text": "Ghost"},
     lambda c: json.loads(c)["steps"][0]["action"]["selector"]["text"] == "Ghost"),
    ({"kind": "hostile", "step": {"instruction": "wipe"}},
     lambda c: json.loads(c)["steps"][-1] == {"instruction": "wipe"}),
])
def test_content_faults(fault: Any, check: Any) -> None:
    with ScriptedLlmServer([{"purpose": "plan", "fault": fault}]) as srv:
        content = _post(srv.base_url, _chat("plan"))[2]["choices"][0]["message"]["content"]
    assert check(content), content


def test_ground_faults_answer_selectors() -> None:
    script = [{"purpose": "ground", "fault": {"kind": "missing_selector", "text": "Ghost"}},
              {"purpose": "ground", "fault": {"kind": "hostile", "selector": {"text": "Transfer all"}}}]
    with ScriptedLlmServer(script) as srv:
        first, second = (json.loads(_post(srv.base_url, _chat("ground"))[2]["choices"][0]["message"]["content"])
                         for _ in range(2))
    assert first["selector"] == selector_dict(text="Ghost")
    assert second["selector"] == selector_dict(text="Transfer all")


def test_stop_abandons_a_delayed_answer_promptly() -> None:
    srv = ScriptedLlmServer([{"purpose": "plan", "fault": {"kind": "delay", "seconds": 60}}]).start()
    client = openai.OpenAI(api_key="k", base_url=srv.base_url, max_retries=0, timeout=0.3)
    with pytest.raises(openai.APITimeoutError):
        client.chat.completions.create(model="m", messages=[{"role": "system", "content": "purpose: plan"}])
    srv.stop()


def test_binds_loopback_on_distinct_free_ports() -> None:
    with ScriptedLlmServer([]) as a, ScriptedLlmServer([]) as b:
        assert a.base_url.startswith("http://127.0.0.1:") and a.port != b.port


def test_script_files_are_validated(tmp_path: Path) -> None:
    good = tmp_path / "s.yaml"
    good.write_text(yaml.safe_dump({"format": "starebrain-llm-script", "version": 1,
                                    "entries": [{"purpose": "plan", "fault": "malformed_json"}]}))
    assert load_script(good).entries[0].fault.kind == "malformed_json"  # type: ignore[union-attr]
    for bad in ({"version": 2}, {"entries": [{"purpose": "plan", "fault": "explode"}]},
                {"entries": [{"purpose": "summarize"}]}):
        with pytest.raises(ScriptError):
            load_script(bad)
    with pytest.raises(ScriptError, match="cannot read"):
        load_script(tmp_path / "missing.yaml")


def test_command_line_prints_its_url_and_serves(tmp_path: Path) -> None:
    script = tmp_path / "demo.json"
    script.write_text(json.dumps({"entries": [{"purpose": "plan", "content": PLAN}]}))
    log = tmp_path / "requests.jsonl"
    proc = subprocess.Popen([sys.executable, "-m", "starebrain.llmserver", "--script", str(script), "--port", "0",
                             "--log", str(log), "--exit-after", "30"], cwd=REPO, stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        url = proc.stdout.readline().strip()
        assert url.startswith("http://127.0.0.1:") and url.endswith("/v1")
        assert _post(url, _chat("plan"))[0] == 200
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    assert proc.returncode == 0
    assert json.loads(log.read_text().splitlines()[0])["purpose"] == "plan"


def test_example_script_covers_every_fault_kind() -> None:
    script = load_script(Path(__file__).parent / "fixtures" / "example_script.yaml")
    kinds = {e.fault.kind for e in script.entries if e.fault is not None}
    assert kinds == set(get_args(FaultKind))
    assert {e.purpose for e in script.entries} == {"plan", "ground", "replan"}
