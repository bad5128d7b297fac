"""PostgreSQL settings for the game store: URL parsing and a recorder without global locks.

eventsourcing's PostgreSQL application recorder takes an EXCLUSIVE lock on the events table and
issues NOTIFY in every insert transaction, so that notification ids are committed in order for
readers tailing the log. Both serialise every writer, even writers to different games. Wake reads
the notification log only to enumerate games (a gap-tolerant query), never as an ordered feed, so
``GamesRecorder`` drops the table lock and the NOTIFY. Writers to the same game are still kept
apart by the unique (game, version) key: the loser gets an IntegrityError and retries on fresh
state. ``?locking=table`` in the store URL restores the library's behaviour. Both recorders
read rows lean (``domain.recorders``).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import parse_qs, unquote, urlparse

from eventsourcing.utils import get_topic

from domain.errors import StoreError
from domain.recorders import PostgresLeanRows

DEFAULT_SCHEMA = "public"


class GamesRecorder(PostgresLeanRows):
    """Application recorder without the table lock and NOTIFY (see module docstring)."""

    def _lock_table(self, curs: Any) -> None:
        return None

    def _notify_channel(self, curs: Any) -> None:
        return None


def is_postgres(location: str) -> bool:
    return location.startswith(("postgres://", "postgresql://"))


def postgres_env(location: str) -> dict[str, str]:
    """eventsourcing environment for ``postgresql://user[:pw]@host[:port]/db[?schema=&...]``.

    Query options: ``schema`` (default public), ``pool_size``, ``locking`` (``none`` default,
    or ``table`` for the library's table lock).

    Raises:
        StoreError: the URL lacks a database or has an unknown option.
    """
    url = urlparse(location)
    dbname = unquote(url.path.lstrip("/"))
    if not dbname:
        raise StoreError(f"PostgreSQL URL needs a database name: {location!r}")
    options = {k: v[-1] for k, v in parse_qs(url.query).items()}
    unknown = set(options) - {"schema", "pool_size", "locking"}
    if unknown:
        raise StoreError(f"unknown PostgreSQL store option(s): {', '.join(sorted(unknown))}")
    locking = options.get("locking", "none")
    if locking not in ("none", "table"):
        raise StoreError("locking must be 'none' or 'table'")
    env = {
        "PERSISTENCE_MODULE": "eventsourcing.postgres",
        "POSTGRES_DBNAME": dbname,
        "POSTGRES_HOST": url.hostname or "127.0.0.1",
        "POSTGRES_PORT": str(url.port or 5432),
        "POSTGRES_USER": unquote(url.username or "postgres"),
        "POSTGRES_PASSWORD": unquote(url.password or ""),
        "POSTGRES_SCHEMA": options.get("schema", DEFAULT_SCHEMA),
        "POSTGRES_POOL_SIZE": options.get("pool_size", "5"),
        "POSTGRES_CONNECT_TIMEOUT": "10",
        "POSTGRES_LOCK_TIMEOUT": "10",
    }
    recorder = GamesRecorder if locking == "none" else PostgresLeanRows
    env["APPLICATION_RECORDER_TOPIC"] = get_topic(recorder)
    return env


@contextmanager
def setup_lock(env: dict[str, str]) -> Iterator[None]:
    """Create the schema and hold a session advisory lock per schema while the store creates
    its tables.

    The library runs CREATE ... IF NOT EXISTS and CREATE OR REPLACE FUNCTION when a store
    opens; two processes doing that at once make PostgreSQL fail with "tuple concurrently
    updated". The lock makes them take turns.

    Raises:
        StoreError: the server cannot be reached.
    """
    import psycopg
    from psycopg import sql

    try:
        conn = psycopg.connect(**_connect_args(env), autocommit=True)
    except psycopg.Error as exc:
        raise StoreError(f"cannot use PostgreSQL store: {exc}") from exc
    with conn:
        key = f"wake-setup:{env['POSTGRES_SCHEMA']}"
        conn.execute("SELECT pg_advisory_lock(hashtext(%s))", (key,))
        try:
            conn.execute(
                sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(
                    sql.Identifier(env["POSTGRES_SCHEMA"])
                )
            )
            yield
        finally:
            conn.execute("SELECT pg_advisory_unlock(hashtext(%s))", (key,))


def _connect_args(env: dict[str, str]) -> dict[str, Any]:
    return {
        "dbname": env["POSTGRES_DBNAME"],
        "host": env["POSTGRES_HOST"],
        "port": int(env["POSTGRES_PORT"]),
        "user": env["POSTGRES_USER"],
        "password": env["POSTGRES_PASSWORD"] or None,
        "connect_timeout": 10,
    }
