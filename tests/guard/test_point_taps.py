"""A tap at a point is judged by what a tap there reaches on the sim's own screens: its app, its words,
its dialog; a point on a system window or another app's window is not tapped at all."""

from __future__ import annotations

from typing import Any

from starebrain.guard import ConfirmationGuard
from starebrain.guard.act_gate import ActGate, ActVerdict
from starebrain.guard.concrete_action import approval_key
from starebrain.models import AgentStep, Selector, Tap
from starebrain.profiles import load_profiles
from starebrain.sim.world import build_phone
from starebrain.snapshot import ScreenSnapshot
from tests.guard.test_act_gate import BANK, TASKS, _transfer_form

GUARD = ConfirmationGuard(load_profiles())
KONTOR = "eu.kontorbank.mobile"


def _center(phone: Any, rid: str) -> tuple[int, int]:
    snap = ScreenSnapshot.from_xml(phone.hierarchy_xml())
    return next(n for n in snap.nodes if n.resource_id == rid).center


def _judge(gate: ActGate, phone: Any, package: str, x: int, y: int) -> ActVerdict:
    xml = phone.hierarchy_xml()
    snap = ScreenSnapshot.from_xml(xml)
    step = AgentStep(instruction="tap there", action=Tap(selector=Selector(point=f"{x},{y}")), target_package=package)
    node = snap.touch_target_at(x, y) or snap.node_on_top_at(x, y)
    return gate.judge(step, snap, node, (x, y))


def test_a_point_on_a_harmless_row_goes_and_names_the_row_and_the_point() -> None:
    phone = build_phone("default")
    phone.start_app(TASKS)
    x, y = _center(phone, f"{TASKS}:id/task_name")
    verdict = _judge(ActGate(GUARD), phone, TASKS, x, y)
    assert verdict.go, verdict
    assert verdict.concrete.point == f"{x},{y}" and f"at ({x},{y})" in verdict.concrete.describe()
    assert verdict.concrete.app == TASKS


def test_a_point_on_confirm_transfer_asks_and_the_approval_covers_that_point_only() -> None:
    phone = _transfer_form()
    x, y = _center(phone, f"{BANK}:id/confirm_transfer_button")
    asked = _judge(ActGate(GUARD), phone, BANK, x, y)
    assert asked.ask and "banking" in asked.ask and "Confirm transfer" in asked.concrete.element
    step = AgentStep(instruction="tap there", action=Tap(selector=Selector(point=f"{x},{y}")), target_package=BANK)
    approved = ActGate(GUARD, approval_key(step, asked.concrete))
    assert _judge(approved, phone, BANK, x, y).go
    assert not _judge(approved, phone, BANK, x + 3, y).go  # another point: another concrete action


def test_a_point_on_an_icon_only_button_of_an_unknown_bank_goes_to_the_person() -> None:
    phone = build_phone("default+kontor")
    phone.start_app(KONTOR)
    snap = ScreenSnapshot.from_xml(phone.hierarchy_xml())
    opener = next(n for n in snap.nodes if n.resource_id == f"{KONTOR}:id/open_transfer")
    phone.tap(*opener.center)
    x, y = _center(phone, f"{KONTOR}:id/fab_action")
    verdict = _judge(ActGate(GUARD), phone, KONTOR, x, y)
    assert verdict.ask and "no label" in verdict.ask and verdict.concrete.unlabelled


def test_a_point_on_the_status_bar_or_a_system_dialog_is_not_tapped() -> None:
    phone = build_phone("default")
    phone.start_app(TASKS)
    bar = _judge(ActGate(GUARD), phone, TASKS, 540, 20)
    assert bar.cover is not None and not bar.go
    phone.show_dialog("usb_access", {})
    snap = ScreenSnapshot.from_xml(phone.hierarchy_xml())
    allow = next(n for n in snap.nodes if n.clickable and n.package == "com.android.systemui" and n.text)
    dialog = _judge(ActGate(GUARD), phone, TASKS, *allow.center)
    assert dialog.cover is not None and not dialog.go


def test_a_point_outside_a_modal_dialog_is_not_tapped_through_it() -> None:
    phone = build_phone("default")
    phone.start_app(TASKS)
    x, y = _center(phone, f"{TASKS}:id/task_name")
    phone.show_dialog("rate_us", {})
    verdict = _judge(ActGate(GUARD), phone, TASKS, x, 2300)
    assert not verdict.go and verdict.cover is not None, verdict


def test_a_point_on_a_keyboard_known_only_by_its_navigation_bar_is_not_tapped() -> None:
    board = "com.example.board"  # no "inputmethod" in its name: only the framework's IME bar says what it is
    xml = f"""<?xml version="1.0" encoding="UTF-8"?><hierarchy rotation="0">
<node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="{TASKS}" content-desc=""
 checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false"
 long-clickable="false" password="false" selected="false" bounds="[0,0][1080,2400]">
<node index="0" text="Buy milk" resource-id="{TASKS}:id/task_name" class="android.widget.TextView" package="{TASKS}"
 content-desc="" checkable="false" checked="false" clickable="true" enabled="true" focusable="true" focused="false"
 scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,1800][1080,1950]"/></node>
<node index="1" text="" resource-id="" class="android.widget.FrameLayout" package="{board}" content-desc=""
 checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false"
 long-clickable="false" password="false" selected="false" bounds="[0,1500][1080,2400]">
<node index="0" text="q" resource-id="{board}:id/key_q" class="android.widget.Button" package="{board}" content-desc=""
 checkable="false" checked="false" clickable="true" enabled="true" focusable="true" focused="false" scrollable="false"
 long-clickable="false" password="false" selected="false" bounds="[0,1800][108,1950]"/>
<node index="1" text="" resource-id="android:id/input_method_navigation_bar_view" class="android.widget.FrameLayout"
 package="{board}" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false"
 focused="false" scrollable="false" long-clickable="false" password="false" selected="false"
 bounds="[0,2300][1080,2400]"/></node></hierarchy>"""
    snap = ScreenSnapshot.from_xml(xml)
    assert next(w for w in snap.windows if w.package == board).is_keyboard
    step = AgentStep(instruction="tap there", action=Tap(selector=Selector(point="50,1870")), target_package=TASKS)
    node = snap.touch_target_at(50, 1870) or snap.node_on_top_at(50, 1870)
    verdict = ActGate(GUARD).judge(step, snap, node, (50, 1870))
    assert not verdict.go and verdict.cover is not None and verdict.cover.what == "the keyboard", verdict
