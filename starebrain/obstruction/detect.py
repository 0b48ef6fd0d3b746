"""`detect`: classify one screen and say how to get past what is in the way."""

from __future__ import annotations

from starebrain.models.selector import Selector
from starebrain.obstruction.ad_interstitial import ad_interstitial
from starebrain.obstruction.agreement import agreement_gate
from starebrain.obstruction.clearing import visible_target
from starebrain.obstruction.error_page import error_page, log_inspector
from starebrain.obstruction.floating import floating_window
from starebrain.obstruction.keyboard import keyboard
from starebrain.obstruction.kinds import READY, Obstruction
from starebrain.obstruction.loading import is_spinner, loading
from starebrain.obstruction.overlay import overlay
from starebrain.obstruction.panel import see_through_modal
from starebrain.obstruction.passcode import passcode_pad
from starebrain.obstruction.permission import permission
from starebrain.obstruction.scrim import in_window_modal
from starebrain.obstruction.sheets import chooser, sheet
from starebrain.obstruction.stacked import stacked_layer
from starebrain.obstruction.system import system_dialog
from starebrain.profiles import DeviceProfile, PermissionPolicy
from starebrain.snapshot import ScreenSnapshot


def detect(snapshot: ScreenSnapshot, profile: DeviceProfile, *, target: Selector | None = None,
           policy: PermissionPolicy | None = None) -> Obstruction:
    """READY, or the obstruction in the way of `target` with a deterministic clearance (None = a person).

    Rules run from most to least modal: the app chooser (closed with back before its "Always" could make
    it look like a system prompt), system dialogs, permission dialogs, bottom sheets, app dialogs, consent
    banners and promo overlays, modals drawn inside the app's window, loading, keyboard. Screen text of
    system UI (notifications) is never read by any rule but an incoming call's answer / decline actions.
    A dialog the step itself targets (e.g. "tap Allow") is not an obstruction.
    """
    policy = policy or profile.permission_policy
    found = (chooser(snapshot, profile, target)
             or system_dialog(snapshot, profile, target)
             or permission(snapshot, profile, target, policy)
             or sheet(snapshot, profile, target)
             or overlay(snapshot, profile, target)
             or floating_window(snapshot, profile, target)
             or in_window_modal(snapshot, profile, target)
             or see_through_modal(snapshot, profile, target)
             or stacked_layer(snapshot, profile, target)
             or error_page(snapshot, target)
             or log_inspector(snapshot, target)
             or passcode_pad(snapshot, target)
             or agreement_gate(snapshot, profile, target)
             or ad_interstitial(snapshot, target))
    if found is not None:
        return found
    if not _target_shown(snapshot, target):
        found = loading(snapshot, profile)
    return found or keyboard(snapshot, profile, target) or READY


def _target_shown(snapshot: ScreenSnapshot, target: Selector | None) -> bool:
    """The step's element is already on screen, so a spinner elsewhere does not matter."""
    node = visible_target(snapshot, target)
    return node is not None and not is_spinner(snapshot, node)
