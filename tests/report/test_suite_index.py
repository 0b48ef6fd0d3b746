"""The suite index: pass/fail counts at the top and the flows that need a look first."""

from __future__ import annotations

from pathlib import Path

from lxml import html as lxml_html

from starebrain.regression.results import FlowResult, FlowRun, SuiteResult
from starebrain.report.suite_html import render_index
from tests.report.conftest import T0


def flow(name: str, *statuses: str, reason: str = "") -> FlowResult:
    runs = [FlowRun(number=i + 1, status=s, reason=reason if s != "passed" else "",  # type: ignore[arg-type]
                    task_id=f"{name}-{i}", duration_s=1.5) for i, s in enumerate(statuses)]
    return FlowResult(path=Path(f"flows/{name}.yaml"), name=name, device="emulator-5554", runs=runs)


def sample_suite() -> SuiteResult:
    return SuiteResult(flows=[flow("mail-read", "passed"), flow("notes-new", "failed", reason="step 3 failed"),
                              flow("tasks-add", "failed", "passed", reason="spinner"),
                              flow("bank", "error", reason="phone lost"), flow("settings", "passed")],
                       started_at=T0, duration_s=12.5, devices=["emulator-5554", "emulator-5556"])


def test_counts_come_first_and_failures_are_listed_before_passes() -> None:
    page = lxml_html.fromstring(render_index(sample_suite()))
    counts = {k: page.get_element_by_id(f"count-{k}").text for k in ("passed", "flaky", "failed", "error")}
    assert counts == {"passed": "2", "flaky": "1", "failed": "1", "error": "1"}
    rows = page.get_element_by_id("flows").xpath(".//tr[@data-outcome]")
    assert [r.get("data-outcome") for r in rows] == ["error", "failed", "flaky", "passed", "passed"]
    assert "step 3 failed" in rows[1].text_content() and "phone lost" in rows[0].text_content()
