"""A toolkit host's own error page: the app failed to load, so what to do next is the person's call."""

from __future__ import annotations

import re

from starebrain.models.selector import Selector
from starebrain.obstruction.clearing import tap, visible_target
from starebrain.obstruction.kinds import Obstruction, ObstructionKind
from starebrain.snapshot import ScreenSnapshot
from starebrain.snapshot.windows import WindowKind

# Expo Go's ErrorActivity (host.exp.exponent.experience.ErrorActivity binds its pages to `error_viewPager`):
# "Something went wrong." with home / reload.
_PAGE_IDS = ("error_viewPager",)
# React Native's stack rows (devsupport redbox_item_frame.xml: `rn_frame_method` / `rn_frame_file`, filled by
# RedBoxContentView's StackAdapter), which a development build's error page (expo-dev-launcher's
# DevLauncherErrorActivity: "There was a problem loading the project.") reuses. Inside the red box
# (`rn_redbox_stack`, surfaces.py) they belong to a dismissable dialog, not a page.
_STACK_ROW_IDS = ("rn_frame_method",)
_RED_BOX_IDS = ("rn_redbox_stack",)
# React Native's LogBox inspector (Libraries/LogBox/UI: LogBoxInspectorHeader titles it "Log N of M",
# LogBoxInspectorFooter's two buttons are "Dismiss" then "Minimize", side by side; fixed English strings of a
# development build, drawn by JavaScript with no ids) covers the app in a full-screen Modal. Dismiss closes the log
# and leaves the app as it was; Minimize only folds it into a toast that keeps covering part of the page.
_LOG_TITLE = re.compile(r"Log \d+ of \d+")
_MINIMIZE = "Minimize"


def error_page(snap: ScreenSnapshot, target: Selector | None = None) -> Obstruction | None:
    """UNKNOWN for the person when the top app window is a React Native / Expo host's error page (unless the
    step itself targets something on it, e.g. its "Reload")."""
    top = snap.top_window
    if top is None or top.kind is not WindowKind.APP or visible_target(snap, target) is not None:
        return None
    ids = {n.short_id for n in snap.by_window[top.index] if n.visible and n.short_id}
    if ids.intersection(_RED_BOX_IDS) or not ids.intersection(_PAGE_IDS + _STACK_ROW_IDS):
        return None
    return Obstruction(ObstructionKind.UNKNOWN, "the app failed to load (its toolkit's error page); "
                       "reloading or leaving is for a person to decide", None)


def log_inspector(snap: ScreenSnapshot, target: Selector | None = None) -> Obstruction | None:
    """OVERLAY, closed with its Dismiss, when React Native's LogBox inspector covers the top app window."""
    top = snap.top_window
    if top is None or top.kind is not WindowKind.APP or visible_target(snap, target) is not None:
        return None
    nodes = [n for n in snap.by_window[top.index] if n.visible and n.text]
    minimize = next((n for n in nodes if n.text == _MINIMIZE), None)  # one string compare a node: most pages stop here
    if minimize is None or not any(_LOG_TITLE.fullmatch(n.text) for n in nodes):
        return None
    m = minimize.bounds
    # The footer's other button, left of Minimize in the same row: Dismiss
    dismiss = max((n for n in nodes if n is not minimize and n.bounds.right <= m.left
                   and n.bounds.top < m.bottom and n.bounds.bottom > m.top), key=lambda n: n.bounds.right, default=None)
    if dismiss is None:
        return None
    return Obstruction(ObstructionKind.OVERLAY, "React Native's LogBox error inspector covers the app",
                       tap(snap, dismiss))
