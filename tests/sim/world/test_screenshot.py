"""Screenshots decode, have the screen's size, and are quick to draw."""

from __future__ import annotations

import io

from PIL import Image

from starebrain.sim.world import build_phone
from tests.sim.world.conftest import tap


def test_png_and_jpeg_decode_with_the_screen_size() -> None:
    phone = build_phone("rate_us")
    phone.start_app("com.google.android.apps.messaging")
    png = Image.open(io.BytesIO(phone.screenshot("PNG")))
    jpeg = Image.open(io.BytesIO(phone.screenshot("JPEG", quality=60)))
    assert (png.format, png.size) == ("PNG", (1080, 2400))
    assert (jpeg.format, jpeg.size) == ("JPEG", (1080, 2400))
    half = Image.open(io.BytesIO(phone.screenshot("JPEG", scale=0.5)))
    assert half.size == (540, 1200)


def test_the_dialog_dims_the_screen_behind_it() -> None:
    phone = build_phone("rate_us")
    phone.start_app("com.google.android.apps.messaging")
    dimmed = Image.open(io.BytesIO(phone.screenshot())).convert("RGB").getpixel((40, 1000))
    tap(phone, text="Not now")
    clear = Image.open(io.BytesIO(phone.screenshot())).convert("RGB").getpixel((40, 1000))
    assert isinstance(dimmed, tuple) and isinstance(clear, tuple)
    assert sum(dimmed) < sum(clear)


def test_the_keyboard_is_drawn_at_the_bottom() -> None:
    phone = build_phone()
    phone.start_app("com.google.android.gm")
    tap(phone, text="Compose")
    image = Image.open(io.BytesIO(phone.screenshot())).convert("RGB")
    assert image.getpixel((540, 1460)) != (255, 255, 255)  # keyboard background, not the white app


def test_screen_off_is_black() -> None:
    phone = build_phone()
    phone.set_screen(False)
    image = Image.open(io.BytesIO(phone.screenshot())).convert("RGB")
    assert image.getextrema() == ((0, 0), (0, 0), (0, 0))
