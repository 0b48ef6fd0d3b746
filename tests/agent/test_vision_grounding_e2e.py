"""Screens without a usable hierarchy through `starebrain do` as its own process: the step's element is found
on the screenshot by a vision model (the scripted server answers what the script says, never reading the
pixels), the point is tapped in a drawing app, and the same flow in a game that sells gems asks the person."""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

import pytest

from starebrain.llmserver import locate_answer
from tests.agent.support import LlmCli, llm_env, open_app, plan_entry, side_effects, tap

pytestmark = pytest.mark.e2e
SKETCH, GEMS = "com.starebrain.sketchpad", "com.starebrain.gemrush"
AWAITING = 3
# Where the canvases draw their buttons, in percent of the 1080x2400 screenshot (from the apps' files: a box
# in percent of the canvas, which spans y 84..2352): "New page" and "Play".
NEW_PAGE, PLAY = (50.0, 63.0), (50.0, 46.0)


def _run(sim: Any, tmp_path: Path, llm: Any, package: str, button: str, at: tuple[float, float],
         **script: Any) -> tuple[Any, LlmCli, Any]:
    sim.reset(scenario="default+canvas")
    steps = [open_app(package), tap(f"Tap {button}", package, text=button)]
    server = llm({"entries": [plan_entry(steps), {"purpose": "locate", "content": locate_answer(at, button),
                                                  "repeat": 2}], **script})
    cli = LlmCli(tmp_path, llm_env(server, STAREBRAIN_VISION_MODEL="scripted-vision"))
    return cli.run("do", f"tap {button}", "--device", sim.serial), cli, server


def test_a_canvas_button_is_found_on_the_screenshot_and_tapped(sim: Any, tmp_path: Path, llm: Any) -> None:
    done, cli, server = _run(sim, tmp_path, llm, SKETCH, "New page", NEW_PAGE)
    assert done.returncode == 0, done.stdout + done.stderr
    task = cli.show(cli.latest_task_id())["task"]
    assert task["status"] == "COMPLETED"
    effects = sim.call(lambda phone: phone.state()["effects"])
    assert [e.get("button") for e in effects if e["kind"] == "canvas_tap"] == ["New page"]
    [asked] = server.requests_for("locate")
    assert asked.body["model"] == "scripted-vision"
    [image] = asked.images
    assert image.startswith("data:image/jpeg;base64,")
    assert base64.b64decode(image.split(",", 1)[1])[:2] == b"\xff\xd8"  # a JPEG
    assert "FlutterView" in asked.message_text("user")
    assert server.count("ground") == 0  # a dump with no elements is not sent to text grounding


def test_the_same_flow_in_a_game_that_sells_gems_asks_the_person(sim: Any, tmp_path: Path, llm: Any) -> None:
    done, cli, server = _run(sim, tmp_path, llm, GEMS, "Play", PLAY)
    assert done.returncode == AWAITING, done.stdout + done.stderr
    task_id = cli.latest_task_id()
    task = cli.show(task_id)["task"]
    assert task["status"] == "AWAITING_CONFIRMATION" and "no label" in task["status_reason"]
    assert "SurfaceView" in task["status_reason"] and "shopping" in task["status_reason"]
    assert {k: v for k, v in side_effects(sim).items() if k in ("canvas_tap", "purchase_made")} == {}
    # She approves that tap: the model points at the same place again, so exactly that point is tapped.
    approved = cli.run("approve", task_id)
    assert approved.returncode == 0, approved.stdout + approved.stderr
    effects = sim.call(lambda phone: phone.state()["effects"])
    assert [e.get("button") for e in effects if e["kind"] == "canvas_tap"] == ["Play"]
    assert "purchase_made" not in side_effects(sim) and server.count("locate") == 2


def test_a_model_without_vision_fails_the_step_with_the_setting_to_change(sim: Any, tmp_path: Path,
                                                                          llm: Any) -> None:
    done, cli, server = _run(sim, tmp_path, llm, SKETCH, "New page", NEW_PAGE, vision=False)
    assert done.returncode != 0
    task = cli.show(cli.latest_task_id())["task"]
    reason = task["status_reason"]
    assert "vision_model" in reason and "STAREBRAIN_VISION_MODEL" in reason and "\n" not in reason, reason
    assert server.requests_for("locate")[0].fault == "no vision"
    assert "canvas_tap" not in side_effects(sim)
