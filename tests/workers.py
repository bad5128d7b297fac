"""Process entry points for concurrency tests (importable by spawned processes)."""

from __future__ import annotations

import time
from typing import Protocol

from domain.engine import CommandEnvelope
from domain.errors import WakeError
from domain.store import GameStore


class Barrier(Protocol):
    def wait(self, timeout: float | None = None) -> int: ...


#: When a worker starts its work: a wall-clock time, or a barrier shared by all the workers
#: (``multiprocessing.Manager().Barrier``), which holds however long imports take on a loaded
#: machine.
Start = float | Barrier


def wait_for_start(start: Start) -> None:
    """Hold until every worker is ready (a barrier) or until the given wall-clock time."""
    if isinstance(start, (int, float)):
        time.sleep(max(0.0, start - time.time()))
    else:
        start.wait(timeout=600)


def bot_writer(
    location: str, game_id: str, max_orders: int, start_at: Start = 0.0
) -> tuple[int, int, int]:
    """Give bot orders to one game through the store until it ends or ``max_orders`` landed.

    Every writer waits until ``start_at`` (a wall-clock time) so that they really overlap.

    Returns (orders appended, orders refused because another writer moved the game on first,
    write conflicts retried by the store).
    """
    store = GameStore(location)
    wait_for_start(start_at)
    done = refused = 0
    while done < max_orders:
        state = store.state(game_id)
        if state.result is not None:
            break
        ruleset = state.ruleset
        sides = ruleset.to_act(state.rules)
        if not sides:
            break
        command = ruleset.bot_command(state.rules, sides[0])
        if command is None:
            break
        envelope = CommandEnvelope(side=sides[0], command=command.model_dump(mode="json"))
        try:
            store.submit(game_id, envelope)
            done += 1
        except WakeError:
            refused += 1
    return done, refused, store.conflicts


def open_store(location: str, start_at: Start) -> int:
    """Open a store at ``start_at`` (so that several processes open it at once)."""
    wait_for_start(start_at)
    return len(GameStore(location).game_ids())


def cli_play(location: str, game_id: str, start_at: Start = 0.0) -> tuple[int, str, str]:
    """Run ``wake play GAME --bots`` at ``start_at``; returns (exit status, output, the repr of
    an exception that escaped the command, or "")."""
    from typer.testing import CliRunner

    from domain.cli.app import app

    wait_for_start(start_at)
    result = CliRunner().invoke(app, ["play", game_id, "--bots", "--store", location])
    escaped = result.exception
    leaked = "" if escaped is None or isinstance(escaped, SystemExit) else repr(escaped)
    return result.exit_code, result.output, leaked


def scribe_writer(
    location: str, game_id: str, max_orders: int, start_at: Start = 0.0
) -> tuple[int, int]:
    """A device at the table (issue 20): it reads the game, chooses an order (the bot's) on the
    position it shows, and gives it on that position (``domain.scribe.table.submit``); an
    order overtaken by another device is refused, never decided again.

    Returns (orders appended, orders refused because another device entered one first).
    """
    from domain.errors import OrderConflict
    from domain.scribe import table

    store = GameStore(location)
    wait_for_start(start_at)
    done = lost = 0
    while done < max_orders:
        state = store.state(game_id)
        if state.result is not None:
            break
        ruleset = state.ruleset
        sides = ruleset.to_act(state.rules)
        command = ruleset.bot_command(state.rules, sides[0]) if sides else None
        if command is None:
            break
        try:
            table.submit(store, game_id, sides[0], command.model_dump(mode="json"), state.seq)
            done += 1
        except OrderConflict:
            lost += 1
    return done, lost
