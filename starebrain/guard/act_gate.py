"""`ActGate`: the guard's word on the resolved action, right before the step runner sends it.

The planned step was judged before the step began; by now obstructions were cleared, the selector was
resolved or grounded and the screen may have changed. The gate judges what will really be touched
(`ConcreteAction`): the riskier of the planned and the actual decision wins, an approval counts only for
the concrete action the person saw, and a tap whose point another window or element covers is not sent.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from starebrain.guard.concrete_action import ConcreteAction, approved_digest, concrete_action
from starebrain.guard.decision import GuardDecision
from starebrain.guard.guard import riskier
from starebrain.guard.tap_target import Cover, cover_at
from starebrain.models import AgentStep, action_selector
from starebrain.snapshot import Node, ScreenSnapshot
from starebrain.snapshot.layers import Cover as LayerCover
from starebrain.snapshot.windows import SYSTEM_UI_PACKAGES, WindowKind, is_keyboard_package

if TYPE_CHECKING:
    from starebrain.executor.seams import Guard

TAPPING = ("tap", "long_press", "type")


@dataclass(frozen=True)
class ActVerdict:
    """Go, ask the person (`ask` says why), or do not tap (`cover` took the tap point)."""

    concrete: ConcreteAction
    decision: GuardDecision | None = None
    ask: str = ""
    cover: Cover | None = None

    @property
    def go(self) -> bool:
        return not self.ask and self.cover is None


class ActGate:
    """Judges one step's resolved action; `approved_hash` is the person's approval of it, if any."""

    def __init__(self, guard: Guard, approved_hash: str | None = None) -> None:
        self.guard = guard
        self.approved = approved_digest(approved_hash)
        self.had_approval = approved_hash is not None

    def concrete(self, step: AgentStep, snap: ScreenSnapshot, node: Node | None,
                 point: tuple[int, int] | None = None) -> ConcreteAction:
        """The concrete action `step` is on this screen, acting on `node` (at `point` for a point tap)."""
        return concrete_action(step, snap, node, self.guard.profiles.risk.dialog_positive_ids, point=point)

    def judge(self, step: AgentStep, snap: ScreenSnapshot, node: Node | None,
              point: tuple[int, int] | None, *, acting: AgentStep | None = None) -> ActVerdict:
        """The verdict on acting on `node` at `point` of this screen; `acting` is the step as it will act when
        vision grounding turned its target into a point (the planned step is judged too)."""
        concrete = self.concrete(acting or step, snap, node, point)
        if node is not None and point is not None and step.action.kind in TAPPING:
            cover = cover_at(snap, node, point) or _foreign_window(snap, acting or step, node)
            if cover is not None:
                return ActVerdict(concrete, cover=cover)
        decision = riskier(self.guard.check(step), self.guard.check_actual(step, concrete))
        if not decision.needs_confirmation or (self.approved and self.approved == concrete.digest):
            return ActVerdict(concrete, decision)
        changed = " (not what the person approved: it changed since)" if self.had_approval else ""
        return ActVerdict(concrete, decision, ask=f"{decision.reason}; at act time: {concrete.describe()}{changed}")


def _foreign_window(snap: ScreenSnapshot, step: AgentStep, node: Node) -> Cover | None:
    """For a step that names a point: the element reached there is in a window the step must not tap.

    A selector names an element of the app; a point names a place, and whatever is drawn there gets the
    tap: a system dialog, the shade, a bar, the keyboard or another app's window means no tap at all.
    """
    selector = action_selector(step.action)
    if selector is None or selector.point is None:
        return None
    window = snap.layers.window_of(node)
    package = (window.package if window else "") or node.package
    if snap.cover(node) is LayerCover.DIALOG:
        return Cover(node, package, "a dialog that swallows taps outside itself")
    if window is None or window.is_keyboard or is_keyboard_package(package):
        return Cover(node, package, "the keyboard" if window is not None else "an unknown window")
    if package in SYSTEM_UI_PACKAGES or window.kind not in (WindowKind.APP, WindowKind.DIALOG):
        return Cover(node, package, "a system window")
    app = step.target_package or snap.foreground_package
    if app and package != app:
        return Cover(node, package, "another app's window")
    return None
