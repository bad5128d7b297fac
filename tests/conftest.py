"""Fixtures shared by the store tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.pg import pg_schema


@pytest.fixture(params=["sqlite", "postgres"])
def location(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh store location: an SQLite file, then a throwaway schema on a real PostgreSQL."""
    if request.param == "sqlite":
        yield str(tmp_path / "store.sqlite3")
        return
    with pg_schema() as url:
        yield url
