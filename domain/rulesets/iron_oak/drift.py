"""Drift (IO-5.2): a ship without power, fouled with a movable enemy, or under a Drift order
rolls d10 on the Drift table; its fouled or towing group drifts with it, each ship checking the
hazards of the box it leaves and the box the current carries it to (IO-5.4)."""

from __future__ import annotations

from typing import Literal

from domain.chance import table_roll
from domain.dice import DiceSource
from domain.errors import IllegalCommand
from domain.events import DomainEvent
from domain.rulesets.iron_oak.basics import Edge
from domain.rulesets.iron_oak.events import ShipDrifted
from domain.rulesets.iron_oak.maneuvers import apply, drift_group, named_ship, on_map_cell, side_of
from domain.rulesets.iron_oak.movement import (
    STEPS,
    DriftWhenFouledWith,
    can_move,
    check_hazards,
    ends_move,
)
from domain.rulesets.iron_oak.state import (
    Cell,
    IronOakState,
    fold_all,
)


def _exit_edge(state: IronOakState, cell: Cell) -> Edge | None:
    """The edge a cell outside the grid lies beyond (None inside). [AMBIG] off a corner the
    vertical edge (N/S) is named first."""
    grid = state.scenario.grid
    col, row = cell
    if row < 0:
        return "N"
    if row >= grid.rows:
        return "S"
    if col < 0:
        return "W"
    if col >= grid.columns:
        return "E"
    return None


def drift_events(state: IronOakState, ship: str, dice: DiceSource) -> list[DomainEvent]:
    s = state.ships[ship]
    here = on_map_cell(s, "IO-5.2")
    group = drift_group(state, s)
    # IO-5.4: a hazard is checked in the box a ship moves from and the box it moves to, and
    # linked ships each check. A check that ends the move holds the whole group (IO-5.3:
    # if either ship becomes immobile, neither moves); there is no drift roll.
    events: list[DomainEvent] = []
    for member in [ship, *group]:
        scratch = fold_all(state, events, apply)
        if scratch.ships[member].afloat:
            events += check_hazards(scratch, member, here, dice)
        if ends_move(events) or not fold_all(state, events, apply).ships[ship].afloat:
            held = ShipDrifted(ship=ship, path=[here], result="stay", effect="hazard")
            return [*events, held]
    drift_table = state.data.tables.drift

    def read(face: int) -> tuple[str, int]:
        effect = drift_table.effect(face)
        return effect, {"stay": 0, "drift_1": 1, "drift_2": 2}[effect]

    roll = table_roll(
        dice,
        expression="d10",
        table=read,
        side=side_of(s),
        purpose="drift",
        rule="IO-5.2",
        subject=ship,
    )
    steps = int(roll.value)
    current = state.box(here).current
    path: list[Cell] = [here]
    result: Literal["stay", "drifted", "exited", "aground"] = "stay"
    edge: Edge | None = None
    if current is not None and steps > 0:
        dc, dr = STEPS[current.direction]
        result = "drifted"
        for _ in range(steps):
            last = path[-1]
            nxt = (last[0] + dc, last[1] + dr)
            edge = _exit_edge(state, nxt)
            if edge is not None:
                result = "exited"  # IO-5.2: drifting off the map leaves the game
                break
            if state.box(nxt).bank:
                result = "aground"  # IO-5.2: grounds in the previous GB
                break
            path.append(nxt)
    events += [
        roll,
        ShipDrifted(ship=ship, path=path, result=result, effect=roll.outcome, edge=edge),
    ]
    end = path[-1]
    if result == "exited" or end == here:
        return events
    # IO-5.4 destination: each ship the current carried into a new box checks its hazards
    # there, the rolling ship first; one already aground on the bank checks nothing more
    for member in [ship, *group]:
        scratch = fold_all(state, events, apply)
        m = scratch.ships[member]
        if m.afloat and m.cell == end and not m.aground:
            events += check_hazards(scratch, member, end, dice)
    return events


def drift(
    state: IronOakState,
    ship: str,
    dice: DiceSource,
    drift_when_fouled_with: DriftWhenFouledWith = "movable_enemy",
) -> list[DomainEvent]:
    """IO-5.2: roll d10 on the Drift table and drift 0, 1 or 2 GB with the current of the ship's
    box (no current: the ship stays).

    Each step goes one box in the current's direction. A step past the map edge: the ship leaves
    the game (status ``exited``). A step onto a bank: the ship grounds in the box before it.
    The ship's fouled and towing partners go with it (only the first ship of a group rolls,
    IO-5.2), except a partner that is immobile (anchored, aground, fouled with an obstacle,
    IO-4.0), which stays where it is; [AMBIG] only the rolling ship grounds on a bank (attached
    ships check separately, IO-5.4).

    Hazards (IO-5.4 names the box a ship moves from and the box it moves to; linked ships each
    check): before the roll, the ship and then each ship of its group check the hazards of
    their box; a check that ends a move (grounding, fouling, a mine) holds the whole group, which
    does not drift (``ShipDrifted`` ``stay`` with effect ``hazard``, no roll). After a drift into
    another box on the map, each ship that went there and is not aground checks that box's
    hazards. The middle box of a two-box drift is not checked, as for Maneuver 2.

    Raises:
        IllegalCommand: IO-5.2 (not afloat on the map); IO-4.0 (anchored, aground or fouled with
            an obstacle, or in a tow with such a ship: it does not drift); IO-5.3 (towed by a
            powered ship that can move: it goes with its tower and does not drift).
    """
    s = named_ship(state, ship, "IO-5.2")
    on_map_cell(s, "IO-5.2")
    _, reason = can_move(state, ship, drift_when_fouled_with)
    if reason == "stuck":
        raise IllegalCommand(f"{ship} cannot move or drift this turn", rule="IO-4.0")
    if reason == "towed":
        raise IllegalCommand(
            f"{ship} is towed by {s.towed_by}: it goes with its tower and does not drift",
            rule="IO-5.3",
        )
    return drift_events(state, ship, dice)
