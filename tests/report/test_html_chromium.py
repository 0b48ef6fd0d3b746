"""The HTML report as a browser shows it: headless Chromium loads the one file, offline."""

from __future__ import annotations

from pathlib import Path

from lxml import html as lxml_html
from PIL import Image

from starebrain.report import REPORT_VERSION, load_record, render_task_html
from tests.report.conftest import T0, chromium, chromium_or_skip

# Appended to a copy of the report for the test only: marks every <img> with what the browser decoded.
PROBE = """<script>
window.addEventListener('load', () => {
  for (const img of document.images) {
    img.setAttribute('data-decoded', img.complete && img.naturalWidth > 0 ? img.naturalWidth : 0);
  }
  document.body.setAttribute('data-probed', document.images.length);
});
</script>"""


def write_report(report_store: tuple, tmp_path: Path) -> Path:
    store, task = report_store
    page = render_task_html(load_record(store, task.id), generated_at=T0)
    path = tmp_path / "report.html"
    path.write_text(page, encoding="utf-8")
    return path


def test_the_report_renders_offline_with_every_screenshot_decoded(report_store: tuple, tmp_path: Path) -> None:
    binary = chromium_or_skip()
    report = write_report(report_store, tmp_path)
    probed = tmp_path / "probed.html"
    probed.write_text(report.read_text().replace("</body>", PROBE + "</body>"))
    dom = chromium(binary, tmp_path, "--virtual-time-budget=5000", "--dump-dom", probed.as_uri()).stdout
    page = lxml_html.fromstring(dom)
    assert page.get_element_by_id("task-status").text == "FAILED"
    names = [e.text_content() for e in page.find_class("step-name")]
    assert names == ["Open Messages", "Open Dana's thread", "Send the invoice"]
    assert [a.get("data-status") for a in page.find_class("step")] == ["COMPLETED", "COMPLETED", "PENDING"]
    images = page.xpath("//img[@class='screenshot']")
    # step 1: before + after (= step 2's first look); step 2: two attempts + after (= the final screen,
    # step 3 never ran); the final screen
    assert [img.get("alt") for img in images] == ["screen before attempt 1", "screen after the step",
                                                  "screen before attempt 1", "screen before attempt 2",
                                                  "screen after the step", "final screen"]
    assert [int(img.get("data-decoded")) for img in images] == [270] * 6  # decoded at full size
    assert all(img.get("src").startswith("data:image/jpeg;base64,") for img in images)
    text = page.text_content()
    assert "attempt 2 (retry)" in text and "retried: 2 attempts" in text
    assert "LOADING: Loading… (waited)" in text
    assert "DENIED" in text and "by tui" in text
    assert "step 3 denied: Send the invoice" in text
    assert "1020 tokens (900 prompt + 120 completion)" in text
    header = page.find(".//header").text_content()
    assert header.count("FAILED") == 1  # the status once, not "FAILED FAILED"
    summary = {d.findtext("dt"): d.findtext("dd") or d.find("dd").text_content()
               for d in page.get_element_by_id("summary-table")}
    assert summary["steps"] == "2 of 3 done, 1 retried" and summary["obstructions cleared"] == "1"
    assert summary["LLM calls"].startswith("1 · 1020 tokens") and summary["duration"].startswith("121.0 s")
    assert [a.get("href") for a in page.get_element_by_id("toc").iter("a")] == [
        "#summary", "#steps", "#final", "#replanning", "#llm"]
    denied = page.get_element_by_id("step-3")
    assert "confirmed" in denied.get("class") and "DENIED" in denied.get("class")
    assert denied.find_class("decision")[0].text_content().startswith("Denied by tui at 2026-")
    assert "thread moved" in page.get_element_by_id("replans").text_content()


def test_the_screenshot_of_the_page_is_not_blank(report_store: tuple, tmp_path: Path) -> None:
    binary = chromium_or_skip()
    report = write_report(report_store, tmp_path)
    shot = tmp_path / "page.png"
    chromium(binary, tmp_path, "--window-size=1100,1400", f"--screenshot={shot}", report.as_uri())
    with Image.open(shot) as img:
        colours = img.convert("RGB").getcolors(maxcolors=1_000_000)
    assert colours is not None and len(colours) > 50  # text, badges and the inlined screenshots


def test_the_file_is_self_contained_and_versioned(report_store: tuple, tmp_path: Path) -> None:
    page = write_report(report_store, tmp_path).read_text()
    assert f'<meta name="starebrain-report-version" content="{REPORT_VERSION}">' in page
    tree = lxml_html.fromstring(page)
    assert not tree.xpath("//script|//link|//iframe")
    sources = tree.xpath("//img/@src")
    assert sources and all(s.startswith("data:") for s in sources)
    assert "http://" not in page and "https://" not in page


def test_a_pruned_screenshot_is_shown_as_gone_not_as_a_broken_image(report_store: tuple, tmp_path: Path) -> None:
    store, task = report_store
    record = load_record(store, task.id)
    Path(record.attempts[0].screenshot_path).unlink()
    tree = lxml_html.fromstring(render_task_html(record))
    first = tree.get_element_by_id("step-1")
    assert [img.get("alt") for img in first.xpath(".//img")] == ["screen after the step"]
    assert "screenshot pruned or moved" in first.text_content()
