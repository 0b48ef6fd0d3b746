"""PERMISSION rule: runtime permission dialogs, answered by the configured policy."""

from __future__ import annotations

from starebrain.models.selector import Selector
from starebrain.obstruction.clearing import by_ids, by_label, tap, target_inside
from starebrain.obstruction.kinds import Obstruction, ObstructionKind
from starebrain.obstruction.surfaces import Surface, dialogs
from starebrain.profiles import DeviceProfile, PermissionPolicy
from starebrain.snapshot import Node, ScreenSnapshot

KIND = ObstructionKind.PERMISSION


def permission(snap: ScreenSnapshot, profile: DeviceProfile, target: Selector | None,
               policy: PermissionPolicy) -> Obstruction | None:
    """A permission dialog (by package or by its button ids) and the button the policy picks."""
    for surface in reversed(dialogs(snap, profile)):
        if not _is_permission(profile, surface) or target_inside(snap, target, surface):
            continue
        question = next((t for t in surface.texts if "?" in t or "？" in t), "a permission request")
        answer = answer_for(snap, profile, surface, policy)
        if answer is None:
            return Obstruction(KIND, f'"{question[:80]}": no button for policy {policy.value}', None)
        return Obstruction(KIND, f'"{question[:80]}" answered by policy {policy.value}', tap(snap, answer))
    return None


def _is_permission(profile: DeviceProfile, surface: Surface) -> bool:
    p = profile.permission
    ids = (*p.allow_foreground_ids, *p.allow_once_ids, *p.allow_ids, *p.deny_ids)
    return surface.package in p.packages or by_ids(surface.buttons, ids, loose=True) is not None


def answer_for(snap: ScreenSnapshot, profile: DeviceProfile, surface: Surface,
               policy: PermissionPolicy) -> Node | None:
    """The button for `policy`, by id first, then by words; allowing falls back to a plain "Allow"."""
    p, w, buttons = profile.permission, profile.words, surface.buttons
    if policy is PermissionPolicy.DENY:
        return by_ids(buttons, p.deny_ids, loose=True) or by_label(snap, buttons, w.permission_deny_text)
    once = by_ids(buttons, p.allow_once_ids, loose=True) or by_label(snap, buttons, w.permission_allow_once_text)
    foreground = (by_ids(buttons, p.allow_foreground_ids, loose=True)
                  or by_label(snap, buttons, w.permission_allow_foreground_text))
    plain = by_ids(buttons, p.allow_ids, loose=True) or by_label(snap, buttons, w.permission_allow_text)
    if policy is PermissionPolicy.ALLOW_ONCE:
        return once or foreground or plain
    # Allow-foreground must never become "allow all the time"; an old-style plain Allow is
    # foreground-only anyway (background location has its own screen since Android 10).
    return foreground or plain
