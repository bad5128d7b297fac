"""Repair parties (IO-3.1.1): who may place one, which critical a party works on, and the
repair roll — d10d4 (Elite +1, Green −1) against the opponent's d10; success removes the
marker, or steps an Armament marker back (−4 → −2 → none; limited guns −2 → −1 → none)."""

from __future__ import annotations

from domain.chance import opposed_roll
from domain.dice import DiceSource, Modifier
from domain.errors import IllegalCommand
from domain.events import DomainEvent
from domain.rulesets.iron_oak.basics import REPAIRABLE_CRITICALS
from domain.rulesets.iron_oak.events import CriticalRepaired
from domain.rulesets.iron_oak.gunnery import armament_penalty as armament_penalty
from domain.rulesets.iron_oak.gunnery import (
    effective_side,
    full_crew,
    guns_of,
    opponent_of,
    unit,
)
from domain.rulesets.iron_oak.markers import (
    ARMAMENT_LIMITED_STEPS,
    ARMAMENT_STEPS,
    all_limited,
)
from domain.rulesets.iron_oak.state import (
    FortSectionState,
    IronOakState,
)

#: The critical a repair party attempts when none is named (IO-3.1.1): power first, then
#: manoeuvrability, then guns.
REPAIR_ORDER = ("engine_stopped", "engine_damaged", "steering", "rudder", "armament", "jam")
assert set(REPAIR_ORDER) == REPAIRABLE_CRITICALS


def check_repair_party(state: IronOakState, ship_id: str) -> None:
    """IO-3.1.1: a unit (ship or fort section) may place a repair party if it is not at full
    crew damage, has none and is not captured (and is afloat / not destroyed). Raises
    IllegalCommand otherwise."""
    u = unit(state, ship_id)
    if isinstance(u, FortSectionState):
        if u.destroyed:
            raise IllegalCommand(f"{ship_id} is destroyed", rule="IO-3.1.1")
    else:
        if not u.afloat:
            raise IllegalCommand(f"{ship_id} is not afloat", rule="IO-3.1.1")
        if u.status == "captured" or u.captured_by is not None:
            raise IllegalCommand(f"{ship_id} has been captured", rule="IO-3.1.1")
    if u.repair_party:
        raise IllegalCommand(f"{ship_id} already has a repair party", rule="IO-3.1.1")
    if u.crew_damage >= full_crew(state, ship_id):
        raise IllegalCommand(f"{ship_id} is at full crew damage", rule="IO-3.1.1")


def repair_target(state: IronOakState, ship_id: str) -> str | None:
    """The repairable critical a party attempts by default: the first in :data:`REPAIR_ORDER`."""
    u = unit(state, ship_id)
    return next((name for name in REPAIR_ORDER if name in u.criticals), None)


def repair_attempt(
    state: IronOakState, ship_id: str, dice: DiceSource, critical: str | None = None
) -> list[DomainEvent]:
    """A repair party attempts one repairable critical (IO-3.1.1): ``critical``, or by default
    the first of :data:`REPAIR_ORDER` the ship has. The owner rolls ``tables.repair.roll``
    (d10d4; elite +1, green −1 from the card's quality) against the opponent's
    ``tables.repair.against`` (d10); strictly greater succeeds. Success: the marker goes, except
    Armament −4 → −2 (limited −2 → −1). Failure: only the roll.

    Raises:
        IllegalCommand (IO-3.1.1): no repair party, no (such) repairable critical, not afloat.
    """
    ship = unit(state, ship_id)
    gone = ship.destroyed if isinstance(ship, FortSectionState) else not ship.afloat
    if gone or not ship.repair_party:
        raise IllegalCommand(f"{ship_id} has no repair party", rule="IO-3.1.1")
    name = critical if critical is not None else repair_target(state, ship_id)
    if name is None or name not in REPAIRABLE_CRITICALS or name not in ship.criticals:
        what = f"no repairable {name} critical" if critical else "no repairable critical"
        raise IllegalCommand(f"{ship_id} has {what}", rule="IO-3.1.1")
    tables = state.data.tables
    quality = "regular" if isinstance(ship, FortSectionState) else state.card(ship_id).quality
    mods: list[Modifier] = []
    if quality == "elite":
        mods.append(Modifier(tables.modifiers.elite_repair, "IO-3.1.1", "elite crew"))
    if quality == "green":
        mods.append(Modifier(tables.modifiers.green_repair, "IO-3.1.1", "green crew"))
    roll = opposed_roll(
        dice,
        actor=tables.repair.roll,
        opponent=tables.repair.against,
        side=effective_side(ship),
        opponent_side=opponent_of(ship),
        purpose=f"repair {name.replace('_', ' ')}",
        rule="IO-3.1.1",
        subject=ship_id,
        actor_modifiers=mods,
    )
    if not roll.success:
        return [roll]
    level = ship.criticals[name].level
    if name == "armament":
        steps = ARMAMENT_LIMITED_STEPS if all_limited(guns_of(state, ship_id)) else ARMAMENT_STEPS
        if level <= steps[-1]:
            return [roll, CriticalRepaired(unit=ship_id, name=name, removed=False, level=steps[0])]
    return [roll, CriticalRepaired(unit=ship_id, name=name, removed=True)]
