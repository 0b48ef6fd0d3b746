"""`ConcreteAction`: what a step will actually do on the phone, as the person approves it.

Built at act time from the phone's own dump: the app that owns the element's window (never the plan's
`target_package`), the element that will receive the action and the words around it, the payload (a
secret only by name) and a fingerprint of the window it sits in. An approval is bound to its digest;
grounding, a replan, recovery or a changed screen give another digest, so the step asks again.
"""

from __future__ import annotations

import dataclasses
import hashlib
from dataclasses import dataclass

from starebrain.models import AgentStep, ClearState, OpenApp, OpenLink, Press, StopApp, TypeText, action_selector
from starebrain.snapshot import Node, ScreenSnapshot
from starebrain.snapshot.opaque import CANVAS_CLASSES

_SEP = ":"
_DIALOG_TEXT_IDS = ("android:id/alerttitle", "android:id/message", "android:id/title")


@dataclass(frozen=True)
class ConcreteAction:
    """The resolved action: app (from the phone), element, payload and screen fingerprint."""

    kind: str
    app: str
    element: str = ""  # human description of the receiving element
    element_words: str = ""  # its text, description, id, hint, class (and its click target's)
    content_words: str = ""  # texts inside it when it is a row of a list: content more than a label
    dialog_words: str = ""  # title, message and buttons of the dialog it belongs to
    payload: str = ""  # typed text ({secret:NAME} stays a name) or the key pressed
    screen: str = ""  # fingerprint of the element's window (what the person saw)
    unlabelled: bool = False  # clickable with no text or description anywhere on or in it
    dialog_positive: bool = False  # the positive button (android:id/button1 ...) of a dialog
    in_dialog: bool = False
    touches: bool = False  # a touch reaches the element (a tap, or the focusing tap of typing into a non-field)
    point: str = ""  # "x,y" in pixels when the step names a point, not an element

    @property
    def scored_as(self) -> str:
        """The action kind whose risk weights apply: typing "into" a button taps the button."""
        return "tap" if self.kind == "type" and self.touches else scored_kind(self.kind)

    @property
    def digest(self) -> str:
        """What an approval is bound to (human description aside)."""
        # The point only when there is one: an approval given before points existed still matches.
        point = (self.point,) if self.point else ()
        blob = "\x1f".join((self.kind, self.app, self.element, self.element_words, self.payload, self.screen, *point))
        return hashlib.sha256(blob.encode("utf-8", "replace")).hexdigest()[:32]

    def describe(self) -> str:
        """E.g. `tap button "Send" (id send) in com.google.android.gm, screen 1a2b3c4d`."""
        what = f"{self.kind} {self.element}".strip() + (f" at ({self.point})" if self.point else "")
        if self.kind == "open_link":
            return f"open_link {self.payload[:120]} in {self.app or 'the app that handles it'}"
        if self.kind in ("stop_app", "clear_state"):
            return f"{self.kind} {self.app}"
        payload = f' typing "{self.payload[:60]}"' if self.payload and self.kind == "type" else ""
        key = f" {self.payload}" if self.kind == "press" else ""
        screen = f", screen {self.screen[:8]}" if self.screen else ""
        return f"{what}{key}{payload} in {self.app or 'an unknown app'}{screen}"


def scored_kind(kind: str) -> str:
    """The action kind whose risk weights apply: opening a link opens an app (its URL is judged apart);
    stopping or clearing an app touches no element (what clearing destroys is judged apart)."""
    return "open_app" if kind in ("open_link", "stop_app", "clear_state") else kind


def approval_key(step: AgentStep, concrete: ConcreteAction | None) -> str:
    """The hash a confirmation stores: the step's own hash, plus the concrete action's when known."""
    return step.approval_hash() if concrete is None else f"{step.approval_hash()}{_SEP}{concrete.digest}"


def covers(approved_hash: str, step: AgentStep) -> bool:
    """Whether a stored approval hash belongs to this very step (as planned)."""
    return approved_hash.split(_SEP, 1)[0] == step.approval_hash()


def approved_digest(approved_hash: str | None) -> str:
    """The concrete part of a stored approval hash ("" when the person approved only the planned step)."""
    if not approved_hash or _SEP not in approved_hash:
        return ""
    return approved_hash.split(_SEP, 1)[1]


def concrete_action(step: AgentStep, snap: ScreenSnapshot, node: Node | None, positive_ids: tuple[str, ...] = (
        "android:id/button1",), point: tuple[int, int] | None = None) -> ConcreteAction:
    """The concrete form of `step` on this screen, acting on `node` (None: an action without a target).

    A step that names a point acts on whatever a tap there reaches: `node` is that element, `point` the pixel.
    """
    action = step.action
    if isinstance(action, OpenApp | StopApp | ClearState):
        return ConcreteAction(kind=action.kind, app=action.package, payload=action.package)
    if isinstance(action, OpenLink):
        return ConcreteAction(kind="open_link", app=action.package or "", payload=action.url)
    selector = action_selector(action)
    if selector is not None and selector.point is not None:
        return _at_point(step, snap, node, point, positive_ids)
    if isinstance(action, Press):
        focused = next((n for n in snap.nodes if n.focused and n.visible), None)
        return _on_node(step, snap, focused, payload=action.key, positive_ids=positive_ids, key_press=True)
    payload = action.text if isinstance(action, TypeText) else ""
    if node is None:
        return ConcreteAction(kind=action.kind, app=snap.foreground_package, payload=payload,
                              screen=_fingerprint(snap, None))
    return _on_node(step, snap, node, payload=payload, positive_ids=positive_ids)


def _on_node(step: AgentStep, snap: ScreenSnapshot, node: Node | None, *, payload: str,
             positive_ids: tuple[str, ...], key_press: bool = False) -> ConcreteAction:
    if node is None:
        return ConcreteAction(kind=step.action.kind, app=snap.foreground_package, payload=payload,
                              screen=_fingerprint(snap, None))
    target = snap.click_target(node)
    inner = _inner_texts(snap, target)
    dialog = _dialog_window(snap, node)
    own = _own_words(node) + (_own_words(target) if target is not node else [])
    labelled = any(t for n in (node, target) for t in (n.text.strip(), n.content_desc.strip())) or bool(inner)
    positive = dialog and (node.resource_id in positive_ids or target.resource_id in positive_ids)
    # A row of a list (a conversation, a payee) shows content: its words count less than a button's label.
    row = bool(inner) and any(a.scrollable for a in snap.ancestors(target))
    ids = [n.resource_id for n in (node, target) if n.resource_id]
    element_words, content_words = (ids, own + inner) if row else (own + inner, [])
    return ConcreteAction(
        kind=step.action.kind,
        app=_owner(snap, node),
        element=f"{_role(node)} {_label(snap, node)!r}" + (f" (id {node.resource_id})" if node.resource_id else ""),
        element_words=" ".join(element_words),
        content_words=" ".join(content_words),
        dialog_words=" ".join(_dialog_texts(snap, node)) if dialog else "",
        payload=payload,
        screen=_fingerprint(snap, node),
        unlabelled=(not key_press and not labelled and not target.editable and not node.editable
                    and (target.clickable or target.long_clickable)),
        dialog_positive=bool(positive),
        in_dialog=dialog,
        touches=step.action.kind in ("tap", "long_press") or (step.action.kind == "type" and not node.editable),
    )


def _at_point(step: AgentStep, snap: ScreenSnapshot, node: Node | None, point: tuple[int, int] | None,
              positive_ids: tuple[str, ...]) -> ConcreteAction:
    """A tap at a point: the element reached there, judged as for a selector; a blind tap when it has no label.

    A canvas (a game, Flutter without semantics) or an element without words is "unlabelled" whether or not
    the dump calls it clickable: the tap does whatever the pixels there do.
    """
    where = f"{point[0]},{point[1]}" if point is not None else str(action_selector(step.action).point)  # type: ignore[union-attr]
    if node is None:
        return ConcreteAction(kind=step.action.kind, app=snap.foreground_package, element="nothing",
                              screen=_fingerprint(snap, None), unlabelled=True, touches=True, point=where)
    concrete = _on_node(step, snap, node, payload="", positive_ids=positive_ids)
    target = snap.click_target(node)
    canvas = any(n.short_class in CANVAS_CLASSES for n in (node, target))
    labelled = any(t for n in (node, target) for t in (n.text.strip(), n.content_desc.strip())) or bool(
        _inner_texts(snap, target))
    blind = canvas or not labelled
    return dataclasses.replace(concrete, unlabelled=concrete.unlabelled or blind, touches=True, point=where)


def _owner(snap: ScreenSnapshot, node: Node) -> str:
    """The package of the window the element is in (the root's, as the phone reports it)."""
    window = next((w for w in snap.windows if w.index == node.window_index), None)
    return (window.package if window else "") or node.package


def _own_words(node: Node) -> list[str]:
    parts = [node.text, node.content_desc, node.resource_id, node.hint]
    return [p.strip() for p in parts if p and p.strip()]


def _inner_texts(snap: ScreenSnapshot, node: Node) -> list[str]:
    out: list[str] = []
    for d in snap.descendants(node):
        if d.visible and not d.password:
            out.extend(t.strip() for t in (d.text, d.content_desc) if t.strip())
    return out[:12]


def _dialog_window(snap: ScreenSnapshot, node: Node) -> bool:
    """True when the element sits in a window smaller than the screen that is not a bar or a keyboard."""
    window = next((w for w in snap.windows if w.index == node.window_index), None)
    if window is None or window.is_keyboard:
        return False
    screen = snap.screen
    small = window.bounds.area < screen.area * 0.9
    bar = window.bounds.height < screen.height * 0.06
    has_dialog_ids = any(n.window_index == node.window_index and n.resource_id.startswith("android:id/button")
                         for n in snap.nodes)
    return (small and not bar) or has_dialog_ids


def _dialog_texts(snap: ScreenSnapshot, node: Node) -> list[str]:
    """Title, message and button labels of the dialog window holding `node`."""
    out: list[str] = []
    for n in snap.nodes:
        if n.window_index == node.window_index and n.visible and not n.password:
            out.extend(t.strip() for t in (n.text, n.content_desc) if t.strip())
    return out[:20]


def _fingerprint(snap: ScreenSnapshot, node: Node | None) -> str:
    """What the window shows, without positions and focus (a keyboard showing up changes neither)."""
    window = node.window_index if node is not None else (
        snap.foreground_window.index if snap.foreground_window else -1)
    h = hashlib.sha256()
    for n in snap.nodes:
        if n.window_index == window and n.visible:
            h.update(f"{n.class_name}|{n.resource_id}|{n.text}|{n.content_desc}|{n.checked}\n".encode(
                "utf-8", "replace"))
    return h.hexdigest()[:32]


def _role(node: Node) -> str:
    return node.short_class or "element"


def _label(snap: ScreenSnapshot, node: Node) -> str:
    return snap.label_of(node)[:60]
