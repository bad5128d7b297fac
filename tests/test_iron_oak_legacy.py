"""Games recorded with Iron & Oak 1.0 still verify after the 1.1 fixes (issue 9).

``fixtures/legacy/iron_oak-1.0/`` holds the bundled games exactly as the CLI recorded them with
ruleset version 1.0 (before the fixes against the seed). Their headers name that version, so the
ruleset re-runs them with 1.0's readings (``options.LEGACY_READINGS``, ``rules_version``): every
order is decided again and every event must come out the same.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from domain.engine import new_game
from domain.errors import RecordError
from domain.record import read_record_file, verify_record
from domain.ruleset import get_ruleset
from tests.helpers import FIXTURES

LEGACY = sorted((FIXTURES / "legacy" / "iron_oak-1.0").glob("*.wake.json"))


def test_the_legacy_corpus_is_there() -> None:
    assert len(LEGACY) >= 7
    assert get_ruleset("iron_oak").meta.version != "1.0"
    assert "1.0" in get_ruleset("iron_oak").meta.replays


@pytest.mark.parametrize("path", LEGACY, ids=[p.name for p in LEGACY])
def test_a_1_0_record_still_verifies(path: Path) -> None:
    record = read_record_file(path, strict=True)
    assert record.header.ruleset.version == "1.0"
    report = verify_record(record)
    assert report.events == len(record.events)


def test_a_version_the_ruleset_never_had_is_refused() -> None:
    record = read_record_file(LEGACY[0], strict=True)
    header = record.header.model_copy(
        update={"ruleset": record.header.ruleset.model_copy(update={"version": "0.9"})}
    )
    with pytest.raises(RecordError, match=r"recorded with iron_oak 0\.9"):
        new_game(header)
