"""Benchmark goals: their scenarios exist, and the checks tell done from not done."""

from __future__ import annotations

from starebrain.sim.world import build_phone
from starebrain.sim.world.goals import check_goal, goal_names, load_goal
from tests.sim.world.conftest import get, tap
from tests.sim.world.test_errand import mark_project_done, read_client_email, send_invoice


def test_every_goal_names_a_buildable_scenario_and_an_instruction() -> None:
    assert "invoice_errand" in goal_names()
    for name in goal_names():
        goal = load_goal(name)
        build_phone(goal["scenario"])
        assert goal["goal"] and goal["expect"]


def test_the_invoice_errand_check_passes_only_when_both_parts_are_done() -> None:
    phone = build_phone()
    assert len(check_goal("invoice_errand", phone.state())) == 2 + 2  # mail and task rules unmet
    send_invoice(phone, read_client_email(phone))
    assert [p for p in check_goal("invoice_errand", phone.state()) if "task_completed" in p]
    mark_project_done(phone)
    assert check_goal("invoice_errand", phone.state()) == []


def test_sending_the_mail_twice_fails_the_check() -> None:
    phone = build_phone()
    email = read_client_email(phone)
    send_invoice(phone, email)
    send_invoice(phone, email)
    mark_project_done(phone)
    problems = check_goal("invoice_errand", phone.state())
    assert problems and all("mail_sent" in p for p in problems)


def test_wifi_goal() -> None:
    phone = build_phone()
    phone.start_app("com.android.settings")
    tap(phone, text="Network & internet")
    tap(phone, text="Wi-Fi")
    assert check_goal("wifi_off", phone.state()) == []
    tap(phone, text="Wi-Fi")
    assert check_goal("wifi_off", phone.state()) != []


def test_pay_landlord_goal_matches_payee_loosely_and_amount_exactly() -> None:
    phone = build_phone()
    phone.start_app("com.starebrain.bank")
    phone.set_text(get(phone, rid="password_input"), "hunter2")
    tap(phone, text="Sign in")
    tap(phone, text="Transfer money")
    phone.set_text(get(phone, rid="payee_input"), "greg")
    phone.set_text(get(phone, rid="amount_input"), "1200")
    phone.press_key("back")
    tap(phone, text="Confirm transfer")
    assert check_goal("pay_landlord", phone.state()) == []
