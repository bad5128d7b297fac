"""PostgreSQL for tests: a reachable server, a throwaway schema per test.

Tests that need PostgreSQL skip with a clear reason when no server answers at ``WAKE_TEST_PG``
(default ``postgresql://postgres@127.0.0.1:5432/test``), unless ``WAKE_REQUIRE_POSTGRES=1``
(set by ``.ci/run``): then they fail instead.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

PG_BASE = os.environ.get("WAKE_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")


def pg_unavailable_reason() -> str | None:
    import psycopg

    try:
        with psycopg.connect(PG_BASE, connect_timeout=3):
            return None
    except psycopg.Error as exc:
        return f"no PostgreSQL server at {PG_BASE} ({str(exc).strip().splitlines()[0]})"


def require_pg() -> None:
    reason = pg_unavailable_reason()
    if reason is None:
        return
    if os.environ.get("WAKE_REQUIRE_POSTGRES") == "1":
        pytest.fail(f"WAKE_REQUIRE_POSTGRES=1 but {reason}")
    pytest.skip(reason)


@contextmanager
def pg_schema(locking: str = "none") -> Iterator[str]:
    """A store URL on a fresh schema, dropped afterwards."""
    import psycopg
    from psycopg import sql

    require_pg()
    schema = f"wake_test_{uuid.uuid4().hex[:12]}"
    try:
        yield f"{PG_BASE}?schema={schema}&locking={locking}"
    finally:
        with psycopg.connect(PG_BASE, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))
