"""``wake show``, ``wake log`` and ``wake explain``: read a game at any event or turn.

``GAME`` is a stored game's id or a record file (``*.wake.json``, read and checked as ``wake
verify`` reads it, then replayed; nothing is stored), like ``wake rerun``, ``fork`` and
``report`` take it (issue 22 item 13).
"""

from __future__ import annotations

import json
from functools import cached_property
from pathlib import Path
from typing import Annotated

import typer

from domain.cli import render
from domain.cli.common import StoreOpt, check_side, errors
from domain.engine import Fact, GameState, apply_fact, new_game, replay
from domain.errors import NoSuchEvent
from domain.header import GameHeader
from domain.move_list import log_lines
from domain.read_model import redact_view
from domain.record import read_record_file
from domain.store import GameStore
from domain.variations import is_record_path

GameArg = Annotated[
    str, typer.Argument(metavar="GAME", help="a stored game's id, or a record file (*.wake.json)")
]


class GameSource:
    """A game to read: a stored game (its snapshots make any event quick) or a record file
    (read and checked once, replayed as asked).

    Raises (on creation):
        RecordError: the file is not a valid record.
        StoreError, GameNotFound: the store cannot be opened, or has no such game.
    """

    def __init__(self, game: str, store: str | None) -> None:
        self.name = game
        self.store: GameStore | None = None
        if is_record_path(game):
            record = read_record_file(Path(game))
            self._loaded: tuple[GameHeader, list[Fact]] | None = (
                record.header,
                list(record.events),
            )
        else:
            self.store = GameStore(store)
            self.store.header(game)  # GameNotFound names the store
            self._loaded = None

    @cached_property
    def _game(self) -> tuple[GameHeader, list[Fact]]:
        if self._loaded is not None:
            return self._loaded
        assert self.store is not None
        return self.store.facts(self.name)

    @property
    def header(self) -> GameHeader:
        return self._game[0]

    @property
    def facts(self) -> list[Fact]:
        return self._game[1]

    @property
    def events(self) -> int:
        """How many events the game has."""
        if self.store is not None and self._loaded is None:
            return self.store.summary(self.name).events
        return len(self.facts)

    def state(self, event: int | None = None) -> GameState:
        """The state after ``event`` (None: the last)."""
        if self.store is not None:
            return self.store.state(self.name, event)
        return replay(self.header, self.facts if event is None else self.facts[:event], check=False)


def _state_at(game: GameSource, event: int | None, turn: int | None) -> GameState:
    if turn is None:
        if event is not None:
            last = game.events
            if not 0 <= event <= last:
                raise NoSuchEvent(
                    f"--event takes 0..{last} (0 = the start, before any event), not {event}; "
                    f"`wake log {game.name}` lists the events"
                )
        return game.state(event)
    state = new_game(game.header)
    chosen = state
    for fact in game.facts:
        state = apply_fact(state, fact, check=False)
        t = state.ruleset.read_model(state.rules).turn
        if t == turn:
            chosen = state
        elif t > turn:
            break
    if chosen.seq == 0 and turn != 1:
        now = state.ruleset.read_model(state.rules).turn
        raise NoSuchEvent(f"the game never reached turn {turn} (it is in turn {now})")
    return chosen


def show(
    game: GameArg,
    event: Annotated[int | None, typer.Option(help="state after this event (0 = start)")] = None,
    turn: Annotated[int | None, typer.Option(help="state at the end of this turn")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="read model as JSON")] = False,
    as_side: Annotated[
        str | None, typer.Option("--as", help="as this side sees it (default: the umpire)")
    ] = None,
    store: StoreOpt = None,
) -> None:
    """Show the state at any event or turn (table or JSON)."""
    with errors():
        source = GameSource(game, store)
        state = _state_at(source, event, turn)
        check_side(state, as_side)
        view = redact_view(state.ruleset.read_model(state.rules), as_side)
    if as_json:
        body = {"game_id": state.header.game_id, "event": state.seq}
        typer.echo(json.dumps({**body, "view": view.model_dump(mode="json")}, indent=1))
    else:
        render.console().print(render.state_table(view, state.seq))


def log(
    game: GameArg,
    start_at: Annotated[int, typer.Option("--from", help="first event")] = 1,
    stop_at: Annotated[int | None, typer.Option("--to", help="last event")] = None,
    as_side: Annotated[
        str | None, typer.Option("--as", help="as this side sees it (default: the umpire)")
    ] = None,
    store: StoreOpt = None,
) -> None:
    """Print the log, one line an event (* marks automatic events), in players' words: the
    viewer's move list (``domain.move_list``); with ``--as SIDE`` hidden information (other
    players' hands, sealed choices) is redacted for that side."""
    with errors():
        source = GameSource(game, store)
        facts = source.facts
        check_side(new_game(source.header), as_side)
    for line in log_lines(source.header, facts, as_side, start_at, stop_at):
        typer.echo(line)


def _check_explainable(game: str, event: int, last: int) -> None:
    """Events are numbered from 1; 0 is the game's start (``show --event 0``), not an event."""
    listing = f"`wake log {game}` lists them (orders, rolls and what they caused)"
    if last == 0:
        raise NoSuchEvent(
            "the game has no events yet (no order has been given): there is nothing to explain"
        )
    if event == 0:
        raise NoSuchEvent(
            f"event 0 is the game's start, before any event, and has nothing to explain; "
            f"explain one of events 1..{last}: {listing}"
        )
    if not 1 <= event <= last:
        raise NoSuchEvent(f"the game has events 1..{last}, not {event}; {listing}")


def explain(game: GameArg, event: int, store: StoreOpt = None) -> None:
    """Explain one event: the order behind it, dice, modifiers with rule IDs, odds."""
    with errors():
        source = GameSource(game, store)
        facts = source.facts
        _check_explainable(game, event, len(facts))
        before = source.state(event - 1)
    for line in render.explain(before, facts, event - 1, source.state):
        typer.echo(line)
