"""Read and validate the YAML files of device_profiles/ (packaged, or overridden from a directory)."""

from __future__ import annotations

from collections.abc import Iterable
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import TypeVar

import yaml
from pydantic import BaseModel, ValidationError

from starebrain.errors import ProfileInvalid

M = TypeVar("M", bound=BaseModel)
PACKAGE = "starebrain.device_profiles"
FOLDER = "device_profiles"  # as the repository and error messages name it


def profile_files(override_dir: Path | None) -> dict[str, Traversable | Path]:
    """YAML files by name: the packaged ones, replaced or extended by same-named files in `override_dir`."""
    files: dict[str, Traversable | Path] = {
        f.name: f for f in resources.files(PACKAGE).iterdir() if f.name.endswith((".yaml", ".yml"))
    }
    if override_dir is not None:
        if not override_dir.is_dir():
            raise ProfileInvalid(f"{override_dir}: profile override directory does not exist")
        files.update({p.name: p for p in sorted(override_dir.glob("*.y*ml"))})
    return files


# libyaml's safe loader when PyYAML was built with it (about ten times faster: every command loads the profiles)
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def read_yaml(source: Traversable | Path) -> object:
    """Parsed YAML; syntax errors become one-line ProfileInvalid naming the file and position."""
    where = _name(source)
    try:
        return yaml.load(source.read_text(encoding="utf-8"), Loader=_LOADER)  # noqa: S506 - a safe loader
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        pos = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        raise ProfileInvalid(f"{where}: YAML syntax error{pos}: {exc.problem}") from exc
    except (yaml.YAMLError, UnicodeDecodeError, OSError) as exc:
        raise ProfileInvalid(f"{where}: cannot read: {_one_line(str(exc))}") from exc


def validate(model: type[M], source: Traversable | Path) -> M:
    """The file validated as `model`; the first problem becomes a one-line ProfileInvalid."""
    data = read_yaml(source)
    if not isinstance(data, dict):
        raise ProfileInvalid(f"{_name(source)}: expected a mapping at the top level, got {type(data).__name__}")
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise ProfileInvalid(f"{_name(source)}: {describe_error(exc)}") from exc


def describe_error(exc: ValidationError) -> str:
    """`packages.com.x: Input should be 'banking', ... (+2 more problems)` on one line."""
    errors = exc.errors()
    first = errors[0]
    loc = ".".join(str(p) for p in first["loc"]) or "(top level)"
    more = f" (+{len(errors) - 1} more problems)" if len(errors) > 1 else ""
    msg = str(first["msg"]).removeprefix("Value error, ")
    return _one_line(f"{loc}: {msg}{more}")


def require(files: dict[str, Traversable | Path], names: Iterable[str]) -> None:
    """Raise when one of the files every setup needs is missing."""
    for name in names:
        if name not in files:
            raise ProfileInvalid(f"{FOLDER}/{name}: file is missing")


def _name(source: Traversable | Path) -> str:
    return str(source) if isinstance(source, Path) else f"{FOLDER}/{source.name}"


def _one_line(text: str) -> str:
    return " ".join(text.split())
