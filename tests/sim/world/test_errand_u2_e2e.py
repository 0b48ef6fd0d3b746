"""The invoice errand on the obstacle course, by a plain uiautomator2 script through the real adb server."""

from __future__ import annotations

from typing import Any

import pytest
import uiautomator2 as u2

from starebrain.sim.world.goals import check_goal

pytestmark = pytest.mark.e2e
GM, TASKS = "com.google.android.gm", "com.google.android.apps.tasks"
SAFE = ("Not now", "Skip", "Wait", "While using the app", "Later", "Cancel")


def settled_dump(d: Any) -> str:
    """A dump that three dumps in a row agree on (with real-phone timing the old screen lingers ~300 ms)."""
    seen = [d.dump_hierarchy(), d.dump_hierarchy()]
    while True:
        seen.append(d.dump_hierarchy())
        if seen[-1] == seen[-2] == seen[-3]:
            return seen[-1]


def clear(d: Any, package: str) -> None:
    """Wait for the app and out spinners (each dump is an observation); press any pop-up's safe button."""
    for _ in range(20):
        xml = settled_dump(d)
        if "Loading\u2026" in xml or f'package="{package}"' not in xml:
            continue
        for word in SAFE:
            if f'text="{word}"' in xml:
                d(text=word).click_exists(timeout=1)  # a dismissed dialog lingers while it settles
                break
        else:
            return


@pytest.mark.parametrize("timing", ["fast"])  # "real-phone" passes too (~17 s): too slow for every run
def test_invoice_errand_on_the_obstacle_course(sim_phone: Any, timing: str) -> None:
    sim_phone.reset(scenario="obstacle_course", seed=0, timing=timing)
    sim_phone.wait_online()
    d = u2.connect(sim_phone.serial)
    d.press("home")
    d(text="Messages").click()
    clear(d, "com.google.android.apps.messaging")
    d(resourceId="com.google.android.apps.messaging:id/conversation_name", instance=0).click()
    assert d(textContains="dana@whitfieldstudio.com").wait(timeout=3)
    d.app_start(GM)
    clear(d, GM)
    d(resourceId=f"{GM}:id/compose_button").click()
    clear(d, GM)
    d(resourceId=f"{GM}:id/to").set_text("dana@whitfieldstudio.com")
    d(resourceId=f"{GM}:id/subject").set_text("Invoice for the website redesign")
    d(description="Attach file").click()
    d(text="Invoice-2026-031.pdf").click()
    assert d(resourceId=f"{GM}:id/attachment_tile_title").get_text() == "Invoice-2026-031.pdf"
    d(resourceId=f"{GM}:id/send").click()
    d.app_start(TASKS)
    clear(d, TASKS)
    d.xpath('//*[@text="Whitfield website redesign"]').click()
    d(text="Mark as done").click()
    assert check_goal("invoice_errand_obstacles", sim_phone.call(lambda phone: phone.state())) == []
