"""Iron & Oak critical effects (IO-6.3.1 – IO-6.3.17) on ships and fort sections.

Pure functions; the state passed in is never changed.

* :func:`apply_critical` resolves one critical on a ship or a fort section: any rolls (engine
  ``DiceRolled`` events from :mod:`domain.chance`) followed by one :class:`CriticalApplied` per
  effect, then, for a ship's Boiler, Explosion or Magazine, the attacks on nearby ships
  (:func:`attack_targets`, resolved by :func:`gunnery.critical_attack`). A critical that turns
  into another (Jam on a non-monitor, Smokestack on a monitor and Spar Torpedo on a ship without
  one become Collateral; a 2nd Engine-Damaged becomes Engine-Stopped) gives the event of the
  critical that actually takes effect, with a ``note`` naming the roll.
* Collateral (IO-6.3.4): :func:`collateral_candidates` are the locations the target's side
  chooses among; :mod:`.critical_chain` stops a resolution for that choice.
* :func:`apply` folds the events defined here (and only those) into the state. Hull hits sink a
  ship through the gunnery module's :func:`gunnery.sink` (IO-6.2.3J); crew damage reaching the
  card's heavy threshold makes an active ship retire (IO-6.2.3G/H).

Elsewhere: the response dice and the helm bars (:mod:`.responses`), repair parties
(:mod:`.repair`, IO-3.1.1), the fire-level check (:func:`status.fire_status`, IO-3.1.2), the
marker values (:mod:`.markers`).

Who rolls: damage, crew-loss, fire and steering rolls are recorded for the opponent of the
unit's (effective) side, as the movement module does for mine damage.

Readings of the seed ([AMBIG] in the digest) are switches in :class:`CriticalOptions`. Other
choices, documented where they are made: the bot's choice of Collateral location
(:func:`preferred_collateral`), the crew-loss bands use the card's full crew factor, a
critical's fire only ever raises the fire level, Boiler crew loss is not capped (only Crew,
Explosion and Magazine are "as for Crew"), a 2nd Rudder has no printed effect (the count only
grows), the Steering direction is stored as the marker ``level`` (:data:`STEERING_VERTICAL` /
:data:`STEERING_HORIZONTAL`), Armament markers are per unit (:func:`armament_penalty`), the
attacks on other ships (:func:`attack_targets`) and criticals on fort sections
(:func:`apply_critical`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, cast

from pydantic import BaseModel, ConfigDict, Field

from domain.chance import table_roll
from domain.dice import DiceSource
from domain.errors import IllegalCommand, InvalidCommand
from domain.events import DiceRolled, DomainEvent
from domain.rulesets.iron_oak import gunnery
from domain.rulesets.iron_oak.basics import CRITICAL_NAMES, Location
from domain.rulesets.iron_oak.events import CriticalApplied, CriticalRepaired, FireChanged
from domain.rulesets.iron_oak.gunnery import (
    FORT_LOCATION,
    Range,
    damage_section,
    fort_section_card,
    full_crew,
    opponent_of,
    sink,
    unit,
)
from domain.rulesets.iron_oak.gunnery import armament_penalty as armament_penalty
from domain.rulesets.iron_oak.markers import (
    ARMAMENT_LIMITED_STEPS,
    ARMAMENT_STEPS,
    SPEED_STEPS,
    all_limited,
)
from domain.rulesets.iron_oak.ship_cards import GunSection
from domain.rulesets.iron_oak.state import (
    CriticalState,
    FortSectionState,
    IronOakState,
    ShipState,
)
from domain.words import possessive

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
EXPLOSION_HITS = "d10+d6"  # IO-6.3.8 (ships and fort sections)
MAGAZINE_HITS = "d10+d8+d6"  # IO-6.3.11
FORT_EXPLOSION_CREW = "d4"  # IO-6.3.8: a fort section that survives loses d4 crew
FORT_EXPLOSION_FIRE = 3  # IO-6.3.8: and gets a level-3 fire
# IO-6.3.2 / IO-6.3.8 / IO-6.3.11: the attack on (fouled or attached ships, other ships in the GB)
ATTACKS: dict[str, tuple[str, str | None]] = {
    "boiler": ("d10", None),
    "explosion": ("d10d6", "d10"),
    "magazine": ("d10d8d6", "d10d4"),
}
FIRE_START_DIE = "d10"  # IO-6.3.9
STEERING_DIE = "d6"  # IO-6.3.17
STEERING_VERTICAL = 1  # Steering marker level: d6 1-3, the ship may move only vertically
STEERING_HORIZONTAL = 2  # d6 4-6: only horizontally

FORT_NO_EFFECT = frozenset(
    {
        "boiler",
        "engine_damaged",
        "engine_stopped",
        "ram",
        "rudder",
        "smokestack",
        "spar_torpedo",
        "speed",
        "steering",
    }
)
"""Criticals with no meaning for a fort section (no engine, boiler, ram, spar, funnel or helm):
no effect, recorded as a :class:`CriticalApplied` with a note."""

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


# --------------------------------------------------------------------------- helpers

Unit = ShipState | FortSectionState


def _ship(state: IronOakState, ship_id: str) -> ShipState:
    try:
        return state.ships[ship_id]
    except KeyError:
        raise InvalidCommand(f"no ship {ship_id!r} in this game") from None


def _count(u: Unit, name: str) -> int:
    crit = u.criticals.get(name)
    return crit.count if crit else 0


def _marker_event(
    u: Unit, name: str, *, level: int = 0, hits: int = 0, note: str = ""
) -> CriticalApplied:
    """A critical that leaves (or keeps) its marker, one occurrence more."""
    return CriticalApplied(
        unit=u.id,
        name=name,
        rule=RULES[name],
        count=_count(u, name) + 1,
        level=level,
        marker=True,
        hits=hits,
        note=note,
    )


def _hits_roll(u: Unit, expression: str, dice: DiceSource, name: str) -> DiceRolled:
    return table_roll(
        dice,
        expression=expression,
        table=lambda total: (f"{total} hits", total),
        side=opponent_of(u),
        purpose=f"{name.replace('_', ' ')} hits",
        rule=RULES[name],
        subject=u.id,
    )


def _crew_loss_roll(
    state: IronOakState,
    u: Unit,
    kind: Literal["boiler", "crew"],
    dice: DiceSource,
    name: str,
    options: CriticalOptions,
    *,
    cap: bool = True,
) -> DiceRolled:
    """Crew loss (IO-6.3.2 / IO-6.3.5): the dice by the unit's full crew factor (a fort
    section's ``crew``) and the band set (``options.crew_loss_bands``). A Crew critical's loss
    is capped at half the current crew (full − crew damage, rounded down, at least 1); the
    seed gives that cap only under 6.3.5, so the crew losses of a Boiler, an Explosion and a
    Magazine (``cap=False``: "apply the result to crew damage") are not capped. No loss beyond
    full crew damage. The roll's value is the loss taken."""
    full = full_crew(state, u.id)
    bands = kind if options.crew_loss_bands == "as_printed" else options.crew_loss_bands
    expression = state.data.tables.crew_loss.dice_for(bands, full)
    current = max(0, full - u.crew_damage)
    cap_at = max(1, current // 2) if kind == "crew" and cap else current
    return _loss_roll(u, expression, cap_at, current, dice, name)


def _loss_roll(
    u: Unit, expression: str, cap: int, current: int, dice: DiceSource, name: str
) -> DiceRolled:
    def loss(total: int) -> tuple[str, int]:
        taken = max(0, min(total, cap, current))
        return f"{taken} crew", taken

    return table_roll(
        dice,
        expression=expression,
        table=loss,
        side=opponent_of(u),
        purpose="crew loss",
        rule=RULES[name],
        subject=u.id,
    )


def _retire_note(state: IronOakState, u: Unit, loss: int) -> str:
    """IO-6.2.3G/H: the note for a crew loss that takes an active ship to heavy crew damage."""
    if not isinstance(u, ShipState) or u.status != "active":
        return ""
    heavy = state.card(u.id).crew.heavy
    if u.crew_damage < heavy <= u.crew_damage + loss:
        return "heavy crew damage: retires (IO-6.2.3G)"
    return ""


def _join(*notes: str) -> str:
    return "; ".join(n for n in notes if n)


def collateral_candidates(state: IronOakState, ship_id: str, location: str) -> list[Location]:
    """The neighbouring locations that may take Collateral damage after a hit on ``location``
    (IO-6.3.4): B/S → A, TF/TR → TS, A → B or S, TS → TF or TR, WL/D → any other location;
    several: the target's side chooses (「目標側の選択」). Candidates missing from the ship's
    card are skipped; when none is left, any other location on the card is a candidate."""
    codes = [loc.code for loc in state.card(ship_id).locations]
    candidates: list[Location] = [c for c in COLLATERAL_NEIGHBOURS.get(location, ()) if c in codes]
    return candidates or [c for c in codes if c != location]


def preferred_collateral(state: IronOakState, ship_id: str, candidates: Sequence[str]) -> str:
    """The computer's choice among Collateral ``candidates`` (IO-6.3.4): the one with the least
    shield damage (the highest shield value), ties to the first listed (B, TF; for WL/D the
    card's order). Wake 1.0 made this choice for every side; from 1.1 the bot makes it."""
    ship = state.ships[ship_id]
    return max(candidates, key=lambda c: (ship.shield(cast(Location, c)), -candidates.index(c)))


def collateral_location(state: IronOakState, ship_id: str, location: str) -> Location:
    """The location that takes Collateral damage after a hit on ``location`` when the computer
    chooses (:func:`collateral_candidates`, :func:`preferred_collateral`)."""
    candidates = collateral_candidates(state, ship_id, location)
    return cast(Location, preferred_collateral(state, ship_id, candidates))


def becomes_collateral(state: IronOakState, unit_id: str, name: str) -> bool:
    """Critical ``name`` on ship ``unit_id`` takes effect as Collateral (IO-6.3.4): Collateral
    itself, a Jam on a non-monitor (IO-6.3.10), a Smokestack on a monitor (IO-6.3.16), a Spar
    Torpedo on a ship without one (IO-6.3.14). Never on a fort section (one location)."""
    if unit_id not in state.ships:
        return False
    monitor = state.is_monitor(unit_id)
    return (
        name == "collateral"
        or (name == "jam" and not monitor)
        or (name == "smokestack" and monitor)
        or (name == "spar_torpedo" and state.card(unit_id).spar is None)
    )


class CollateralChoices:
    """The target sides' Collateral choices (IO-6.3.4) made so far in one order's resolution,
    handed out in the order the choices come up. :meth:`take` gives None when the next choice
    has not been made: the resolution stops there for it."""

    def __init__(self, made: Sequence[str] = ()) -> None:
        self._made = list(made)
        self._used = 0

    def take(self) -> str | None:
        if self._used >= len(self._made):
            return None
        self._used += 1
        return self._made[self._used - 1]


def _shield_step(
    state: IronOakState, u: Unit, target: Location, note: str, text: str
) -> CriticalApplied:
    """One more −1 on ``target``, or 2 hits when it is already at the floor (IO-6.3.4)."""
    floor = state.data.tables.damage_chart.shield_floor
    before = u.shields.get(target, 0)
    at_floor = before <= floor
    text += f": already at {floor}, 2 hits" if at_floor else ""
    return CriticalApplied(
        unit=u.id,
        name="collateral",
        rule=RULES["collateral"],
        count=1,
        marker=False,
        hits=REPEAT_HITS if at_floor else 0,
        location=target,
        shield_after=before if at_floor else before - 1,
        note=_join(note, text),
    )


def _collateral(
    state: IronOakState,
    ship: ShipState,
    location: str | None,
    note: str,
    chosen: str | None = None,
) -> CriticalApplied:
    if location is None:
        raise InvalidCommand(
            f"a Collateral critical on {ship.id} needs the location that was hit",
            rule="IO-6.3.4",
        )
    card = state.card(ship.id)
    if card.location(cast(Location, location)) is None:
        raise InvalidCommand(
            f"{possessive(ship.id)} card has no location {location}", rule="IO-6.3.4"
        )
    if chosen is None:
        target = collateral_location(state, ship.id, location)
        return _shield_step(state, ship, target, note, f"{location} → {target}")
    candidates = collateral_candidates(state, ship.id, location)
    if chosen not in candidates:
        raise InvalidCommand(
            f"Collateral after a hit on {location} goes to {' or '.join(candidates)}, not {chosen}",
            rule="IO-6.3.4",
        )
    text = f"{location} → {chosen} (the target's choice)"
    return _shield_step(state, ship, chosen, note, text)


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


# --------------------------------------------------------------------------- criticals


def attack_targets(state: IronOakState, ship_id: str, name: str) -> list[tuple[str, str, Range]]:
    """The attacks a Boiler, Explosion or Magazine critical on ship ``ship_id`` makes, as
    (victim, dice pool, range) in the order they are resolved (IO-6.3.2, IO-6.3.8, IO-6.3.11).

    Fouled or attached ships (``fouled_with`` ships, ``towing``, ``towed_by``; by id) take the
    first pool at Point Blank: Boiler d10, Explosion d10d6, Magazine d10d8d6. Then every other
    ship afloat in the same GB, of either side (by id), takes the second pool at Short:
    Explosion d10, Magazine d10d4 (a Boiler has none). Fort sections are not in any GB and take
    none. Read from the state before the critical (so a ship that sinks still attacks the ships
    that were fouled with it).
    """
    if name not in ATTACKS:
        return []
    ship = state.ships[ship_id]
    near, gb = ATTACKS[name]
    held = [s for s in gunnery.attached(state, ship) if s.afloat]
    out: list[tuple[str, str, Range]] = [(s.id, near, "point_blank") for s in held]
    if gb is not None and ship.cell is not None:
        taken = {ship_id, *(s.id for s in held)}
        others = sorted(s.id for s in state.ships_in(ship.cell) if s.id not in taken)
        out += [(sid, gb, "short") for sid in others]
    return out


def apply_critical(
    state: IronOakState,
    unit_id: str,
    name: str,
    dice: DiceSource,
    options: CriticalOptions = DEFAULT_OPTIONS,
    *,
    location: str | None = None,
    collateral_to: str | None = None,
) -> list[DomainEvent]:
    """Resolve critical ``name`` on ship or fort section ``unit_id`` (IO-6.3.1 – IO-6.3.17)
    with its repeat effects.

    ``location`` is the location that was hit; Collateral (and the criticals that become
    Collateral, :func:`becomes_collateral`) needs it on a ship. ``collateral_to`` is the
    target side's choice of location for it (one of :func:`collateral_candidates`); None: the
    computer's (:func:`preferred_collateral`). Dice order: the critical's rolls in the order
    the seed lists the effects — hits, then crew loss, then fire (none after the hits if they
    sink the ship); Fire: the d10; Steering (1st): the d6. Then, for a 1st Boiler, an Explosion
    or a Magazine on a ship, the attacks of :func:`attack_targets`, each resolved by
    :func:`gunnery.critical_attack` after the critical's own :class:`CriticalApplied` (d8, the
    pool, the defence dice, and 2d6 for a critical band). Fort sections: see
    :func:`_fort_critical`.

    Raises:
        InvalidCommand: an unknown unit, critical or location; Collateral without a location,
            or a ``collateral_to`` that is not a candidate.
        IllegalCommand: the ship is not afloat or the fort section destroyed (IO-6.3).
    """
    u = unit(state, unit_id)
    if name not in CRITICAL_NAMES:
        raise InvalidCommand(f"unknown critical {name!r}", rule="IO-6.3")
    if isinstance(u, FortSectionState):
        return _fort_critical(state, u, name, dice, options)
    events = _ship_critical(state, u, name, dice, options, location, collateral_to)
    if name not in ATTACKS or not any(
        isinstance(e, CriticalApplied) and e.name == name and e.count == 1 for e in events
    ):
        return events  # no attack: not such a critical, or a 2nd Boiler (2 hits only)
    current = state
    for event in events:
        current = apply(current, event)
    for victim, pool, rng in attack_targets(state, unit_id, name):
        attack = gunnery.critical_attack(
            current, unit_id, victim, pool, name, RULES[name], dice, rng=rng
        )
        for event in attack:
            current = gunnery.apply(current, event)
        events.extend(attack)
    return events


def _ship_critical(
    state: IronOakState,
    ship: ShipState,
    name: str,
    dice: DiceSource,
    options: CriticalOptions,
    location: str | None,
    chosen: str | None = None,
) -> list[DomainEvent]:
    """A critical on a ship: its own rolls and :class:`CriticalApplied` (no attacks);
    ``chosen``: the target side's Collateral location."""
    unit_id = ship.id
    if not ship.afloat:
        raise IllegalCommand(f"{unit_id} is not afloat", rule="IO-6.3")
    card = state.card(unit_id)
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
        return _armament(ship, card.guns, nth)

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
            unit=unit_id,
            name=name,
            rule=RULES[name],
            count=nth,
            marker=False,
            note="2nd: becomes Engine-Stopped",
        )
        return [gone, *apply_critical(apply(state, gone), unit_id, "engine_stopped", dice, options)]

    if name == "jam":  # IO-6.3.10
        if not state.is_monitor(unit_id):
            return [_collateral(state, ship, location, "Jam on a non-monitor (IO-6.3.10)", chosen)]
        return repeat_hits() if nth > 1 else [_marker_event(ship, name)]

    if name == "smokestack":  # IO-6.3.16
        if state.is_monitor(unit_id):
            note = "Smokestack on a monitor (IO-6.3.16)"
            return [_collateral(state, ship, location, note, chosen)]
        return repeat_hits() if nth > 1 else [_marker_event(ship, name, note="destroyed")]

    if name == "spar_torpedo":  # IO-6.3.14
        if card.spar is None:
            note = "Spar Torpedo on a ship without one (IO-6.3.14)"
            return [_collateral(state, ship, location, note, chosen)]
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
            side=opponent_of(ship),
            purpose="steering",
            rule=RULES[name],
            subject=unit_id,
        )
        return [roll, _marker_event(ship, name, level=int(roll.value), note=roll.outcome)]

    if name == "collateral":  # IO-6.3.4
        return [_collateral(state, ship, location, "", chosen)]

    if name == "crew":  # IO-6.3.5
        return _crew(state, ship, dice, options)

    if name == "fire":  # IO-6.3.9
        return _fire(state, ship, dice)

    # Boiler, Explosion, Magazine: hits, then (if afloat) crew loss and a fire
    if name == "boiler" and nth > 1:  # IO-6.3.2
        return repeat_hits()
    expression, kind, fire_level = {
        "boiler": (BOILER_HITS, "boiler", BOILER_FIRE),
        "explosion": (EXPLOSION_HITS, "crew", options.explosion_fire_level),
        "magazine": (MAGAZINE_HITS, "crew", options.explosion_fire_level),
    }[name]
    hits_roll = _hits_roll(ship, expression, dice, name)
    events.append(hits_roll)
    hits = int(hits_roll.value)
    if ship.hits + hits >= card.hit_value:
        crew_loss, fire, note = 0, None, "sunk by the hits"
    else:
        crew_roll = _crew_loss_roll(
            state, ship, cast(Literal["boiler", "crew"], kind), dice, name, options, cap=False
        )
        events.append(crew_roll)
        crew_loss, fire = int(crew_roll.value), max(ship.fire, fire_level)
        note = _join(
            f"crew rolled {crew_roll.roll.total}; level-{fire_level} fire",
            _retire_note(state, ship, crew_loss),
        )
    if name == "boiler":
        note = f"loses power; {note}"
    events.append(
        CriticalApplied(
            unit=unit_id,
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


def _armament(u: Unit, guns: Sequence[GunSection], nth: int) -> list[DomainEvent]:
    """IO-6.3.1: −2, −4 (limited guns −1, −2), then 2 hits; the marker keeps its value."""
    steps = ARMAMENT_LIMITED_STEPS if all_limited(guns) else ARMAMENT_STEPS
    if nth > len(steps):
        crit = u.criticals.get("armament")
        level = crit.level if crit else steps[-1]
        note = f"{_ordinal(nth)}: 2 hits"
        return [_marker_event(u, "armament", level=level, hits=REPEAT_HITS, note=note)]
    note = "limited guns" if steps is ARMAMENT_LIMITED_STEPS else ""
    return [_marker_event(u, "armament", level=steps[nth - 1], note=note)]


def _crew(
    state: IronOakState, u: Unit, dice: DiceSource, options: CriticalOptions
) -> list[DomainEvent]:
    """IO-6.3.5: crew loss by the Crew bands, capped at half the current crew."""
    roll = _crew_loss_roll(state, u, "crew", dice, "crew", options)
    loss = int(roll.value)
    return [
        roll,
        CriticalApplied(
            unit=u.id,
            name="crew",
            rule=RULES["crew"],
            count=1,
            marker=False,
            crew_loss=loss,
            note=_join(f"rolled {roll.roll.total}", _retire_note(state, u, loss)),
        ),
    ]


def _fire(state: IronOakState, u: Unit, dice: DiceSource) -> list[DomainEvent]:
    """IO-6.3.9: d10 for the start level; the fire only ever rises."""
    fire_table = state.data.tables.fire
    roll = table_roll(
        dice,
        expression=FIRE_START_DIE,
        table=lambda face: (
            f"level {fire_table.start_level(face)}",
            fire_table.start_level(face),
        ),
        side=opponent_of(u),
        purpose="fire level",
        rule=RULES["fire"],
        subject=u.id,
    )
    rolled = int(roll.value)
    note = "" if rolled > u.fire else f"level {rolled} does not raise level {u.fire}"
    return [
        roll,
        CriticalApplied(
            unit=u.id,
            name="fire",
            rule=RULES["fire"],
            count=1,
            marker=False,
            fire=max(u.fire, rolled),
            note=note,
        ),
    ]


def _fort_critical(
    state: IronOakState,
    sec: FortSectionState,
    name: str,
    dice: DiceSource,
    options: CriticalOptions,
) -> list[DomainEvent]:
    """A critical on fort section ``sec``. The seed gives Explosion and Magazine for forts; the
    rest is this reading, chosen to keep what makes sense for a battery of guns:

    * Explosion (IO-6.3.8): d10+d6 hits on the section; if it survives, d4 crew loss (not
      capped, except at its full crew) and a level-3 fire. A fort's explosion attacks no ship.
    * Magazine (IO-6.3.11): the section is destroyed (``destroys``), no roll.
    * Armament (IO-6.3.1): as for a ship — −2/−4 (−1/−2 when all the section's guns are
      limited; a limited gun of a mixed section takes half, IO-6.2.3A), then 2 hits.
    * Captain (IO-6.3.3): the commander is hit — a marker, gunnery −1; 2nd: 2 hits.
    * Crew (IO-6.3.5): as for a ship, with the section card's ``crew`` as its crew factor.
    * Fire (IO-6.3.9): as for a ship; the section burns (:func:`fire_status`).
    * Collateral (IO-6.3.4), and Jam (IO-6.3.10, a fort is no monitor: Collateral as on a
      non-monitor): the section is a single location (:data:`gunnery.FORT_LOCATION`), so the
      extra −1 shield damage goes to it; already at −4: 2 hits.
    * Boiler, Engine-Damaged, Engine-Stopped, Ram, Rudder, Smokestack, Spar Torpedo, Speed and
      Steering (:data:`FORT_NO_EFFECT`) have no meaning for a fort: no effect, no marker; the
      :class:`CriticalApplied` says so in its note.
    """
    if sec.destroyed:
        raise IllegalCommand(f"fort section {sec.id} is destroyed", rule="IO-6.3")
    nth = _count(sec, name) + 1
    card = fort_section_card(state, sec.id)
    if name == "armament":
        return _armament(sec, card.guns, nth)
    if name == "captain":
        note = "fort commander"
        if nth > 1:
            return [_marker_event(sec, name, hits=REPEAT_HITS, note=f"{note}; 2nd: 2 hits")]
        return [_marker_event(sec, name, note=note)]
    if name in ("collateral", "jam"):
        note = "Jam on a fort: Collateral (IO-6.3.10)" if name == "jam" else ""
        return [_shield_step(state, sec, FORT_LOCATION, note, "the fort section's location")]
    if name == "crew":
        return _crew(state, sec, dice, options)
    if name == "fire":
        return _fire(state, sec, dice)
    if name == "magazine":
        return [
            CriticalApplied(
                unit=sec.id,
                name=name,
                rule=RULES[name],
                count=1,
                marker=False,
                destroys=True,
                note="the fort section is destroyed",
            )
        ]
    if name == "explosion":
        events: list[DomainEvent] = []
        hits_roll = _hits_roll(sec, EXPLOSION_HITS, dice, name)
        events.append(hits_roll)
        hits = int(hits_roll.value)
        if sec.hits + hits >= card.hits:
            crew_loss, fire, note = 0, None, "the section is destroyed by the hits"
        else:
            current = max(0, card.crew - sec.crew_damage)
            crew_roll = _loss_roll(sec, FORT_EXPLOSION_CREW, current, current, dice, name)
            events.append(crew_roll)
            crew_loss, fire = int(crew_roll.value), max(sec.fire, FORT_EXPLOSION_FIRE)
            note = f"fort: d4 crew; level-{FORT_EXPLOSION_FIRE} fire"
        events.append(
            CriticalApplied(
                unit=sec.id,
                name=name,
                rule=RULES[name],
                count=1,
                marker=False,
                hits=hits,
                crew_loss=crew_loss,
                fire=fire,
                note=note,
            )
        )
        return events
    assert name in FORT_NO_EFFECT
    return [
        CriticalApplied(
            unit=sec.id,
            name=name,
            rule=RULES[name],
            count=1,
            marker=False,
            note="no effect on a fort section",
        )
    ]


# --------------------------------------------------------------------------- evolve


def _update(state: IronOakState, u: Unit, hits: int, **update: object) -> IronOakState:
    """Replace unit ``u`` with ``update`` and ``hits`` more hits: a ship sinks at its hit value
    (IO-6.2.3J, :func:`gunnery.sink`), a fort section is destroyed at its card's ``hits``."""
    if isinstance(u, FortSectionState):
        return damage_section(state, u.id, hits, **update)
    ships = dict(state.ships)
    total = u.hits + hits
    ships[u.id] = u.model_copy(update={**update, "hits": total})
    if u.afloat and total >= state.card(u.id).hit_value:
        return sink(state, u.id, ships)
    return state.model_copy(update={"ships": ships})


def apply(state: IronOakState, event: DomainEvent) -> IronOakState:
    """Fold a critical, repair or fire event into a new state; any other event: unchanged.

    Events may name a ship or a fort section. Crew damage stops at the full crew factor;
    reaching it removes a ship's repair party (IO-3.1.1); reaching the card's heavy threshold
    makes an active ship retire (status ``retiring``, IO-6.2.3G / IO-6.2.3H; a captured ship
    already retires, IO-6.2.3I). A fire level of 0 removes the fire marker. ``destroys``
    destroys a fort section (IO-6.3.11).
    """
    if isinstance(event, CriticalApplied):
        u = unit(state, event.unit)
        criticals = dict(u.criticals)
        if event.marker:
            criticals[event.name] = CriticalState(
                name=event.name, count=event.count, level=event.level
            )
        else:
            criticals.pop(event.name, None)
        update: dict[str, object] = {"criticals": criticals}
        if event.location is not None and event.shield_after is not None:
            update["shields"] = {**u.shields, event.location: event.shield_after}
        if event.crew_loss:
            full = full_crew(state, u.id)
            crew = min(full, u.crew_damage + event.crew_loss)
            update["crew_damage"] = crew
            if crew >= full:
                update["repair_party"] = False
            if (  # IO-6.2.3G/H: a ship at heavy crew damage retires
                isinstance(u, ShipState)
                and crew >= state.card(u.id).crew.heavy
                and u.status == "active"
            ):
                update["status"] = "retiring"
        if event.fire is not None:
            update["fire"] = event.fire
        if event.destroys and isinstance(u, FortSectionState):
            update["destroyed"] = True
        return _update(state, u, event.hits, **update)
    if isinstance(event, CriticalRepaired):
        u = unit(state, event.unit)
        criticals = dict(u.criticals)
        if event.removed:
            criticals.pop(event.name, None)
        else:
            criticals[event.name] = CriticalState(name=event.name, count=1, level=event.level)
        return _update(state, u, 0, criticals=criticals)
    if isinstance(event, FireChanged):
        u = unit(state, event.unit)
        return _update(state, u, event.hits, fire=event.after)
    return state
