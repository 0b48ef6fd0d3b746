"""`starebrain test`: flow files as a regression suite on one or many phones, for CI."""

from __future__ import annotations

from starebrain.regression.discovery import FlowSpec, discover_flows
from starebrain.regression.results import FlowResult, FlowRun, StepLine, SuiteResult
from starebrain.regression.runner import SuiteOptions, SuiteRunner

__all__ = ["FlowResult", "FlowRun", "FlowSpec", "StepLine", "SuiteOptions", "SuiteResult", "SuiteRunner",
           "discover_flows"]
