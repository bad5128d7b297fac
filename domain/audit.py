"""Audit a stored game end to end: its orders, its dice, its digest chain and its snapshots.

Everyday reads trust the store: they start from the newest snapshot and fold the store's own rows
without re-checking them. An audit checks everything those reads take on trust. It exports the
game as a record and re-runs every order through the engine (the seed or the entered faces give
the same dice, the rules give the same events, the events chain to the same digests), then folds
the verified events and compares the state at every snapshot with the snapshot, and checks that
every annotation (withdrawn ones too) is bound to the game's chain. An umpire settling
a dispute over a game kept on a shared server runs this (``wake verify --game ID``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast
from uuid import UUID

from domain.aggregate import Game
from domain.annotations import binding_problem, chain_digests
from domain.engine import fold, new_game
from domain.errors import StoreError
from domain.record import VerifyReport, build_record, verify_record
from domain.store import GameStore


def audit_game(
    store: GameStore, game_id: str, progress: Callable[[int, int], Any] | None = None
) -> VerifyReport:
    """Re-run a stored game's orders and check each of its snapshots against its events.

    Raises:
        GameNotFound: no such game.
        RecordDivergence: the first stored event the engine does not reproduce.
        RecordError: a stored event that cannot be decoded or does not chain.
        StoreError: a snapshot that differs from the state its events lead to, or an
            annotation not bound to the game's chain (issue 14).
    """
    header, facts = store.facts(game_id)
    held = store.secret_seed(game_id)  # the store's own audit may use a sealed seed it keeps
    secret = held[0] if held is not None and header.dice.sealed else None
    report = verify_record(build_record(header, facts, secret), progress=progress)
    chain = chain_digests(header.genesis_digest(), [fact.digest for fact in facts])
    notes = [note for note, _ in store.annotation_history(game_id)]
    problem = binding_problem(notes, chain, [side.id for side in header.sides])
    if problem is not None:
        raise StoreError(f"game {game_id}: {problem}")
    if store.snapshots is None:
        return report
    snapshots = sorted(store.snapshots.get(UUID(game_id)), key=lambda snap: snap.originator_version)
    state, done = new_game(header), 0
    for snapshot in snapshots:
        upto = snapshot.originator_version - 1  # version 1 is the header; version n+1 is fact n
        state = fold(state, (fact.__dict__ for fact in facts[done:upto]), check=False)
        done = upto
        if cast(Game.Snapshot, snapshot).mutate(None).state != state:
            raise StoreError(
                f"game {game_id}: the snapshot after event {upto} differs from the state its "
                "events lead to (the snapshot was altered or written by other code); "
                "reads from that snapshot on are wrong"
            )
    return report
