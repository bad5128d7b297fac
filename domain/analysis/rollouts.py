"""One rollout: the bots play a position to its end on the fast path, with seeded dice.

A rollout's dice are derived from the game, the rollout's index and the position's dice position
(:func:`rollout_seed`), so a rollout gives the same outcome whatever runs it and in whatever
order: one process, a pool or a Dask cluster. Work travels as :class:`Batch`es of a
few rollouts of one position; a worker rebuilds the position from the game's facts once and
keeps it (:func:`position`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from domain.dice import SeededDice
from domain.engine import Fact, GameState, fold, new_game
from domain.fastplay import FastGame, play_out
from domain.header import GameHeader

SEED_SCHEME = "wake-analysis/1 (game, index)"
"""Names how seeds are derived; part of every stored result (a new scheme, new numbers)."""
Start = Literal["position", "order"]
"""``position``: the bots play from the position; ``order``: the order that was given is
replayed first (with the rollout's dice), then the bots play."""
UNFINISHED = "unfinished"
DRAW = "draw"
MAX_ROLLOUT_ORDERS = 20_000
"""A rollout still going after this many orders is counted as unfinished."""


def rollout_seed(game_id: str, index: int) -> int:
    """The seed of rollout ``index`` of ``game_id``: 48 bits of SHA-256 (a safe integer
    everywhere the seed is written down).

    Rollout ``index`` throws the same dice at every point (common random numbers): die n of a
    rollout is a function of the game, the index and n, and a point's dice start where the game's
    were. So the rollouts before an order, with it replayed, and after it differ only by what
    the positions differ by: an order that throws no dice has no luck, and an order the bots
    would have given themselves has no decision, exactly rather than within the noise."""
    text = f"{SEED_SCHEME}:{game_id}:{index}".encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:6], "big")


@dataclass(frozen=True)
class Game:
    """What a worker needs to rebuild any position: the header and the facts (sent once to
    each worker by the runner)."""

    header: GameHeader
    facts: tuple[Fact, ...]


@dataclass(frozen=True)
class Batch:
    """Rollouts ``first .. first + count - 1`` from the position after event ``seq``; with
    ``start="order"`` the order (``side``, ``command``) is replayed first."""

    seq: int
    start: Start
    first: int
    count: int
    side: str | None = None
    command: dict[str, Any] | None = None


_POSITIONS: dict[tuple[str, int], GameState] = {}
_POSITION_LIMIT = 256


def position(game: Game, seq: int) -> GameState:
    """The umpire's state after event ``seq`` (everything seen: rollouts play on the real
    position, hidden information included), kept per worker and folded on from the nearest
    position kept before it (the digest names a position with everything before it)."""
    key = _key(game, seq)
    found = _POSITIONS.get(key)
    if found is None:
        base = new_game(game.header)
        for (digest, at), state in _POSITIONS.items():
            if base.seq < at <= seq and _key(game, at)[0] == digest:
                base = state
        found = fold(base, (f.__dict__ for f in game.facts[base.seq : seq]), check=False)
        if len(_POSITIONS) >= _POSITION_LIMIT:
            _POSITIONS.clear()
        _POSITIONS[key] = found
    return found


def _key(game: Game, seq: int) -> tuple[str, int]:
    return (game.facts[seq - 1].digest if seq else game.header.genesis_digest(), seq)


def outcome(game: FastGame) -> str:
    """The side that won, ``draw``, or ``unfinished``."""
    if game.result is None:
        return UNFINISHED
    return game.result.winner or DRAW


def rollout(state: GameState, seed: int, order: tuple[str | None, dict[str, Any]] | None) -> str:
    """One rollout from ``state``: the order replayed first if given, then the bots to the end.

    Raises:
        WakeError: the order is refused in this position (it is not the game's).
    """
    game = FastGame.from_state(state)
    if order is not None:
        side, command = order
        parsed = game.ruleset.parse_command(command)
        game.apply(side, parsed, SeededDice(seed, start=game.dice_position))
    play_out(game, seed, max_orders=MAX_ROLLOUT_ORDERS)
    return outcome(game)


def run_batch(game: Game, batch: Batch) -> tuple[Batch, list[str]]:
    """The outcomes of a batch's rollouts, in index order (the task a worker runs)."""
    state = position(game, batch.seq)
    order = (batch.side, batch.command) if batch.start == "order" and batch.command else None
    game_id = game.header.game_id
    outcomes = [
        rollout(state, rollout_seed(game_id, i), order)
        for i in range(batch.first, batch.first + batch.count)
    ]
    return batch, outcomes


def batches(
    seq: int,
    start: Start,
    rollouts: int,
    size: int,
    *,
    side: str | None = None,
    command: dict[str, Any] | None = None,
    skip: Sequence[int] = (),
) -> list[Batch]:
    """``rollouts`` rollouts from one position cut into batches of ``size``."""
    return [
        Batch(seq, start, first, min(size, rollouts - first), side, command)
        for first in range(0, rollouts, size)
        if first not in skip
    ]
