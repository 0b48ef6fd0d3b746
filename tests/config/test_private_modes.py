"""What StareBrain writes is the owner's alone: folders 0700, files 0600, whatever the umask."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from starebrain.config import private_dir, private_file, write_private
from starebrain.store import Store
from tests.redaction.umask import umask_022  # noqa: F401 - a fixture, used by name

pytestmark = pytest.mark.usefixtures("umask_022")


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_new_and_existing_folders_and_files_become_owner_only(tmp_path: Path) -> None:
    loose_dir, loose_file = tmp_path / "old", tmp_path / "old" / "f"
    loose_dir.mkdir(mode=0o755)
    loose_file.write_text("x")
    assert (_mode(loose_dir), _mode(loose_file)) == (0o755, 0o644)
    assert _mode(private_dir(tmp_path / "new" / "deeper")) == 0o700
    assert _mode(private_dir(loose_dir)) == 0o700 and _mode(private_file(loose_file)) == 0o600
    assert loose_file.read_text() == "x"  # tightened, not truncated
    write_private(tmp_path / "w", b"data")
    assert _mode(tmp_path / "w") == 0o600 and (tmp_path / "w").read_bytes() == b"data"


def test_a_shared_sticky_folder_is_left_alone(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o1777)
    private_dir(shared)
    assert _mode(shared) == 0o1777


def test_the_database_its_wal_and_its_new_folder_are_owner_only(tmp_path: Path) -> None:
    db = tmp_path / "home" / "starebrain.db"
    with Store.open(db) as store:
        store.add_event(None, "probe", {})
        files = [p for p in db.parent.iterdir()]
        assert {p.name for p in files} >= {"starebrain.db", "starebrain.db-wal"}
        assert {p.name: _mode(p) for p in files} == {p.name: 0o600 for p in files}
    assert _mode(db.parent) == 0o700
