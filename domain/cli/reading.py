"""``wake show``, ``wake log`` and ``wake explain``: read a game at any event or turn."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from domain.cli import render
from domain.cli.common import StoreOpt, check_side, errors
from domain.engine import GameState, apply_fact, new_game
from domain.errors import NoSuchEvent
from domain.read_model import redact_view
from domain.store import GameStore


def _state_at(st: GameStore, game_id: str, event: int | None, turn: int | None) -> GameState:
    if turn is None:
        if event is not None:
            last = st.summary(game_id).events
            if not 0 <= event <= last:
                raise NoSuchEvent(
                    f"--event takes 0..{last} (0 = the start, before any event), not {event}; "
                    f"`wake log {game_id}` lists the events"
                )
        return st.state(game_id, event)
    header, facts = st.facts(game_id)
    state = new_game(header)
    chosen = state
    for fact in facts:
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
    game_id: str,
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
        st = GameStore(store)
        state = _state_at(st, game_id, event, turn)
        check_side(state, as_side)
        view = redact_view(state.ruleset.read_model(state.rules), as_side)
    if as_json:
        typer.echo(
            json.dumps(
                {"game_id": game_id, "event": state.seq, "view": view.model_dump(mode="json")},
                indent=1,
            )
        )
    else:
        render.console().print(render.state_table(view, state.seq))


def log(
    game_id: str,
    start_at: Annotated[int, typer.Option("--from", help="first event")] = 1,
    stop_at: Annotated[int | None, typer.Option("--to", help="last event")] = None,
    as_side: Annotated[
        str | None, typer.Option("--as", help="as this side sees it (default: the umpire)")
    ] = None,
    store: StoreOpt = None,
) -> None:
    """Print the log, one line an event (* marks automatic events); with ``--as SIDE`` hidden
    information (other players' hands, sealed choices) is redacted for that side."""
    with errors():
        header, facts = GameStore(store).facts(game_id)
        state = new_game(header)
        check_side(state, as_side)
    for fact in facts:
        if start_at <= fact.seq and (stop_at is None or fact.seq <= stop_at):
            typer.echo(render.log_line(state, fact, as_side))
        state = apply_fact(state, fact, check=False)


def _check_explainable(game_id: str, event: int, last: int) -> None:
    """Events are numbered from 1; 0 is the game's start (``show --event 0``), not an event."""
    listing = f"`wake log {game_id}` lists them (orders, rolls and what they caused)"
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


def explain(game_id: str, event: int, store: StoreOpt = None) -> None:
    """Explain one event: the order behind it, dice, modifiers with rule IDs, odds."""
    with errors():
        st = GameStore(store)
        _, facts = st.facts(game_id)
        _check_explainable(game_id, event, len(facts))
        before = st.state(game_id, event - 1)
    for line in render.explain(before, facts, event - 1):
        typer.echo(line)
