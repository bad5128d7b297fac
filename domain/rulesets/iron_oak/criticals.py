"""Iron & Oak critical effects (IO-6.3.1 – IO-6.3.17), repair (IO-3.1.1) and fire status (IO-3.1.2).

Pure functions; the state passed in is never changed.

* :func:`apply_critical` resolves one critical on a ship: any rolls (engine ``DiceRolled``
  events from :mod:`domain.chance`) followed by one :class:`CriticalApplied` per effect. A
  critical that turns into another (Jam on a non-monitor, Smokestack on a monitor and Spar
  Torpedo on a ship without one become Collateral; a 2nd Engine-Damaged becomes Engine-Stopped)
  gives the event of the critical that actually takes effect, with a ``note`` naming the roll.
* :func:`response_modifiers` gives the response-dice modifiers of a ship that is the target of
  a Crossing-the-T or a ram/spar attempt; :func:`blocks_t_ram_spar` tells whether Rudder or
  Steering forbids the ship to cross the T or ram/spar (IO-6.3.13, IO-6.3.17);
  :func:`armament_penalty` gives the Armament marker's value for one gun section.
* :func:`check_repair_party` / :func:`repair_attempt` (IO-3.1.1) and :func:`fire_status`
  (IO-3.1.2) are Status Phase steps.
* :func:`apply` folds the events defined here (and only those) into the state. Hull hits sink a
  ship through the gunnery module's sinking helper (IO-6.2.3J).

Who rolls: damage, crew-loss, fire and steering rolls are recorded for the opponent of the
ship's (effective) side, as the movement module does for mine damage; the repair roll is the
owner's, against the opponent's d10.

Readings of the seed ([AMBIG] in the digest) are switches in :class:`CriticalOptions`. Other
choices, documented where they are made: which collateral location "the target" chooses
(:func:`collateral_location`), the crew-loss bands use the card's full crew factor, a critical's
fire only ever raises the fire level, Boiler crew loss is not capped (only Crew, Explosion and
Magazine are "as for Crew"), a 2nd Rudder has no printed effect (the count only grows), the
Steering direction is stored as the marker ``level`` (:data:`STEERING_VERTICAL` /
:data:`STEERING_HORIZONTAL`), Armament markers are per ship (:func:`armament_penalty`).

Not covered: the attacks on fouled, attached and same-GB ships caused by Boiler, Explosion and
Magazine (IO-6.3.2, IO-6.3.8, IO-6.3.11), criticals on fort sections, placing and withdrawing
repair parties as events, and the smoke-removal check (IO-3.1 c).

The event classes are meant to move to ``events.py``; they are defined here for now.
"""

from __future__ import annotations

from typing import Literal, cast

from pydantic import BaseModel, ConfigDict, Field

from domain.chance import opposed_roll, table_roll
from domain.dice import DiceSource, Modifier
from domain.errors import IllegalCommand, InvalidCommand
from domain.events import DiceRolled, DomainEvent
from domain.rulesets.iron_oak.data import (
    CRITICAL_NAMES,
    REPAIRABLE_CRITICALS,
    Location,
    ShipCard,
    Side,
)
from domain.rulesets.iron_oak.events import CriticalApplied, CriticalRepaired, FireChanged
from domain.rulesets.iron_oak.gunnery import _effective_side, _sink
from domain.rulesets.iron_oak.state import CriticalState, IronOakState, ShipState

# --------------------------------------------------------------------------- seed values

RULES: dict[str, str] = {
    "armament": "IO-6.3.1",
    "boiler": "IO-6.3.2",
    "captain": "IO-6.3.3",
    "collateral": "IO-6.3.4",
    "crew": "IO-6.3.5",
    "engine_damaged": "IO-6.3.6",
    "engine_stopped": "IO-6.3.7",
    "explosion": "IO-6.3.8",
    "fire": "IO-6.3.9",
    "jam": "IO-6.3.10",
    "magazine": "IO-6.3.11",
    "ram": "IO-6.3.12",
    "rudder": "IO-6.3.13",
    "spar_torpedo": "IO-6.3.14",
    "speed": "IO-6.3.15",
    "smokestack": "IO-6.3.16",
    "steering": "IO-6.3.17",
}
assert set(RULES) == CRITICAL_NAMES

REPEAT_HITS = 2  # "2nd: 2 hits" (and Armament/Speed 3rd) throughout IO-6.3
BOILER_HITS = "d10+d8"  # IO-6.3.2
BOILER_FIRE = 3  # IO-6.3.2: a level-3 fire
EXPLOSION_HITS = "d10+d6"  # IO-6.3.8
MAGAZINE_HITS = "d10+d8+d6"  # IO-6.3.11
FIRE_START_DIE = "d10"  # IO-6.3.9
STEERING_DIE = "d6"  # IO-6.3.17
STEERING_VERTICAL = 1  # Steering marker level: d6 1-3, the ship may move only vertically
STEERING_HORIZONTAL = 2  # d6 4-6: only horizontally
ARMAMENT_STEPS = (-2, -4)  # IO-6.3.1: 1st, 2nd
ARMAMENT_LIMITED_STEPS = (-1, -2)  # IO-6.3.1: limited guns
SPEED_STEPS = (-1, -2)  # IO-6.3.15
JAM_GUNNERY = -2  # IO-6.3.10: a jammed monitor turret fires at −2 (not applied by gunnery yet)
RAM_RESOLUTION = -5  # IO-6.3.12

RESPONSE: dict[str, int] = {
    "boiler": -5,  # IO-6.3.2
    "captain": -1,  # IO-6.3.3
    "engine_damaged": -2,  # IO-6.3.6 [AMBIG]
    "engine_stopped": -5,  # IO-6.3.7
    "smokestack": -2,  # IO-6.3.16 [AMBIG]
    "steering": -3,  # IO-6.3.17
}
"""Response-dice modifiers against Crossing-the-T and ram/spar (Speed uses its marker value)."""

REPAIR_ORDER = ("engine_stopped", "engine_damaged", "steering", "rudder", "armament", "jam")
"""The critical a repair party attempts when none is named (IO-3.1.1): power first, then
manoeuvrability, then guns."""
assert set(REPAIR_ORDER) == REPAIRABLE_CRITICALS

# IO-6.3.4: neighbouring locations for Collateral; several entries: the target's choice
COLLATERAL_NEIGHBOURS: dict[str, tuple[Location, ...]] = {
    "B": ("A",),
    "S": ("A",),
    "TF": ("TS",),
    "TR": ("TS",),
    "A": ("B", "S"),
    "TS": ("TF", "TR"),
}


class CriticalOptions(BaseModel):
    """Switches for the [AMBIG] readings of IO-6.3 (defaults: the digest's likely reading).

    * ``explosion_fire_level`` (IO-6.3.8: the fire after a ship Explosion, and so after a
      Magazine, IO-6.3.11, has no stated level): 3, as for forts and Boilers.
    * ``crew_loss_bands`` (IO-6.3.5: the Crew bands 8-10 / ≤7 differ from the Boiler bands
      9-10 / ≤8): ``as_printed`` — Boiler uses ``tables.crew_loss.boiler``, Crew, Explosion
      and Magazine use ``tables.crew_loss.crew``; ``crew`` / ``boiler`` use one set for all.
    * ``engine_damaged_response`` (IO-6.3.6: "response dice −2" printed on the next row):
      True applies −2 to an Engine-Damaged ship's response dice.
    * ``smokestack_response`` (IO-6.3.16, the same layout problem): True applies −2.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    explosion_fire_level: int = Field(default=3, ge=2, le=5)
    crew_loss_bands: Literal["as_printed", "crew", "boiler"] = "as_printed"
    engine_damaged_response: bool = True
    smokestack_response: bool = True


DEFAULT_OPTIONS = CriticalOptions()


# --------------------------------------------------------------------------- events


# --------------------------------------------------------------------------- helpers


def _ship(state: IronOakState, ship_id: str) -> ShipState:
    try:
        return state.ships[ship_id]
    except KeyError:
        raise InvalidCommand(f"no ship {ship_id!r} in this game") from None


def _opponent(ship: ShipState) -> Side:
    return "USA" if _effective_side(ship) == "CSA" else "CSA"


def _all_limited(card: ShipCard) -> bool:
    """The ship's Armament marker uses the limited values when every gun section is limited
    (IO-6.2.3A); otherwise the full values, which :func:`armament_penalty` halves for its
    limited sections."""
    return all(gun.limited for gun in card.guns)


def armament_penalty(state: IronOakState, ship_id: str, section: int) -> int:
    """The Armament marker's gunnery value for one gun section (IO-6.3.1): the marker value, or
    half of it (−2 → −1, −4 → −2) for a limited section of a ship whose marker has full values.
    Gunnery currently applies the marker's ``level`` to every section; it should use this."""
    crit = state.ships[ship_id].criticals.get("armament")
    if crit is None:
        return 0
    card = state.card(ship_id)
    if card.guns[section].limited and not _all_limited(card):
        return crit.level // 2
    return crit.level


def _marker_event(
    ship: ShipState, name: str, *, level: int = 0, hits: int = 0, note: str = ""
) -> CriticalApplied:
    """A critical that leaves (or keeps) its marker, one occurrence more."""
    return CriticalApplied(
        unit=ship.id,
        name=name,
        rule=RULES[name],
        count=ship.critical_count(name) + 1,
        level=level,
        marker=True,
        hits=hits,
        note=note,
    )


def _hits_roll(
    state: IronOakState, ship: ShipState, expression: str, dice: DiceSource, name: str
) -> DiceRolled:
    return table_roll(
        dice,
        expression=expression,
        table=lambda total: (f"{total} hits", total),
        side=_opponent(ship),
        purpose=f"{name.replace('_', ' ')} hits",
        rule=RULES[name],
        subject=ship.id,
    )


def _crew_loss_roll(
    state: IronOakState,
    ship: ShipState,
    kind: Literal["boiler", "crew"],
    dice: DiceSource,
    name: str,
    options: CriticalOptions,
) -> DiceRolled:
    """Crew loss (IO-6.3.2 / IO-6.3.5): the dice by the card's full crew factor and the band set
    (``options.crew_loss_bands``). "As for Crew" losses are capped at half the current crew
    (full − crew damage, rounded down, at least 1); the Boiler's loss is not. No loss beyond full
    crew damage. The roll's value is the loss taken."""
    card = state.card(ship.id)
    bands = kind if options.crew_loss_bands == "as_printed" else options.crew_loss_bands
    expression = state.data.tables.crew_loss.dice_for(bands, card.crew.full)
    current = max(0, card.crew.full - ship.crew_damage)
    cap = max(1, current // 2) if kind == "crew" else current

    def loss(total: int) -> tuple[str, int]:
        taken = max(0, min(total, cap, current))
        return f"{taken} crew", taken

    return table_roll(
        dice,
        expression=expression,
        table=loss,
        side=_opponent(ship),
        purpose="crew loss",
        rule=RULES[name],
        subject=ship.id,
    )


def collateral_location(state: IronOakState, ship_id: str, location: str) -> Location:
    """The neighbouring location that takes Collateral damage after a hit on ``location``
    (IO-6.3.4): B/S → A, TF/TR → TS, A → B or S, TS → TF or TR, WL/D → any other location.

    Where the seed gives the target the choice, the default is the candidate with the least
    shield damage (the highest shield value), ties to the first listed (B, TF; for WL/D the
    card's order). Candidates missing from the ship's card are skipped; when none is left, any
    other location on the card is a candidate.
    """
    card = state.card(ship_id)
    ship = state.ships[ship_id]
    codes = [loc.code for loc in card.locations]
    candidates: list[Location] = [c for c in COLLATERAL_NEIGHBOURS.get(location, ()) if c in codes]
    if not candidates:
        candidates = [c for c in codes if c != location]
    return max(candidates, key=lambda c: (ship.shield(c), -candidates.index(c)))


def _collateral(
    state: IronOakState, ship: ShipState, location: str | None, note: str
) -> CriticalApplied:
    if location is None:
        raise InvalidCommand(
            f"a Collateral critical on {ship.id} needs the location that was hit",
            rule="IO-6.3.4",
        )
    card = state.card(ship.id)
    if card.location(cast(Location, location)) is None:
        raise InvalidCommand(f"{ship.id}'s card has no location {location}", rule="IO-6.3.4")
    target = collateral_location(state, ship.id, location)
    floor = state.data.tables.damage_chart.shield_floor
    before = ship.shield(target)
    at_floor = before <= floor
    text = f"{location} → {target}" + (f": already at {floor}, 2 hits" if at_floor else "")
    return CriticalApplied(
        unit=ship.id,
        name="collateral",
        rule=RULES["collateral"],
        count=1,
        marker=False,
        hits=REPEAT_HITS if at_floor else 0,
        location=target,
        shield_after=before if at_floor else before - 1,
        note=f"{note}; {text}" if note else text,
    )


# --------------------------------------------------------------------------- criticals


def apply_critical(
    state: IronOakState,
    unit: str,
    name: str,
    dice: DiceSource,
    options: CriticalOptions = DEFAULT_OPTIONS,
    *,
    location: str | None = None,
) -> list[DomainEvent]:
    """Resolve critical ``name`` on ship ``unit`` (IO-6.3.1 – IO-6.3.17) with its repeat effects.

    ``location`` is the location that was hit; Collateral (and the criticals that become
    Collateral) needs it. Dice order: the critical's rolls in the order the seed lists the
    effects — hits, then crew loss, then fire (none after the hits if they sink the ship);
    Fire: the d10; Steering (1st): the d6.

    Raises:
        InvalidCommand: an unknown ship, critical or location; Collateral without a location.
        IllegalCommand: the ship is not afloat (IO-6.3).
    """
    ship = _ship(state, unit)
    if name not in CRITICAL_NAMES:
        raise InvalidCommand(f"unknown critical {name!r}", rule="IO-6.3")
    if not ship.afloat:
        raise IllegalCommand(f"{unit} is not afloat", rule="IO-6.3")
    card = state.card(unit)
    crit = ship.criticals.get(name)
    nth = ship.critical_count(name) + 1
    events: list[DomainEvent] = []

    def repeat_hits(level: int = 0) -> list[DomainEvent]:
        return [
            _marker_event(
                ship, name, level=level, hits=REPEAT_HITS, note=f"{_ordinal(nth)}: 2 hits"
            )
        ]

    if name == "armament":  # IO-6.3.1
        steps = ARMAMENT_LIMITED_STEPS if _all_limited(card) else ARMAMENT_STEPS
        if nth > len(steps):
            return repeat_hits(crit.level if crit else steps[-1])
        note = "limited guns" if steps is ARMAMENT_LIMITED_STEPS else ""
        return [_marker_event(ship, name, level=steps[nth - 1], note=note)]

    if name == "speed":  # IO-6.3.15
        if nth > len(SPEED_STEPS):
            return repeat_hits(crit.level if crit else SPEED_STEPS[-1])
        return [_marker_event(ship, name, level=SPEED_STEPS[nth - 1])]

    if name in ("captain", "engine_stopped", "ram"):  # IO-6.3.3, IO-6.3.7, IO-6.3.12
        return repeat_hits() if nth > 1 else [_marker_event(ship, name)]

    if name == "rudder":  # IO-6.3.13: no repeat effect printed
        note = "no effect printed for a repeat" if nth > 1 else ""
        return [_marker_event(ship, name, note=note)]

    if name == "engine_damaged":  # IO-6.3.6
        if nth == 1:
            return [_marker_event(ship, name)]
        gone = CriticalApplied(
            unit=unit,
            name=name,
            rule=RULES[name],
            count=nth,
            marker=False,
            note="2nd: becomes Engine-Stopped",
        )
        return [gone, *apply_critical(apply(state, gone), unit, "engine_stopped", dice, options)]

    if name == "jam":  # IO-6.3.10
        if not state.is_monitor(unit):
            return [_collateral(state, ship, location, "Jam on a non-monitor (IO-6.3.10)")]
        return repeat_hits() if nth > 1 else [_marker_event(ship, name)]

    if name == "smokestack":  # IO-6.3.16
        if state.is_monitor(unit):
            return [_collateral(state, ship, location, "Smokestack on a monitor (IO-6.3.16)")]
        return repeat_hits() if nth > 1 else [_marker_event(ship, name, note="destroyed")]

    if name == "spar_torpedo":  # IO-6.3.14
        if card.spar is None:
            note = "Spar Torpedo on a ship without one (IO-6.3.14)"
            return [_collateral(state, ship, location, note)]
        return repeat_hits() if nth > 1 else [_marker_event(ship, name, note="destroyed")]

    if name == "steering":  # IO-6.3.17
        if nth > 1:
            return repeat_hits(crit.level if crit else 0)
        roll = table_roll(
            dice,
            expression=STEERING_DIE,
            table=lambda face: (
                ("vertical only", STEERING_VERTICAL)
                if face <= 3
                else ("horizontal only", STEERING_HORIZONTAL)
            ),
            side=_opponent(ship),
            purpose="steering",
            rule=RULES[name],
            subject=unit,
        )
        return [roll, _marker_event(ship, name, level=int(roll.value), note=roll.outcome)]

    if name == "collateral":  # IO-6.3.4
        return [_collateral(state, ship, location, "")]

    if name == "crew":  # IO-6.3.5
        roll = _crew_loss_roll(state, ship, "crew", dice, name, options)
        return [
            roll,
            CriticalApplied(
                unit=unit,
                name=name,
                rule=RULES[name],
                count=1,
                marker=False,
                crew_loss=int(roll.value),
                note=f"rolled {roll.roll.total}",
            ),
        ]

    if name == "fire":  # IO-6.3.9
        fire_table = state.data.tables.fire
        roll = table_roll(
            dice,
            expression=FIRE_START_DIE,
            table=lambda face: (
                f"level {fire_table.start_level(face)}",
                fire_table.start_level(face),
            ),
            side=_opponent(ship),
            purpose="fire level",
            rule=RULES[name],
            subject=unit,
        )
        rolled = int(roll.value)
        note = "" if rolled > ship.fire else f"level {rolled} does not raise level {ship.fire}"
        return [
            roll,
            CriticalApplied(
                unit=unit,
                name=name,
                rule=RULES[name],
                count=1,
                marker=False,
                fire=max(ship.fire, rolled),
                note=note,
            ),
        ]

    # Boiler, Explosion, Magazine: hits, then (if afloat) crew loss and a fire
    if name == "boiler" and nth > 1:  # IO-6.3.2
        return repeat_hits()
    expression, kind, fire_level = {
        "boiler": (BOILER_HITS, "boiler", BOILER_FIRE),
        "explosion": (EXPLOSION_HITS, "crew", options.explosion_fire_level),
        "magazine": (MAGAZINE_HITS, "crew", options.explosion_fire_level),
    }[name]
    hits_roll = _hits_roll(state, ship, expression, dice, name)
    events.append(hits_roll)
    hits = int(hits_roll.value)
    if ship.hits + hits >= card.hit_value:
        crew_loss, fire, note = 0, None, "sunk by the hits"
    else:
        crew_roll = _crew_loss_roll(
            state, ship, cast(Literal["boiler", "crew"], kind), dice, name, options
        )
        events.append(crew_roll)
        crew_loss, fire = int(crew_roll.value), max(ship.fire, fire_level)
        note = f"crew rolled {crew_roll.roll.total}; level-{fire_level} fire"
    if name == "boiler":
        note = f"loses power; {note}"
    events.append(
        CriticalApplied(
            unit=unit,
            name=name,
            rule=RULES[name],
            count=nth if name == "boiler" else 1,
            marker=name == "boiler",
            hits=hits,
            crew_loss=crew_loss,
            fire=fire,
            note=note,
        )
    )
    return events


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


# --------------------------------------------------------------------------- modifiers


def response_modifiers(
    state: IronOakState, ship_id: str, options: CriticalOptions = DEFAULT_OPTIONS
) -> list[Modifier]:
    """Modifiers to the dice ``ship_id`` rolls as the target of a Crossing-the-T or a ram/spar
    attempt: Boiler −5 (IO-6.3.2), Captain −1 (IO-6.3.3), Engine-Damaged −2 (IO-6.3.6 [AMBIG],
    ``options.engine_damaged_response``), Engine-Stopped −5 (IO-6.3.7), Speed marker −1/−2
    (IO-6.3.15), Smokestack −2 (IO-6.3.16 [AMBIG], ``options.smokestack_response``),
    Steering −3 (IO-6.3.17)."""
    ship = _ship(state, ship_id)
    off = set()
    if not options.engine_damaged_response:
        off.add("engine_damaged")
    if not options.smokestack_response:
        off.add("smokestack")
    out: list[Modifier] = []
    for name in RULES:
        if name not in ship.criticals or name in off:
            continue
        value = ship.criticals[name].level if name == "speed" else RESPONSE.get(name, 0)
        if value:
            label = name.replace("_", " ").capitalize()
            out.append(Modifier(value, RULES[name], f"{ship_id} {label} critical"))
    return out


def blocks_t_ram_spar(state: IronOakState, ship_id: str) -> str | None:
    """The rule that forbids ``ship_id`` to cross the T or ram/spar (Rudder IO-6.3.13, Steering
    IO-6.3.17), or None."""
    ship = _ship(state, ship_id)
    for name in ("rudder", "steering"):
        if name in ship.criticals:
            return RULES[name]
    return None


def ram_modifiers(state: IronOakState, ship_id: str) -> list[Modifier]:
    """The Ram critical's −5 to ram resolution (IO-6.3.12 [AMBIG]: printed under Magazine)."""
    if "ram" in _ship(state, ship_id).criticals:
        return [Modifier(RAM_RESOLUTION, RULES["ram"], f"{ship_id} Ram critical")]
    return []


# --------------------------------------------------------------------------- repair


def check_repair_party(state: IronOakState, ship_id: str) -> None:
    """IO-3.1.1: a unit may place a repair party if it is not at full crew damage, has none and
    is not captured (and is afloat). Raises IllegalCommand otherwise."""
    ship = _ship(state, ship_id)
    if not ship.afloat:
        raise IllegalCommand(f"{ship_id} is not afloat", rule="IO-3.1.1")
    if ship.status == "captured" or ship.captured_by is not None:
        raise IllegalCommand(f"{ship_id} has been captured", rule="IO-3.1.1")
    if ship.repair_party:
        raise IllegalCommand(f"{ship_id} already has a repair party", rule="IO-3.1.1")
    if ship.crew_damage >= state.card(ship_id).crew.full:
        raise IllegalCommand(f"{ship_id} is at full crew damage", rule="IO-3.1.1")


def repair_target(state: IronOakState, ship_id: str) -> str | None:
    """The repairable critical a party attempts by default: the first in :data:`REPAIR_ORDER`."""
    ship = _ship(state, ship_id)
    return next((name for name in REPAIR_ORDER if name in ship.criticals), None)


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
    ship = _ship(state, ship_id)
    if not ship.afloat or not ship.repair_party:
        raise IllegalCommand(f"{ship_id} has no repair party", rule="IO-3.1.1")
    name = critical if critical is not None else repair_target(state, ship_id)
    if name is None or name not in REPAIRABLE_CRITICALS or name not in ship.criticals:
        what = f"no repairable {name} critical" if critical else "no repairable critical"
        raise IllegalCommand(f"{ship_id} has {what}", rule="IO-3.1.1")
    tables = state.data.tables
    card = state.card(ship_id)
    mods: list[Modifier] = []
    if card.quality == "elite":
        mods.append(Modifier(tables.modifiers.elite_repair, "IO-3.1.1", "elite crew"))
    if card.quality == "green":
        mods.append(Modifier(tables.modifiers.green_repair, "IO-3.1.1", "green crew"))
    roll = opposed_roll(
        dice,
        actor=tables.repair.roll,
        opponent=tables.repair.against,
        side=_effective_side(ship),
        opponent_side=_opponent(ship),
        purpose=f"repair {name.replace('_', ' ')}",
        rule="IO-3.1.1",
        subject=ship_id,
        actor_modifiers=mods,
    )
    if not roll.success:
        return [roll]
    level = ship.criticals[name].level
    if name == "armament":
        steps = ARMAMENT_LIMITED_STEPS if _all_limited(card) else ARMAMENT_STEPS
        if level <= steps[-1]:
            return [roll, CriticalRepaired(unit=ship_id, name=name, removed=False, level=steps[0])]
    return [roll, CriticalRepaired(unit=ship_id, name=name, removed=True)]


# --------------------------------------------------------------------------- fire


def fire_status(
    state: IronOakState,
    ship_id: str,
    dice: DiceSource,
    was_level_5_last_status: bool,
    options: CriticalOptions = DEFAULT_OPTIONS,
) -> list[DomainEvent]:
    """The Status Phase fire check of one ship (IO-3.1.2): roll ``tables.fire.change_die`` on
    the current level's change rows, then take the new level's hits.

    ``was_level_5_last_status``: the ship's fire stood at level 5 after its side's previous
    Status Phase. The caller tracks it (the state has no field for it). When it is set and the
    roll leaves a level-5 fire at 5, the fire has not dropped: the fire marker is removed and
    the fire resolves as an Explosion critical (IO-6.3.8) instead of the level's hits. The
    caller also checks level-5 fires before the others (IO-3.1). No fire: no events.
    """
    ship = _ship(state, ship_id)
    if not ship.afloat or ship.fire == 0:
        return []
    fire_table = state.data.tables.fire
    rows = fire_table.levels[ship.fire].change

    def change(face: int) -> tuple[str, int]:
        to = next(row.to for row in rows if row.low <= face <= row.high)
        return ("out" if to == 0 else f"level {to}"), to

    roll = table_roll(
        dice,
        expression=fire_table.change_die,
        table=change,
        side=_opponent(ship),
        purpose="fire level change",
        rule="IO-3.1.2",
        subject=ship_id,
    )
    rolled = int(roll.value)
    if ship.fire == 5 and rolled == 5 and was_level_5_last_status:
        changed = FireChanged(unit=ship_id, before=5, rolled=5, after=0, explodes=True)
        after = apply(state, changed)
        return [roll, changed, *apply_critical(after, ship_id, "explosion", dice, options)]
    hits = fire_table.levels[rolled].hits if rolled else 0
    return [
        roll,
        FireChanged(unit=ship_id, before=ship.fire, rolled=rolled, after=rolled, hits=hits),
    ]


# --------------------------------------------------------------------------- evolve


def _update(state: IronOakState, ship: ShipState, hits: int, **update: object) -> IronOakState:
    """Replace ``ship`` with ``update`` and ``hits`` more hull hits; sink it at its hit value
    (IO-6.2.3J, the gunnery module's helper)."""
    ships = dict(state.ships)
    total = ship.hits + hits
    ships[ship.id] = ship.model_copy(update={**update, "hits": total})
    if ship.afloat and total >= state.card(ship.id).hit_value:
        return _sink(state, ship.id, ships)
    return state.model_copy(update={"ships": ships})


def apply(state: IronOakState, event: DomainEvent) -> IronOakState:
    """Fold a critical, repair or fire event into a new state; any other event: unchanged.

    Crew damage stops at the card's full crew factor; reaching it removes the repair party
    (IO-3.1.1). A fire level of 0 removes the fire marker.
    """
    if isinstance(event, CriticalApplied):
        ship = state.ships[event.unit]
        criticals = dict(ship.criticals)
        if event.marker:
            criticals[event.name] = CriticalState(
                name=event.name, count=event.count, level=event.level
            )
        else:
            criticals.pop(event.name, None)
        update: dict[str, object] = {"criticals": criticals}
        if event.location is not None and event.shield_after is not None:
            update["shields"] = {**ship.shields, event.location: event.shield_after}
        if event.crew_loss:
            full = state.card(ship.id).crew.full
            crew = min(full, ship.crew_damage + event.crew_loss)
            update["crew_damage"] = crew
            if crew >= full:
                update["repair_party"] = False
        if event.fire is not None:
            update["fire"] = event.fire
        return _update(state, ship, event.hits, **update)
    if isinstance(event, CriticalRepaired):
        ship = state.ships[event.unit]
        criticals = dict(ship.criticals)
        if event.removed:
            criticals.pop(event.name, None)
        else:
            criticals[event.name] = CriticalState(name=event.name, count=1, level=event.level)
        return _update(state, ship, 0, criticals=criticals)
    if isinstance(event, FireChanged):
        ship = state.ships[event.unit]
        return _update(state, ship, event.hits, fire=event.after)
    return state
