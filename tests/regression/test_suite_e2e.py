"""`starebrain test` end to end on simulated phones: exit codes, JUnit (schema-valid), console, HTML."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from lxml import etree

from tests.regression.conftest import SETTINGS_BROKEN, SETTINGS_FLAKY, XSD, copy_flows, run_cli

pytestmark = pytest.mark.e2e


def junit(path: Path) -> etree._ElementTree:
    """Parse the JUnit file and validate it against the shipped Jenkins/Ant-style schema."""
    doc = etree.parse(str(path))
    schema = etree.XMLSchema(etree.parse(str(XSD)))
    assert schema.validate(doc), schema.error_log
    return doc


def case(doc: etree._ElementTree, name: str) -> etree._Element:
    found = doc.findall(f".//testcase[@name='{name}']")
    assert len(found) == 1
    return found[0]


def props(doc: etree._ElementTree, name: str) -> dict[str, str]:
    suite = case(doc, name).getparent()
    return {p.get("name"): p.get("value") for p in suite.iter("property")}


def test_a_passing_folder_on_two_phones_exits_0_with_valid_junit_naming_every_step(
        sim: Any, start_sim: Any, sb_env: Path, tmp_path: Path) -> None:
    other = start_sim()
    folder = copy_flows(tmp_path / "flows", "settings-network", "notes-read", "mail-read")
    report = tmp_path / "out" / "junit.xml"
    result = run_cli("test", str(folder), "--device", sim.serial, "--device", other.serial,
                     "--parallel", "2", "--junit", str(report))
    assert result.exit_code == 0, result.output
    doc = junit(report)
    assert len(doc.findall(".//testcase")) == 3
    assert not doc.findall(".//failure") and not doc.findall(".//error")
    out = case(doc, "notes-read").findtext("system-out")
    for step in ("Press home", "Open Keep Notes", "Open the grocery list", "Close the keyboard",
                 "Back to the notes"):
        assert f":: {step}" in out
    assert "step 3 COMPLETED attempts=1" in out and "[[ATTACHMENT|" in out
    assert case(doc, "notes-read").get("classname").endswith("flows/notes-read.yaml")
    devices = {props(doc, n)["device"] for n in ("settings-network", "notes-read", "mail-read")}
    assert devices <= {sim.serial, other.serial}
    assert "3 flows: 3 passed, 0 flaky, 0 failed" in result.output


def test_a_failing_flow_names_the_step_its_reason_and_screenshot_and_exits_1(
        sim: Any, sb_env: Path, tmp_path: Path) -> None:
    flow = tmp_path / "settings-bluetooth.yaml"
    flow.write_text(SETTINGS_BROKEN)
    report = tmp_path / "junit.xml"
    result = run_cli("test", str(flow), "--device", sim.serial, "--junit", str(report))
    assert result.exit_code == 1
    doc = junit(report)
    failure = case(doc, "settings-bluetooth").find("failure")
    assert failure is not None
    assert "step 3 (Open Bluetooth) failed" in failure.get("message")
    assert 'no element matches text="Bluetooth"' in failure.get("message")
    shot = next(line.split(": ", 1)[1] for line in failure.text.splitlines() if line.startswith("screenshot: "))
    assert Path(shot).is_file() and "step03-attempt1" in shot
    assert "step 3 FAILED attempts=1" in case(doc, "settings-bluetooth").findtext("system-out")
    assert "failed" in result.output and "Open Bluetooth" in result.output


def test_a_flow_that_passes_only_on_a_retry_is_flaky_everywhere(sim: Any, sb_env: Path, tmp_path: Path) -> None:
    # The first entry into Network & internet bounces straight back: run 1 fails, run 2 passes.
    sim.call(lambda phone: phone.inject("trigger", when="enter com.android.settings/network", times=1,
                                        do=[{"back": True}, {"spinner": 1}]))
    flow = tmp_path / "settings-wifi-summary.yaml"
    flow.write_text(SETTINGS_FLAKY)
    report, html = tmp_path / "junit.xml", tmp_path / "html"
    result = run_cli("test", str(flow), "--device", sim.serial, "--retries", "2", "--junit", str(report),
                     "--html", str(html))
    assert result.exit_code == 0, result.output
    assert "flaky (passed on retry 1)" in result.output
    doc = junit(report)
    p = props(doc, "settings-wifi-summary")
    assert p["flaky"] == "true" and p["passed_on_retry"] == "1" and p["runs"] == "2"
    assert p["run1.result"] == "failed" and p["run2.result"] == "passed"
    flaky = case(doc, "settings-wifi-summary").find("flakyFailure")
    assert flaky is not None and "step 4 (See the Wi-Fi summary) failed" in flaky.get("message")
    index = (html / "index.html").read_text()
    assert "flaky (passed on retry 1)" in index
    run2 = (html / f"task-{p['run2.task_id']}.html").read_text()
    assert "run 2 of 2 (retry 1), passed; flow result: flaky (passed on retry 1)" in run2


def test_unattended_confirmation_fails_unless_the_person_passed_the_flag(
        sim: Any, sb_env: Path, tmp_path: Path) -> None:
    from starebrain.store import Store

    folder = copy_flows(tmp_path / "flows", "messages-reply")
    left_out = run_cli("test", str(folder), "--device", sim.serial)  # tagged irreversible: not even started
    assert left_out.exit_code == 0 and "left out by tags: messages-reply" in left_out.output
    flow = folder / "messages-reply.yaml"
    flow.write_text(flow.read_text().replace("tags: [irreversible]\n", ""))  # an untagged flow that sends
    refused = run_cli("test", str(folder), "--device", sim.serial, "--junit", str(tmp_path / "a.xml"))
    assert refused.exit_code == 1
    message = case(junit(tmp_path / "a.xml"), "messages-reply").find("failure").get("message")
    assert "needs a person's confirmation" in message and "--approve-irreversible" in message
    assert sim.call(lambda phone: phone.state()["side_effects"].get("message_sent", 0)) == 0

    sim.reset(scenario="default")
    approved = run_cli("test", str(folder), "--device", sim.serial, "--approve-irreversible",
                       "--junit", str(tmp_path / "b.xml"))
    assert approved.exit_code == 0, approved.output
    assert sim.call(lambda phone: phone.state()["side_effects"].get("message_sent", 0)) == 1
    task_id = props(junit(tmp_path / "b.xml"), "messages-reply")["run1.task_id"]
    with Store.open(sb_env / "starebrain.db") as store:
        (confirmation,) = store.confirmations(task_id)
    assert confirmation.decided_by == "cli:--approve-irreversible"
