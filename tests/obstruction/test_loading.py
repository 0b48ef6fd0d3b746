"""A spinner that is the screen's loading indicator waits; a small one that marks one row, tab or button
as busy leaves the page usable."""

from __future__ import annotations

from functools import cache

from starebrain.obstruction import ObstructionKind, WaitClearance, detect
from starebrain.profiles import load_profiles
from starebrain.snapshot import ScreenSnapshot
from tests.obstruction import screens
from tests.snapshot.dumps import node

APP = screens.APP
W, H = screens.W, screens.H


@cache
def profile():
    return load_profiles().device_profile("google")


def _verdict(*children: str):
    page = node(cls="android.widget.FrameLayout", pkg=APP, bounds=f"[0,0][{W},{H}]", children=(
        node("Benchmarks", pkg=APP, bounds="[40,120][600,220]") + "".join(children)
        + node("Cancel run", cls="android.widget.Button", pkg=APP, bounds="[40,2100][1040,2240]", clickable=True)))
    return detect(ScreenSnapshot.from_xml(screens.screen(page)), profile())


def _spinner(bounds: str) -> str:
    return node(cls="android.widget.ProgressBar", pkg=APP, bounds=bounds)


def test_a_small_spinner_beside_a_row_label_is_that_rows_busy_state():
    row = node("CPU single-core", pkg=APP, bounds="[300,1180][900,1230]") + _spinner("[240,1190][280,1230]")
    assert _verdict(row).kind is ObstructionKind.READY


def test_a_default_size_spinner_in_the_middle_still_means_loading():
    alone = _verdict(_spinner("[480,1140][600,1260]"))
    assert alone.kind is ObstructionKind.LOADING and isinstance(alone.clearance, WaitClearance), alone.describe()
    # The same size beside a label (a progress dialog's "Syncing your notes" message) still waits.
    message = node("Syncing your notes", pkg=APP, bounds="[400,1170][900,1230]")
    beside = _verdict(_spinner("[240,1140][360,1260]"), message)
    assert beside.kind is ObstructionKind.LOADING, beside.describe()


def test_a_small_spinner_alone_in_the_middle_still_means_loading():
    assert _verdict(_spinner("[520,1180][560,1220]")).kind is ObstructionKind.LOADING
