"""A loaded flow as a small program: concrete steps plus the few constructs decided on the phone.

Everything that can be decided when the file is read (sub-flows, `repeat: times`, `${NAME}`, `when: env`,
hooks) is expanded into plain steps at load time. What remains is decided while the flow runs:
a condition on the screen (`When`, `RepeatWhile`, `Check`), a step that may fail (`Do(optional=True)`)
and a block that may be run again (`Retry`). docs/flows.md explains how these keep the cursor contract.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from starebrain.flows.text_pattern import TextPattern
from starebrain.models import AgentStep, Selector, new_id

Target = Selector | TextPattern


@dataclass(frozen=True)
class Cond:
    """A screen condition: every given selector must be visible / absent (AND, as in Maestro)."""

    visible: Target | None = None
    not_visible: Target | None = None

    def describe(self) -> str:
        parts = []
        if self.visible is not None:
            parts.append(f"{self.visible.describe()} is visible")
        if self.not_visible is not None:
            parts.append(f"{self.not_visible.describe()} is not visible")
        return " and ".join(parts)


@dataclass(frozen=True)
class Do:
    """Run one concrete step; an optional step that fails is recorded SKIPPED and the flow goes on.

    With a `pattern`, the step's element is found on the screen by that text regex just before it runs.
    """

    step: AgentStep
    optional: bool = False
    pattern: TextPattern | None = None


@dataclass(frozen=True)
class Check:
    """An assertion on the screen, polled up to `timeout_s`; failing it fails the flow (unless optional)."""

    cond: Cond
    timeout_s: float
    label: str
    optional: bool = False


@dataclass(frozen=True)
class When:
    cond: Cond
    body: tuple[Node, ...]
    label: str


@dataclass(frozen=True)
class RepeatWhile:
    """Run `body` while `cond` holds, at most `max_times` times (a bound is always set)."""

    cond: Cond
    body: tuple[Node, ...]
    max_times: int
    label: str


@dataclass(frozen=True)
class Retry:
    """Run `body`; if a step of it fails, run it again, at most `max_retries` more times."""

    body: tuple[Node, ...]
    max_retries: int
    label: str


@dataclass(frozen=True)
class Finally:
    """Run `body`, then `after` whether or not `body` failed (Maestro's onFlowComplete)."""

    body: tuple[Node, ...]
    after: tuple[Node, ...]


Node = Do | Check | When | RepeatWhile | Retry | Finally
Kind = Literal["static", "dynamic"]


def is_static(nodes: tuple[Node, ...] | list[Node]) -> bool:
    """True when the program is a plain step list the executor can walk on its own."""
    return all(isinstance(n, Do) and not n.optional and n.pattern is None for n in nodes)


def static_steps(nodes: tuple[Node, ...] | list[Node]) -> list[AgentStep]:
    """The flat step list of a static program, indexed from 0."""
    return [n.step.model_copy(update={"index": i, "id": new_id()}) for i, n in enumerate(nodes) if isinstance(n, Do)]


def secret_names(nodes: tuple[Node, ...] | list[Node]) -> list[str]:
    """Every `{secret:NAME}` a program may type, in order, without duplicates."""
    found: list[str] = []
    for node in nodes:
        if isinstance(node, Do):
            name = getattr(node.step.action, "secret_name", None)
            if name and name not in found:
                found.append(name)
        elif isinstance(node, When | RepeatWhile | Retry | Finally):
            found += [n for n in secret_names(node.body) if n not in found]
        if isinstance(node, Finally):
            found += [n for n in secret_names(node.after) if n not in found]
    return found
