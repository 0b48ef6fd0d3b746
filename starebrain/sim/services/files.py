"""The phone's file system as the shell and sync see it: in memory, mirrored to a state dir if given."""

from __future__ import annotations

import hashlib
import posixpath
import stat
import time
from dataclasses import dataclass, field
from pathlib import Path

S_IFDIR = stat.S_IFDIR
S_IFREG = stat.S_IFREG
DEFAULT_DIRS = ("/", "/data", "/data/local", "/data/local/tmp", "/sdcard", "/sdcard/Download",
                "/storage", "/storage/emulated", "/storage/emulated/0", "/system", "/system/bin")


@dataclass
class FileEntry:
    """One regular file."""

    data: bytes
    mode: int = S_IFREG | 0o644
    mtime: int = field(default_factory=lambda: int(time.time()))
    _md5: str | None = field(default=None, repr=False)

    def md5(self) -> str:
        """Hex md5 of the content, computed once (u2 checks u2.jar's md5 on every connect)."""
        if self._md5 is None:
            self._md5 = hashlib.md5(self.data).hexdigest()
        return self._md5


def normalize(path: str) -> str:
    """An absolute, normalised path; /sdcard and /storage/emulated/0 are the same place, as on a phone."""
    path = posixpath.normpath("/" + path.strip())
    if path.startswith("//"):
        path = path[1:]
    if path == "/storage/emulated/0" or path.startswith("/storage/emulated/0/"):
        path = "/sdcard" + path[len("/storage/emulated/0"):]
    return path


class DeviceFiles:
    """Files and directories of one simulated phone."""

    def __init__(self, mirror: Path | None = None) -> None:
        self.files: dict[str, FileEntry] = {}
        self.dirs: set[str] = set(normalize(d) for d in DEFAULT_DIRS)
        self.mirror = mirror
        if mirror is not None:
            self._load_mirror(mirror)

    def stat(self, path: str) -> tuple[int, int, int] | None:
        """(mode, size, mtime), or None if nothing is there."""
        path = normalize(path)
        entry = self.files.get(path)
        if entry is not None:
            return entry.mode, len(entry.data), entry.mtime
        if path in self.dirs:
            return S_IFDIR | 0o771, 4096, 0
        return None

    def read(self, path: str) -> FileEntry | None:
        """The file at `path`, or None (also for directories)."""
        return self.files.get(normalize(path))

    def is_dir(self, path: str) -> bool:
        """True for an existing directory."""
        return normalize(path) in self.dirs

    def write(self, path: str, data: bytes, mode: int = S_IFREG | 0o644, mtime: int | None = None) -> str | None:
        """Store a file (creating parent dirs, like adbd's fixed_push_mkdir); an error text or None."""
        path = normalize(path)
        if path in self.dirs:
            return f"{path}: Is a directory"
        self._make_parents(path)
        if not stat.S_ISREG(mode):
            mode = S_IFREG | (mode & 0o7777 or 0o644)
        self.files[path] = FileEntry(bytes(data), mode, int(time.time()) if mtime is None else mtime)
        self._mirror_write(path)
        return None

    def remove(self, path: str, recursive: bool = False) -> str | None:
        """Delete a file (or a tree with `recursive`); an error text or None."""
        path = normalize(path)
        if path in self.files:
            del self.files[path]
            self._mirror_remove(path)
            return None
        if path in self.dirs:
            if not recursive:
                return f"rm: {path}: Is a directory"
            for name in [p for p in self.files if p.startswith(path + "/")]:
                self.remove(name)
            self.dirs -= {d for d in self.dirs if d == path or d.startswith(path + "/")}
            return None
        return f"rm: {path}: No such file or directory"

    def mkdir(self, path: str) -> None:
        """Create a directory and its parents."""
        path = normalize(path)
        self._make_parents(path + "/x")

    def listdir(self, path: str) -> list[tuple[str, tuple[int, int, int]]] | None:
        """(name, stat) of each entry directly under a directory, or None if it is not one."""
        path = normalize(path)
        if path not in self.dirs:
            return None
        prefix = path.rstrip("/") + "/"
        names = {p[len(prefix):].split("/", 1)[0] for p in (*self.files, *self.dirs)
                 if p.startswith(prefix) and p != prefix}
        out = []
        for name in sorted(names):
            info = self.stat(prefix + name)
            if info is not None:
                out.append((name, info))
        return out

    def _make_parents(self, path: str) -> None:
        parent = posixpath.dirname(path)
        while parent not in self.dirs:
            self.dirs.add(parent)
            parent = posixpath.dirname(parent)

    def _mirror_path(self, path: str) -> Path | None:
        return None if self.mirror is None else self.mirror / path.lstrip("/")

    def _mirror_write(self, path: str) -> None:
        target = self._mirror_path(path)
        if target is None:
            return
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(self.files[path].data)

    def _mirror_remove(self, path: str) -> None:
        target = self._mirror_path(path)
        if target is not None and target.is_file():
            target.unlink()

    def _load_mirror(self, mirror: Path) -> None:
        if not mirror.is_dir():
            return
        for item in mirror.rglob("*"):
            device_path = "/" + item.relative_to(mirror).as_posix()
            if item.is_dir():
                self.mkdir(device_path)
            elif item.is_file():
                self._make_parents(device_path)
                self.files[device_path] = FileEntry(item.read_bytes(), S_IFREG | 0o644,
                                                    int(item.stat().st_mtime))
