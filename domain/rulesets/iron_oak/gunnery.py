"""Iron & Oak gunnery (IO-6.0 – IO-6.2.4, the IO-6.3 critical roll): pure functions, no mutation.

One gun section of a ship fires at one enemy ship:

1. :func:`check_fire` refuses illegal fire with the rule ID and returns the range (IO-6.1).
2. :func:`resolve_fire` rolls the yellow d8 for the hit location as a ``table_roll`` (IO-6.2),
   then the section's gun dice against the location's defence dice as one ``opposed_roll``
   (CR with :func:`gunnery_modifiers`, DR with the location's shield damage, both floored at 1,
   IO-6.2.1), so the recorded ``p_success`` is exactly P(CR > DR). It reads the Standard Damage
   Chart band, emits :class:`GunneryResolved`, then smoke (IO-6.2.3C) and, for the critical band,
   a 2d6 ``table_roll`` on the Critical Hit Table column and :class:`CriticalRolled` (IO-6.3).
3. :func:`apply` folds those events into the state.

Readings of the rules that the seed leaves open are in :class:`GunneryOptions` (one field per
[AMBIG]) or documented at the function that makes them. Not covered yet: forts as firers or
targets (and so plunging-fire declaration, IO-6.2.3D, other than the ``plunging`` flag of
:func:`hit_location`), the ram/spar Point Blank of IO-6.1 / IO-5.6.5, one-target-per-ship
bookkeeping (IO-6.0), Gunfire markers (IO-6.2.4), Misfire cards (IO-3.3.2D), the Jam critical's
gunnery penalty (IO-6.3.10, no table value) and the effects of criticals (IO-6.3.x).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, cast

from pydantic import BaseModel, ConfigDict

from domain.chance import opposed_roll, table_roll
from domain.dice import DiceSource, Modifier
from domain.errors import IllegalCommand, InvalidCommand
from domain.events import DiceRolled, DomainEvent
from domain.rulesets.iron_oak.data import GunSection, HitLocation, Location, Side
from domain.rulesets.iron_oak.events import CriticalRolled, GunneryResolved, SmokeChanged
from domain.rulesets.iron_oak.state import Cell, IronOakState, ShipState, cell_key

Range = Literal["point_blank", "short", "medium", "long"]

# rules whose modifiers stop a gun die from making smoke (IO-6.2.3C)
_NO_SMOKE_RULES = frozenset({"IO-5.5.1", "IO-5.5.2", "IO-6.3.1"})


class GunneryOptions(BaseModel):
    """Switches for the [AMBIG] readings gunnery relies on (defaults: the digest's likely reading).

    * ``swap`` (IO-6.2.2 [AMBIG] "swap S and B hits"): True reads it as S→B when the target is
      Bow-on to the firer and B→S when it is Stern-on; False applies no swap at all.
    * ``smoke_penalises`` (IO-6.2.3C "smoke modifies gunnery", whose smoke unstated): ``firer``
      (default) — a ship's own smoke marker spoils its own fire; ``target`` — smoke on the target
      hides it; ``both``.

    Not switches here: the IO-6.2 chart [AMBIG] for 2·DR ≤ CR < 3·DR is data (the damage chart's
    ``double`` band; the bundled one always steps −2 and only damaged locations take hits), and
    the IO-6.2.3C [AMBIG] "whose die" makes smoke is read as the firer's unmodified highest gun
    die (the only reading implemented).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    swap: bool = True
    smoke_penalises: Literal["firer", "target", "both"] = "firer"


DEFAULT_OPTIONS = GunneryOptions()


# --------------------------------------------------------------------------- look-ups


def _ship(state: IronOakState, ship_id: str) -> ShipState:
    try:
        return state.ships[ship_id]
    except KeyError:
        raise InvalidCommand(f"no ship {ship_id!r} in this game") from None


def _section(state: IronOakState, firer: str, section: int) -> GunSection:
    guns = state.card(firer).guns
    if not 0 <= section < len(guns):
        raise InvalidCommand(
            f"{firer} has gun sections 0..{len(guns) - 1}, not {section}", rule="IO-6.0"
        )
    return guns[section]


def _on_map(ship: ShipState) -> bool:
    return ship.afloat and ship.cell is not None


def _fouled_together(state: IronOakState, a: str, b: str) -> bool:
    return b in state.ships[a].fouled_with or a in state.ships[b].fouled_with


def _effective_side(ship: ShipState) -> Side:
    """A captured ship counts for its captor (IO-6.2.3I)."""
    return ship.captured_by if ship.captured_by is not None else ship.side


def _attached(state: IronOakState, ship: ShipState) -> list[ShipState]:
    """Ships fouled with or attached (towing) to ``ship``."""
    ids = {s for s in ship.fouled_with if s in state.ships}
    ids |= {s for s in (ship.towing, ship.towed_by) if s is not None and s in state.ships}
    return [state.ships[s] for s in sorted(ids)]


def _aground_affected(state: IronOakState, ship_id: str) -> bool:
    """IO-6.2.3E: the aground ship, and any non-monitor fouled with or attached to one."""
    ship = state.ships[ship_id]
    if ship.aground:
        return True
    if state.is_monitor(ship_id):
        return False
    return any(other.aground for other in _attached(state, ship))


def _chebyshev(a: Cell, b: Cell) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


# --------------------------------------------------------------------------- range and legality


def fire_range(state: IronOakState, firer: str, target: str) -> Range | None:
    """IO-6.1: short in the same GB, medium adjacent, long two GB away, else out of range.

    Point Blank when the two ships are fouled with each other (IO-6.1, IO-6.2.3B). Off-map,
    sunk or exited ships have no range.
    """
    a, b = _ship(state, firer), _ship(state, target)
    if not (_on_map(a) and _on_map(b)):
        return None
    if _fouled_together(state, firer, target):
        return "point_blank"
    assert a.cell is not None and b.cell is not None
    return cast(Range | None, {0: "short", 1: "medium", 2: "long"}.get(_chebyshev(a.cell, b.cell)))


def _night_applies(state: IronOakState, target: str) -> bool:
    """IO-6.2.4: the Night Gunnery Chart is used against a target that is not fouled."""
    return state.scenario.night and not state.ships[target].fouled_with


def check_fire(state: IronOakState, firer: str, section: int, target: str) -> Range:
    """The range if ``firer``'s gun ``section`` may fire at ``target``; else IllegalCommand.

    Raises:
        InvalidCommand: an unknown ship or gun section.
        IllegalCommand: with the rule: IO-6.0 (not afloat on the map, a friendly target),
            IO-6.1 (out of range), IO-5.5.1 / IO-5.5.2 ("X" section while Bow-on / Stern-on to
            the target), IO-6.2.3G (full crew damage), IO-6.2.3I (captured), IO-6.2.4 (night and
            "N/A" at this range).
    """
    a, b = _ship(state, firer), _ship(state, target)
    gun = _section(state, firer, section)
    if firer == target:
        raise IllegalCommand(f"{firer} cannot fire at itself", rule="IO-6.0")
    if not _on_map(a):
        raise IllegalCommand(f"{firer} is not afloat on the map and cannot fire", rule="IO-6.0")
    if a.status == "captured":
        raise IllegalCommand(f"{firer} has been captured and cannot fire", rule="IO-6.2.3I")
    if a.crew_damage >= state.card(firer).crew.full:
        raise IllegalCommand(
            f"{firer} has full crew damage ({a.crew_damage}) and cannot fire", rule="IO-6.2.3G"
        )
    if not _on_map(b):
        raise IllegalCommand(f"{target} is not afloat on the map", rule="IO-6.0")
    if _effective_side(a) == _effective_side(b):
        raise IllegalCommand(f"{target} is a friendly ship", rule="IO-6.0")
    rng = fire_range(state, firer, target)
    if rng is None:
        raise IllegalCommand(f"{target} is out of range of {firer}", rule="IO-6.1")
    relation = state.relation(firer, target)
    if relation == "bow_on" and gun.bow == "X":
        raise IllegalCommand(
            f"{firer} is Bow-on to {target}: section {section} ({gun.name}) cannot fire",
            rule="IO-5.5.1",
        )
    if relation == "stern_on" and gun.stern == "X":
        raise IllegalCommand(
            f"{firer} is Stern-on to {target}: section {section} ({gun.name}) cannot fire",
            rule="IO-5.5.2",
        )
    night = _night_applies(state, target) and rng != "point_blank"
    if night and getattr(state.data.tables.night_gunnery, rng) == "N/A":
        raise IllegalCommand(f"no fire at {rng} range at night", rule="IO-6.2.4")
    return rng


# --------------------------------------------------------------------------- modifiers


def gunnery_modifiers(
    state: IronOakState,
    firer: str,
    section: int,
    target: str,
    rng: Range,
    options: GunneryOptions = DEFAULT_OPTIONS,
) -> list[Modifier]:
    """The cumulative modifiers to the firer's CR (IO-6.2.1); zero values are left out.

    * the section's bow/stern value when the firer is Bow-on / Stern-on to the target (IO-5.5.1,
      IO-5.5.2); ``modifiers.bow_on`` / ``stern_on`` when the target is Bow-on / Stern-on to the
      firer (same rules);
    * repair party (IO-3.1.1), Armament marker (IO-6.3.1), Captain (IO-6.3.3), fire level
      (IO-3.1.2), smoke (IO-6.2.3C, whose smoke per ``options.smoke_penalises``);
    * aground (IO-6.2.3E): the penalty when the firer is aground or a non-monitor fouled with or
      attached to an aground ship, the bonus when the target is;
    * fouled (IO-6.2.3B): the penalty for a non-monitor firer fouled with anything;
    * night (IO-6.2.4): the chart's value for the range, against a target that is not fouled.
      The bundled chart has one value per range, so that value is "the single largest".
    """
    tables = state.data.tables
    mods = tables.modifiers
    a = state.ships[firer]
    gun = _section(state, firer, section)
    out: list[Modifier] = []

    def add(value: int, rule: str, reason: str) -> None:
        if value:
            out.append(Modifier(value, rule, reason))

    own = state.relation(firer, target)
    if own == "bow_on" and isinstance(gun.bow, int):
        add(gun.bow, "IO-5.5.1", f"{firer} is Bow-on to {target}: {gun.name} bow value")
    if own == "stern_on" and isinstance(gun.stern, int):
        add(gun.stern, "IO-5.5.2", f"{firer} is Stern-on to {target}: {gun.name} stern value")
    theirs = state.relation(target, firer)
    if theirs == "bow_on":
        add(mods.bow_on, "IO-5.5.1", f"{target} is Bow-on to {firer}")
    if theirs == "stern_on":
        add(mods.stern_on, "IO-5.5.2", f"{target} is Stern-on to {firer}")
    if a.repair_party:
        add(mods.repair_party, "IO-3.1.1", f"{firer} has a repair party")
    armament = a.criticals.get("armament")
    if armament is not None:
        add(armament.level, "IO-6.3.1", f"{firer} Armament critical marker")
    if "captain" in a.criticals:
        add(mods.captain, "IO-6.3.3", f"{firer} Captain critical")
    if a.fire in tables.fire.levels:
        add(tables.fire.levels[a.fire].gunnery, "IO-3.1.2", f"{firer} fire level {a.fire}")
    smoky: list[ShipState] = []
    if options.smoke_penalises in ("firer", "both"):
        smoky.append(a)
    if options.smoke_penalises in ("target", "both"):
        smoky.append(state.ships[target])
    for ship in smoky:
        if ship.smoke != "none":
            add(getattr(tables.smoke, ship.smoke), "IO-6.2.3C", f"{ship.smoke} smoke on {ship.id}")
    if _aground_affected(state, firer):
        add(mods.aground_firer, "IO-6.2.3E", f"{firer} is aground or held by an aground ship")
    if _aground_affected(state, target):
        add(mods.aground_target, "IO-6.2.3E", f"{target} is aground or held by an aground ship")
    if a.fouled_with and not state.is_monitor(firer):
        add(mods.fouled_non_monitor, "IO-6.2.3B", f"{firer} is fouled (not a monitor)")
    if _night_applies(state, target) and rng != "point_blank":
        night = getattr(tables.night_gunnery, rng)
        if isinstance(night, int):
            add(night, "IO-6.2.4", f"night, {rng} range")
    return out


# --------------------------------------------------------------------------- hit location


def hit_location(
    state: IronOakState,
    firer: str,
    target: str,
    face: int,
    *,
    plunging: bool = False,
    options: GunneryOptions = DEFAULT_OPTIONS,
) -> str:
    """The location code hit on yellow-d8 ``face`` (IO-6.2), after, in this order:

    1. the Bow/Stern swap (IO-6.2.2, ``options.swap``): S→B when the target is Bow-on to the
       firer, B→S when Stern-on; kept as rolled when the target's card has no such location
       (e.g. a monitor card without S);
    2. plunging fire (IO-6.2.3D): a location marked * becomes D;
    3. fouling (IO-6.2.3B, "WL hits become A or TS"): when firer and target are fouled with each
       other, WL becomes TS on a monitor target (whose card has TS) and A otherwise.
    """
    card = state.card(target)
    code: str = card.location_for(face).code
    if options.swap:
        relation = state.relation(target, firer)
        swapped = {"bow_on": {"S": "B"}, "stern_on": {"B": "S"}}.get(relation or "", {})
        new = swapped.get(code)
        if new is not None and card.location(cast(Location, new)) is not None:
            code = new
    loc = card.location(cast(Location, code))
    if plunging and loc is not None and loc.plunging:
        code = "D"
    if code == "WL" and _fouled_together(state, firer, target):
        monitor_ts = state.is_monitor(target) and card.location("TS") is not None
        code = "TS" if monitor_ts else "A"
    return code


# --------------------------------------------------------------------------- resolution


def _highest_natural(roll: DiceRolled) -> int:
    """The firer's highest unmodified gun die (IO-6.2.3C)."""
    return max(roll.roll.faces)


def resolve_fire(
    state: IronOakState,
    firer: str,
    section: int,
    target: str,
    dice: DiceSource,
    options: GunneryOptions = DEFAULT_OPTIONS,
    *,
    plunging: bool = False,
) -> list[DomainEvent]:
    """One gun section fires at one ship (IO-6.2). Dice order: d8, gun dice, defence dice, 2d6.

    Raises:
        IllegalCommand / InvalidCommand: see :func:`check_fire`; nothing is rolled then.
    """
    rng = check_fire(state, firer, section, target)
    tables = state.data.tables
    chart = tables.damage_chart
    gun = _section(state, firer, section)
    a, b = state.ships[firer], state.ships[target]
    card = state.card(target)
    mods = gunnery_modifiers(state, firer, section, target, rng, options)
    events: list[DomainEvent] = []

    def locate(face: int) -> tuple[str, int]:
        return hit_location(state, firer, target, face, plunging=plunging, options=options), face

    where = table_roll(
        dice,
        expression="d8",
        table=locate,
        side=a.side,
        purpose="hit location",
        rule="IO-6.2",
        subject=firer,
        target_unit=target,
    )
    events.append(where)
    code = cast(Location, where.outcome)
    location = card.location(code)
    if location is None:  # pragma: no cover - hit_location only yields codes on the card
        raise InvalidCommand(f"{target}'s card has no location {code}")
    shield_before = b.shield(code)
    shield_mods: Sequence[Modifier] = (
        [Modifier(shield_before, "IO-6.2.1", f"shield damage on {code}")] if shield_before else []
    )
    gunnery = opposed_roll(
        dice,
        actor=gun.dice,
        opponent=location.defence,
        side=a.side,
        opponent_side=b.side,
        purpose="gunnery",
        rule="IO-6.2",
        subject=firer,
        target_unit=target,
        actor_modifiers=mods,
        opponent_modifiers=shield_mods,
        floor=1,
    )
    events.append(gunnery)
    assert gunnery.opposed_by is not None
    cr, dr = gunnery.roll.total, gunnery.opposed_by.total
    band = chart.band(cr, dr)
    hits, shield_after = _damage(state, location, shield_before, band)
    resolved = GunneryResolved(
        firer=firer,
        section=section,
        target=target,
        range=rng,
        face=int(where.value),
        location=code,
        cr=cr,
        dr=dr,
        band=cast(Literal["no_effect", "over", "double", "critical"], band),
        hits=hits,
        shield_before=shield_before,
        shield_after=shield_after,
    )
    events.append(resolved)
    after = apply(state, resolved)

    smoke = _smoke(state, firer, mods, gunnery)
    if smoke is not None:
        events.append(smoke)

    if band == "critical" and after.ships[target].afloat:
        crit_table = tables.critical_table
        column = crit_table.column_for(code, state.relation(target, firer))
        entries: dict[int, str] = getattr(crit_table, column)
        crit = table_roll(
            dice,
            expression=crit_table.dice,
            table=lambda total: (entries[total], total),
            side=a.side,
            purpose="critical",
            rule="IO-6.3",
            subject=firer,
            target_unit=target,
        )
        events.append(crit)
        events.append(
            CriticalRolled(
                unit=target,
                column=cast(Literal["ship", "wl_bow_on", "wl_stern_on", "wl_other"], column),
                total=crit.roll.total,
                critical=crit.outcome,
            )
        )
    return events


def _damage(
    state: IronOakState,
    location: HitLocation,
    shield_before: int,
    band: str,
) -> tuple[int, int]:
    """Hits and the new shield value on the Standard Damage Chart (IO-6.2, IO-6.2.1).

    Wood counts as damaged at any shield damage, armour at ``armour_damaged_at`` or worse. A WL
    hit that causes hits adds ``wl_extra_hit``. The shield never goes below ``shield_floor``.
    """
    chart = state.data.tables.damage_chart
    row = getattr(chart, band)
    if location.armoured:
        damaged = shield_before <= chart.armour_damaged_at
        hits = row.armour_damaged if damaged else row.armour_undamaged
    else:
        damaged = shield_before < 0
        hits = row.wood_damaged if damaged else row.wood_undamaged
    if hits > 0 and location.code == "WL":
        hits += chart.wl_extra_hit
    return hits, max(chart.shield_floor, shield_before + row.shield_step)


def _smoke(
    state: IronOakState, firer: str, mods: Sequence[Modifier], gunnery: DiceRolled
) -> SmokeChanged | None:
    """IO-6.2.3C: the firer's unmodified highest gun die at the trigger or more makes smoke —
    light, or heavy over light — unless a nonzero Bow-on/Stern-on or Armament modifier applied."""
    if any(m.rule in _NO_SMOKE_RULES for m in mods):
        return None
    if _highest_natural(gunnery) < state.data.tables.smoke.trigger_min:
        return None
    current = state.ships[firer].smoke
    if current == "heavy":
        return None
    return SmokeChanged(ship=firer, smoke="heavy" if current == "light" else "light")


# --------------------------------------------------------------------------- evolve


def _sink(state: IronOakState, ship_id: str, ships: dict[str, ShipState]) -> IronOakState:
    """IO-6.2.3J: remove the ship and its fouled/attached markers; a Hulk where the depth is
    ≤ 2 or the ship was aground."""
    ship = ships[ship_id]
    for other_id, other in list(ships.items()):
        if other_id == ship_id:
            continue
        update: dict[str, object] = {}
        if ship_id in other.fouled_with:
            update["fouled_with"] = tuple(f for f in other.fouled_with if f != ship_id)
        if other.towing == ship_id:
            update["towing"] = None
        if other.towed_by == ship_id:
            update["towed_by"] = None
        if update:
            ships[other_id] = other.model_copy(update=update)
    ships[ship_id] = ship.model_copy(
        update={"status": "sunk", "fouled_with": (), "towing": None, "towed_by": None}
    )
    markers = dict(state.markers)
    if ship.cell is not None and (ship.aground or state.box(ship.cell).depth <= 2):
        key = cell_key(ship.cell)
        markers[key] = (*markers.get(key, ()), "hulk")
    return state.model_copy(update={"ships": ships, "markers": markers})


def apply(state: IronOakState, event: DomainEvent) -> IronOakState:
    """Fold a gunnery event into a new state (the given state is left unchanged)."""
    if isinstance(event, GunneryResolved):
        ship = state.ships[event.target]
        shields = dict(ship.shields)
        shields[cast(Location, event.location)] = event.shield_after
        hits = ship.hits + event.hits
        ships = dict(state.ships)
        ships[ship.id] = ship.model_copy(update={"hits": hits, "shields": shields})
        if ship.afloat and hits >= state.card(ship.id).hit_value:
            return _sink(state, ship.id, ships)
        return state.model_copy(update={"ships": ships})
    if isinstance(event, SmokeChanged):
        ship = state.ships[event.ship]
        ships = dict(state.ships)
        ships[ship.id] = ship.model_copy(update={"smoke": event.smoke})
        return state.model_copy(update={"ships": ships})
    return state  # CriticalRolled: its effects are separate events (later slice)
