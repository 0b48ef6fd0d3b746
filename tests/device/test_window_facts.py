"""An observation asks the phone for display size and activity only when the dump shows they changed."""

from __future__ import annotations

from starebrain.device.window_facts import WindowFacts
from tests.snapshot.dumps import hierarchy, node, status_bar


def screen(package: str, rotation: int = 0) -> str:
    app = node(cls="android.widget.FrameLayout", pkg=package, bounds="[0,60][1080,2400]",
               children=node("Hello", pkg=package, bounds="[0,100][500,200]"))
    return hierarchy(status_bar(), app, rotation=rotation)


class Phone:
    """Counts the questions WindowFacts asks; answers like a phone would."""

    def __init__(self) -> None:
        self.size_reads, self.app_reads = 0, 0
        self.size, self.app = (1080, 2400), ("com.example.mail", ".Inbox")

    def read_size(self) -> tuple[int, int]:
        self.size_reads += 1
        return self.size

    def read_app(self) -> tuple[str, str]:
        self.app_reads += 1
        return self.app


def test_size_is_read_at_the_first_look_and_after_a_rotation_only() -> None:
    phone = Phone()
    facts = WindowFacts(phone.read_size, phone.read_app)
    assert [facts.size(screen("com.example.mail")) for _ in range(3)] == [(1080, 2400)] * 3
    phone.size = (2400, 1080)
    assert facts.size(screen("com.example.mail", rotation=1)) == (2400, 1080)
    assert phone.size_reads == 2


def test_the_package_comes_from_the_dump_and_the_activity_only_at_an_app_switch() -> None:
    phone = Phone()
    facts = WindowFacts(phone.read_size, phone.read_app)
    assert facts.app(screen("com.example.mail")) == ("com.example.mail", ".Inbox")
    assert facts.app(screen("com.example.mail")) == ("com.example.mail", ".Inbox")
    assert phone.app_reads == 1
    phone.app = ("com.example.notes", ".Main")
    assert facts.app(screen("com.example.notes")) == ("com.example.notes", ".Main")
    assert phone.app_reads == 2


def test_an_activity_of_another_app_than_the_dump_shows_is_not_reported() -> None:
    phone = Phone()
    phone.app = ("com.example.other", ".Busy")  # dumpsys and the dump disagree mid-transition
    facts = WindowFacts(phone.read_size, phone.read_app)
    assert facts.app(screen("com.example.mail")) == ("com.example.mail", "")


def test_forget_asks_again() -> None:
    phone = Phone()
    facts = WindowFacts(phone.read_size, phone.read_app)
    facts.app(screen("com.example.mail"))
    facts.size(screen("com.example.mail"))
    facts.forget()
    facts.app(screen("com.example.mail"))
    facts.size(screen("com.example.mail"))
    assert (phone.app_reads, phone.size_reads) == (2, 2)
