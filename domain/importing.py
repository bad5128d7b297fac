"""Storing a record from outside: the one path by which a record file, an upload or a bundled game
gets into the store (``wake import``, the viewer's "Keep it in the store", ``wake demo``), with
the variations it carries (lines taken back at a table, forks: each verified before any is stored).

Nothing unverified is stored (issue 23 item 2): every order is re-run and every event compared
(``verify_record``) and a sample of an analysis section re-run before anything is written, and the
store then checks the chain, signatures and annotations again in the transaction that writes the
game. ``GameStore.import_game`` itself is for facts this process's engine has just decided (a
fork, a rerun saved as a variation, a simulation); a record from outside goes through here.
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.errors import GameNotFound, RecordError
from domain.record.model import Record
from domain.record.verify import VerifyReport, verify_record
from domain.store import GameStore

RECHECK_SAMPLE = 2
"""Estimates an import re-runs from a record's analysis section."""


def check_analysis(record: Record) -> None:
    """Re-run a sample of a record's analysis (in this process) before it is imported.

    Raises:
        RecordError: the analysis does not fit the game or does not re-run (forged or stale).
    """
    from domain.analysis.run import recheck
    from domain.distributed import InProcess

    if record.analysis is None:
        return
    problem = recheck(record.header, record.events, record.analysis, RECHECK_SAMPLE, InProcess())
    if problem is not None:
        raise RecordError(f"the record's analysis section is refused: {problem}")


def import_record(store: GameStore, record: Record) -> VerifyReport:
    """Verify ``record`` as ``wake verify`` does, then store it with its signatures,
    annotations and analysis. Returns the verification's report.

    Raises:
        RecordDivergence: an event differs on re-run, or an order is now refused; nothing is
            stored.
        SealedSeed: the seed is committed and not revealed, so the dice cannot be checked;
            nothing is stored.
        RecordError, SignatureError, AnnotationError, StoreError: as ``GameStore.import_game``
            (a bad analysis section too); nothing is stored.
    """
    from domain.analysis.stored import save_analysis

    report = verify_record(record)  # and every variation it carries
    check_analysis(record)
    for line in record.variations or ():
        check_analysis(line)
    _store_one(store, record)
    for line in _parents_first(record.variations or ()):
        if not _stored(store, line.header.game_id):  # a line this store already holds is kept
            _store_one(store, line)
    if record.analysis is not None:
        save_analysis(store, record.header.game_id, record.analysis)
    for line in record.variations or ():
        if line.analysis is not None:
            save_analysis(store, line.header.game_id, line.analysis)
    return report


def _store_one(store: GameStore, record: Record) -> None:
    store.import_game(
        record.header,
        record.events,
        record.seed_reveal,
        record.signatures or (),
        annotations=record.annotations or (),
    )


def _stored(store: GameStore, game_id: str) -> bool:
    try:
        store.header(game_id)
    except GameNotFound:
        return False
    return True


def _parents_first(lines: Sequence[Record]) -> list[Record]:
    """The variations ordered so that a line comes after its parent when both are listed."""
    ids = {line.header.game_id for line in lines}
    done: set[str] = set()
    ordered: list[Record] = []
    todo = list(lines)
    while todo:
        ready = [
            line
            for line in todo
            if line.header.parent is None
            or line.header.parent.game_id not in ids
            or line.header.parent.game_id in done
        ] or todo[:1]  # a cycle cannot be stored by parents anyway: keep the file's order
        for line in ready:
            todo.remove(line)
            done.add(line.header.game_id)
            ordered.append(line)
    return ordered
