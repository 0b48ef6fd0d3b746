"""`WorldPhone`: the `SimPhone` the wire side drives, interpreting the app files."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from starebrain.sim.phone import Faults, TimingProfile, UiNode
from starebrain.sim.world import hierarchy_xml, system_ui
from starebrain.sim.world.actions import run_ops
from starebrain.sim.world.app_window import NAV_H, build_app_window
from starebrain.sim.world.dialogs import build_dialog
from starebrain.sim.world.frame import Frame, Window
from starebrain.sim.world.links import link_fields
from starebrain.sim.world.navigation import LAUNCHER, Navigator, Screen
from starebrain.sim.world.phone_input import TouchInput
from starebrain.sim.world.state import WorldState, query
from starebrain.sim.world.template import fill_text, resolve

SYSTEM_PACKAGES = ["android", "com.android.systemui", "com.google.android.permissioncontroller",
                   "com.google.android.inputmethod.latin"]
LAUNCHER_ACTIVITY = "com.android.launcher3.uioverride.QuickstepLauncher"


class WorldPhone(TouchInput):
    """A simulated phone whose screens, transitions and effects come from data files."""

    def __init__(self, apps: dict[str, dict[str, Any]], dialogs: dict[str, dict[str, Any]], world: WorldState,
                 *, serial: str, timing: TimingProfile, display: tuple[int, int] = (1080, 2400),
                 props: dict[str, str] | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self.apps, self.dialog_specs, self.world = apps, dialogs, world
        self.serial, self.timing, self.faults = serial, timing, Faults()
        self.display = display
        self.props = props or {}
        self.clock = clock
        self.nav = Navigator()
        self.nav.tasks[LAUNCHER] = [Screen(LAUNCHER, apps[LAUNCHER]["start"])]
        self.dialog_stack: list[dict[str, Any]] = []
        self.notifications: list[dict[str, Any]] = []
        self.heads_up: dict[str, Any] | None = None
        self.triggers: list[dict[str, Any]] = []
        self.keyboard_visible = self.shade_open = self.recents_open = False
        self.display_on = True
        self.toast: str | None = None
        self.clipboard: str | None = None
        self.observations = 0
        self._stale: tuple[Frame, float] | None = None
        self._last: Frame | None = None
        self._shot: tuple[tuple[Any, ...], bytes] | None = None

    def current_package(self) -> str:
        """The package of the foreground task's top screen."""
        return self.nav.top().package if self.nav.tasks.get(self.nav.foreground) else LAUNCHER

    def screen_spec(self, screen: Screen) -> dict[str, Any]:
        """The data-file declaration of a screen."""
        spec: dict[str, Any] = self.apps[screen.package]["screens"][screen.name]
        return spec

    def screen_ctx(self, screen: Screen) -> dict[str, Any]:
        """Template context of a screen: app data, bound record, arguments, form values."""
        ctx: dict[str, Any] = {**self.world.app(screen.package), **screen.args}
        ctx.update(args=screen.args, form=screen.form, apps=self.launcher_apps(), top=screen.package,
                   label=self.apps[screen.package].get("label", screen.package))
        bind = self.screen_spec(screen).get("bind")
        record = resolve(ctx, fill_text(bind, ctx)) if bind else None
        if isinstance(record, dict):
            ctx.update(record)
            ctx["rec"] = record
        return ctx

    def launcher_apps(self) -> list[dict[str, str]]:
        """Icons on the home screen, in app-file order."""
        icons = [{"id": pkg, "package": pkg, "label": spec["label"]}
                 for pkg, spec in self.apps.items() if spec.get("icon", True) and pkg != LAUNCHER]
        return sorted(icons, key=lambda icon: icon["label"])

    def visible_dialog(self) -> dict[str, Any] | None:
        """The top dialog owned by the foreground app (or by the system)."""
        for entry in reversed(self.dialog_stack):
            if entry["owner"] in ("*", self.nav.foreground):
                dialog: dict[str, Any] = entry
                return dialog
        return None

    def frame(self) -> Frame:
        """Build what is on screen now, windows bottom to top."""
        frame = Frame()
        wifi = bool(self.world.app("com.android.settings").get("wifi", True))
        icons = [n.get("app", "") for n in self.notifications]
        frame.windows.append(Window("status", system_ui.status_bar(self.display, wifi, icons)))
        if self.recents_open:
            apps = [(p, self.apps[p]["label"]) for p in self.nav.recents if p in self.apps]
            frame.windows.append(Window("app", system_ui.recents(frame, self.display, apps)))
        else:
            frame.windows.append(Window("app", self._app_window(frame)))
        dialog = None if self.recents_open else self.visible_dialog()
        if dialog is not None:
            spec = self.dialog_specs[dialog["name"]]
            root = build_dialog(frame, spec, dialog["ctx"], self.display)
            frame.windows.append(Window("dialog", root, modal=True, dims=spec.get("dim", True)))
        elif self.keyboard_showing():
            frame.windows.append(Window("keyboard", system_ui.keyboard(frame, self.display)))
        if self.heads_up is not None and not self.shade_open:
            frame.windows.append(Window("notification", system_ui.heads_up(frame, self.display, self.heads_up)))
        if self.shade_open:
            frame.windows.append(Window("shade", system_ui.shade(frame, self.display, self.notifications)))
        return frame

    def keyboard_showing(self) -> bool:
        """Whether the soft keyboard window is up."""
        tasks = self.nav.tasks.get(self.nav.foreground)
        return (self.keyboard_visible and not self.recents_open and bool(tasks)
                and self.nav.top().focus is not None)

    def start_spinner(self, observations: int) -> None:
        """Show "Loading…" on the top screen for N observations (real-phone: or N dump times)."""
        if not self.nav.tasks.get(self.nav.foreground):
            return
        screen = self.nav.top()
        screen.loading = observations
        screen.loading_until = None
        if self.timing.dump_ms > 0:  # a u2 script polling with selectors never dumps; time still passes
            screen.loading_until = self.clock() + observations * self.timing.dump_ms / 1000

    def _app_window(self, frame: Frame) -> UiNode:
        screen = self.nav.top()
        if screen.loading_until is not None and self.clock() >= screen.loading_until:
            screen.loading, screen.loading_until = 0, None
        spec = self.screen_spec(screen)
        if "recorded" in spec:  # a real app's recorded screen (world/recorded_screens.py)
            from starebrain.sim.world.recorded_screens import build_recorded_window

            return build_recorded_window(frame, spec, self.screen_ctx(screen), self.display)
        bottom = self.display[1] - NAV_H
        if self.keyboard_showing() and spec.get("soft_input", "resize") == "resize":
            bottom = system_ui.keyboard_top(self.display)
        return build_app_window(frame, self.apps[screen.package], spec, screen, self.screen_ctx(screen),
                                self.display, bottom)

    def _shown_frame(self) -> Frame:
        """The frame an observer sees: the old screen while a transition settles (real-phone timing)."""
        if self._stale is not None:
            stale, until = self._stale
            if self.clock() < until:
                return stale
            self._stale = None
        self._last = self.frame()
        return self._last

    def root(self) -> UiNode:
        """The current hierarchy under a synthetic root (window roots as its children)."""
        return _synthetic_root(self._shown_frame(), self.display)

    def hierarchy_xml(self, max_depth: int = 50) -> str:
        """The u2 dump; each call is one observation (spinners and heads-ups progress)."""
        root = self.root()
        self._observe()
        return hierarchy_xml.dump(root, self.rotation(), max_depth)

    def _observe(self) -> None:
        self.observations += 1
        tasks = self.nav.tasks.get(self.nav.foreground)
        if tasks and tasks[-1].loading > 0:
            tasks[-1].loading -= 1
        if self.heads_up is not None and self.heads_up.get("ttl") is not None:
            self.heads_up["ttl"] -= 1
            if self.heads_up["ttl"] <= 0:
                self.heads_up = None
        self.fire(f"observation {self.observations}")

    def screenshot(self, fmt: str = "PNG", scale: float = 1.0, quality: int = 80) -> bytes:
        """The current screen drawn as a wireframe (PNG or JPEG)."""
        from starebrain.sim.world.screenshot import render

        frame = self._shown_frame()
        drawn = tuple((r.bounds, r.label, r.color) for t in frame.targets.values() for r in t.regions)  # canvases
        key = (hierarchy_xml.dump(_synthetic_root(frame, self.display)), drawn, fmt, scale, quality, self.display_on)
        if self._shot is None or self._shot[0] != key:  # an unchanged screen is not drawn twice
            image = render(frame, self.display, fmt=fmt, scale=scale, quality=quality, on=self.display_on)
            self._shot = (key, image)
        return self._shot[1]

    def _settle_from(self, before: Frame | None, identity: tuple[Any, ...]) -> None:
        if before is not None and self.timing.transition_ms > 0 and identity != self._identity():
            self._stale = (before, self.clock() + self.timing.transition_ms / 1000)

    def _identity(self) -> tuple[Any, ...]:
        tasks = self.nav.tasks.get(self.nav.foreground) or []
        return (self.nav.foreground, tuple(s.ref for s in tasks), len(self.dialog_stack), self.recents_open,
                self.shade_open)

    def _input(self, action: Callable[[], Any]) -> Any:
        """Run an input and start a settling transition if the screen changed."""
        before, identity = self._last, self._identity()
        result = action()
        self._settle_from(before, identity)
        return result

    def push_screen(self, screen: Screen) -> None:
        """Open a screen on the foreground task (hides the keyboard, applies autofocus)."""
        self.nav.push(screen)
        self._entered(screen)

    def _entered(self, screen: Screen) -> None:
        self.keyboard_visible = False
        spec = self.screen_spec(screen)
        if spec.get("autofocus"):
            self.focus_field(spec["autofocus"])
        self.fire(f"enter {screen.ref}")

    def pop_screen(self) -> None:
        """Pop the top screen of the foreground task."""
        self.nav.pop()
        self.keyboard_visible = False

    def go_home(self) -> None:
        """Home: the launcher, shade and recents closed."""
        self.shade_open = self.recents_open = self.keyboard_visible = False
        self.nav.foreground = LAUNCHER

    def toggle_recents(self) -> None:
        """The overview key."""
        self.keyboard_visible = self.shade_open = False
        self.recents_open = not self.recents_open

    def back(self) -> None:
        """Back: shade, recents, keyboard, dialog, then the screen's own back behaviour."""
        if self.shade_open or self.recents_open:
            self.shade_open = self.recents_open = False
            return
        if self.keyboard_showing():
            self.keyboard_visible = False
            return
        dialog = self.visible_dialog()
        if dialog is not None:
            spec = self.dialog_specs[dialog["name"]]
            run_ops(self, list(spec.get("back", [{"dismiss": True}] if spec.get("cancelable", True) else [])),
                    dialog["ctx"])
            return
        self.screen_back()

    def screen_back(self) -> None:
        """The screen's own back behaviour (`on_back` ops), else pop it."""
        if self.nav.foreground == LAUNCHER:
            return
        screen = self.nav.top()
        spec = self.screen_spec(screen)
        if "on_back" in spec:  # an empty list means back does nothing here
            run_ops(self, list(spec["on_back"]), self.screen_ctx(screen))
        else:
            self.pop_screen()

    def show_dialog(self, name: str, params: dict[str, Any]) -> None:
        """Show a dialog template over the foreground app (or over everything when it is global)."""
        spec = self.dialog_specs[name]
        package = self.current_package()
        ctx = {"app_package": package, "app_label": self.apps.get(package, {}).get("label", package),
               "dialog": name, **spec.get("defaults", {}), **params}
        owner = "*" if spec.get("global") else self.nav.foreground
        self.keyboard_visible = False
        self.dialog_stack.append({"name": name, "ctx": ctx, "owner": owner})

    def dismiss_dialog(self) -> None:
        """Close the visible dialog."""
        entry = self.visible_dialog()
        if entry is not None:
            self.dialog_stack.remove(entry)

    def notify(self, note: dict[str, Any]) -> None:
        """Post a notification; `heads_up` (default true) also shows it as a heads-up card."""
        note.setdefault("app", "Messages")
        note.setdefault("title", "")
        note.setdefault("text", "")
        opens = [{"open": note["app_package"]}] if note.get("app_package") else []
        tapped = {"effect": {"kind": "notification_opened", "app": note["app"], "title": note["title"]}}
        note.setdefault("tap", [tapped, {"dismiss_notification": True}, *opens])
        self.notifications.insert(0, note)
        if note.get("heads_up", True):
            self.heads_up = note

    def arm(self, trigger: dict[str, Any]) -> None:
        """Add a trigger: `{when: EVENT, do: [ops], times: N}`; EVENT `now` runs at once."""
        trigger = {"times": 1, **trigger}
        if trigger["when"] == "now":
            run_ops(self, list(trigger["do"]), {})
            return
        self.triggers.append(trigger)

    def fire(self, event: str) -> None:
        """Run the triggers waiting for an event (`open PKG`, `enter PKG/SCREEN`, `observation N`)."""
        for trigger in [t for t in self.triggers if t["when"] == event]:
            trigger["times"] -= 1
            if trigger["times"] <= 0:
                self.triggers.remove(trigger)
            run_ops(self, list(trigger["do"]), {})

    def inject(self, kind: str, **params: Any) -> None:
        """Inject an obstruction or event at runtime; see `starebrain.sim.world.injection`."""
        from starebrain.sim.world.injection import inject

        inject(self, kind, **params)

    def current_focus(self) -> tuple[str, str]:
        """(package, activity) of the focused window."""
        dialog = self.visible_dialog()
        if dialog is not None and "focus" in self.dialog_specs[dialog["name"]]:
            focus = self.dialog_specs[dialog["name"]]["focus"]
            return focus["package"], focus["activity"]
        if self.recents_open or self.nav.foreground == LAUNCHER:
            return LAUNCHER, LAUNCHER_ACTIVITY
        screen = self.nav.top()
        app = self.apps[screen.package]
        activity = self.screen_spec(screen).get("activity", app.get("activity", ".MainActivity"))
        return screen.package, (screen.package + activity if activity.startswith(".") else activity)

    def start_app(self, package: str, activity: str | None = None) -> bool:
        """Launch an app: resume its task if it has one, else a cold start (fires `open PKG`)."""
        if package not in self.apps:
            return False
        return bool(self._input(lambda: self._start(package)))

    def open_link(self, url: str, package: str) -> bool:
        """Start the app a VIEW intent resolved to, then run its `links` ops for the URL's prefix."""
        if not self.start_app(package):
            return False
        rule = max((r for r in self.apps[package].get("links", []) if url.startswith(r["prefix"])),
                   key=lambda r: len(r["prefix"]), default=None)
        if rule is not None:
            self._input(lambda: run_ops(self, list(rule.get("do", [])), {"link": link_fields(url)}))
        self.world.record("link_opened", package, {"url": url, "scheme": url.split(":", 1)[0].lower()})
        return True

    def _start(self, package: str) -> bool:
        self.shade_open = self.recents_open = self.keyboard_visible = False
        if package == LAUNCHER:
            self.go_home()
        elif package in self.nav.tasks:
            self.nav.bring(package)
        else:
            screen = Screen(package, self.apps[package]["start"])
            self.nav.open_task(package, screen)
            if package not in self.world.opened:
                self.world.opened.add(package)
                self.world.save()
            self.fire(f"open {package}")
            self._entered(screen)
        return True

    def stop_app(self, package: str) -> None:
        """Force-stop: its task and dialogs go away."""
        self.nav.close(package)
        self.dialog_stack = [d for d in self.dialog_stack if d["owner"] != package]
        self.keyboard_visible = False

    def clear_app_data(self, package: str) -> None:
        """`pm clear`: stopped, and its data back to what the phone was set up with."""
        self.stop_app(package)
        if package in self.apps:
            self.world.clear_app(package)

    def installed_packages(self) -> list[str]:
        """App packages plus the system ones."""
        return sorted(set(self.apps) | set(SYSTEM_PACKAGES))

    def running_packages(self) -> list[str]:
        """Packages with a live task, plus the always-running system ones."""
        return sorted(set(self.nav.tasks) | set(SYSTEM_PACKAGES[:2]))

    def getprop(self, name: str) -> str:
        """A system property ('' when unknown, as `getprop` prints)."""
        return self.props.get(name, "")

    def display_size(self) -> tuple[int, int]:
        """(width, height) in pixels."""
        return self.display

    def rotation(self) -> int:
        """Always portrait."""
        return 0

    def screen_on(self) -> bool:
        """Whether the display is on."""
        return self.display_on

    def set_screen(self, on: bool) -> None:
        """Power the display on or off."""
        self.display_on = on

    def last_toast(self) -> str | None:
        """The last toast shown."""
        return self.toast

    def open_notification(self) -> bool:
        """Pull down the notification shade."""
        self.shade_open = True
        self.keyboard_visible = False
        return True

    def content_query(self, uri: str) -> str:
        """`content query --uri content://starebrain/...` rows."""
        return query(self.world, uri)

    def state(self) -> dict[str, object]:
        """Side-effect counts, the effect log and app data."""
        return self.world.to_json()


def _synthetic_root(frame: Frame, display: tuple[int, int]) -> UiNode:
    root = UiNode(attrs={}, bounds=(0, 0, *display))
    for window in frame.windows:
        window.root.parent = root
        root.children.append(window.root)
    return root
