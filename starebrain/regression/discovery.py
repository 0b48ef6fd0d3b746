"""Which flow files a `starebrain test PATH...` run covers: files as given, folders as all their *.yaml."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from starebrain.errors import BadInput, FlowInvalid
from starebrain.flows.flow_file import Flow, load_flow

FLOW_SUFFIXES = (".yaml", ".yml")


@dataclass(frozen=True)
class FlowSpec:
    """One flow file of the suite; `error` says why it could not be loaded (it then counts as an error)."""

    path: Path
    flow: Flow | None = None
    error: str = ""

    @property
    def name(self) -> str:
        return self.flow.name if self.flow is not None else self.path.stem

    @property
    def classname(self) -> str:
        """The flow file as given (relative when possible), for JUnit's classname."""
        return self.path.as_posix()


def discover_flows(paths: Iterable[Path], env: Mapping[str, str] | None = None) -> list[FlowSpec]:
    """Flow files in the order given; a folder contributes its *.yaml files (not recursive), sorted.

    `env` holds `-e NAME=VALUE` values, applied to every flow (and its sub-flows)."""
    paths = list(paths)
    specs: list[FlowSpec] = []
    seen: set[Path] = set()
    for path in paths:
        for file in _files_of(path):
            if file.resolve() not in seen:
                seen.add(file.resolve())
                specs.append(_load(file, env or {}))
    if not specs:
        raise BadInput(f"no flow files found in {', '.join(str(p) for p in paths)}")
    return specs


def _files_of(path: Path) -> list[Path]:
    if path.is_dir():
        return sorted(p for p in path.iterdir() if p.is_file() and p.suffix in FLOW_SUFFIXES)
    if path.is_file():
        return [path]
    raise BadInput(f"{path}: no such flow file or folder")


def select_by_tags(specs: Sequence[FlowSpec], include: Sequence[str], exclude: Sequence[str]
                   ) -> tuple[list[FlowSpec], list[FlowSpec]]:
    """(kept, left out): a flow is kept if it has one of `include` (when given) and none of `exclude`."""
    kept: list[FlowSpec] = []
    left: list[FlowSpec] = []
    for spec in specs:
        tags = set(spec.flow.tags) if spec.flow is not None else set()
        wanted = (not include or tags & set(include)) and not tags & set(exclude)
        (kept if wanted or spec.flow is None else left).append(spec)
    return kept, left


def _load(file: Path, env: Mapping[str, str]) -> FlowSpec:
    try:
        return FlowSpec(path=file, flow=load_flow(file, env))
    except FlowInvalid as exc:
        return FlowSpec(path=file, error=str(exc))
