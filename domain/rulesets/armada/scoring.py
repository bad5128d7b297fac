"""Winning (SWA-5): the immediate win, the score after the last round, and the tie rule.

* A side whose ships are all destroyed (squadrons do not count) loses at once; if both lose
  their last ships together, the higher score wins (RRG "Winning and Losing").
* Otherwise after the last round (six, SWA-R1) the higher score wins. A side's score is the
  fleet-point cost of the enemy ships and squadrons destroyed (option ``points``: the printed
  cost, or the updated one).
* Equal scores: the second player wins (SWA-SETUP, RRG).
"""

from __future__ import annotations

from domain.events import GameEnded
from domain.rulesets.armada.partmemo import remembered
from domain.rulesets.armada.state import ArmadaState

RULE = "SWA-5"


def unit_points(state: ArmadaState, card_points: tuple[int, int]) -> int:
    printed, updated = card_points
    return updated if state.options.points == "updated" else printed


def scores(state: ArmadaState) -> dict[str, int]:
    """Each side's score so far: the cost of the enemy units destroyed."""
    score = {side: 0 for side in state.scenario.side_ids}
    for ship in state.ships.values():
        if ship.destroyed:
            card = state.data.ships.get(ship.card)
            value = unit_points(state, (card.points_printed, card.points_updated))
            score[state.other(ship.side)] += value
    for sq in state.squadrons.values():
        if sq.destroyed:
            sq_card = state.data.squadrons.get(sq.card)
            value = unit_points(state, (sq_card.points_printed, sq_card.points_updated))
            score[state.other(sq.side)] += value
    return score


def _by_score(state: ArmadaState, reason: str) -> GameEnded:
    score = scores(state)
    first, second = state.first_player, state.scenario.second_player
    if score[first] > score[second]:
        winner = first
    elif score[second] > score[first]:
        winner = second
    else:
        winner = second
        reason += f"; scores tied {score[first]}–{score[second]}: the second player wins"
    return GameEnded(winner=winner, reason=reason, rule=RULE, vp=score)


def beaten_sides(state: ArmadaState) -> tuple[str, ...]:
    """The sides with no ship left (SWA-5), in the scenario's order. Asked after every event
    of every order, it reads only the ships and the sides: remembered per those parts
    (:mod:`.partmemo`)."""
    ships, scenario = state.ships, state.scenario
    return remembered(
        (ships, scenario),
        ("beaten",),
        lambda: tuple(
            side
            for side in scenario.side_ids
            if not any(s.side == side and not s.destroyed for s in ships.values())
        ),
    )


def immediate(state: ArmadaState) -> GameEnded | None:
    """The game ends at once when a side has no ship left (SWA-5); None otherwise."""
    if state.phase == "setup":
        return None
    beaten = beaten_sides(state)
    if not beaten:
        return None
    if len(beaten) == 2:
        return _by_score(state, "both fleets lost their last ships at once")
    winner = state.other(beaten[0])
    return GameEnded(
        winner=winner,
        reason=f"every ship of {beaten[0]} is destroyed",
        rule=RULE,
        vp=scores(state),
    )


def final(state: ArmadaState) -> GameEnded:
    """The end after the last round (SWA-5): the higher score wins, a tie the second player."""
    return _by_score(state, f"round {state.scenario.rounds} is over")
