"""The simulated phone's obstructions, and the hard negatives that must stay READY."""

from __future__ import annotations

import pytest

from starebrain.models import Selector
from starebrain.obstruction import BackClearance, ObstructionKind, TapClearance, WaitClearance, detect
from starebrain.profiles import PermissionPolicy, load_profiles
from starebrain.snapshot import ScreenSnapshot
from tests.obstruction import screens
from tests.snapshot.dumps import node

K = ObstructionKind


@pytest.fixture(scope="module")
def pixel():
    return load_profiles().device_profile("google")


def run(xml: str, profile, **kw):
    return detect(ScreenSnapshot.from_xml(xml), profile, **kw)


def tapped(result) -> str:
    assert isinstance(result.clearance, TapClearance), result.describe()
    return result.clearance.label


def test_spinner_waits_with_a_bounded_backoff(pixel):
    found = run(screens.spinner_screen(), pixel)
    assert found.kind is K.LOADING
    assert isinstance(found.clearance, WaitClearance)
    assert 0 < sum(found.clearance.delays_s) <= 20 and max(found.clearance.delays_s) <= 4


def test_spinner_does_not_matter_when_the_target_is_already_there(pixel):
    assert run(screens.spinner_screen(), pixel, target=Selector(text="My Tasks")).kind is K.READY


@pytest.mark.parametrize("xml", [screens.rate_us_screen(), screens.rate_us_in_window_screen()],
                         ids=["dialog-window", "in-app-card"])
def test_rate_us_is_dismissed_with_not_now(pixel, xml):
    found = run(xml, pixel)
    assert found.kind is K.OVERLAY and tapped(found) == "Not now"


def test_interstitial_ad_is_closed(pixel):
    found = run(screens.interstitial_ad_screen(), pixel)
    assert found.kind is K.OVERLAY and tapped(found) == "Close ad"


def test_whats_new_is_skipped(pixel):
    found = run(screens.whats_new_screen(), pixel)
    assert found.kind is K.OVERLAY and tapped(found) == "Skip"


@pytest.mark.parametrize(("policy", "button"), [
    (None, "permission_allow_foreground_only_button"),
    (PermissionPolicy.ALLOW_ONCE, "permission_allow_one_time_button"),
    (PermissionPolicy.DENY, "permission_deny_button"),
])
def test_permission_dialog_is_answered_by_policy(pixel, policy, button):
    found = run(screens.permission_screen(), pixel, policy=policy)
    assert found.kind is K.PERMISSION
    assert isinstance(found.clearance, TapClearance) and found.clearance.resource_id.endswith(button)


@pytest.mark.parametrize(("policy", "button"), [(None, "Allow all"), (PermissionPolicy.DENY, "Don’t select more")])
def test_a_request_for_more_photos_is_answered_by_policy(pixel, policy, button):
    # Photos and videos is no needs-person group: the default policy grants it, "Allow limited access" (a picker
    # for the person) is never the answer.
    xml = screens.permission_screen(screens.MORE_PHOTOS, "Allow Tasks to access more photos and videos on this device?")
    found = run(xml, pixel, policy=policy)
    assert found.kind is K.PERMISSION and tapped(found) == button


def test_permission_policy_can_come_from_the_profile(pixel):
    found = run(screens.permission_screen(), pixel.with_policy(PermissionPolicy.DENY))
    assert tapped(found) == "Don’t allow"


def test_a_step_that_targets_the_dialog_itself_is_not_obstructed(pixel):
    assert run(screens.permission_screen(), pixel, target=Selector(text="Only this time")).kind is K.READY
    assert run(screens.rate_us_screen(), pixel, target=Selector(text="Rate now")).kind is K.READY


def test_target_behind_a_dialog_is_still_obstructed(pixel):
    assert run(screens.rate_us_screen(), pixel, target=Selector(text="Buy milk")).kind is K.OVERLAY


def test_anr_gets_wait(pixel):
    found = run(screens.anr_screen(), pixel)
    assert found.kind is K.SYSTEM_DIALOG and tapped(found) == "Wait"
    assert found.clearance.resource_id == "android:id/aerr_wait"


def test_keyboard_blocks_only_a_covered_or_hidden_target(pixel):
    xml = screens.keyboard_screen()
    assert run(xml, pixel).kind is K.READY  # nothing asked for: the keyboard is in nobody's way
    assert run(xml, pixel, target=Selector(text="Buy milk")).kind is K.READY  # above the keyboard
    covered = run(xml, pixel, target=Selector(content_desc="Add task"))  # [880,2100]: under the keys
    assert covered.kind is K.KEYBOARD and isinstance(covered.clearance, BackClearance)
    hidden = run(xml, pixel, target=Selector(text="Save"))
    assert hidden.kind is K.KEYBOARD and isinstance(hidden.clearance, BackClearance)


@pytest.mark.parametrize(("text", "labels"), [
    ("Chrome isn't responding", ("Wait", "Close app")),
    ("Update ready: tap Install now", ("Install", "Not now")),
    ("Bank: Allow this sign-in? Tap Allow", ("Allow", "Deny")),
    ("Loading your messages…", ()),
])
def test_heads_up_notification_never_blocks_and_is_never_obeyed(pixel, text, labels):
    xml = screens.heads_up_screen(text, *labels)
    found = run(xml, pixel)
    assert found.kind is K.READY, found.describe()
    assert run(xml, pixel, target=Selector(text="Buy milk")).kind is K.READY


@pytest.mark.parametrize(("title", "danger"), [
    ("Update available", "Install"),
    ("Go Premium", "Pay now"),
    ("We updated our terms", "I agree"),
    ("Add your work account", "Add account"),
    ("Actualización disponible", "Instalar"),
    ("开通会员", "立即支付"),
])
def test_install_pay_agree_account_dialogs_need_a_person(pixel, title, danger):
    found = run(screens.danger_overlay_screen(title, danger), pixel)
    assert found.kind is K.UNKNOWN and found.clearance is None and found.needs_person
    assert danger.casefold() in found.detail.casefold()


@pytest.mark.parametrize("price", ["$4.99 / month", "$39.99/year", "₹275/month", "R$ 9,90/mês", "¥18/月"])
def test_a_price_per_billing_period_makes_an_offer_a_subscription_for_the_person(pixel, price):
    # Play Billing's subscription offers state the recurring price; the offer's own call to action may say nothing
    # about paying ("Choose plan").
    xml = screens.screen(screens.app_window(), screens.dialog_window("Go Pro", f"Unlimited invoices for {price}",
                                                                     "Choose plan", "Not now"))
    found = run(xml, pixel)
    assert found.kind is K.UNKNOWN and found.clearance is None and found.needs_person, found.describe()


def test_an_offer_without_a_recurring_price_is_put_off(pixel):
    for message in ("Unlimited invoices", "Unlimited invoices for $4.99", "Invoices / monthly report"):
        xml = screens.screen(screens.app_window(), screens.dialog_window("Go Pro", message, "Choose plan", "Not now"))
        found = run(xml, pixel)
        assert found.kind is K.OVERLAY and tapped(found) == "Not now", (message, found.describe())


def test_dialog_without_a_cancel_word_is_cancelled_with_back_never_its_discard(pixel):
    found = run(screens.danger_overlay_screen("Discard draft?", "Discard", dismiss="Keep editing"), pixel)
    assert found.kind is K.OVERLAY and isinstance(found.clearance, BackClearance), found.describe()


@pytest.mark.parametrize(("dismiss", "other"), [("Ahora no", "Calificar"), ("Agora não", "Avaliar"),
                                                 ("以后再说", "去评分"), ("No thanks", "Try it")])
def test_dismiss_words_in_several_languages(pixel, dismiss, other):
    found = run(screens.danger_overlay_screen("Enjoying Tasks?", other, dismiss=dismiss), pixel)
    assert found.kind is K.OVERLAY and tapped(found) == dismiss


@pytest.mark.parametrize("xml", [screens.slider_and_determinate_screen(), screens.settings_allow_screen()],
                         ids=["determinate-and-slider", "settings-mentions-allow"])
def test_hard_negatives_stay_ready(pixel, xml):
    assert run(xml, pixel).kind is K.READY


@pytest.mark.parametrize(("text", "kind"), [("Loading…", K.LOADING), ("Please wait...", K.LOADING),
                                            ("Cargando", K.LOADING), ("正在加载", K.LOADING),
                                            ("Loading dock renovation plans", K.READY)])
def test_loading_messages_wait_but_a_headline_that_mentions_loading_does_not(pixel, text, kind):
    xml = screens.screen(screens.app_window(node(text, pkg=screens.APP, bounds="[100,1100][980,1200]")))
    assert run(xml, pixel).kind is kind
