"""Which tasks the TUI lists: `status:failed device:emulator-5554 free words` typed in the filter box."""

from __future__ import annotations

from dataclasses import dataclass

from starebrain.models import AgentTask, TaskStatus

STATUS_CYCLE: tuple[str | None, ...] = (None, *[s.value for s in TaskStatus])


@dataclass(frozen=True)
class TaskFilter:
    """Status (exact), device (substring) and text (substring of instruction or id), all optional."""

    status: str | None = None
    device: str | None = None
    text: str = ""

    @classmethod
    def parse(cls, query: str) -> TaskFilter:
        """`status:X device:Y words…`; unknown statuses match nothing rather than everything."""
        status = device = None
        words = []
        for token in query.split():
            key, _, value = token.partition(":")
            if key.lower() == "status" and value:
                status = value.upper()
            elif key.lower() == "device" and value:
                device = value
            else:
                words.append(token)
        return cls(status=status, device=device, text=" ".join(words))

    @classmethod
    def parse_parts(cls, status: str | None = None, device: str | None = None, text: str | None = None) -> TaskFilter:
        """From the command line's --status/--device/--text."""
        return cls(status=status.upper() if status else None, device=device or None, text=text or "")

    def query(self) -> str:
        """The filter as typed in the box (round-trips through `parse`)."""
        parts = [f"status:{self.status}" if self.status else "", f"device:{self.device}" if self.device else "",
                 self.text]
        return " ".join(p for p in parts if p)

    def matches(self, task: AgentTask) -> bool:
        """True if the task passes every part of the filter."""
        if self.status and task.status.value != self.status:
            return False
        if self.device and self.device.lower() not in task.device_serial.lower():
            return False
        needle = self.text.lower()
        return not needle or needle in task.instruction.lower() or task.id.startswith(needle)

    def next_status(self) -> TaskFilter:
        """The same filter with the next status in the cycle (all → PENDING → … → CANCELLED → all)."""
        i = STATUS_CYCLE.index(self.status) if self.status in STATUS_CYCLE else 0
        return TaskFilter(status=STATUS_CYCLE[(i + 1) % len(STATUS_CYCLE)], device=self.device, text=self.text)
