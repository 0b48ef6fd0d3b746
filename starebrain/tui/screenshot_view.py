"""A screenshot in the terminal: downscaled with Pillow, two pixels per cell with the ▀ half block."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.console import Group, RenderableType
from rich.style import Style
from rich.text import Text

UPPER_HALF = "▀"


def render_blocks(path: str | Path, width: int = 36) -> Text:
    """The image as `width` columns of coloured half blocks (height keeps the aspect ratio)."""
    from PIL import Image

    with Image.open(path) as source:
        img = source.convert("RGB")
    rows = max(2, round(img.height * width / img.width / 2) * 2)  # two pixel rows per text row
    small = img.resize((width, rows), Image.Resampling.BOX)
    pixels = small.load()
    assert pixels is not None
    text = Text(no_wrap=True, overflow="crop")
    for y in range(0, rows, 2):
        for x in range(width):
            top, bottom = pixels[x, y], pixels[x, y + 1]
            text.append(UPPER_HALF, Style(color=_hex(top), bgcolor=_hex(bottom)))
        text.append("\n")
    return text


def screenshot_text(path: str | None, width: int = 36) -> RenderableType:
    """The block rendering with the file's path and size under it, or why there is none."""
    if not path:
        return Text("no screenshot recorded", style="dim italic")
    file = Path(path)
    if not file.is_file():
        return Text(f"screenshot pruned or moved: {path}", style="dim italic")
    try:
        art = render_blocks(file, width)
    except OSError as exc:
        return Text(f"screenshot unreadable ({exc}): {path}", style="dim italic")
    return Group(art, Text(f"{path} ({file.stat().st_size // 1024} KiB)", style="dim"))


def _hex(pixel: Any) -> str:
    r, g, b = pixel[:3]
    return f"#{r:02x}{g:02x}{b:02x}"
