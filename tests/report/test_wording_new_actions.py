"""The person's question names a link's URL and a point tap's point (never "the element")."""

from __future__ import annotations

from starebrain.models import AgentStep, OpenLink, Selector, Tap
from starebrain.report.wording import question


def test_a_link_and_a_point_read_as_what_they_do() -> None:
    link = AgentStep(instruction="Call", action=OpenLink(url="tel:+19005550199", package="com.android.dialer"))
    assert question(link) == "Step 1, “Call”: open the link tel:+19005550199 in com.android.dialer?"
    point = AgentStep(instruction="Play", action=Tap(selector=Selector(point="50%,46%")), target_package="com.game")
    assert question(point) == "Step 1, “Play”: tap whatever is at the point 50%,46% in com.game?"
