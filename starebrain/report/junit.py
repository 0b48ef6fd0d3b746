"""JUnit XML for CI (Jenkins/Ant style, as GitLab, GitHub and Jenkins read it).

One <testsuite> per flow file holding its one <testcase> (classname = flow file, name = flow
name): the common schema has no per-testcase <properties>, so a flow's device, task, retries and
screenshots are the properties of its own suite. The steps are in the testcase's system-out, one
line each, followed by `[[ATTACHMENT|path]]` lines for the screenshots. Earlier failed runs are
<flakyFailure> (the flow passed later) or <rerunFailure> (it never passed), as Surefire writes them.
"""

from __future__ import annotations

import socket
from pathlib import Path

from lxml import etree

from starebrain.regression.results import FlowResult, FlowRun, SuiteResult

JUNIT_FORMAT_VERSION = 1


def junit_xml(suite: SuiteResult, *, hostname: str | None = None) -> bytes:
    """The suite as JUnit XML bytes (UTF-8, with declaration)."""
    root = etree.Element("testsuites", name="starebrain test", tests=str(len(suite.flows)),
                         failures=str(suite.count("failed")), errors=str(suite.count("error")),
                         time=_secs(suite.duration_s))
    stamp = suite.started_at.strftime("%Y-%m-%dT%H:%M:%S")
    for i, flow in enumerate(suite.flows):
        root.append(_testsuite(flow, i, stamp, hostname or socket.gethostname()))
    xml: bytes = etree.tostring(root, xml_declaration=True, encoding="UTF-8", pretty_print=True)
    return xml


def write_junit(suite: SuiteResult, path: Path) -> None:
    """Write the JUnit file, creating its folder."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(junit_xml(suite))


def _testsuite(flow: FlowResult, i: int, stamp: str, hostname: str) -> etree._Element:
    outcome = flow.outcome
    el = etree.Element("testsuite", name=flow.classname, tests="1", failures=str(int(outcome == "failed")),
                       errors=str(int(outcome == "error")), skipped="0", time=_secs(flow.duration_s),
                       timestamp=stamp, hostname=hostname, id=str(i), package="starebrain.flows")
    props = etree.SubElement(el, "properties")
    for name, value in _properties(flow):
        etree.SubElement(props, "property", name=name, value=value)
    el.append(_testcase(flow))
    return el


def _properties(flow: FlowResult) -> list[tuple[str, str]]:
    props = [("starebrain.junit_format", str(JUNIT_FORMAT_VERSION)), ("device", flow.device),
             ("result", flow.label), ("runs", str(len(flow.runs))), ("retries", str(flow.retries)),
             ("flaky", "true" if flow.outcome == "flaky" else "false")]
    if flow.passed_on_retry is not None:
        props.append(("passed_on_retry", str(flow.passed_on_retry)))
    for run in flow.runs:
        props.append((f"run{run.number}.task_id", run.task_id or ""))
        props.append((f"run{run.number}.result", run.status))
        props += [(f"run{run.number}.screenshot.step{s.index + 1}", s.screenshot) for s in run.steps
                  if s.screenshot]
    return props


def _testcase(flow: FlowResult) -> etree._Element:
    case = etree.Element("testcase", classname=flow.classname, name=flow.name, time=_secs(flow.duration_s))
    for run in flow.runs[:-1]:
        tag = "flakyFailure" if flow.outcome == "flaky" else "rerunFailure"
        early = etree.SubElement(case, tag, message=_message(run), type=run.status)
        early.text = _failure_text(run)
    final = flow.final
    if flow.outcome == "error":
        err = etree.SubElement(case, "error", message=flow.reason or "error", type="error")
        err.text = _failure_text(final) if final else flow.reason
    elif flow.outcome == "failed" and final is not None:
        failure = etree.SubElement(case, "failure", message=_message(final), type="StepFailed")
        failure.text = _failure_text(final)
    etree.SubElement(case, "system-out").text = _system_out(flow)
    return case


def _message(run: FlowRun) -> str:
    step = run.failed_step
    if step is None:
        return f"run {run.number}: {run.reason}"
    why = run.reason.split(" failed: ", 1)[1] if run.reason.startswith(f"step {step.index + 1} failed: ") \
        else run.reason
    return f"run {run.number}: step {step.index + 1} ({step.instruction}) failed: {why}"


def _failure_text(run: FlowRun) -> str:
    lines = [_message(run), f"task {run.task_id or '-'} ended {run.task_status or run.status}"]
    if run.failed_step is not None and run.failed_step.screenshot:
        lines.append(f"screenshot: {run.failed_step.screenshot}")
    return "\n".join(lines)


def _system_out(flow: FlowResult) -> str:
    lines = [f"flow {flow.name} ({flow.classname}) on {flow.device}: {flow.label}"]
    for run in flow.runs:
        retry = f" (retry {run.number - 1})" if run.number > 1 else ""
        lines.append(f"run {run.number}{retry}: {run.status}, task {run.task_id or '-'}, {run.duration_s:.2f} s"
                     + (f" — {run.reason}" if run.reason else ""))
        lines += [f"  {s.render()}" for s in run.steps]
    shots = [s for run in flow.runs for s in run.screenshots]
    lines += [f"[[ATTACHMENT|{path}]]" for path in shots]
    return "\n".join(lines) + "\n"


def _secs(seconds: float) -> str:
    return f"{seconds:.3f}"
