"""The phone's process table: system daemons, one process per running app, the u2 server's app_process.

An app gets a new pid every time it (re)starts, like zygote forks on a phone; pids only grow.
"""

from __future__ import annotations

from dataclasses import dataclass

from starebrain.sim.phone import SimPhone
from starebrain.sim.services.packages import app_uid

FIRST_APP_PID = 4000
PID_STEP = 37  # zygote forks between two app starts on a busy phone


@dataclass(frozen=True)
class Process:
    """One row of `ps`."""

    pid: int
    ppid: int
    user: str
    name: str
    vsz: int
    rss: int
    wchan: str = "do_epoll_wait"
    state: str = "S"


ZYGOTE_PID = 612
SYSTEM = (
    Process(1, 0, "root", "init", 10943276, 6632, "do_epoll_wait"),
    Process(2, 0, "root", "[kthreadd]", 0, 0, "kthreadd"),
    Process(412, 1, "logd", "logd", 10913300, 7660, "__skb_wait_for_more_packets"),
    Process(418, 1, "system", "servicemanager", 10838640, 4128, "binder_ioctl"),
    Process(575, 1, "system", "surfaceflinger", 10989300, 31220, "do_epoll_wait"),
    Process(ZYGOTE_PID, 1, "root", "zygote64", 15386552, 112244, "do_sys_poll"),
    Process(781, 1, "shell", "adbd", 10984524, 9872, "do_epoll_wait"),
    Process(1104, ZYGOTE_PID, "system", "system_server", 20912212, 352064, "do_epoll_wait"),
)
SHELL_USER = "shell"


class ProcessTable:
    """Pids of app processes (kept in step with the world's running apps) and shell-started processes."""

    def __init__(self) -> None:
        self._next = FIRST_APP_PID
        self.apps: dict[str, int] = {}
        self.shell: dict[int, str] = {}  # pid -> name of processes the shell user started

    def _allocate(self) -> int:
        self._next += PID_STEP
        return self._next

    def sync(self, phone: SimPhone) -> None:
        """New pids for apps that started since the last look; dead apps leave the table."""
        running = set(phone.running_packages()) | {phone.current_focus()[0]}  # whatever shows UI runs
        for package in [p for p in self.apps if p not in running]:
            del self.apps[package]
        for package in sorted(running - set(self.apps)):
            self.apps[package] = self._allocate()

    def reset(self) -> None:
        """A reboot: every app and shell process is gone (pids keep growing, as after a real boot)."""
        self.apps.clear()
        self.shell.clear()

    def died(self, package: str) -> None:
        """The app's process ended (force-stop, kill): its next start gets a new pid."""
        self.apps.pop(package, None)

    def spawn(self, name: str) -> int:
        """A process the shell started (app_process for the u2 server); returns its pid."""
        pid = self._allocate()
        self.shell[pid] = name
        return pid

    def exited(self, pid: int) -> None:
        """A shell-started process ended."""
        self.shell.pop(pid, None)

    def rows(self, phone: SimPhone) -> list[Process]:
        """Every process, by pid."""
        self.sync(phone)
        rows = list(SYSTEM)
        for package, pid in self.apps.items():
            uid = app_uid(package)
            user = "system" if uid < 10000 or package == "com.android.systemui" else f"u0_a{uid - 10000}"
            rows.append(Process(pid, ZYGOTE_PID, user, package, 16771460, 98304 + pid % 4096 * 16))
        rows.extend(Process(pid, 781, SHELL_USER, name, 13149288, 84212, "futex_wait_queue")
                    for pid, name in self.shell.items())
        return sorted(rows, key=lambda p: p.pid)

    def pids_of(self, phone: SimPhone, name: str) -> list[int]:
        """`pidof NAME`: pids whose process name is NAME."""
        return [p.pid for p in self.rows(phone) if p.name == name]

    def find(self, phone: SimPhone, pid: int) -> Process | None:
        """The process with this pid."""
        return next((p for p in self.rows(phone) if p.pid == pid), None)
