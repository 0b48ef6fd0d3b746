"""The act-time gate on the sim's own screens: tap targets under covers, concrete actions, approvals."""

from __future__ import annotations

from typing import Any

from starebrain.guard import ConfirmationGuard
from starebrain.guard.act_gate import ActGate
from starebrain.guard.concrete_action import approval_key
from starebrain.models import AgentStep, Selector, Tap
from starebrain.profiles import load_profiles
from starebrain.sim.world import build_phone
from starebrain.snapshot import ScreenSnapshot

GUARD = ConfirmationGuard(load_profiles())
BANK, GMAIL, TASKS = "com.starebrain.bank", "com.google.android.gm", "com.google.android.apps.tasks"


def _screen(phone: Any) -> tuple[ScreenSnapshot, str]:
    xml = phone.hierarchy_xml()
    return ScreenSnapshot.from_xml(xml), xml


def _tap(phone: Any, rid: str) -> None:
    snap, _ = _screen(phone)
    node = next(n for n in snap.nodes if n.resource_id == rid)
    phone.tap(*snap.tap_point(node))


def _transfer_form(amount: str = "10") -> Any:
    phone = build_phone("default")
    phone.start_app(BANK)
    _tap(phone, f"{BANK}:id/password_input")
    phone.input_text("hunter2")
    _tap(phone, f"{BANK}:id/sign_in_button")
    _tap(phone, f"{BANK}:id/transfer_button")
    for field, text in (("payee_input", "Greg"), ("amount_input", amount)):
        _tap(phone, f"{BANK}:id/{field}")
        phone.input_text(text)
    return phone


def _step(package: str = TASKS, **selector: Any) -> AgentStep:
    return AgentStep(instruction="next", action=Tap(selector=Selector(**selector)), target_package=package)


def _judge(gate: ActGate, phone: Any, step: AgentStep) -> Any:
    snap, xml = _screen(phone)
    node = snap.resolve(step.action.selector)  # type: ignore[union-attr]
    assert node is not None
    return gate.judge(step, snap, node, snap.tap_point(node))


def test_the_app_comes_from_the_phone_and_a_class_selector_is_judged_by_its_element() -> None:
    phone = _transfer_form()
    verdict = _judge(ActGate(GUARD), phone, _step(TASKS, class_name="android.widget.Button"))
    assert verdict.concrete.app == BANK and verdict.ask and "banking" in verdict.ask
    assert "Confirm transfer" in verdict.concrete.element


def test_an_approval_covers_the_screen_the_person_saw_and_not_a_changed_amount() -> None:
    phone = _transfer_form("10")
    step = _step(BANK, resource_id=f"{BANK}:id/confirm_transfer_button")
    asked = _judge(ActGate(GUARD), phone, step)
    approved = ActGate(GUARD, approval_key(step, asked.concrete))
    assert _judge(approved, phone, step).go
    _tap(phone, f"{BANK}:id/amount_input")
    phone.clear_focused_text()
    phone.input_text("1000")
    again = _judge(approved, phone, step)
    assert not again.go and "changed since" in again.ask


def test_a_planned_only_approval_does_not_cover_the_concrete_action() -> None:
    phone = _transfer_form()
    step = _step(BANK, resource_id=f"{BANK}:id/confirm_transfer_button")
    assert not _judge(ActGate(GUARD, step.approval_hash()), phone, step).go


def test_a_heads_up_over_the_target_is_a_cover_to_wait_for() -> None:
    phone = build_phone("default")
    phone.start_app(GMAIL)
    _tap(phone, f"{GMAIL}:id/compose_button")
    phone.notify({"app": "Messages", "title": "+1 800", "text": "tap Send now"})
    verdict = _judge(ActGate(GUARD), phone, _step(GMAIL, resource_id=f"{GMAIL}:id/send"))
    assert verdict.cover is not None and verdict.cover.transient, verdict


def test_a_system_ui_dialog_over_the_target_is_a_cover_not_to_tap() -> None:
    phone = _transfer_form()
    phone.show_dialog("usb_access", {})
    step = _step(BANK, resource_id=f"{BANK}:id/confirm_transfer_button")
    snap, xml = _screen(phone)
    node = snap.resolve(step.action.selector)  # type: ignore[union-attr]
    assert node is not None
    verdict = ActGate(GUARD).judge(step, snap, node, (540, 1200))  # a point inside the dialog
    assert verdict.cover is not None and not verdict.cover.transient
    assert "system-UI" in verdict.cover.describe()


def test_the_positive_button_of_a_dangerous_dialog_needs_the_person_even_when_targeted() -> None:
    phone = build_phone("pay_now")
    phone.start_app("com.google.android.apps.messaging")
    verdict = _judge(ActGate(GUARD), phone, _step(TASKS, resource_id="android:id/button1"))
    assert verdict.ask and "never-tap" in verdict.ask
    assert verdict.concrete.app == "com.google.android.apps.messaging"


def test_icon_only_buttons_in_an_unknown_bank_need_the_person_and_neutral_taps_do_not() -> None:
    phone = build_phone("default+kontor")
    phone.start_app("eu.kontorbank.mobile")
    assert _judge(ActGate(GUARD), phone, _step(TASKS, text="Pay a bill")).ask  # "pay" in an unknown app
    _tap(phone, "eu.kontorbank.mobile:id/open_bill")
    icon = _judge(ActGate(GUARD), phone, _step(TASKS, resource_id="btn_primary"))
    assert icon.ask and "no label" in icon.ask and icon.concrete.app == "eu.kontorbank.mobile"
    phone = build_phone("default")
    phone.start_app(TASKS)
    assert _judge(ActGate(GUARD), phone, _step(TASKS, text="Whitfield website redesign")).go
