"""The Iron & Oak sequence of play (IO-3, IO-9.3): the steps of a turn, who acts, moving on.

A turn is a list of steps ``(phase, side)``. Standard play (IO-3.0): the first player's Status,
Order, Action (movement segment, gunnery segment) and Card Exchange, then the second player's,
then the Victory Phase. Alternating play (IO-9.3): both sides' Status (each side's checks are
independent, level-5 fires first, IO-9.3.1), both sides' orders (IO-9.3.2), one movement segment
executing the order cards in number order (IO-9.3.3), each side's gunnery, the exchanges first
player first (IO-9.3.4), the Victory Phase. The game opens with the deal (IO-3.4).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from domain.events import DomainEvent
from domain.rulesets.iron_oak.basics import Side
from domain.rulesets.iron_oak.state import IronOakState
from domain.rulesets.iron_oak.turn_events import GunfireMarkers, StepBegan

Step = tuple[str, Side | None]
SIDES: tuple[Side, Side] = ("CSA", "USA")


def other(side: Side) -> Side:
    return "USA" if side == "CSA" else "CSA"


def order_of_play(state: IronOakState) -> tuple[Side, Side]:
    first = state.scenario.first_player
    return first, other(first)


def steps(state: IronOakState, turn: int | None = None) -> list[Step]:
    """The steps of ``turn`` (default: the current one)."""
    turn = state.turn if turn is None else turn
    first, second = order_of_play(state)
    opening: list[Step] = [("setup", None)] if turn == 1 else []
    if state.options.mode == "alternating":
        body: list[Step] = [
            ("status", first),
            ("status", second),
            ("orders", first),
            ("orders", second),
            ("movement", None),
            ("gunnery", first),
            ("gunnery", second),
            ("exchange", first),
            ("exchange", second),
        ]
    else:
        body = [
            (phase, side)
            for side in (first, second)
            for phase in ("status", "orders", "movement", "gunnery", "exchange")
        ]
    return [*opening, *body, ("victory", None)]


def controller(state: IronOakState, unit: str) -> Side:
    """The side that gives a unit its orders: a captured ship obeys its captor (IO-6.2.3I)."""
    if unit in state.ships:
        ship = state.ships[unit]
        return ship.captured_by or ship.side
    return state.sections[unit].side


def under_command(state: IronOakState, side: Side) -> list[str]:
    """Ships that get an order card (IO-3.2): afloat, on the map or waiting off it to enter."""
    return [s.id for s in state.ships.values() if s.afloat and controller(state, s.id) == side]


def next_numbered(state: IronOakState) -> str | None:
    """IO-9.3.3: the ship whose order card has the lowest number not yet carried out."""
    waiting = [
        (o.number, ship)
        for ship, o in state.orders.items()
        if ship not in state.done and state.ships[ship].afloat
    ]
    return min(waiting)[1] if waiting else None


def movers_left(state: IronOakState) -> list[str]:
    """Ships with an order card still to carry out in this movement segment."""
    side = state.active
    return [
        ship
        for ship in state.orders
        if ship not in state.done
        and state.ships[ship].afloat
        and (side is None or controller(state, ship) == side)
    ]


def to_act(state: IronOakState) -> list[Side | None]:
    """Who gives the next order (``None``: a system step)."""
    if state.result is not None:
        return []
    if state.awaiting is not None:  # IO-6.3.4: the target's side chooses a Collateral location
        return [state.awaiting.side]
    phase, side = state.phase, state.active
    if phase in ("setup", "victory"):
        return [None]
    if phase == "movement":
        if state.pending_move is not None:
            return [other(controller(state, state.pending_move.ship))]
        if state.options.mode == "alternating":
            ship = next_numbered(state)
            return [controller(state, ship)] if ship else [None]
        return [side]
    if phase == "gunnery" and state.fire_declared:
        assert side is not None
        return [other(side)]
    return [side]


def skip(state: IronOakState, step: Step) -> bool:
    """Steps with no decision to make are passed over: a movement segment with no order card,
    an exchange the side may not make (IO-3.4: a card used this turn, or half the initial hand
    already exchanged, or an empty hand)."""
    phase, side = step
    if phase == "movement":
        return not any(
            s not in state.done and (side is None or controller(state, s) == side)
            for s in state.orders
        )
    if phase == "exchange" and side is not None:
        return not may_exchange(state, side)
    return False


def may_exchange(state: IronOakState, side: Side) -> bool:
    """IO-3.4: no action card used this turn, fewer than half the initial hand exchanged."""
    half = state.data.tables.initial_hand / 2
    return (
        side not in state.cards_used
        and len(state.exchanged.get(side, ())) < half
        and bool(state.hands.get(side))
    )


def advance(
    state: IronOakState,
    events: Sequence[DomainEvent],
    fold: Callable[[IronOakState, DomainEvent], IronOakState],
) -> list[DomainEvent]:
    """The events that close the current step and open the next one that needs a decision.

    ``events`` are this command's events so far; ``fold`` applies one event.
    """
    scratch = state
    for event in events:
        scratch = fold(scratch, event)
    out: list[DomainEvent] = []
    turn, index = scratch.turn, scratch.step
    while True:
        index += 1
        plan = steps(scratch, turn)
        if index >= len(plan):  # pragma: no cover - the victory step ends every turn
            turn, index = turn + 1, 0
            plan = steps(scratch, turn)
        phase, side = plan[index]
        began = StepBegan(turn=turn, step=index, phase=phase, side=side)
        scratch = fold(scratch, began)
        out.append(began)
        if phase == "gunnery" and side is not None and scratch.scenario.night:
            own = [u for u in scratch.gunfire if _owner(scratch, u) == side]
            if own:  # IO-3.3.2 A: the side's Gunfire markers come off
                removed = GunfireMarkers(units=own, placed=False)
                scratch = fold(scratch, removed)
                out.append(removed)
        if not skip(scratch, (phase, side)):
            return out


def _owner(state: IronOakState, unit: str) -> Side:
    return controller(state, unit)
