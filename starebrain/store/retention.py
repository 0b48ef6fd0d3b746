"""The one way anything is deleted: old artifact files (screenshots, hierarchy dumps).

Rows are never deleted; an attempt whose files were pruned keeps its paths and hash, and
reports show the file as gone. Artifacts of unresolved tasks are never pruned.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from pathlib import Path


def prune_artifacts(root: Path, older_than: timedelta, keep_task_ids: Iterable[str],
                    now: datetime) -> list[Path]:
    """Delete regular files under `root` last modified before `now - older_than`; returns them.

    Files under `<root>/<task id>/` of a task in `keep_task_ids` are kept whatever their age.
    Symlinks are neither followed nor deleted; folders left empty are removed (never `root`).
    """
    if not root.is_dir():
        return []
    cutoff = (now - older_than).timestamp()
    keep = set(keep_task_ids)
    removed: list[Path] = []
    for path in sorted(root.rglob("*")):
        if _prunable(path, root, keep, cutoff):
            path.unlink(missing_ok=True)
            removed.append(path)
    _remove_empty_dirs(root)
    return removed


def _prunable(path: Path, root: Path, keep: set[str], cutoff: float) -> bool:
    if path.is_symlink() or not path.is_file():
        return False
    if path.relative_to(root).parts[0] in keep:
        return False
    return path.stat().st_mtime < cutoff


def _remove_empty_dirs(root: Path) -> None:
    # Deepest first, so a folder emptied by removing its empty children goes too.
    for folder in sorted((p for p in root.rglob("*") if p.is_dir() and not p.is_symlink()),
                         key=lambda p: len(p.parts), reverse=True):
        if not any(folder.iterdir()):
            folder.rmdir()
