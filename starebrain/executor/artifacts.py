"""Files referenced from attempt rows: the hierarchy and the screenshot the agent saw.

Both are written for the owner only (folders 0700, files 0600). A dump is saved scrubbed: secret
values replaced by their `{secret:NAME}` reference and password fields masked. On a screenshot,
every element that showed a secret is painted over, so a report never displays one.
"""

from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass
from pathlib import Path

from starebrain.config import private_dir, write_private
from starebrain.device.base import Observation
from starebrain.redaction import Scrubber, secret_boxes


@dataclass(frozen=True)
class SavedObservation:
    hierarchy_path: str | None
    screenshot_path: str | None
    hierarchy_hash: str


class ArtifactWriter:
    """Writes per-attempt artifacts under `<root>/<task_id>/`; `root=None` keeps only the hash."""

    def __init__(self, root: Path | None, scrubber: Scrubber | None = None) -> None:
        self.root = root
        self.scrubber = scrubber or Scrubber()

    def save(self, task_id: str, step_index: int, attempt: int, obs: Observation) -> SavedObservation:
        xml = self.scrubber.hierarchy(obs.hierarchy_xml)
        digest = hashlib.sha256(xml.encode("utf-8", "replace")).hexdigest()[:16]
        if self.root is None:
            return SavedObservation(None, None, digest)
        private_dir(self.root)
        folder = private_dir(self.root / task_id)
        stem = f"step{step_index + 1:02d}-attempt{attempt}"
        xml_path = folder / f"{stem}.xml"
        write_private(xml_path, xml.encode("utf-8"))
        shot_path = None
        if obs.screenshot:
            suffix = ".png" if obs.screenshot[:4] == b"\x89PNG" else ".jpg"
            shot_path = folder / f"{stem}{suffix}"
            write_private(shot_path, _painted_over(obs, xml))
        return SavedObservation(str(xml_path), str(shot_path) if shot_path else None, digest)


def vision_jpeg(obs: Observation, scrubber: Scrubber, max_side: int = 1600) -> bytes:
    """The screenshot for a vision model: secrets painted over as in the saved one, as a JPEG at most `max_side`
    pixels high or wide (the model answers in percent of the image, so scaling moves no point)."""
    from PIL import Image  # lazy: only screens without a usable hierarchy need it

    image = Image.open(io.BytesIO(_painted_over(obs, scrubber.hierarchy(obs.hierarchy_xml)))).convert("RGB")
    scale = max_side / max(image.size)
    if scale < 1:
        image = image.resize((max(1, round(image.width * scale)), max(1, round(image.height * scale))))
    out = io.BytesIO()
    image.save(out, format="JPEG", quality=80)
    return out.getvalue()


def _painted_over(obs: Observation, xml: str) -> bytes:
    """The screenshot with a black box over each element whose text was a secret (as is without any)."""
    assert obs.screenshot is not None
    boxes = secret_boxes(xml)
    if not boxes:
        return obs.screenshot
    from PIL import Image, ImageDraw  # lazy: only when a secret was on screen

    image = Image.open(io.BytesIO(obs.screenshot))
    sx = image.width / obs.width if obs.width else 1.0
    sy = image.height / obs.height if obs.height else 1.0
    draw = ImageDraw.Draw(image)
    for x1, y1, x2, y2 in boxes:
        draw.rectangle((x1 * sx, y1 * sy, x2 * sx, y2 * sy), fill="black")
    out = io.BytesIO()
    image.save(out, format=image.format or "PNG")
    return out.getvalue()
