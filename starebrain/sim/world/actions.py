"""The op language of app, dialog and scenario files: what a tap, a trigger or an injection does."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from starebrain.sim.world.navigation import LAUNCHER, Screen
from starebrain.sim.world.template import assign, fill, resolve, truthy

if TYPE_CHECKING:
    from starebrain.sim.world.world_phone import WorldPhone

Op = dict[str, Any]
Handler = Callable[["WorldPhone", Any, Op, dict[str, Any]], bool]  # False stops the op list
_NO_FILL = {"require", "if", "tap", "do"}


def run_ops(phone: WorldPhone, ops: list[Op], ctx: dict[str, Any]) -> None:
    """Run ops in order; an op returning False (a failed `require`) stops the rest."""
    for raw in ops:
        op = {k: (v if k in _NO_FILL else fill(v, ctx)) for k, v in raw.items()}
        if "if" in op and not truthy(ctx, op["if"]):
            continue
        name = next(k for k in op if k not in ("with", "if", "form", "toast_after"))
        if not HANDLERS[name](phone, op[name], op, ctx):
            return


def _screen_ref(phone: WorldPhone, ref: str) -> tuple[str, str]:
    if "/" in ref:
        package, name = ref.split("/", 1)
        return package, name
    return phone.nav.top().package if phone.nav.tasks.get(phone.nav.foreground) else LAUNCHER, ref


def _go(phone: WorldPhone, ref: Any, op: Op, ctx: dict[str, Any]) -> bool:
    package, name = _screen_ref(phone, ref)
    phone.push_screen(Screen(package, name, dict(op.get("with") or {}), form=dict(op.get("form") or {})))
    return True


def _replace(phone: WorldPhone, ref: Any, op: Op, ctx: dict[str, Any]) -> bool:
    package, name = _screen_ref(phone, ref)
    phone.nav.task().pop()  # the task lives on with the replacement on top
    phone.push_screen(Screen(package, name, dict(op.get("with") or {}), form=dict(op.get("form") or {})))
    return True


def _back(phone: WorldPhone, value: Any, op: Op, ctx: dict[str, Any]) -> bool:
    phone.pop_screen()
    return True


def _screen_back(phone: WorldPhone, value: Any, op: Op, ctx: dict[str, Any]) -> bool:
    phone.screen_back()
    return True


def _pop_to(phone: WorldPhone, name: Any, op: Op, ctx: dict[str, Any]) -> bool:
    while phone.nav.foreground != LAUNCHER and phone.nav.top().name != name:
        phone.pop_screen()
    return True


def _home(phone: WorldPhone, value: Any, op: Op, ctx: dict[str, Any]) -> bool:
    phone.go_home()
    return True


def _open(phone: WorldPhone, package: Any, op: Op, ctx: dict[str, Any]) -> bool:
    phone.start_app(str(package))
    return True


def _resume_task(phone: WorldPhone, package: Any, op: Op, ctx: dict[str, Any]) -> bool:
    phone.recents_open = False
    phone.start_app(str(package))
    return True


def _close_app(phone: WorldPhone, package: Any, op: Op, ctx: dict[str, Any]) -> bool:
    phone.stop_app(str(package or phone.nav.foreground))
    return True


def _data_root(phone: WorldPhone, op: Op) -> dict[str, Any]:
    return phone.world.app(op.get("app") or phone.current_package())


def _append(phone: WorldPhone, spec: Any, op: Op, ctx: dict[str, Any]) -> bool:
    root = _data_root(phone, spec)
    target = resolve(root, spec["to"])
    if target is None:
        assign(root, spec["to"], [])
        target = resolve(root, spec["to"])
    item = dict(spec["item"])
    item.setdefault("id", f"{spec['to'].split('.')[-1]}-{len(target) + 1}")
    if spec.get("first"):
        target.insert(0, item)
    else:
        target.append(item)
    phone.world.save()
    return True


def _set(phone: WorldPhone, spec: Any, op: Op, ctx: dict[str, Any]) -> bool:
    root = _data_root(phone, op)
    for path, value in spec.items():
        assign(root, path, value)
    phone.world.save()
    return True


def _toggle(phone: WorldPhone, path: Any, op: Op, ctx: dict[str, Any]) -> bool:
    root = _data_root(phone, op)
    assign(root, path, not bool(resolve(root, path)))
    phone.world.save()
    return True


def _add(phone: WorldPhone, spec: Any, op: Op, ctx: dict[str, Any]) -> bool:
    root = _data_root(phone, op)
    for path, delta in spec.items():
        try:
            change = float(str(delta).replace("$", "").replace(",", ""))
        except ValueError:
            continue
        assign(root, path, round(float(resolve(root, path) or 0) + change, 2))
    return True


def _effect(phone: WorldPhone, spec: Any, op: Op, ctx: dict[str, Any]) -> bool:
    fields = {k: v for k, v in spec.items() if k != "kind"}
    phone.world.record(spec["kind"], phone.current_package(), fields)
    return True


def _require(phone: WorldPhone, spec: Any, op: Op, ctx: dict[str, Any]) -> bool:
    checks = spec if isinstance(spec, list) else [spec]
    for check in checks:
        if not truthy(ctx, check["that"]):
            if check.get("toast"):
                phone.toast = str(fill(check["toast"], ctx))
            return False
    return True


def _toast(phone: WorldPhone, text: Any, op: Op, ctx: dict[str, Any]) -> bool:
    phone.toast = str(text)
    return True


def _clear_form(phone: WorldPhone, value: Any, op: Op, ctx: dict[str, Any]) -> bool:
    phone.nav.top().form.clear()
    return True


def _return(phone: WorldPhone, fields: Any, op: Op, ctx: dict[str, Any]) -> bool:
    phone.pop_screen()
    if phone.nav.foreground != LAUNCHER:
        phone.nav.top().form.update({k: str(v) for k, v in fields.items()})
    return True


def _set_field(phone: WorldPhone, fields: Any, op: Op, ctx: dict[str, Any]) -> bool:
    phone.nav.top().form.update({k: str(v) for k, v in fields.items()})
    return True


def _dialog(phone: WorldPhone, name: Any, op: Op, ctx: dict[str, Any]) -> bool:
    phone.show_dialog(str(name), dict(op.get("with") or {}))
    return True


def _dismiss(phone: WorldPhone, value: Any, op: Op, ctx: dict[str, Any]) -> bool:
    phone.dismiss_dialog()
    return True


def _notify(phone: WorldPhone, spec: Any, op: Op, ctx: dict[str, Any]) -> bool:
    phone.notify(dict(spec))
    return True


def _dismiss_notification(phone: WorldPhone, value: Any, op: Op, ctx: dict[str, Any]) -> bool:
    phone.heads_up = None
    return True


def _clear_notifications(phone: WorldPhone, value: Any, op: Op, ctx: dict[str, Any]) -> bool:
    phone.notifications.clear()
    phone.heads_up = None
    phone.shade_open = False
    return True


def _open_notification_at(phone: WorldPhone, index: Any, op: Op, ctx: dict[str, Any]) -> bool:
    note = phone.notifications.pop(int(index))
    phone.shade_open = False
    run_ops(phone, list(note.get("tap", [])), {})
    return True


def _spinner(phone: WorldPhone, count: Any, op: Op, ctx: dict[str, Any]) -> bool:
    if phone.nav.tasks.get(phone.nav.foreground):
        phone.start_spinner(int(count))
    return True


def _interpose(phone: WorldPhone, ref: Any, op: Op, ctx: dict[str, Any]) -> bool:
    return _go(phone, ref, op, ctx)


def _clear_recents(phone: WorldPhone, value: Any, op: Op, ctx: dict[str, Any]) -> bool:
    for package in list(phone.nav.recents):
        phone.nav.close(package)
    phone.recents_open = False
    return True


def _hide_keyboard(phone: WorldPhone, value: Any, op: Op, ctx: dict[str, Any]) -> bool:
    phone.keyboard_visible = False
    return True


def _focus(phone: WorldPhone, field: Any, op: Op, ctx: dict[str, Any]) -> bool:
    phone.focus_field(str(field))
    return True


def _faults(phone: WorldPhone, spec: Any, op: Op, ctx: dict[str, Any]) -> bool:
    for name, value in spec.items():
        setattr(phone.faults, name, value)
    return True


def _do(phone: WorldPhone, ops: Any, op: Op, ctx: dict[str, Any]) -> bool:
    run_ops(phone, list(ops), ctx)
    return True


HANDLERS: dict[str, Handler] = {
    "go": _go, "replace": _replace, "back": _back, "screen_back": _screen_back, "pop_to": _pop_to,
    "home": _home, "open": _open,
    "resume_task": _resume_task, "close_app": _close_app, "append": _append, "set": _set,
    "toggle": _toggle, "add": _add, "effect": _effect, "require": _require, "toast": _toast,
    "clear_form": _clear_form, "return": _return, "set_field": _set_field, "dialog": _dialog,
    "dismiss": _dismiss, "notify": _notify, "dismiss_notification": _dismiss_notification,
    "clear_notifications": _clear_notifications, "open_notification_at": _open_notification_at,
    "spinner": _spinner, "interpose": _interpose, "clear_recents": _clear_recents,
    "hide_keyboard": _hide_keyboard, "focus": _focus, "faults": _faults, "do": _do,
}
