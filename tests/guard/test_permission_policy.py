"""Permission policy: sensitive groups and other apps' requests wait for the person unless the person allows."""

from __future__ import annotations

from pathlib import Path

import pytest

from starebrain.obstruction import ObstructionKind, TapClearance, detect
from starebrain.profiles import load_profiles
from starebrain.profiles.permissions import PermissionRules
from starebrain.sim.world import build_phone
from starebrain.snapshot import ScreenSnapshot
from tests.snapshot.dumps import dump

PROFILES = load_profiles()
GOOGLE = PROFILES.device_profile("google")
PACKAGED = Path(__file__).resolve().parents[2] / "device_profiles" / "permissions.yaml"


def _allowing(tmp_path: Path, *groups: str) -> object:
    text = PACKAGED.read_text(encoding="utf-8").replace("person_allows: []", f"person_allows: [{', '.join(groups)}]")
    (tmp_path / "permissions.yaml").write_text(text, encoding="utf-8")
    return load_profiles(tmp_path).device_profile("google")


def _sim_request(package: str) -> ScreenSnapshot:
    phone = build_phone("permission_sensitive")
    phone.start_app(package)
    return ScreenSnapshot.from_xml(phone.hierarchy_xml())


@pytest.mark.parametrize(("package", "group"), [("com.google.android.apps.messaging", "sms"),
                                                 ("com.google.android.gm", "contacts"),
                                                 ("com.google.android.keep", "location")])
def test_sensitive_requests_wait_for_the_person_by_default(package: str, group: str) -> None:
    found = detect(_sim_request(package), GOOGLE)
    assert found.kind is ObstructionKind.PERMISSION and found.clearance is None, found.describe()
    assert group.replace("_", " ") in found.detail


def test_a_real_location_request_waits_for_the_person_then_follows_the_persons_settings(tmp_path: Path) -> None:
    snap = ScreenSnapshot.from_xml(dump("002").data)
    assert detect(snap, GOOGLE).clearance is None
    allowed = detect(snap, _allowing(tmp_path, "location"))
    assert isinstance(allowed.clearance, TapClearance)
    assert allowed.clearance.resource_id.endswith("permission_allow_foreground_only_button")


def test_denying_never_needs_the_person() -> None:
    from starebrain.profiles import PermissionPolicy

    found = detect(_sim_request("com.google.android.apps.messaging"), GOOGLE.with_policy(PermissionPolicy.DENY))
    assert isinstance(found.clearance, TapClearance) and found.clearance.resource_id.endswith("permission_deny_button")


def test_a_plain_request_is_answered_by_the_policy() -> None:
    phone = build_phone("permission")
    phone.start_app("com.google.android.apps.messaging")
    found = detect(ScreenSnapshot.from_xml(phone.hierarchy_xml()), GOOGLE)
    assert isinstance(found.clearance, TapClearance), found.describe()


def test_every_group_of_the_issue_is_listed_and_unknown_allowances_are_rejected() -> None:
    rules = GOOGLE.permissions
    assert rules is not None and not rules.person_allows
    assert {"location", "contacts", "sms", "phone", "accessibility", "device_admin", "usb", "all_files"} <= set(
        rules.needs_person)
    with pytest.raises(ValueError, match="unknown permission groups"):
        PermissionRules(format_version=1, needs_person={"sms": ("sms",)}, person_allows=("camera",))


def test_a_request_from_an_app_the_step_does_not_work_in_is_not_granted(tmp_path: Path) -> None:
    from starebrain.events import EventBus
    from starebrain.executor.artifacts import ArtifactWriter
    from starebrain.executor.step_runner import RunnerSettings, StepRunner
    from starebrain.guard import ConfirmationGuard
    from starebrain.models import AgentStep, AgentTask
    from starebrain.store import Store
    from tests.guard.world_device import WorldDevice

    phone = build_phone("permission")
    device = WorldDevice(phone)
    runner = StepRunner(device, GOOGLE, EventBus(), artifacts=ArtifactWriter(None),
                        settings=RunnerSettings(verify_timeout_s=0.0, poll_s=0.0, screenshots=False),
                        sleep=lambda s: None)
    phone.start_app("com.google.android.apps.messaging")  # Messages asks for notifications
    step = AgentStep(instruction="next", action={"kind": "tap", "selector": {"text": "Start chat"}},
                     target_package="com.starebrain.bank")
    with Store.open(tmp_path / "sb.db") as store:
        from starebrain.executor.task_executor import TaskExecutor

        task = TaskExecutor(runner, store, ConfirmationGuard(PROFILES), EventBus()).start(
            AgentTask(instruction="x", device_serial="w", steps=[step]))
    assert task.status.value == "FAILED" and "asks, but the step works in com.starebrain.bank" in task.status_reason
    assert "permission_answered" not in phone.state()["side_effects"]  # type: ignore[operator]
