"""JUnit XML from suite results (no phone): schema-valid for every outcome, retries never hidden."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from lxml import etree

from starebrain.regression import FlowResult, FlowRun, StepLine, SuiteResult
from starebrain.regression.console import progress_line, totals_line
from starebrain.report.junit import junit_xml
from tests.regression.conftest import XSD

STEPS = (StepLine(0, "Open Settings", "COMPLETED", 1, screenshot="/a/step01-attempt1.jpg"),
         StepLine(1, "Open Bluetooth", "FAILED", 1, ("OVERLAY: Rate us (tapped Not now)",), "/a/step02-attempt1.jpg",
                  'no element matches text="Bluetooth"'))
FAILED_RUN = FlowRun(1, "failed", 'step 2 failed: no element matches text="Bluetooth"', "t1", "FAILED", STEPS[1],
                     STEPS, 1.5)
PASSED_RUN = FlowRun(2, "passed", "", "t2", "COMPLETED", None,
                     (STEPS[0], StepLine(1, "Open Bluetooth", "COMPLETED", 1, screenshot="/b/step02-attempt1.jpg")),
                     1.0)


def suite() -> SuiteResult:
    flows = [
        FlowResult(Path("flows/ok.yaml"), "ok", "emulator-5554", [PASSED_RUN]),
        FlowResult(Path("flows/flaky.yaml"), "flaky", "emulator-5556", [FAILED_RUN, PASSED_RUN]),
        FlowResult(Path("flows/broken.yaml"), "broken", "emulator-5554", [FAILED_RUN, FAILED_RUN]),
        FlowResult(Path("flows/bad.yaml"), "bad", "", load_error="flows/bad.yaml: 'format' must be 'starebrain-flow'"),
    ]
    return SuiteResult(flows, datetime(2026, 11, 30, 9, 0, tzinfo=UTC), 6.0, ["emulator-5554", "emulator-5556"])


def parsed() -> etree._Element:
    doc = etree.fromstring(junit_xml(suite(), hostname="ci"))
    schema = etree.XMLSchema(etree.parse(str(XSD)))
    assert schema.validate(doc), schema.error_log
    return doc


def test_counts_and_one_testcase_per_flow() -> None:
    doc = parsed()
    assert (doc.get("tests"), doc.get("failures"), doc.get("errors")) == ("4", "1", "1")
    assert [c.get("classname") for c in doc.iter("testcase")] == [
        "flows/ok.yaml", "flows/flaky.yaml", "flows/broken.yaml", "flows/bad.yaml"]


def test_a_flaky_flow_passes_but_says_so() -> None:
    case = parsed().findall("testsuite")[1]
    props = {p.get("name"): p.get("value") for p in case.iter("property")}
    assert props["flaky"] == "true" and props["passed_on_retry"] == "1"
    assert props["result"] == "flaky (passed on retry 1)"
    testcase = case.find("testcase")
    assert testcase.find("failure") is None
    assert 'run 1: step 2 (Open Bluetooth) failed: no element matches text="Bluetooth"' == \
        testcase.find("flakyFailure").get("message")
    assert "run 2 (retry 1): passed" in testcase.findtext("system-out")


def test_a_failure_names_the_step_reason_screenshot_and_earlier_runs() -> None:
    testcase = parsed().findall("testsuite")[2].find("testcase")
    failure = testcase.find("failure")
    assert "step 2 (Open Bluetooth) failed" in failure.get("message")
    assert "screenshot: /a/step02-attempt1.jpg" in failure.text
    assert testcase.find("rerunFailure") is not None
    out = testcase.findtext("system-out")
    assert "step 2 FAILED attempts=1 obstructions=[OVERLAY: Rate us (tapped Not now)]" in out
    assert "[[ATTACHMENT|/a/step02-attempt1.jpg]]" in out


def test_an_unloadable_flow_is_an_error() -> None:
    error = parsed().findall("testsuite")[3].find("testcase/error")
    assert "'format' must be 'starebrain-flow'" in error.get("message")


def test_console_lines_never_hide_a_retry() -> None:
    s = suite()
    assert "flaky (passed on retry 1)" in progress_line(s.flows[1])
    assert "FAILED" in totals_line(s) and "1 flaky" in totals_line(s)
    assert not s.ok
