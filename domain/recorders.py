"""Recorders that hand back one game's rows lean: each row's topic and JSON state, nothing else.

The library's ``select_events`` builds a ``StoredEvent`` per row (and a UUID for its originator),
and the mapper then rebuilds a library event per row. Rebuilding a game needs only each row's topic
and state; at 10,000 rows those objects cost as much as the query and the JSON decoding together.
``select_rows`` is the one method the store's read path adds to the library's recorders; it is
read-only and takes the same versions as ``select_events`` (after ``gt``, up to ``lte``).
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable
from uuid import UUID

from eventsourcing.postgres import PostgresApplicationRecorder
from eventsourcing.sqlite import SQLiteApplicationRecorder

Row = tuple[str, bytes]


@runtime_checkable
class LeanRows(Protocol):
    """A recorder that can list one originator's (topic, state) rows in version order."""

    def select_rows(self, originator_id: UUID, *, gt: int = 0, lte: int | None = None) -> list[Row]:
        """Rows with ``gt < version <= lte`` (no upper bound when ``lte`` is None)."""
        ...


class GamesSQLiteRecorder(SQLiteApplicationRecorder):
    """The library's SQLite application recorder plus ``select_rows``."""

    def select_rows(self, originator_id: UUID, *, gt: int = 0, lte: int | None = None) -> list[Row]:
        statement = (
            f"SELECT topic, state FROM {self.events_table_name} "
            "WHERE originator_id=? AND originator_version>? "
        )
        params: list[Any] = [originator_id.hex, gt]
        if lte is not None:
            statement += "AND originator_version<=? "
            params.append(lte)
        statement += "ORDER BY originator_version"
        with self.datastore.transaction(commit=False) as cursor:
            cursor.execute(statement, params)
            return [(row[0], row[1]) for row in cursor.fetchall()]


class PostgresLeanRows(PostgresApplicationRecorder):
    """The library's PostgreSQL application recorder plus ``select_rows`` (table lock kept)."""

    def select_rows(self, originator_id: UUID, *, gt: int = 0, lte: int | None = None) -> list[Row]:
        from psycopg.rows import tuple_row
        from psycopg.sql import SQL, Composed, Identifier

        statement: SQL | Composed = SQL(
            "SELECT topic, state FROM {schema}.{table} "
            "WHERE originator_id = %s AND originator_version > %s"
        ).format(
            schema=Identifier(self.datastore.schema),
            table=Identifier(self.events_table_name),
        )
        params: list[Any] = [originator_id, gt]
        if lte is not None:
            statement += SQL(" AND originator_version <= %s")
            params.append(lte)
        statement += SQL(" ORDER BY originator_version")
        with self.datastore.get_connection() as conn, conn.cursor(row_factory=tuple_row) as curs:
            curs.execute(statement, params, prepare=True)
            return [(topic, bytes(state)) for topic, state in curs.fetchall()]
