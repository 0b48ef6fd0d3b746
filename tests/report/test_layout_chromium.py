"""The report's layout as headless Chromium lays it out: it uses the page, puts each step's before and
after screens side by side, stacks on a narrow window, and looks like the reviewed reference image."""

from __future__ import annotations

from pathlib import Path

from lxml import html as lxml_html
from PIL import Image, ImageChops, ImageOps, ImageStat

from starebrain.report import load_record, render_task_html
from starebrain.report.suite_html import render_index
from tests.report.conftest import T0, chromium, chromium_or_skip

SNAPSHOTS = Path(__file__).parent / "snapshots"
# Writes the geometry the browser computed into attributes, so --dump-dom carries it out.
GEOMETRY = """<script>
window.addEventListener('load', () => {
  const box = (el) => el.getBoundingClientRect();
  const step = document.getElementById('step-1');
  const cards = step.querySelectorAll('.attempt');
  const b = document.body;
  b.setAttribute('data-vw', document.documentElement.clientWidth);
  b.setAttribute('data-step-width', Math.round(box(step).width));
  b.setAttribute('data-before-top', Math.round(box(cards[0]).top));
  b.setAttribute('data-after-top', Math.round(box(cards[cards.length - 1]).top));
  b.setAttribute('data-text-bottom', Math.round(box(step.querySelector('.step-text')).bottom));
  b.setAttribute('data-cards-top', Math.round(box(step.querySelector('.attempts')).top));
});
</script>"""


def report(report_store: tuple, tmp_path: Path, extra: str = "") -> Path:
    store, task = report_store
    page = render_task_html(load_record(store, task.id), generated_at=T0)
    path = tmp_path / "report.html"
    path.write_text(page.replace("</body>", extra + "</body>"), encoding="utf-8")
    return path


def geometry(binary: str, tmp_path: Path, page: Path, width: int) -> dict[str, int]:
    dom = chromium(binary, tmp_path, f"--window-size={width},1200", "--virtual-time-budget=5000", "--dump-dom",
                   page.as_uri()).stdout
    body = lxml_html.fromstring(dom).find(".//body")
    return {k[5:]: int(v) for k, v in body.attrib.items() if k.startswith("data-")}


def test_a_wide_window_is_used_and_before_and_after_sit_side_by_side(report_store: tuple, tmp_path: Path) -> None:
    binary = chromium_or_skip()
    page = report(report_store, tmp_path, GEOMETRY)
    wide = geometry(binary, tmp_path, page, 1600)
    assert wide["step-width"] >= 0.9 * wide["vw"]  # not a narrow column in the middle of the page
    assert wide["before-top"] == wide["after-top"]  # before and after on one row
    narrow = geometry(binary, tmp_path, page, 700)
    assert narrow["cards-top"] >= narrow["text-bottom"]  # stacked: the screens below the step's words


def similarity_gap(shot: Path, reference: Path) -> float:
    """Mean absolute difference (0..255) of the two pages, grey and downscaled (fonts may differ a little)."""
    with Image.open(shot) as a, Image.open(reference) as b:
        small = (160, 200)
        left = ImageOps.grayscale(a).resize(small)
        right = ImageOps.grayscale(b).resize(small)
    return float(ImageStat.Stat(ImageChops.difference(left, right)).mean[0])


def test_the_report_page_matches_the_reference_screenshot(report_store: tuple, tmp_path: Path) -> None:
    binary = chromium_or_skip()
    shot = tmp_path / "report.png"
    chromium(binary, tmp_path, "--window-size=1400,1800", "--hide-scrollbars", f"--screenshot={shot}",
             report(report_store, tmp_path).as_uri())
    reference = SNAPSHOTS / "report-1400.png"
    assert reference.is_file(), f"no reference image; review {shot} and copy it to {reference}"
    assert similarity_gap(shot, reference) < 3.0


def test_the_suite_index_page_matches_the_reference_screenshot(tmp_path: Path) -> None:
    from tests.report.test_suite_index import sample_suite

    binary = chromium_or_skip()
    page = tmp_path / "index.html"
    page.write_text(render_index(sample_suite()), encoding="utf-8")
    shot = tmp_path / "index.png"
    chromium(binary, tmp_path, "--window-size=1400,700", "--hide-scrollbars", f"--screenshot={shot}", page.as_uri())
    reference = SNAPSHOTS / "index-1400.png"
    assert reference.is_file(), f"no reference image; review {shot} and copy it to {reference}"
    assert similarity_gap(shot, reference) < 3.0
