"""A whole errand on the app world by a plain uiautomator2 script, checked over adb like AndroidWorld."""

from __future__ import annotations

from typing import Any

import adbutils
import pytest
import uiautomator2 as u2

pytestmark = pytest.mark.e2e
MESSAGES = "com.google.android.apps.messaging"


def outbox_rows(serial: str) -> list[str]:
    output = adbutils.adb.device(serial).shell("content query --uri content://starebrain/outbox")
    return [line for line in output.splitlines() if line.startswith("Row:")]


def test_send_a_message_in_the_recent_thread(sim: Any) -> None:
    assert outbox_rows(sim.serial) == []
    d = u2.connect(sim.serial)
    d.press("home")
    d(text="Messages").click()
    assert d.app_current()["package"] == MESSAGES
    d(resourceId=f"{MESSAGES}:id/conversation_name", instance=0).click()  # the most recent thread
    compose = d(resourceId=f"{MESSAGES}:id/compose_message_text")
    compose.click()
    d.send_keys("The invoice is on its way.")
    d(resourceId=f"{MESSAGES}:id/send_message_button").click()
    rows = outbox_rows(sim.serial)
    assert len(rows) == 1 and "The invoice is on its way." in rows[0]
    assert d(textContains="The invoice is on its way.").exists
