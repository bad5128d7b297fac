"""Refloat (IO-4.3): getting an aground ship off — a powered ship (IO-4.3.1, then the
engine-strain check), an Engine-Damaged one, an unpowered one (IO-4.3.2), the +2 of a friendly
tow, and the WL-column critical when the opponent rolls three times the ship's result."""

from __future__ import annotations

from typing import Literal

from domain.chance import opposed_roll
from domain.dice import DiceSource, Modifier, modified_distribution, p_at_least_times, parse
from domain.errors import IllegalCommand
from domain.events import DiceRolled, DomainEvent
from domain.rulesets.iron_oak.events import RefloatAttempted
from domain.rulesets.iron_oak.maneuvers import (
    named_ship,
    on_map_cell,
    other_side,
    roll_totals,
    side_of,
)
from domain.rulesets.iron_oak.state import (
    IronOakState,
    ShipState,
)

# IO-4.3.1: refloat of a powered ship, then the engine-strain check
REFLOAT_POWERED = ("d10d8", "d10")

ENGINE_STRAIN = ("d10d8", "d8")

# IO-4.3.1, already Engine-Damaged
REFLOAT_ENGINE_DAMAGED = ("d8", "d10d8")

# IO-4.3.2: unpowered (Boiler or Engine-Stopped)
REFLOAT_UNPOWERED = ("d6", "d10d8")

REFLOAT_TOW_BONUS = 2

# the opponent's result at this multiple of the ship's or more adds a WL critical (IO-4.3)
TRIPLE = 3

# criticals that stop a friendly tower from giving the +2 (IO-4.3.1)
TOW_BONUS_BARRED = frozenset({"engine_damaged", "rudder", "speed", "smokestack", "steering"})


def _tow_bonus(state: IronOakState, s: ShipState) -> bool:
    """IO-4.3.1: a friendly ship tows the aground ship, is powered and has none of the barred
    criticals. IO-4.3.2's friendly tow has the same conditions (「条件は上記と同じ」)."""
    if s.towed_by is None or s.towed_by not in state.ships:
        return False
    tower = state.ships[s.towed_by]
    return (
        tower.afloat
        and side_of(tower) == side_of(s)
        and tower.powered
        and not any(c in tower.criticals for c in TOW_BONUS_BARRED)
    )


def _p_triple(roll: DiceRolled) -> str:
    """P(opponent ≥ 3× ship) for the dice and modifiers of ``roll`` (p_at_least_times)."""
    assert roll.opposed_by is not None
    ship = modified_distribution(
        parse(roll.roll.expression),
        [Modifier(m.value, m.rule, m.reason) for m in roll.roll.modifiers],
        roll.roll.floor,
    )
    opponent = modified_distribution(
        parse(roll.opposed_by.expression),
        [Modifier(m.value, m.rule, m.reason) for m in roll.opposed_by.modifiers],
        roll.opposed_by.floor,
    )
    return str(p_at_least_times(opponent, ship, TRIPLE))


def refloat(state: IronOakState, ship: str, dice: DiceSource) -> list[DomainEvent]:
    """IO-4.3: try to get an aground ship off. Three branches:

    * powered (IO-4.3.1): d10d8 (+2 tow) vs d10; on success the Aground marker goes, then the
      engine strain check d10d8 vs d8: failure names ``engine_damaged``, and an opponent result
      ≥ 3× the ship's sets ``wl_column_roll``;
    * already Engine-Damaged (IO-4.3.1): d8 (+2 tow) vs d10d8; failure names ``engine_stopped``;
      ≥ 3× sets ``wl_column_roll``;
    * unpowered, Boiler or Engine-Stopped (IO-4.3.2): d6 (+2 tow) vs d10d8; ≥ 3× sets
      ``wl_column_roll``.

    The 3× test compares the two totals of the roll it belongs to (the strain roll in the
    powered branch) and the event records its exact chance.

    Raises:
        IllegalCommand: IO-4.3 (no such ship, not afloat on the map, not aground).
    """
    s = named_ship(state, ship, "IO-4.3")
    on_map_cell(s, "IO-4.3")
    if not s.aground:
        raise IllegalCommand(f"{ship} is not aground", rule="IO-4.3")
    side, opponent = side_of(s), other_side(side_of(s))
    bonus = _tow_bonus(state, s)
    if not s.powered:
        branch: Literal["powered", "engine_damaged", "unpowered"] = "unpowered"
        rule, (mine, theirs) = "IO-4.3.2", REFLOAT_UNPOWERED
    elif "engine_damaged" in s.criticals:
        branch, rule, (mine, theirs) = "engine_damaged", "IO-4.3.1", REFLOAT_ENGINE_DAMAGED
    else:
        branch, rule, (mine, theirs) = "powered", "IO-4.3.1", REFLOAT_POWERED
    mods = [Modifier(REFLOAT_TOW_BONUS, rule, "towed by a friendly powered ship")] if bonus else []
    roll = opposed_roll(
        dice,
        actor=mine,
        opponent=theirs,
        side=side,
        opponent_side=opponent,
        purpose="refloat",
        rule=rule,
        subject=ship,
        actor_modifiers=mods,
    )
    events: list[DomainEvent] = [roll]
    success = bool(roll.success)
    critical: str | None = None
    judged = roll
    if branch == "powered" and success:
        strain = opposed_roll(
            dice,
            actor=ENGINE_STRAIN[0],
            opponent=ENGINE_STRAIN[1],
            side=side,
            opponent_side=opponent,
            purpose="engine strain",
            rule=rule,
            subject=ship,
        )
        events.append(strain)
        judged = strain
        if not strain.success:
            critical = "engine_damaged"
    elif branch == "engine_damaged" and not success:
        critical = "engine_stopped"
    mine_total, theirs_total = roll_totals(judged)
    triple = theirs_total >= TRIPLE * mine_total
    # the powered branch adds the WL critical only after a failed strain check
    wl = triple and (branch != "powered" or critical is not None)
    events.append(
        RefloatAttempted(
            ship=ship,
            success=success,
            critical=critical,
            wl_column_roll=wl,
            branch=branch,
            rule=rule,
            tow_bonus=bonus,
            ship_result=mine_total,
            opponent_result=theirs_total,
            p_triple=_p_triple(judged) if branch != "powered" or judged is not roll else "0",
        )
    )
    return events
