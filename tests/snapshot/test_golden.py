from __future__ import annotations

import pytest

from tests.obstruction.corpus import DUMPS
from tests.snapshot.golden import record, stored

_ROWS = stored()


@pytest.mark.parametrize("file", sorted(_ROWS))
def test_every_recorded_dump_parses_and_detects_as_recorded(file):
    row = _ROWS[file]
    assert record((DUMPS / file).read_bytes()) == {k: row[k] for k in ("nodes", "screen", "kind", "clearance")}


def test_the_record_covers_the_corpus_it_was_made_from():
    assert len(_ROWS) >= 284
