"""What happened, as files a person or a CI server can read: a self-contained HTML report and JUnit XML."""

from __future__ import annotations

from starebrain.report.html_report import REPORT_VERSION, render_task_html
from starebrain.report.record import TaskRecord, load_record

__all__ = ["REPORT_VERSION", "TaskRecord", "load_record", "render_task_html"]
