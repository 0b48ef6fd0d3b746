"""An app's PIN pad goes to the person; a calculator, a dialer and a keyboard of digits and letters do not."""

from __future__ import annotations

from functools import cache

from starebrain.obstruction import ObstructionKind, detect
from starebrain.profiles import load_profiles
from starebrain.snapshot import ScreenSnapshot
from tests.obstruction import screens
from tests.snapshot.dumps import node

APP = screens.APP
W, H = screens.W, screens.H


@cache
def profile():
    return load_profiles().device_profile("google")


def _key(label: str, i: int) -> str:
    left, top = 144 + 288 * (i % 3), 849 + 252 * (i // 3)
    bounds = f"[{left},{top}][{left + 216},{top + 216}]"
    return node(cls="android.widget.LinearLayout", pkg=APP, bounds=bounds, clickable=True,
                children=node(label, pkg=APP, desc=label, bounds=bounds))


def _pad(*labels: str, field: bool = False, pkg: str = APP) -> ScreenSnapshot:
    title = node("Enter your passcode", pkg=APP, bounds="[355,574][725,657]")
    dots = "".join(node("", cls="android.widget.ImageView", pkg=APP, desc=f"Dot {i}",
                        bounds=f"[{276 + 96 * i},705][{324 + 96 * i},753]") for i in range(6))
    entry = node("", cls="android.widget.EditText", pkg=APP, bounds="[100,400][980,500]", editable=True) \
        if field else ""
    keys = "".join(_key(label, i) for i, label in enumerate(labels))
    page = node(cls="android.view.ViewGroup", pkg=APP, bounds=f"[0,0][{W},{H}]", children=title + dots + entry + keys)
    return ScreenSnapshot.from_xml(screens.screen(page).replace(f'package="{APP}"', f'package="{pkg}"'))


DIGITS = tuple("1234567890")


def test_a_pad_of_the_ten_digits_goes_to_the_person():
    found = detect(_pad(*DIGITS), profile())
    assert found.kind is ObstructionKind.UNKNOWN and found.needs_person, found.describe()


def test_a_calculator_a_dialer_a_field_or_a_partial_pad_is_not_a_passcode_pad():
    calculator = _pad(*DIGITS, "+", "=")
    dialer = _pad(*DIGITS, "*", "#")
    with_field = _pad(*DIGITS, field=True)
    partial = _pad(*DIGITS[:9])
    for snap in (calculator, dialer, with_field, partial):
        assert detect(snap, profile()).kind is ObstructionKind.READY


def test_a_system_packages_pad_is_a_system_prompt_for_the_person_and_an_apps_stays_unknown():
    # ColorOS / OxygenOS app lock: the security centre's full-screen PIN pad over a locked app
    found = detect(_pad(*DIGITS, pkg="com.oplus.safecenter"), profile())
    assert found.kind is ObstructionKind.SYSTEM_DIALOG and found.needs_person, found.describe()
    found = detect(_pad(*DIGITS, pkg="com.example.safecenter"), profile())
    assert found.kind is ObstructionKind.UNKNOWN and found.needs_person, found.describe()
