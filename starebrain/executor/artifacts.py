"""Files referenced from attempt rows: the hierarchy and the screenshot the agent saw."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from starebrain.device.base import Observation


@dataclass(frozen=True)
class SavedObservation:
    hierarchy_path: str | None
    screenshot_path: str | None
    hierarchy_hash: str


class ArtifactWriter:
    """Writes per-attempt artifacts under `<root>/<task_id>/`; `root=None` keeps only the hash."""

    def __init__(self, root: Path | None) -> None:
        self.root = root

    def save(self, task_id: str, step_index: int, attempt: int, obs: Observation) -> SavedObservation:
        digest = hashlib.sha256(obs.hierarchy_xml.encode("utf-8", "replace")).hexdigest()[:16]
        if self.root is None:
            return SavedObservation(None, None, digest)
        folder = self.root / task_id
        folder.mkdir(parents=True, exist_ok=True)
        stem = f"step{step_index + 1:02d}-attempt{attempt}"
        xml_path = folder / f"{stem}.xml"
        xml_path.write_text(obs.hierarchy_xml, encoding="utf-8")
        shot_path = None
        if obs.screenshot:
            suffix = ".png" if obs.screenshot[:4] == b"\x89PNG" else ".jpg"
            shot_path = folder / f"{stem}{suffix}"
            shot_path.write_bytes(obs.screenshot)
        return SavedObservation(str(xml_path), str(shot_path) if shot_path else None, digest)
