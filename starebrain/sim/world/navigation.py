"""Tasks and back stacks: which screen of which app is on top, and the recents order."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

LAUNCHER = "com.android.launcher3"


@dataclass
class Screen:
    """One screen instance on a back stack: its app, name, arguments and per-visit UI state."""

    package: str
    name: str
    args: dict[str, Any] = field(default_factory=dict)
    form: dict[str, str] = field(default_factory=dict)
    scroll: dict[str, int] = field(default_factory=dict)
    focus: str | None = None  # key of the focused field
    loading: int = 0  # observations left before the content appears
    loading_until: float | None = None  # with real-phone timing it also ends by the clock

    @property
    def ref(self) -> str:
        return f"{self.package}/{self.name}"


@dataclass
class Navigator:
    """One task (back stack) per app, like Android tasks; the launcher is home."""

    tasks: dict[str, list[Screen]] = field(default_factory=dict)
    recents: list[str] = field(default_factory=list)  # most recent first, launcher excluded
    foreground: str = LAUNCHER

    def top(self) -> Screen:
        """The screen on top of the foreground task."""
        return self.tasks[self.foreground][-1]

    def task(self) -> list[Screen]:
        """The foreground back stack."""
        return self.tasks[self.foreground]

    def bring(self, package: str) -> None:
        """Make an existing task the foreground one."""
        self.foreground = package
        if package != LAUNCHER:
            if package in self.recents:
                self.recents.remove(package)
            self.recents.insert(0, package)

    def open_task(self, package: str, screen: Screen) -> None:
        """Start a new task for an app with its first screen."""
        self.tasks[package] = [screen]
        self.bring(package)

    def push(self, screen: Screen) -> None:
        """Push a screen onto the foreground task."""
        self.task().append(screen)

    def pop(self) -> Screen | None:
        """Pop the top screen; an emptied task ends and home shows. Returns the popped screen."""
        if self.foreground == LAUNCHER:
            return None
        stack = self.task()
        popped = stack.pop()
        if not stack:  # backing out of the root ends the task; recents still lists the app
            self.tasks.pop(self.foreground)
            self.foreground = LAUNCHER
        return popped

    def close(self, package: str) -> None:
        """End an app's task (back out of its root, force-stop, swipe away in recents)."""
        if package == LAUNCHER:
            return
        self.tasks.pop(package, None)
        if package in self.recents:
            self.recents.remove(package)
        if self.foreground == package:
            self.foreground = LAUNCHER
