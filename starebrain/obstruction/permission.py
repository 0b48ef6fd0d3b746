"""PERMISSION rule: runtime permission dialogs, answered by the configured policy where the person allows.

Conservative by default (device_profiles/permissions.yaml): a request for location, contacts, SMS, phone,
accessibility, device admin, USB or all files waits for the person unless the person's profile lets the
policy answer it; denying never needs the person. (A request from an app other than the one the step works
in is refused by the step runner, which knows the step.)
"""

from __future__ import annotations

from starebrain.models.selector import Selector
from starebrain.obstruction.clearing import by_ids, by_label, tap, target_inside
from starebrain.obstruction.kinds import Obstruction, ObstructionKind
from starebrain.obstruction.lexicon import Lexicon, said
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
        why = needs_person(profile, surface, policy)
        if why:
            return Obstruction(KIND, f'"{question[:80]}": {why}', None)
        answer = answer_for(snap, profile, surface, policy)
        if answer is None:
            return Obstruction(KIND, f'"{question[:80]}": no button for policy {policy.value}', None)
        return Obstruction(KIND, f'"{question[:80]}" answered by policy {policy.value}', tap(snap, answer))
    return None


def needs_person(profile: DeviceProfile, surface: Surface, policy: PermissionPolicy) -> str:
    """Why granting this request needs the person ("" when the policy may answer it)."""
    rules = profile.permissions
    if rules is None or policy is PermissionPolicy.DENY:
        return ""
    group = rules.group_of(" ".join(surface.texts))
    if group is not None:
        return f"asks for {group.replace('_', ' ')}, which needs the person (permissions.yaml)"
    return ""


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


# SystemUI's MediaProjectionPermissionDialog (Android 14+, mediaprojection/permission, screen_share_permission_dialog
# with its screen_share_mode_options spinner): "Share your screen with X?", "Start recording or casting?". Its words
# name the app and what it would see, never an "access", so its id says it, in any language.
_SCREEN_SHARE_ID = ":id/screen_share_permission_dialog"


def grants_access(surface: Surface, words: Lexicon) -> bool:
    """A system prompt that would let another app in: the screen-share consent by its id, or a text saying another app
    gets access (the older screen-capture consent of MediaProjectionPermissionActivity, DocumentsUI's folder grant).
    A permission only the person gives."""
    if any(n.resource_id.endswith(_SCREEN_SHARE_ID) for n in surface.nodes):
        return True
    return bool(words.access_grant) and said("\n".join(surface.texts), words.access_grant) is not None
