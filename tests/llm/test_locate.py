"""OpenAIPlanner.locate through the real openai client against the scripted server: the screenshot as an
`image_url` data: URL, the vision model, a strict answer, and one-line errors naming the settings."""

from __future__ import annotations

import base64
from collections.abc import Callable

import pytest

from starebrain.errors import LlmUnavailable, PlanInvalid
from starebrain.llm.openai_planner import OpenAIPlanner
from starebrain.llmserver import ScriptedLlmServer, locate_answer
from starebrain.models import AgentStep, LlmPurpose, Selector, Tap

MakePlanner = Callable[..., OpenAIPlanner]
JPEG = b"\xff\xd8\xff\xe0fake jpeg bytes for the wire\xff\xd9"
STEP = AgentStep(instruction="Tap Play", action=Tap(selector=Selector(text="Play")), target_package="com.game")


def test_the_screenshot_travels_as_a_data_url_to_the_vision_model(make_planner: MakePlanner) -> None:
    script = [{"purpose": "locate", "content": locate_answer((50.0, 46.0), "the blue Play button")}]
    with ScriptedLlmServer(script) as srv:
        result = make_planner(srv, vision_model="vision-model").locate(STEP, JPEG, "a SurfaceView fills the screen")
    assert result.point == (50.0, 46.0) and result.reason == "the blue Play button"
    assert result.calls[0].purpose is LlmPurpose.LOCATE and result.calls[0].model
    (request,) = srv.requests
    assert request.body["model"] == "vision-model" and request.headers["x-starebrain-purpose"] == "locate"
    (url,) = request.images
    assert base64.b64decode(url.removeprefix("data:image/jpeg;base64,")) == JPEG
    user = request.message_text("user")
    assert 'tap text="Play"' in user and "<untrusted_screen>\na SurfaceView fills the screen" in user
    assert request.body["response_format"]["json_schema"]["name"] == "LocateAnswer"


def test_not_found_is_an_answer_and_a_found_without_a_point_is_repaired_once(make_planner: MakePlanner) -> None:
    script = [{"purpose": "locate", "content": {"found": True, "x_percent": None, "y_percent": None, "reason": "x"}},
              {"purpose": "locate", "content": locate_answer(None, "no such button")}]
    with ScriptedLlmServer(script) as srv:
        result = make_planner(srv).locate(STEP, JPEG, "")
    assert result.point is None and result.reason == "no such button" and len(result.calls) == 2
    bad = [{"purpose": "locate", "content": {"found": True, "x_percent": 140, "y_percent": 5, "reason": "x"},
            "repeat": 2}]
    with ScriptedLlmServer(bad) as srv, pytest.raises(PlanInvalid, match="x_percent"):
        make_planner(srv).locate(STEP, JPEG, "")


def test_a_model_without_vision_names_the_setting_to_change(make_planner: MakePlanner) -> None:
    with ScriptedLlmServer({"vision": False, "entries": []}) as srv, \
            pytest.raises(LlmUnavailable) as refused:
        make_planner(srv, vision_model="text-only").locate(STEP, JPEG, "")
    message = str(refused.value)
    assert "text-only" in message and "vision_model (STAREBRAIN_VISION_MODEL)" in message and "\n" not in message
    assert srv.requests[0].fault == "no vision"


def test_vision_off_in_the_settings_sends_nothing(make_planner: MakePlanner) -> None:
    with ScriptedLlmServer([]) as srv, pytest.raises(LlmUnavailable, match=r"vision = false"):
        make_planner(srv, vision=False).locate(STEP, JPEG, "")
    assert srv.requests == []
