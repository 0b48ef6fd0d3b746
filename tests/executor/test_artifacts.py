"""Saved dumps and screenshots: scrubbed, password fields masked, secrets painted over, owner-only modes."""

from __future__ import annotations

import io
import stat
from pathlib import Path

import pytest
from PIL import Image

from starebrain.device.base import Observation
from starebrain.executor.artifacts import ArtifactWriter
from starebrain.redaction import Scrubber
from tests.redaction.umask import umask_022  # noqa: F401 - a fixture, used by name

SECRET = "hunter2-canary"


def _png(size: tuple[int, int]) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, "white").save(out, format="PNG")
    return out.getvalue()


def _observation() -> Observation:
    xml = (f'<hierarchy><node text="{SECRET}" bounds="[100,200][300,260]"/>'
           '<node text="••••" password="true" bounds="[100,300][300,360]"/>'
           '<node text="Sign in" bounds="[100,400][300,460]"/></hierarchy>')
    # The screenshot is half the display's size: boxes are scaled to it.
    return Observation(hierarchy_xml=xml, package="p", screenshot=_png((540, 1200)), width=1080, height=2400)


@pytest.mark.usefixtures("umask_022")
def test_artifacts_are_scrubbed_masked_and_owner_only(tmp_path: Path) -> None:
    writer = ArtifactWriter(tmp_path / "artifacts", Scrubber({"PIN": SECRET}))
    saved = writer.save("task1", 0, 1, _observation())
    assert saved.hierarchy_path and saved.screenshot_path
    dump = Path(saved.hierarchy_path).read_text()
    assert SECRET not in dump and 'text="{secret:PIN}"' in dump and 'text="•••" password="true"' in dump
    shot = Image.open(saved.screenshot_path).convert("RGB")
    assert shot.getpixel((100, 115)) == (0, 0, 0)  # the element that showed the secret is painted over
    assert shot.getpixel((100, 215)) == (255, 255, 255)  # "Sign in" is not
    for path in (tmp_path / "artifacts", tmp_path / "artifacts" / "task1"):
        assert stat.S_IMODE(path.stat().st_mode) == 0o700
    for path in (saved.hierarchy_path, saved.screenshot_path):
        assert stat.S_IMODE(Path(path).stat().st_mode) == 0o600


def test_a_screen_without_secrets_keeps_its_screenshot_bytes(tmp_path: Path) -> None:
    obs = _observation()
    saved = ArtifactWriter(tmp_path, Scrubber({"OTHER": "not-on-screen"})).save("t", 0, 1, obs)
    assert Path(saved.screenshot_path or "").read_bytes() == obs.screenshot


def test_the_screenshot_for_a_vision_model_is_a_jpeg_with_secrets_painted_over() -> None:
    from starebrain.executor.artifacts import vision_jpeg

    obs = _observation()
    data = vision_jpeg(obs, Scrubber({"PIN": SECRET}), max_side=600)
    image = Image.open(io.BytesIO(data))
    assert image.format == "JPEG" and image.size == (270, 600)  # 540x1200 scaled to at most 600 px
    # The secret's box ([100,200][300,260] on the display) is black; "Sign in" is not painted over.
    assert image.convert("L").getpixel((50, 57)) < 40
    assert image.convert("L").getpixel((50, 107)) > 200
