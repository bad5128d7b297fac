"""Where the viewer's games come from: the store, a record file, or an uploaded record.

Uploaded files are untrusted: they go only through the record reader (plain JSON, schema, hash
chain); nothing in them is imported, unpickled or executed. Every problem becomes a ``LoadError``
with a message for the page, never a traceback.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from domain.engine import Fact
from domain.errors import WakeError
from domain.header import GameHeader
from domain.record import read_record
from domain.record.reader import MAX_RECORD_BYTES, read_bounded
from domain.store import GameStore, GameSummary

MAX_UPLOAD_BYTES = MAX_RECORD_BYTES


class LoadError(Exception):
    """A game could not be loaded; the message is meant for the user."""


@dataclass(frozen=True)
class LoadedGame:
    header: GameHeader
    facts: list[Fact]
    source: str  # "store" or the file name


def list_games(store_location: str | None) -> list[GameSummary]:
    """Summaries of every game in the store (newest last)."""
    try:
        store = GameStore(store_location)
        return [store.summary(gid) for gid in store.game_ids()]
    except WakeError as exc:
        raise LoadError(f"cannot read the store: {exc}") from exc


def from_store(store_location: str | None, game_id: str) -> LoadedGame:
    try:
        header, facts = GameStore(store_location).facts(game_id)
    except WakeError as exc:
        raise LoadError(str(exc)) from exc
    return LoadedGame(header, facts, "store")


def from_bytes(data: bytes, name: str) -> LoadedGame:
    """Read an uploaded or local record; raises LoadError with the reader's message."""
    if len(data) > MAX_UPLOAD_BYTES:
        raise LoadError(f"{name}: file too large ({len(data)} bytes; limit {MAX_UPLOAD_BYTES})")
    try:
        record = read_record(data, source=name)
    except WakeError as exc:
        raise LoadError(f"Not a valid Wake record: {exc}") from exc
    return LoadedGame(record.header, list(record.events), name)


def from_file(path: Path) -> LoadedGame:
    """Read a local record: a regular file within the size limit (a FIFO or a device is refused
    without being read), then as ``from_bytes``."""
    try:
        data = read_bounded(path, MAX_UPLOAD_BYTES)
    except WakeError as exc:
        raise LoadError(str(exc)) from exc
    return from_bytes(data, path.name)
