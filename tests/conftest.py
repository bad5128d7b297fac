"""Fixtures shared by the tests, and the clock they run under.

Every order of a format-2 game is stamped with the time it is given (``domain.clock``), so two
plays of the same seeded game differ in their times. The tests compare such plays (determinism,
live = store = replay), so they run, like ``make fixtures``, with ``SOURCE_DATE_EPOCH`` set (it
reaches the CLI's subprocesses too); tests/test_record_v2.py unsets it to check the real clock.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.pg import pg_schema

#: The instant every order of the test suite is stamped with (2026-11-25T00:00:00Z).
FIXED_EPOCH = "1795564800"
os.environ["SOURCE_DATE_EPOCH"] = FIXED_EPOCH
#: No test reads the user's own trusted keys (issue 23 item 7): an empty keyring unless a test
#: gives its own (``--keyring``, or ``WAKE_KEYRING`` set by the test).
os.environ["WAKE_KEYRING"] = str(Path(__file__).resolve().parent / "no-such-keyring.json")


@pytest.fixture(params=["sqlite", "postgres"])
def location(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh store location: an SQLite file, then a throwaway schema on a real PostgreSQL."""
    if request.param == "sqlite":
        yield str(tmp_path / "store.sqlite3")
        return
    with pg_schema() as url:
        yield url
