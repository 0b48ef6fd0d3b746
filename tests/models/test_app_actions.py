"""stop_app and clear_state: one package each, validated, parsed from a plan's JSON, described for risk scoring."""

from __future__ import annotations

import pytest
from pydantic import TypeAdapter, ValidationError

from starebrain.models import Action, AgentStep, ClearState, StopApp, action_text

ACTION: TypeAdapter[Action] = TypeAdapter(Action)


def test_both_parse_from_their_kind_and_name_the_app() -> None:
    assert ACTION.validate_python({"kind": "stop_app", "package": "com.google.android.keep"}) == \
        StopApp(package="com.google.android.keep")
    cleared = ACTION.validate_python({"kind": "clear_state", "package": "com.google.android.keep"})
    assert isinstance(cleared, ClearState) and action_text(cleared) == "com.google.android.keep"


@pytest.mark.parametrize("package", ["keep", "com.x; reboot", "com.x y", "", "1com.x"])
@pytest.mark.parametrize("kind", [StopApp, ClearState])
def test_a_package_that_is_not_an_android_name_is_refused(kind: type[StopApp | ClearState], package: str) -> None:
    with pytest.raises(ValidationError, match="is not an Android package name"):
        kind(package=package)


def test_no_other_field_and_the_approval_covers_the_package() -> None:
    with pytest.raises(ValidationError):
        ACTION.validate_python({"kind": "clear_state", "package": "com.a.b", "selector": {"text": "x"}})
    one = AgentStep(instruction="wipe", action=ClearState(package="com.a.b"))
    other = AgentStep(id=one.id, instruction="wipe", action=ClearState(package="com.a.c"))
    assert one.approval_hash() != other.approval_hash()
