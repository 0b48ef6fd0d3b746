"""Screenshots: the current windows drawn as a legible phone wireframe with Pillow."""

from __future__ import annotations

import io
import unicodedata
from functools import cache

from PIL import Image, ImageDraw, ImageFont

from starebrain.sim.phone import UiNode
from starebrain.sim.world.frame import Frame, Window
from starebrain.sim.world.nodes import is_true

SIZES = {"title": 56, "heading": 44, "body": 40, "small": 34, "hint": 40, "action": 34, "key": 44, "icon": 34,
         "fab": 40}
INK, MUTED, BLUE, LINE = (32, 33, 36), (95, 99, 104), (26, 115, 232), (218, 220, 224)
ASCII_FOR = {"\u2022": "*", "\u2713": "v", "\u201c": '"', "\u201d": '"', "\u2013": "-", "\u2014": "-",
             "\u2018": "'", "\u00a0": " "}
KEEP = {"\u2026", "\u2019", "\u00b7"}
KEY_LABELS = {"Symbol keyboard": "?123", "Space": "", "Open features menu": "...", "Delete": "Del"}
ICON_LABELS = {"Navigate up": "<", "Close": "X"}
WINDOW_FILL = {"status": (32, 33, 36), "keyboard": (232, 234, 237), "shade": (40, 42, 46)}
FontT = ImageFont.FreeTypeFont | ImageFont.ImageFont


@cache
def font(size: int) -> FontT:
    """Pillow's bundled font at a size (no system fonts needed)."""
    return ImageFont.load_default(size=size)


def printable(text: str) -> str:
    """Text reduced to glyphs the bundled font has (accents dropped, bullets as `*`)."""
    out = []
    for char in text:
        if char.isascii() or char in KEEP:
            out.append(char)
        elif char in ASCII_FOR:
            out.append(ASCII_FOR[char])
        else:
            base = unicodedata.normalize("NFKD", char).encode("ascii", "ignore").decode()
            out.append(base or "?")
    return "".join(out)


def wrap(text: str, face: FontT, width: int) -> list[str]:
    """Greedy word wrap to a pixel width."""
    lines: list[str] = []
    for paragraph in printable(text).split("\n"):
        line = ""
        for word in paragraph.split(" "):
            trial = f"{line} {word}".strip()
            if line and face.getlength(trial) > width:
                lines.append(line)
                line = word
            else:
                line = trial
        lines.append(line)
    return lines


def draw_text(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], text: str, size: int,
              fill: tuple[int, int, int] = INK, center: bool = False) -> None:
    """Wrapped text inside a box, clipped to its height."""
    face = font(size)
    left, top, right, bottom = box
    line_h = int(size * 1.25)
    lines = wrap(text, face, max(right - left - 8, 10))
    max_lines = max(1, (bottom - top) // line_h)
    y = top + ((bottom - top - line_h * min(len(lines), max_lines)) // 2 if center else 4)
    for line in lines[:max_lines]:
        x = left + ((right - left - face.getlength(line)) // 2 if center else 4)
        draw.text((x, y), line, font=face, fill=fill)
        y += line_h


class Painter:
    """Draws one frame's windows, bottom to top."""

    def __init__(self, frame: Frame, size: tuple[int, int]) -> None:
        self.frame = frame
        self.image = Image.new("RGB", size, "white")
        self.draw = ImageDraw.Draw(self.image)

    def paint(self) -> Image.Image:
        """Every window, dimming under dialogs, then the gesture handle."""
        for window in sorted(self.frame.windows, key=lambda w: w.role != "app"):  # status bar above the app
            if window.dims:
                self.image = Image.blend(self.image, Image.new("RGB", self.image.size, "black"), 0.45)
                self.draw = ImageDraw.Draw(self.image)
            self.window(window)
        width, height = self.image.size
        self.draw.rounded_rectangle((width // 2 - 110, height - 26, width // 2 + 110, height - 16), 5, fill=INK)
        return self.image

    def window(self, window: Window) -> None:
        box = window.root.bounds
        if window.role in WINDOW_FILL:
            self.draw.rectangle(box, fill=WINDOW_FILL[window.role])
        elif window.role in ("dialog", "notification"):
            self.draw.rounded_rectangle(box, 28, fill="white", outline=LINE, width=3)
        else:
            self.draw.rectangle(box, fill="white")
        light = window.role in ("status", "shade")
        for node in window.root.iter()[1:]:
            self.node(node, light)

    def node(self, node: UiNode, light: bool) -> None:
        cls = node.attrs["class"].rsplit(".", 1)[-1]
        style = self.frame.styles.get(id(node), "")
        painter = getattr(self, f"_{cls.lower()}", None)
        if style == "key":
            self._key(node)
        elif style == "card":
            self.draw.rounded_rectangle(node.bounds, 32, fill=(241, 243, 244), outline=LINE, width=3)
        elif painter is not None:
            try:
                painter(node, style, light)
            except ValueError:  # too small for the widget's drawing (recorded real screens): leave it blank
                pass
        elif is_true(node, "clickable") and node.attrs["resource-id"].endswith(("Container", "_item", "_row",
                                                                                   "item_root", "_view", "tile")):
            left, _, right, bottom = node.bounds
            self.draw.line((left + 40, bottom - 1, right - 40, bottom - 1), fill=LINE, width=2)

    def _textview(self, node: UiNode, style: str, light: bool) -> None:
        text = node.attrs["text"] or node.attrs["content-desc"]
        if style == "icon":
            self._icon(node)
            return
        if style == "action" or (not node.attrs["text"] and is_true(node, "clickable")):
            self._imagebutton(node, style, light)
            return
        color = (240, 240, 240) if light else (MUTED if style == "small" else INK)
        draw_text(self.draw, node.bounds, text, SIZES.get(style, 40), color)

    def _icon(self, node: UiNode) -> None:
        left, top, right, bottom = node.bounds
        cx = (left + right) // 2
        self.draw.rounded_rectangle((cx - 70, top + 20, cx + 70, top + 160), 36, fill=(210, 227, 252))
        draw_text(self.draw, (cx - 70, top + 20, cx + 70, top + 160), node.attrs["text"][:1], 64, BLUE, True)
        draw_text(self.draw, (left, top + 170, right, bottom), node.attrs["text"], 32, INK, True)

    def _button(self, node: UiNode, style: str, light: bool) -> None:
        fill = (26, 115, 232) if style == "fab" else (211, 227, 253)
        ink = (255, 255, 255) if style == "fab" else (8, 66, 160)
        self.draw.rounded_rectangle(node.bounds, 36, fill=fill)
        draw_text(self.draw, node.bounds, node.attrs["text"] or node.attrs["content-desc"], 40, ink, True)

    def _edittext(self, node: UiNode, style: str, light: bool) -> None:
        focused = is_true(node, "focused")
        self.draw.rounded_rectangle(node.bounds, 16, outline=BLUE if focused else LINE, width=4 if focused else 2)
        left, top, right, bottom = node.bounds
        hint = style == "hint"
        draw_text(self.draw, (left + 20, top + 10, right - 20, bottom - 10), node.attrs["text"], 40,
                  MUTED if hint else INK)
        if focused:
            self.draw.line((left + 24, top + 22, left + 24, top + 74), fill=BLUE, width=3)

    def _checkbox(self, node: UiNode, style: str, light: bool) -> None:
        left, top, _, bottom = node.bounds
        cy = (top + bottom) // 2
        box = (left + 10, cy - 30, left + 70, cy + 30)
        checked = is_true(node, "checked")
        self.draw.rounded_rectangle(box, 8, outline=BLUE, width=4, fill=BLUE if checked else None)
        if checked:
            self.draw.line((box[0] + 12, cy, box[0] + 26, cy + 16, box[2] - 10, cy - 16), fill="white", width=6)
        draw_text(self.draw, (left + 90, top, node.bounds[2], bottom), node.attrs["text"], 40, INK)

    def _switch(self, node: UiNode, style: str, light: bool) -> None:
        left, top, right, bottom = node.bounds
        on = is_true(node, "checked")
        cy = (top + bottom) // 2
        self.draw.rounded_rectangle((left, cy - 30, right, cy + 30), 30, fill=BLUE if on else (189, 193, 198))
        knob = right - 56 if on else left + 4
        self.draw.ellipse((knob, cy - 26, knob + 52, cy + 26), fill="white")

    def _imagebutton(self, node: UiNode, style: str, light: bool) -> None:
        left, top, right, bottom = node.bounds
        label = node.attrs["text"] or node.attrs["content-desc"]
        label = ICON_LABELS.get(label, label)
        self.draw.rounded_rectangle((left + 8, top + 20, right - 8, bottom - 20), 24, outline=LINE, width=2)
        draw_text(self.draw, (left + 8, top + 20, right - 8, bottom - 20), label, 26, BLUE, True)

    _imageview = _imagebutton

    def _progressbar(self, node: UiNode, style: str, light: bool) -> None:
        self.draw.ellipse(node.bounds, outline=LINE, width=10)
        self.draw.arc(node.bounds, 200, 330, fill=BLUE, width=10)

    def _surfaceview(self, node: UiNode, style: str, light: bool) -> None:
        """A canvas: its own background and the buttons it draws (only the pixels show them)."""
        self.draw.rectangle(node.bounds, fill=(32, 33, 36))
        target = self.frame.targets.get(node.key)
        for region in target.regions if target is not None else []:
            self.draw.rounded_rectangle(region.bounds, 28, fill=region.color)
            draw_text(self.draw, region.bounds, region.label, 48, (255, 255, 255), True)

    _flutterview = _fluttersurfaceview = _glsurfaceview = _textureview = _surfaceview

    def _key(self, node: UiNode) -> None:
        left, top, right, bottom = node.bounds
        self.draw.rounded_rectangle((left + 6, top + 8, right - 6, bottom - 8), 12, fill="white")
        label = KEY_LABELS.get(node.attrs["content-desc"], node.attrs["content-desc"])
        draw_text(self.draw, (left, top, right, bottom), label, 40, INK, True)


BACKGROUNDS = [(255, 255, 255), (211, 227, 253), (210, 227, 252), (232, 234, 237), (32, 33, 36), (40, 42, 46),
               (26, 115, 232), (189, 193, 198)]
INKS = [INK, MUTED, BLUE, LINE, (8, 66, 160), (240, 240, 240), (255, 255, 255), (0, 0, 0)]


@cache
def _palette() -> Image.Image:
    """A fixed 256-colour palette covering our colours, their anti-aliasing blends and dimmed versions."""
    strip = Image.new("RGB", (16, len(BACKGROUNDS) * len(INKS) * 2))
    y = 0
    for dim in (1.0, 0.55):
        for bg in BACKGROUNDS:
            for ink in INKS:
                for x in range(16):
                    mix = tuple(round((b + (i - b) * x / 15) * dim) for b, i in zip(bg, ink, strict=True))
                    strip.putpixel((x, y), mix)
                y += 1
    return strip.quantize(colors=256, method=Image.Quantize.MEDIANCUT)


def render(frame: Frame, display: tuple[int, int], fmt: str = "PNG", scale: float = 1.0, quality: int = 80,
           on: bool = True) -> bytes:
    """PNG or JPEG bytes of the frame (a black screen when the display is off)."""
    image = Painter(frame, display).paint() if on else Image.new("RGB", display, "black")
    if scale != 1.0:
        image = image.resize((max(1, round(display[0] * scale)), max(1, round(display[1] * scale))))
    out = io.BytesIO()
    if fmt.upper() in ("JPEG", "JPG"):
        image.save(out, "JPEG", quality=quality)
    else:
        # A fixed palette makes the PNG a third of the bytes to deflate: ~15 ms instead of ~35 ms.
        image.quantize(palette=_palette(), dither=Image.Dither.NONE).save(out, "PNG", compress_level=1)
    return out.getvalue()
