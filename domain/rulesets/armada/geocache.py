"""Keys for remembering Armada's geometry answers by the positions that decide them.

A measurement (arc, range, line of sight, obstruction) or an engagement depends only on where
the units involved stand, which other ships stand in the way, and the obstacles: not on shields,
tokens, dials or whose turn it is. A bot asks the same questions again and again between two
moves (every legal attack, every candidate order, then ``decide`` and ``evolve`` once more), and
rollouts from one position ask them again in every rollout. The keys here name exactly those
inputs, so an answer kept in the game data's memo (:meth:`.data.ArmadaData.memo`) is the answer
that would be computed: nothing else is read by the functions that use them.
"""

from __future__ import annotations

from typing import Any

from domain.rulesets.armada.state import ArmadaState

ShipKey = tuple[str, str, float | None, float | None, float]
"""(id, card, x, y, heading) of a ship in play."""


def ship_key(state: ArmadaState, ship_id: str) -> tuple[str, float | None, float | None, float]:
    """What places a ship's shapes: its card and pose."""
    ship = state.ships[ship_id]
    return (ship.card, ship.x, ship.y, ship.heading)


def unit_key(state: ArmadaState, unit: str) -> tuple[Any, ...]:
    """A ship's card and pose, or a squadron's position (its base is the same for every card)."""
    ship = state.ships.get(unit)
    if ship is not None:
        return ("ship", ship.card, ship.x, ship.y, ship.heading)
    squadron = state.squadrons[unit]
    return ("squadron", squadron.x, squadron.y)


def ships_in_play(state: ArmadaState, exclude: tuple[str, ...] = ()) -> tuple[ShipKey, ...]:
    """Every ship in play but ``exclude``, by id, card and pose (scenario order)."""
    return tuple(
        (s.id, s.card, s.x, s.y, s.heading)
        for s in state.ships.values()
        if s.in_play and s.id not in exclude
    )


def obstacles_key(state: ArmadaState) -> tuple[Any, ...]:
    """The obstacles' placements (they never move in a game, but a memo outlives a game)."""
    return tuple((o.id, o.shape, o.x, o.y, o.heading, o.flipped) for o in state.scenario.obstacles)
