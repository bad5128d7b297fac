"""Unfoul (IO-4.4, the "Status Changed & Orders" table): a fouled ship's attempt to get free,
and the drift check of its first Order Phase fouled with another movable ship."""

from __future__ import annotations

from collections.abc import Collection

from domain.chance import opposed_roll
from domain.dice import DiceSource, Modifier
from domain.errors import IllegalCommand
from domain.events import DomainEvent
from domain.rulesets.iron_oak import movement
from domain.rulesets.iron_oak.drift import drift_events
from domain.rulesets.iron_oak.events import UnfoulAttempted
from domain.rulesets.iron_oak.maneuvers import named_ship, on_map_cell, other_side, side_of
from domain.rulesets.iron_oak.state import (
    IronOakState,
    ShipState,
)

# IO-4.4: the "Status Changed & Orders" table's unfoul roll
UNFOUL = ("d10", "d10d4")

UNFOUL_HEAVY_OBSTRUCTION = -2


def unfoul(
    state: IronOakState,
    ship: str,
    dice: DiceSource,
    first_order_fouled_with_movable: bool,
) -> list[DomainEvent]:
    """IO-4.4: d10 (−2 when fouled with a heavy obstruction) vs d10d4.

    Success removes the Fouled marker: every foul of the ship, and this ship from the other
    ship of a ship-ship foul. On failure, when the caller says this is the first Order Phase in
    which the ship is fouled (``first_order_fouled_with_movable``; the turn's Order Phase is its
    first fouled with another movable ship, ``IronOakState.fouled_since``, not its first unfoul
    attempt as 1.0 had it), it checks drift (IO-5.2) at once, but only if it is fouled with
    another ship that can move (IO-4.4 "他の移動可能な船"):
    at least one fouled partner ship afloat, not anchored, aground or fouled with an obstacle,
    and powered; and only if the ship itself is not immobile (IO-4.0). Immobile partners do not
    drift with it (:func:`drift`).

    Raises:
        IllegalCommand: IO-4.4 (no such ship, not afloat on the map, not fouled).
    """
    s = named_ship(state, ship, "IO-4.4")
    on_map_cell(s, "IO-4.4")
    if not s.fouled_with:
        raise IllegalCommand(f"{ship} is not fouled", rule="IO-4.4")
    mods = (
        [Modifier(UNFOUL_HEAVY_OBSTRUCTION, "IO-4.4", "heavy obstruction")]
        if "heavy_obstruction" in s.fouled_with
        else []
    )
    roll = opposed_roll(
        dice,
        actor=UNFOUL[0],
        opponent=UNFOUL[1],
        side=side_of(s),
        opponent_side=other_side(side_of(s)),
        purpose="unfoul",
        rule="IO-4.4",
        subject=ship,
        actor_modifiers=mods,
    )
    success = bool(roll.success)
    events: list[DomainEvent] = [roll, UnfoulAttempted(ship=ship, success=success)]
    if not success and first_order_fouled_with_movable and _fouled_with_movable(state, s):
        events += drift_events(state, ship, dice)
    return events


def _fouled_with_movable(state: IronOakState, s: ShipState) -> bool:
    """IO-4.4: fouled with another ship that can move, and not immobile itself (IO-4.0)."""
    return not movement.immobile(s) and fouled_with_movable_ship(state, s)


def fouled_with_movable_ship(state: IronOakState, s: ShipState) -> bool:
    """IO-4.4 「他の移動可能な船とからまって」: at least one ship it is fouled with is afloat,
    powered and not immobile (anchored, aground, fouled with an obstacle)."""
    partners = [state.ships[f] for f in s.fouled_with if f in state.ships and f != s.id]
    return any(p.powered and not movement.immobile(p) for p in partners)


def first_fouled_order_phases(state: IronOakState, ships: Collection[str]) -> dict[str, int]:
    """IO-4.4: ``fouled_since`` after an Order Phase in which ``ships`` got their order cards:
    each of them fouled with another movable ship gets this turn, unless an earlier Order Phase
    of its present fouling is recorded already."""
    since = dict(state.fouled_since)
    for ship in ships:
        s = state.ships.get(ship)
        if s is not None and ship not in since and fouled_with_movable_ship(state, s):
            since[ship] = state.turn
    return since


def still_fouled(state: IronOakState) -> IronOakState:
    """``state`` without the ``fouled_since`` entries of ships no longer fouled with a ship (an
    unfoul, a partner sunk or gone), so that a later fouling starts its count again."""
    if not state.fouled_since:
        return state
    kept = {
        ship: turn
        for ship, turn in state.fouled_since.items()
        if ship in state.ships and any(f in state.ships for f in state.ships[ship].fouled_with)
    }
    if len(kept) == len(state.fouled_since):
        return state
    return state.model_copy(update={"fouled_since": kept})
