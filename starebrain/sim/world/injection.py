"""Runtime injection: tests put obstructions, hostile text and faults into a running phone.

`phone.inject(kind, **params)`, kinds:

- `notification`: `text`, `title`, `app` (label), `app_package` (tapping opens it), `heads_up` (default
  true), `ttl` (observations before the heads-up hides; default: until swiped or tapped).
- `dialog`: `name` of a template in `dialogs/` (`rate_us`, `whats_new`, `permission`, `anr`,
  `install_prompt`, `pay_now`, `terms`, `add_account`, `alert`) plus its parameters (`message`, `title`,
  `what`, `permission`, `button`). `overlay` is the same.
- `permission`: the permission dialog over the foreground app (`what`, `permission`).
- `anr`: "<app> isn't responding" over the foreground app.
- `spinner`: `observations` (default 3) of "Loading…" on the current screen.
- `message`: a new message in a Messages thread (`thread` id, default `dana`; `text`; `who`).
- `mail`: a new inbox mail (`sender`, `sender_email`, `subject`, `body`).
- `screen`: push `ref` (`PKG/SCREEN`) on the foreground task, e.g. `com.google.android.gm/update_required`.
- `trigger`: arm `{when, do, times}` (events `open PKG`, `enter PKG/SCREEN`, `observation N`, `now`).
- `faults`: set `disconnect_after_commands`, `disconnect_for_s`, `u2_crash_after_rpcs`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from starebrain.sim.world.actions import run_ops

if TYPE_CHECKING:
    from starebrain.sim.world.world_phone import WorldPhone

MESSAGING = "com.google.android.apps.messaging"
MAIL = "com.google.android.gm"


def _message(phone: WorldPhone, thread: str = "dana", text: str = "", who: str = "", time: str = "Now") -> None:
    record = next(t for t in phone.world.app(MESSAGING)["threads"] if t["id"] == thread)
    messages = record.setdefault("messages", [])
    messages.append({"id": f"m{len(messages) + 1}", "from": "them", "who": who or record["name"], "time": time,
                     "text": text})
    record.update(snippet=text, time=time)
    phone.world.save()


def _mail(phone: WorldPhone, sender: str = "", sender_email: str = "", subject: str = "", body: str = "") -> None:
    inbox = phone.world.app(MAIL).setdefault("inbox", [])
    inbox.insert(0, {"id": f"injected-{len(inbox) + 1}", "from": sender, "from_email": sender_email,
                     "subject": subject, "snippet": body[:80], "body": body, "time": "Now"})
    phone.world.save()


def _dialog(phone: WorldPhone, name: str = "alert", **params: Any) -> None:
    phone.show_dialog(name, params)


def inject(phone: WorldPhone, kind: str, **params: Any) -> None:
    """Apply one injection (see the module docstring for kinds and parameters)."""
    actions = {
        "notification": lambda: phone.notify(dict(params)),
        "dialog": lambda: _dialog(phone, **params),
        "overlay": lambda: _dialog(phone, **params),
        "permission": lambda: phone.show_dialog("permission", params),
        "anr": lambda: phone.show_dialog("anr", params),
        "spinner": lambda: run_ops(phone, [{"spinner": params.get("observations", 3)}], {}),
        "message": lambda: _message(phone, **params),
        "mail": lambda: _mail(phone, **params),
        "screen": lambda: run_ops(phone, [{"interpose": params["ref"]}], {}),
        "trigger": lambda: phone.arm(dict(params)),
        "faults": lambda: run_ops(phone, [{"faults": params}], {}),
    }
    if kind not in actions:
        raise ValueError(f"unknown injection {kind!r}; known: {', '.join(sorted(actions))}")
    actions[kind]()
