"""Where the viewer's games come from: the store, a record file, or an uploaded record.

Uploaded files are untrusted: they go only through the record reader (plain JSON, schema, hash
chain); nothing in them is imported, unpickled or executed. Every problem becomes a ``LoadError``
with a message for the page, never a traceback.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Generic, TypeVar

from domain.analysis.model import Analysis
from domain.annotations import Annotation
from domain.engine import Fact
from domain.errors import RecordDivergence, WakeError
from domain.header import GameHeader
from domain.record import Record, build_record, read_record, verify_record
from domain.record.reader import MAX_RECORD_BYTES, read_bounded
from domain.record.signing import SignatureCheck, check_signatures
from domain.seed_commit import SeedSecret
from domain.store import GameStore, GameSummary

MAX_UPLOAD_BYTES = MAX_RECORD_BYTES
T = TypeVar("T")


class LoadError(Exception):
    """A game could not be loaded; the message is meant for the user."""


@dataclass(frozen=True)
class LoadedGame:
    header: GameHeader
    facts: list[Fact]
    source: str  # "store" or the file name
    signatures: tuple[SignatureCheck, ...] = field(default=())  # a record's, checked
    seed_reveal: SeedSecret | None = None  # a sealed seed, once revealed (checked on reading)
    # a stored live game's sealed seed: used to re-run it here, never shown or exported
    store_seed: SeedSecret | None = field(default=None, repr=False)
    annotations: tuple[Annotation, ...] = ()  # standing ones: the store's, or the record's
    analysis: Analysis | None = None  # a record's analysis section (issue 24; the store's apart)
    variations: tuple[Record, ...] = ()  # a record's other lines of play (take-backs, forks)


@dataclass(frozen=True)
class Trust:
    """Whether what the viewer shows is what the engine produces: the game re-run, and the
    signatures a record carries checked. ``lines`` are plain text (record text included)."""

    verified: bool
    summary: str
    signatures: tuple[SignatureCheck, ...] = ()

    @property
    def genuine(self) -> bool:
        """Re-run to the same events, and no signature that fails."""
        return self.verified and all(s.valid for s in self.signatures)


def check_game(game: LoadedGame) -> Trust:
    """Re-run ``game``'s orders through the engine and compare every event (as ``wake verify``);
    never raises."""
    sigs = game.signatures
    try:
        seed = game.seed_reveal or game.store_seed
        verify_record(build_record(game.header, game.facts, seed))
    except RecordDivergence as exc:
        seq = getattr(exc, "seq", None)
        reason = exc.message.splitlines()[0].rstrip(":")
        where = f"first bad event {seq}" if seq else "does not re-run"
        return Trust(False, f"NOT verified: {where} - {reason}", sigs)
    except WakeError as exc:
        return Trust(False, f"NOT verified: {exc.message.splitlines()[0]}", sigs)
    except Exception as exc:  # a bug in a ruleset must not make a game look genuine
        return Trust(False, f"NOT verified: the re-run failed ({type(exc).__name__})", sigs)
    if game.seed_reveal is None and game.store_seed is not None:
        return Trust(
            True,
            "verified: every order re-run gives the recorded events (with the dice seed the "
            "store keeps sealed until the game ends)",
            sigs,
        )
    return Trust(True, "verified: every order re-run gives the recorded events", sigs)


class ByVersion(Generic[T]):
    """What was built from a stored game, kept while the game's stream stays at the version it
    was built from (``GameStore.version``: streams only grow), the ``size`` most recent.
    Opening a game (issue 21 item 12) read and checked every stored game to list them, and
    every fact of the game shown, again at every page run."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._kept: OrderedDict[tuple[str, str, int], T] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, store: GameStore, game_id: str, build: Callable[[], T]) -> T:
        """``build()``'s answer for the game at its current version: kept, or built now (and
        kept only if no fact was appended while it was built)."""
        key = (store.location, game_id, store.version(game_id))
        with self._lock:
            if key in self._kept:
                self._kept.move_to_end(key)
                return self._kept[key]
        value = build()
        if store.version(game_id) == key[2]:
            with self._lock:
                self._kept[key] = value
                while len(self._kept) > self._size:
                    self._kept.popitem(last=False)
        return value


_SUMMARIES: ByVersion[GameSummary] = ByVersion(1024)
_FACTS: ByVersion[tuple[GameHeader, list[Fact]]] = ByVersion(16)


def list_games(store_location: str | None) -> list[GameSummary]:
    """Summaries of every game in the store (newest last)."""
    try:
        store = GameStore(store_location)
        return [_SUMMARIES.get(store, gid, partial(store.summary, gid)) for gid in store.game_ids()]
    except WakeError as exc:
        raise LoadError(f"cannot read the store: {exc}") from exc


def from_store(store_location: str | None, game_id: str) -> LoadedGame:
    try:
        store = GameStore(store_location)
        # the facts as checked when first read at this version (the annotations, signatures
        # and seed live in streams of their own, read below every time)
        header, facts = _FACTS.get(store, game_id, lambda: store.facts(game_id))
        reveal = private = None
        if header.dice.sealed:
            reveal = store.public_reveal(game_id, store.state(game_id))
            held = store.secret_seed(game_id)
            private = held[0] if held is not None else None
        kept = store.signatures(game_id)
        checks = (  # a record built only to check signatures, when there are some
            tuple(check_signatures(build_record(header, facts, signatures=kept))) if kept else ()
        )
        notes = tuple(store.annotations(game_id))
    except WakeError as exc:
        raise LoadError(str(exc)) from exc
    return LoadedGame(
        header,
        facts,
        "store",
        checks,
        seed_reveal=reveal,
        store_seed=private,
        annotations=notes,
    )


def from_bytes(data: bytes, name: str) -> LoadedGame:
    """Read an uploaded or local record; raises LoadError with the reader's message."""
    if len(data) > MAX_UPLOAD_BYTES:
        raise LoadError(f"{name}: file too large ({len(data)} bytes; limit {MAX_UPLOAD_BYTES})")
    try:
        record = read_record(data, source=name)
    except WakeError as exc:
        raise LoadError(f"Not a valid Wake record: {exc}") from exc
    return LoadedGame(
        record.header,
        list(record.events),
        name,
        tuple(check_signatures(record)),
        record.seed_reveal,
        annotations=tuple(record.annotations or ()),
        analysis=record.analysis,
        variations=tuple(record.variations or ()),
    )


def from_file(path: Path) -> LoadedGame:
    """Read a local record: a regular file within the size limit (a FIFO or a device is refused
    without being read), then as ``from_bytes``."""
    try:
        data = read_bounded(path, MAX_UPLOAD_BYTES)
    except WakeError as exc:
        raise LoadError(str(exc)) from exc
    return from_bytes(data, path.name)
