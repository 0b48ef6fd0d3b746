"""Screenshots for reports: downscaled and inlined as data: URIs, so one HTML file holds everything."""

from __future__ import annotations

import base64
import io
from pathlib import Path

REPORT_IMAGE_WIDTH = 360  # px; a phone screenshot stays legible and a 20-step report stays a few MB


def image_data_uri(path: str | Path | None, max_width: int = REPORT_IMAGE_WIDTH) -> str | None:
    """A JPEG data: URI of the image, downscaled to `max_width`; None if the file is gone or unreadable."""
    if not path:
        return None
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(path) as source:
            img = source.convert("RGB")
        if img.width > max_width:
            img = img.resize((max_width, round(img.height * max_width / img.width)))
        buf = io.BytesIO()
        img.save(buf, format="JPEG", quality=72, optimize=True)
    except (OSError, UnidentifiedImageError, ValueError):
        return None
    return "data:image/jpeg;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def file_state(path: str | None) -> str:
    """"" if the artifact exists, else why it is not shown (never recorded, or pruned since)."""
    if not path:
        return "no screenshot recorded"
    return "" if Path(path).is_file() else "screenshot pruned or moved"
