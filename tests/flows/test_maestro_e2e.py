"""Maestro semantics on a simulated phone, through `starebrain run` as a separate process: a text regex
names the element found on the screen, takeScreenshot saves a named file the report shows, and
onFlowComplete runs after a failed flow too (the report lists it after the failed step)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from starebrain.flows import examples_dir
from starebrain.store import Store
from tests.cli.cli_process import Cli

pytestmark = pytest.mark.e2e

REGEX_TOUR = """\
appId: com.android.settings
name: regex-tour
---
- launchApp
- tapOn: "network.*"
- assertVisible:
    id: wifi_summary
- takeScreenshot: shots/network
- back
- assertVisible: ".*& INTERNET"
"""
FAILS_THEN_HOOK = """\
appId: com.android.settings
name: fails-then-hook
onFlowComplete:
  - back
---
- launchApp
- tapOn: Network & internet
- assertVisible:
    text: "Nothing.*here"
"""


def test_a_regex_tap_records_the_element_found_and_take_screenshot_is_in_the_report(
        sim: Any, tmp_path: Path) -> None:
    (tmp_path / "tour.yaml").write_text(REGEX_TOUR)
    cli = Cli(tmp_path / "sb")
    done = cli.run("run", str(tmp_path / "tour.yaml"), "--device", sim.serial)
    assert done.returncode == 0, done.stdout + done.stderr
    task_id = cli.latest_task_id()
    task = cli.show(task_id)["task"]
    tap = next(s for s in task["steps"] if s["action"]["kind"] == "tap")
    assert tap["instruction"] == "Tap text~/network.*/"
    touched = tap["action"]["selector"]
    assert "Network & internet" in (touched["text"], touched["content_desc"]), touched  # not the regex
    shots = list((tmp_path / "sb" / "artifacts" / task_id).glob("screenshot-shots-network.*"))
    assert sorted(p.suffix for p in shots) in ([".jpg", ".xml"], [".png", ".xml"])
    assert all(p.stat().st_size > 0 for p in shots)
    html = tmp_path / "report.html"
    assert cli.run("report", task_id, "--html", str(html)).returncode == 0
    page = html.read_text()
    assert "Screenshots the flow took" in page and 'alt="screenshot screenshot-shots-network"' in page


def test_on_flow_complete_runs_after_a_failed_step_and_the_report_shows_it(sim: Any, tmp_path: Path) -> None:
    (tmp_path / "fails.yaml").write_text(FAILS_THEN_HOOK)
    cli = Cli(tmp_path / "sb")
    done = cli.run("run", str(tmp_path / "fails.yaml"), "--device", sim.serial)
    assert done.returncode != 0
    task_id = cli.latest_task_id()
    task = cli.show(task_id)["task"]
    assert task["status"] == "FAILED" and "Nothing.*here" in task["status_reason"]
    steps = [(s["instruction"], s["status"]) for s in task["steps"]]
    assert steps[-2][1] == "FAILED" and steps[-1] == ("on_complete: Press back", "COMPLETED"), steps
    html = tmp_path / "report.html"
    assert cli.run("report", task_id, "--html", str(html)).returncode == 0
    page = html.read_text()
    assert page.index("Nothing.*here") < page.index("on_complete: Press back")


@pytest.mark.parametrize("name", ["settings-point.yaml", "mail-link.yaml"])
def test_point_taps_and_open_link_run_on_the_phone(sim: Any, tmp_path: Path, name: str) -> None:
    cli = Cli(tmp_path / "sb")
    done = cli.run("run", str(examples_dir() / "maestro" / name), "--device", sim.serial)
    assert done.returncode == 0, done.stdout + done.stderr
    task = cli.show(cli.latest_task_id())["task"]
    kinds = [(s["action"]["kind"], s["action"].get("selector", {}) or {}) for s in task["steps"]]
    if name == "settings-point.yaml":
        assert [sel.get("point") for kind, sel in kinds if kind in ("tap", "long_press")] == ["50%,46%", "540,1300"]
    else:
        assert [s["action"]["url"] for s in task["steps"] if s["action"]["kind"] == "open_link"] == \
            ["mailto:marco@rossi.design?subject=Q1%20proposal"]
        opened = sim.call(lambda phone: phone.state()["side_effects"].get("link_opened", 0))
        assert opened == 1


@pytest.mark.parametrize("point", ["after_act", "after_commit"])
def test_a_regex_tap_killed_mid_flow_is_resumed_without_tapping_again(sim: Any, tmp_path: Path, point: str) -> None:
    (tmp_path / "tour.yaml").write_text(REGEX_TOUR)
    cli = Cli(tmp_path / "sb")
    killed = cli.run("run", str(tmp_path / "tour.yaml"), "--device", sim.serial, crash_at=f"{point}:1")
    assert killed.returncode == -9, killed.stdout + killed.stderr  # SIGKILLed right after the regex tap
    task_id = cli.latest_task_id()
    resumed = cli.run("resume", task_id)
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    task = cli.show(task_id)["task"]
    assert task["status"] == "COMPLETED"
    taps = [s for s in task["steps"] if s["action"]["kind"] == "tap"]
    assert len(taps) == 1  # the recorded element was accepted by the regex, not looked up again
    with Store.open(cli.home / "starebrain.db") as store:
        assert len(store.attempts(task_id, taps[0]["id"])) == 1  # and the phone was touched once
