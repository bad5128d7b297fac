"""Iron & Oak gunnery (IO-6.0 – IO-6.2.4, the IO-6.3 critical roll): pure functions, no mutation.

One gun section of a ship, or one gun of a fort section, fires at one enemy unit (IO-6.0):

1. :func:`check_fire` refuses illegal fire with the rule ID and returns the range (IO-6.1).
2. :func:`resolve_fire` rolls the yellow d8 for the hit location as a ``table_roll`` (IO-6.2),
   then the section's gun dice against the location's defence dice as one ``opposed_roll``
   (CR with :func:`gunnery_modifiers`, DR with the location's shield damage, both floored at 1,
   IO-6.2.1), so the recorded ``p_success`` is exactly P(CR > DR). It reads the Standard Damage
   Chart band and the band's row for the location (:func:`read_chart`), emits
   :class:`GunneryResolved`, then smoke (IO-6.2.3C) and, for the critical band,
   a 2d6 ``table_roll`` on the Critical Hit Table column and :class:`CriticalRolled` (IO-6.3).
3. :func:`critical_attack` resolves the attack a Boiler, Explosion or Magazine critical makes on
   a nearby ship (IO-6.3.2, IO-6.3.8, IO-6.3.11) the same way, with the critical's dice pool.
4. :func:`apply` folds those events into the state.

Units. A *unit* is a ship (``state.ships``) or a fort section (``state.sections``, keyed
``"<fort id>.<section id>"``). Fort sections fire and are fired at on their own (IO-6.0,
IO-6.2 "fire at a fort targets a single section"):

* range (IO-6.1): the fort sits on the map edge and is deemed to be in the GB beside it, its
  scenario cell: a ship in that cell is at Short, one GB away at Medium, two away at Long, and
  beyond that out of range. A fort is never at Point Blank. Reading: forts do not fire at forts
  (refused, IO-6.0).
* a fort section as **firer**: ``section`` indexes the guns of that fort section's card. It has
  no Bow-on/Stern-on relations, aground or fouled state; its fire level, smoke marker, repair
  party, criticals (Armament, Captain) and action-card effects modify its CR like a ship's. It
  cannot fire once destroyed or at full crew damage (its card's ``crew``, IO-6.2.3G read for
  forts). Its gun dice make smoke like a ship's (IO-6.2.3C; IO-3.1 has forts check smoke).
  Only a fort section may declare plunging fire, and only at Long range (IO-6.2.3D).
* a fort section as **target** — the reading for its DR: a section is a single location, with
  the card's ``defence`` dice, recorded under location code :data:`FORT_LOCATION` ("A") in the
  events and in the section's ``shields``. No yellow d8 is rolled (there is nothing to choose;
  ``GunneryResolved.face`` is 0). The DR is modified only by that location's shield damage
  (IO-6.2.1). The section is read as armoured (masonry): the damage chart's armour columns
  apply. Its hits count towards the card's ``hits``; reaching them destroys the section. A
  critical band rolls on the Ship column (no WL on a fort).

Other readings of the rules that the seed leaves open are in :class:`GunneryOptions` (one field
per [AMBIG]) or documented at the function that makes them. The gunnery segment around a
single fire (one target per unit, cards, Misfire, Gunfire markers) is :mod:`.fire`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Literal, cast

from pydantic import BaseModel, ConfigDict

from domain.chance import opposed_roll, table_roll
from domain.dice import DiceSource, Modifier, joint, modified_distribution, parse
from domain.errors import IllegalCommand, InvalidCommand
from domain.events import DiceRolled, DomainEvent
from domain.rulesets.iron_oak.basics import Location, Side
from domain.rulesets.iron_oak.events import CriticalRolled, GunneryResolved, SmokeChanged
from domain.rulesets.iron_oak.markers import all_limited
from domain.rulesets.iron_oak.options import ShieldLine
from domain.rulesets.iron_oak.ship_cards import FortSection, GunSection, HitLocation
from domain.rulesets.iron_oak.state import (
    Cell,
    FortSectionState,
    IronOakState,
    ShipState,
    cell_key,
)
from domain.rulesets.iron_oak.tables import ChartRow, DamageChart
from domain.words import possessive

Range = Literal["point_blank", "short", "medium", "long"]
Band = Literal["no_effect", "over", "double", "critical"]
Column = Literal["ship", "wl_bow_on", "wl_stern_on", "wl_other"]
Unit = ShipState | FortSectionState

FORT_LOCATION: Location = "A"
"""The location code under which a fort section's single location is recorded (see above)."""

# rules whose modifiers stop a gun die from making smoke (IO-6.2.3C)
_NO_SMOKE_RULES = frozenset({"IO-5.5.1", "IO-5.5.2", "IO-5.6.5", "IO-6.3.1"})


class GunneryOptions(BaseModel):
    """Switches for the [AMBIG] readings gunnery relies on (defaults as in :class:`IronOakOptions`).

    * ``swap`` (IO-6.2.2 "swap S and B hits"): ``full`` (default, the seed's words: when the
      target is Bow-on or Stern-on to the firer, S hits become B and B hits become S);
      ``paired`` (the digest's [AMBIG] guess: S→B when Bow-on, B→S when Stern-on); ``none``.
    * ``smoke_penalises`` (IO-6.2.3C "smoke modifies gunnery", whose smoke unstated): ``firer``
      (default) — a ship's own smoke marker spoils its own fire; ``target`` — smoke on the target
      hides it; ``both``.

    Not switches here: the IO-6.2 chart [AMBIG] (how a band's last line, the shield step,
    combines with its rows) is ``IronOakOptions.shield_line``, read from the state because
    critical attacks use the chart too (:func:`read_chart`); the IO-6.2.3C [AMBIG] "whose die"
    makes smoke is read as the firer's unmodified highest gun die (the only reading implemented).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    swap: Literal["full", "paired", "none"] = "full"
    smoke_penalises: Literal["firer", "target", "both"] = "firer"
    low_freeboard: bool = False  # IO-9.1 (optional): a low-freeboard ship re-rolls a WL hit


DEFAULT_OPTIONS = GunneryOptions()


# --------------------------------------------------------------------------- look-ups


def is_section(state: IronOakState, unit_id: str) -> bool:
    """True when ``unit_id`` is a fort section (``"<fort id>.<section id>"``)."""
    return unit_id in state.sections


def unit(state: IronOakState, unit_id: str) -> Unit:
    """The ship or fort section with this id.

    Raises:
        InvalidCommand: no such unit.
    """
    if unit_id in state.ships:
        return state.ships[unit_id]
    if unit_id in state.sections:
        return state.sections[unit_id]
    raise InvalidCommand(f"no ship or fort section {unit_id!r} in this game")


def fort_section_card(state: IronOakState, section_id: str) -> FortSection:
    """The card data (guns, defence, hits, crew) of fort section ``section_id``."""
    sec = state.sections[section_id]
    return next(s for s in state.fort_card(sec.fort).sections if s.id == sec.section)


def guns_of(state: IronOakState, unit_id: str) -> list[GunSection]:
    """The gun sections of a ship's card or the guns of a fort section's card."""
    if unit_id in state.sections:
        return fort_section_card(state, unit_id).guns
    return state.card(unit_id).guns


def full_crew(state: IronOakState, unit_id: str) -> int:
    """The crew damage at which the unit cannot fire: the ship card's full crew factor
    (IO-6.2.3G) or the fort section card's ``crew``."""
    if unit_id in state.sections:
        return fort_section_card(state, unit_id).crew
    return state.card(unit_id).crew.full


def effective_side(ship: Unit) -> Side:
    """A captured ship counts for its captor (IO-6.2.3I); a fort section for its fort's side."""
    if isinstance(ship, ShipState) and ship.captured_by is not None:
        return ship.captured_by
    return ship.side


def opponent_of(ship: Unit) -> Side:
    """The side opposing the unit's (effective) side."""
    return "USA" if effective_side(ship) == "CSA" else "CSA"


def in_play(state: IronOakState, unit_id: str) -> bool:
    """A ship afloat on the map, or a fort section not destroyed."""
    u = unit(state, unit_id)
    if isinstance(u, FortSectionState):
        return not u.destroyed
    return _on_map(u)


def _section(state: IronOakState, firer: str, section: int) -> GunSection:
    guns = guns_of(state, firer)
    if not 0 <= section < len(guns):
        raise InvalidCommand(
            f"{firer} has gun sections 0..{len(guns) - 1}, not {section}", rule="IO-6.0"
        )
    return guns[section]


def _on_map(ship: ShipState) -> bool:
    return ship.afloat and ship.cell is not None


def _fouled_together(state: IronOakState, a: str, b: str) -> bool:
    if a not in state.ships or b not in state.ships:
        return False
    return b in state.ships[a].fouled_with or a in state.ships[b].fouled_with


def attached(state: IronOakState, ship: ShipState) -> list[ShipState]:
    """Ships fouled with or attached (towing / towed by) to ``ship``, by id."""
    ids = {s for s in ship.fouled_with if s in state.ships}
    ids |= {s for s in (ship.towing, ship.towed_by) if s is not None and s in state.ships}
    return [state.ships[s] for s in sorted(ids)]


def _aground_affected(state: IronOakState, ship_id: str) -> bool:
    """IO-6.2.3E: the aground ship, and any non-monitor fouled with or attached to one."""
    ship = state.ships.get(ship_id)
    if ship is None:
        return False
    if ship.aground:
        return True
    if state.is_monitor(ship_id):
        return False
    return any(other.aground for other in attached(state, ship))


def _aground_target(state: IronOakState, ship_id: str) -> bool:
    """IO-6.2.3E: firing at an aground ship, or at any ship fouled with or attached to one
    (the seed's monitor exception is for the firer's penalty only)."""
    ship = state.ships.get(ship_id)
    if ship is None:
        return False
    return ship.aground or any(other.aground for other in attached(state, ship))


def _chebyshev(a: Cell, b: Cell) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


# --------------------------------------------------------------------------- range and legality


def fire_range(state: IronOakState, firer: str, target: str) -> Range | None:
    """IO-6.1: Short in the same GB, Medium adjacent, Long two GB away, else out of range.

    Point Blank between ships fouled with each other (IO-6.1, IO-6.2.3B), and when the target
    rammed or spar-attacked the firer in the previous Action Phase (``(target, firer)`` in
    ``state.rammed``, IO-6.1 / IO-5.6.5) and both are in the same GB. A fort section is deemed
    to be in the GB beside it (its scenario cell; the seed: 「それに隣接するGBに存在するとみなす」):
    Short from a ship in that cell, Medium one GB away, Long two away; never Point Blank.
    Off-map, sunk or exited ships and destroyed fort sections have no range; nor do two fort
    sections (forts do not fire at forts).
    """
    a, b = unit(state, firer), unit(state, target)
    if not (in_play(state, firer) and in_play(state, target)):
        return None
    assert a.cell is not None and b.cell is not None
    forts = isinstance(a, FortSectionState) + isinstance(b, FortSectionState)
    if forts == 2:
        return None
    distance = _chebyshev(a.cell, b.cell)  # a fort counts as in its box (IO-6.1)
    if forts == 0:
        if _fouled_together(state, firer, target):
            return "point_blank"
        if (target, firer) in state.rammed and distance == 0:
            return "point_blank"
    return cast(Range | None, {0: "short", 1: "medium", 2: "long"}.get(distance))


def _after_ram(state: IronOakState, ship: str, other: str) -> str:
    """Words for a Bow-on that comes from a ram's aftermath (IO-5.6.5), else nothing."""
    return f" (it rammed {other})" if _bow_on_rule(state, ship, other) == "IO-5.6.5" else ""


def _bow_on_rule(state: IronOakState, ship: str, other: str) -> str:
    """The rule that makes ``ship`` Bow-on to ``other`` for gunnery: a ram's aftermath
    (IO-5.6.5, since 1.1 kept apart from the crossed-T pairs) or a crossed T (IO-5.5.1)."""
    aftermath = state.rules_version >= (1, 1) and (ship, other) in state.aftermath
    return "IO-5.6.5" if aftermath else "IO-5.5.1"


def _night_applies(state: IronOakState, target: str) -> bool:
    """IO-6.2.4: the Night Gunnery Chart is used against a target that is not fouled.

    What a Gunfire marker does is a [GAP] (``options.gunfire_marker``): by default nothing
    here, as the seed's text reads; with ``reveals_target`` (1.0) a target that carries one
    (``state.gunfire``) is fired at as by day — no night modifier and no "N/A" refusal.
    """
    if not state.scenario.night:
        return False
    if state.options.gunfire_marker == "reveals_target" and target in state.gunfire:
        return False
    ship = state.ships.get(target)
    return ship is None or not ship.fouled_with


def check_fire(
    state: IronOakState, firer: str, section: int, target: str, *, plunging: bool = False
) -> Range:
    """The range if ``firer``'s gun ``section`` may fire at ``target``; else IllegalCommand.

    ``firer`` and ``target`` are ship ids or fort section ids; ``plunging`` is a declaration of
    plunging fire (IO-6.2.3D).

    Raises:
        InvalidCommand: an unknown unit or gun section.
        IllegalCommand: with the rule: IO-6.0 (not afloat on the map or destroyed, a friendly
            target, a fort firing at a fort), IO-6.1 (out of range), IO-5.5.1 / IO-5.5.2 ("X"
            section while Bow-on / Stern-on to the target; IO-5.6.5 when the Bow-on is a
            ram's aftermath), IO-6.2.3G (full crew damage),
            IO-6.2.3I (captured), IO-6.2.3D (plunging fire by a ship, or not at Long range),
            IO-6.2.4 (night and "N/A" at this range).
    """
    a, b = unit(state, firer), unit(state, target)
    gun = _section(state, firer, section)
    if firer == target:
        raise IllegalCommand(f"{firer} cannot fire at itself", rule="IO-6.0")
    if isinstance(a, ShipState):
        if not _on_map(a):
            raise IllegalCommand(f"{firer} is not afloat on the map and cannot fire", rule="IO-6.0")
        if a.status == "captured":
            raise IllegalCommand(f"{firer} has been captured and cannot fire", rule="IO-6.2.3I")
    elif a.destroyed:
        raise IllegalCommand(f"fort section {firer} is destroyed", rule="IO-6.0")
    if a.crew_damage >= full_crew(state, firer):
        raise IllegalCommand(
            f"{firer} has full crew damage ({a.crew_damage}) and cannot fire", rule="IO-6.2.3G"
        )
    if not in_play(state, target):
        what = "destroyed" if isinstance(b, FortSectionState) else "not afloat on the map"
        raise IllegalCommand(f"{target} is {what}", rule="IO-6.0")
    if isinstance(a, FortSectionState) and isinstance(b, FortSectionState):
        raise IllegalCommand("fort sections fire at ships, not at forts", rule="IO-6.0")
    if effective_side(a) == effective_side(b):
        raise IllegalCommand(f"{target} is a friendly unit", rule="IO-6.0")
    rng = fire_range(state, firer, target)
    if rng is None:
        raise IllegalCommand(f"{target} is out of range of {firer}", rule="IO-6.1")
    relation = state.combat_relation(firer, target)
    if relation == "bow_on" and gun.bow == "X":
        raise IllegalCommand(
            f"{firer} is Bow-on to {target}{_after_ram(state, firer, target)}: section "
            f"{section} ({gun.name}) cannot fire",
            rule=_bow_on_rule(state, firer, target),
        )
    if relation == "stern_on" and gun.stern == "X":
        raise IllegalCommand(
            f"{firer} is Stern-on to {target}: section {section} ({gun.name}) cannot fire",
            rule="IO-5.5.2",
        )
    if plunging and not isinstance(a, FortSectionState):
        raise IllegalCommand(f"only forts may fire plunging fire, not {firer}", rule="IO-6.2.3D")
    if plunging and rng != "long":
        raise IllegalCommand(f"plunging fire only at Long range, not {rng}", rule="IO-6.2.3D")
    night = _night_applies(state, target) and rng != "point_blank"
    if night and getattr(state.data.tables.night_gunnery, rng) == "N/A":
        raise IllegalCommand(f"no fire at {rng} range at night", rule="IO-6.2.4")
    return rng


# --------------------------------------------------------------------------- modifiers


def armament_penalty(state: IronOakState, unit_id: str, section: int) -> int:
    """The Armament marker's gunnery value for one gun section (IO-6.3.1, IO-6.2.3A).

    The marker is per unit (ship or fort section). Its value is −2/−4, or −1/−2 when every
    section is limited; a limited section (d4/d6) of a unit whose marker has the full values
    takes half of it (−2 → −1, −4 → −2).
    """
    crit = unit(state, unit_id).criticals.get("armament")
    if crit is None:
        return 0
    guns = guns_of(state, unit_id)
    if guns[section].limited and not all_limited(guns):
        return crit.level // 2
    return crit.level


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
      firer (same rules); a ram or spar attacker counts as Bow-on to its target until its next
      gunnery segment is over (IO-5.6.5, ``IronOakState.combat_relation``);
    * repair party (IO-3.1.1), Armament marker for this section (IO-6.3.1, limited sections
      half, :func:`armament_penalty`), Captain (IO-6.3.3), fire level (IO-3.1.2), smoke
      (IO-6.2.3C, whose smoke per ``options.smoke_penalises``);
    * aground (IO-6.2.3E): the penalty when the firer is aground or a non-monitor fouled with or
      attached to an aground ship, the bonus when the target is;
    * fouled (IO-6.2.3B): the penalty for a non-monitor firer fouled with anything;
    * night (IO-6.2.4): the chart's value for the range, against a target that is not fouled
      (nor, with ``options.gunfire_marker`` ``reveals_target``, carries a Gunfire marker). The
      bundled chart has one value per range, so that value is "the single largest";
    * action cards played this segment on the firer for gunnery (IO-7.0,
      ``state.card_modifiers``).

    Fort sections have no relations, aground or fouled state; their repair party, Armament,
    Captain, fire, smoke and cards count as for a ship.
    """
    tables = state.data.tables
    mods = tables.modifiers
    a = unit(state, firer)
    gun = _section(state, firer, section)
    out: list[Modifier] = []

    def add(value: int, rule: str, reason: str) -> None:
        if value:
            out.append(Modifier(value, rule, reason))

    own = state.combat_relation(firer, target)
    if own == "bow_on" and isinstance(gun.bow, int):
        add(
            gun.bow,
            _bow_on_rule(state, firer, target),
            f"{firer} is Bow-on to {target}{_after_ram(state, firer, target)}: {gun.name} bow "
            "value",
        )
    if own == "stern_on" and isinstance(gun.stern, int):
        add(gun.stern, "IO-5.5.2", f"{firer} is Stern-on to {target}: {gun.name} stern value")
    theirs = state.combat_relation(target, firer)
    if theirs == "bow_on":
        add(
            mods.bow_on,
            _bow_on_rule(state, target, firer),
            f"{target} is Bow-on to {firer}{_after_ram(state, target, firer)}",
        )
    if theirs == "stern_on":
        add(mods.stern_on, "IO-5.5.2", f"{target} is Stern-on to {firer}")
    if a.repair_party:  # ships and fort sections (IO-3.1.1)
        add(mods.repair_party, "IO-3.1.1", f"{firer} has a repair party")
    penalty = armament_penalty(state, firer, section)
    if penalty:
        limited = " (limited guns)" if gun.limited else ""
        add(penalty, "IO-6.3.1", f"{firer} Armament critical marker{limited}")
    if "captain" in a.criticals:
        add(mods.captain, "IO-6.3.3", f"{firer} Captain critical")
    if "jam" in a.criticals and isinstance(a, ShipState) and state.is_monitor(firer):
        add(JAM_GUNNERY, "IO-6.3.10", f"{firer} turret jammed")
    if a.fire in tables.fire.levels:
        add(tables.fire.levels[a.fire].gunnery, "IO-3.1.2", f"{firer} fire level {a.fire}")
    smoky: list[ShipState | FortSectionState] = []
    if options.smoke_penalises in ("firer", "both"):
        smoky.append(a)
    if options.smoke_penalises in ("target", "both"):
        smoky.append(unit(state, target))
    for u in smoky:
        if u.smoke != "none":
            add(getattr(tables.smoke, u.smoke), "IO-6.2.3C", f"{u.smoke} smoke on {u.id}")
    if _aground_affected(state, firer):
        add(mods.aground_firer, "IO-6.2.3E", f"{firer} is aground or held by an aground ship")
    if _aground_target(state, target):
        add(mods.aground_target, "IO-6.2.3E", f"{target} is aground or held by an aground ship")
    if isinstance(a, ShipState) and a.fouled_with and not state.is_monitor(firer):
        add(mods.fouled_non_monitor, "IO-6.2.3B", f"{firer} is fouled (not a monitor)")
    if _night_applies(state, target) and rng != "point_blank":
        night = getattr(tables.night_gunnery, rng)
        if isinstance(night, int):
            add(night, "IO-6.2.4", f"night, {rng} range")
    out.extend(m for m in state.card_modifiers(firer, "gunnery", section) if m.value)
    return out


# --------------------------------------------------------------------------- damage chart odds

JAM_GUNNERY = -2  # IO-6.3.10: a jammed monitor turret

BAND_TEXT = {
    "no_effect": "CR ≤ DR: no effect",
    "over": "DR < CR < 2·DR",
    "double": "2·DR ≤ CR < 3·DR",
    "critical": "CR ≥ 3·DR: critical",
}


def band_odds(
    chart: DamageChart,
    pool: str,
    mods: Sequence[Modifier],
    defence: str,
    shield_mods: Sequence[Modifier],
) -> dict[str, Fraction]:
    """The exact chance of each Standard Damage Chart band (IO-6.2) for these pools and
    modifiers, CR and DR floored at 1 (IO-6.2.1)."""
    # computed once per distinct shot: only the chart and the modifiers' sums change the odds;
    # a chart is known by its content (each game loads its own copy of the same tables)
    kept = _CHARTS.get(id(chart))
    if kept is None or kept[0] is not chart:  # the chart is kept with its key: ids stay unique
        if len(_CHARTS) >= 64:
            _CHARTS.clear()
        kept = _CHARTS[id(chart)] = (chart, chart.model_dump_json())
    key = (kept[1], pool, sum(m.value for m in mods), defence, sum(m.value for m in shield_mods))
    found = _BAND_ODDS.get(key)
    if found is None:
        if len(_BAND_ODDS) >= 4096:
            _BAND_ODDS.clear()
        found = _BAND_ODDS[key] = _band_odds(chart, *key[1:])
    return dict(found)


_CHARTS: dict[int, tuple[DamageChart, str]] = {}
_BAND_ODDS: dict[tuple[str, str, int, str, int], dict[str, Fraction]] = {}


def _band_odds(
    chart: DamageChart, pool: str, shift: int, defence: str, shield: int
) -> dict[str, Fraction]:
    cr = modified_distribution(parse(pool), [Modifier(shift, "", "")], 1)
    dr = modified_distribution(parse(defence), [Modifier(shield, "", "")], 1)
    out = dict.fromkeys(BAND_TEXT, Fraction(0))
    for (c, d), p in joint(cr, dr).items():
        out[chart.band(c, d)] += p
    return out


def _frac(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}"


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
    """The location code hit on ship ``target`` by yellow-d8 ``face`` (IO-6.2), after, in order:

    1. the Bow/Stern swap (IO-6.2.2, ``options.swap``) when the target is Bow-on or Stern-on
       to the firer: ``full`` turns S into B and B into S either way, ``paired`` only S→B when
       Bow-on and B→S when Stern-on, ``none`` nothing; a hit is kept as rolled when the
       target's card has no such location (e.g. a monitor card without S);
    2. plunging fire (IO-6.2.3D): a location marked * becomes D;
    3. fouling (IO-6.2.3B, "WL hits become A or TS"): when firer and target are fouled with each
       other, WL becomes TS on a monitor target (whose card has TS) and A otherwise.

    A fort section target has a single location, :data:`FORT_LOCATION`.
    """
    if is_section(state, target):
        return FORT_LOCATION
    card = state.card(target)
    code: str = card.location_for(face).code
    relation = state.combat_relation(target, firer)
    if options.swap != "none" and relation is not None:
        if options.swap == "full":  # the seed: S hits become B and B hits become S
            swapped = {"S": "B", "B": "S"}
        else:  # the digest's reading: S→B when Bow-on, B→S when Stern-on
            swapped = {"bow_on": {"S": "B"}, "stern_on": {"B": "S"}}[relation]
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


def _low_freeboard(state: IronOakState, target: str) -> bool:
    icons = state.card(target).icons
    return "monitor" in icons or "low_freeboard" in icons


def _fort_location(state: IronOakState, section_id: str) -> HitLocation:
    """A fort section's single location: its defence dice, armoured (masonry)."""
    card = fort_section_card(state, section_id)
    return HitLocation(
        faces=list(range(1, 9)), code=FORT_LOCATION, defence=card.defence, armoured=True
    )


# --------------------------------------------------------------------------- resolution


def _highest_natural(roll: DiceRolled) -> int:
    """The firer's highest unmodified gun die (IO-6.2.3C)."""
    return max(roll.roll.faces)


def _exchange(
    state: IronOakState,
    dice: DiceSource,
    *,
    firer: str,
    section: int,
    target: str,
    rng: Range,
    pool: str,
    mods: Sequence[Modifier],
    locate: Callable[[int], str],
    attack: str = "guns",
    rule: str = "",
    purpose: str = "gunnery",
    low_freeboard: bool = False,
) -> tuple[list[DomainEvent], GunneryResolved, DiceRolled]:
    """The d8 location (ship targets only), the CR/DR opposed roll and :class:`GunneryResolved`.

    The attack dice are rolled for the firer's side, or for the target's opponent when the
    "firer" is a critical's source (``attack`` not ``"guns"``)."""
    b = unit(state, target)
    roll_side = effective_side(unit(state, firer)) if attack == "guns" else opponent_of(b)
    events: list[DomainEvent] = []
    if isinstance(b, FortSectionState):
        location, face = _fort_location(state, target), 0
    else:
        card = state.card(target)

        def roll_location(purpose: str, rule: str) -> DiceRolled:
            return table_roll(
                dice,
                expression="d8",
                table=lambda f: (locate(f), 0),  # a location is neither lucky nor not
                side=roll_side,
                purpose=purpose,
                rule=rule,
                subject=firer,
                target_unit=target,
            )

        where = roll_location("hit location", "IO-6.2")
        events.append(where)
        if where.outcome == "WL" and low_freeboard and _low_freeboard(state, target):
            # IO-9.1 (optional): a monitor or low-freeboard ship hit on WL rolls the d8 again
            where = roll_location("hit location (low freeboard)", "IO-9.1")
            events.append(where)
        found = card.location(cast(Location, where.outcome))
        if found is None:  # pragma: no cover - hit_location only yields codes on the card
            raise InvalidCommand(f"{possessive(target)} card has no location {where.outcome}")
        # the d8 face that picked the location; games recorded with 1.0 kept 0 here
        face = where.roll.faces[0] if state.rules_version >= (1, 1) else 0
        location = found
    code = location.code
    shield_before = b.shields.get(code, 0)
    shield_mods: Sequence[Modifier] = (
        [Modifier(shield_before, "IO-6.2.1", f"shield damage on {code}")] if shield_before else []
    )
    gunnery = opposed_roll(
        dice,
        actor=pool,
        opponent=location.defence,
        side=roll_side,
        opponent_side=effective_side(b),
        purpose=purpose,
        rule=rule or "IO-6.2",
        subject=firer,
        target_unit=target,
        actor_modifiers=mods,
        opponent_modifiers=shield_mods,
        floor=1,
    )
    events.append(gunnery)
    assert gunnery.opposed_by is not None
    cr, dr = gunnery.roll.total, gunnery.opposed_by.total
    chart = state.data.tables.damage_chart
    band = chart.band(cr, dr)
    hits, shield_after, reading = _damage(state, location, shield_before, band)
    odds = band_odds(chart, pool, mods, location.defence, shield_mods)
    band_text = BAND_TEXT[band]
    if reading and state.rules_version >= (1, 1):  # 1.0 recorded the band alone
        band_text += f" [{reading}]"
    resolved = GunneryResolved(
        firer=firer,
        section=section,
        target=target,
        range=rng,
        face=face,
        location=code,
        cr=cr,
        dr=dr,
        band=cast(Band, band),
        hits=hits,
        shield_before=shield_before,
        shield_after=shield_after,
        attack=attack,
        rule=rule or "IO-6.2",
        band_text=band_text,
        p_band={name: _frac(p) for name, p in odds.items()},
    )
    events.append(resolved)
    return events, resolved, gunnery


def _critical_roll(
    state: IronOakState, dice: DiceSource, resolved: GunneryResolved, side: Side
) -> list[DomainEvent]:
    """IO-6.3: for the critical band, 2d6 on the column (Ship for fort sections) — if the target
    is still in play after the hits."""
    if resolved.band != "critical" or not in_play(apply(state, resolved), resolved.target):
        return []
    crit_table = state.data.tables.critical_table
    target, firer = resolved.target, resolved.firer
    relation = state.combat_relation(target, firer)
    column = crit_table.column_for(cast(Location, resolved.location), relation)
    entries: dict[int, str] = getattr(crit_table, column)
    crit = table_roll(
        dice,
        expression=crit_table.dice,
        table=lambda total: (entries[total], 0),  # luck-neutral: which critical
        side=side,
        purpose="critical",
        rule="IO-6.3",
        subject=firer,
        target_unit=target,
    )
    return [
        crit,
        CriticalRolled(
            unit=target, column=cast(Column, column), total=crit.roll.total, critical=crit.outcome
        ),
    ]


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
    """One gun section fires at one unit (IO-6.2). Dice order: the d8 (not for a fort section
    target), gun dice, defence dice, then the 2d6 of a critical. Events: the rolls,
    :class:`GunneryResolved`, a :class:`SmokeChanged` (when the firer's gun die makes smoke), the
    critical roll and :class:`CriticalRolled` (its effect is for :mod:`criticals`, applied by
    the caller).

    ``plunging``: a fort section's declaration of plunging fire at Long range (IO-6.2.3D).

    Raises:
        IllegalCommand / InvalidCommand: see :func:`check_fire`; nothing is rolled then.
    """
    rng = check_fire(state, firer, section, target, plunging=plunging)
    gun = _section(state, firer, section)
    mods = gunnery_modifiers(state, firer, section, target, rng, options)

    def locate(face: int) -> str:
        return hit_location(state, firer, target, face, plunging=plunging, options=options)

    events, resolved, gunnery = _exchange(
        state,
        dice,
        firer=firer,
        section=section,
        target=target,
        rng=rng,
        pool=gun.dice,
        mods=mods,
        locate=locate,
        low_freeboard=options.low_freeboard,
    )
    smoke = _smoke(state, firer, mods, gunnery)
    if smoke is not None:
        events.append(smoke)
    side = effective_side(unit(state, firer))
    events.extend(_critical_roll(state, dice, resolved, side))
    return events


def critical_attack(
    state: IronOakState,
    source: str,
    victim: str,
    pool: str,
    critical: str,
    rule: str,
    dice: DiceSource,
    *,
    rng: Range,
) -> list[DomainEvent]:
    """The attack a Boiler, Explosion or Magazine critical on ``source`` makes on ship
    ``victim`` (IO-6.3.2, IO-6.3.8, IO-6.3.11), resolved like gunnery (IO-6.2).

    The d8 location as rolled (no Bow/Stern swap, plunging or fouled WL change: those belong to
    fire between two ships), the location's defence dice with its shield damage, the Standard
    Damage Chart and, for the critical band, the 2d6 critical roll for the victim (the column by
    the victim's relation to the source). ``pool`` is the CR dice, with no modifiers. The dice
    are recorded for the victim's opponent, the defence for the victim.

    Recorded as :class:`GunneryResolved` with ``firer`` the source, ``section`` −1, ``attack``
    the critical's name, ``rule`` its rule, and ``range`` ``rng``: ``point_blank`` for a fouled
    or attached ship, ``short`` for another ship in the same GB. The rolls' purposes are
    "hit location" and "<critical> attack". Dice order: d8, the pool, the defence dice, 2d6.
    """
    if not in_play(state, victim):
        return []

    def locate(face: int) -> str:
        return state.card(victim).location_for(face).code

    events, resolved, _ = _exchange(
        state,
        dice,
        firer=source,
        section=-1,
        target=victim,
        rng=rng,
        pool=pool,
        mods=(),
        locate=locate,
        attack=critical,
        rule=rule,
        purpose=f"{critical.replace('_', ' ')} attack",
    )
    events.extend(_critical_roll(state, dice, resolved, opponent_of(state.ships[victim])))
    return events


def _damage(
    state: IronOakState,
    location: HitLocation,
    shield_before: int,
    band: str,
) -> tuple[int, int, str]:
    """Hits, the new shield value and the chart reading in words on the Standard Damage Chart
    (IO-6.2, IO-6.2.1), with the ``shield_line`` option (see :func:`read_chart`).

    A WL hit that causes hits adds ``wl_extra_hit``. The shield never goes below
    ``shield_floor``.
    """
    chart = state.data.tables.damage_chart
    hits, step, text = read_chart(
        chart,
        band,
        armoured=location.armoured,
        shield=shield_before,
        shield_line=state.options.shield_line,
    )
    if hits > 0 and location.code == "WL":
        hits += chart.wl_extra_hit
    return hits, max(chart.shield_floor, shield_before + step), text


def read_chart(
    chart: DamageChart,
    band: str,
    *,
    armoured: bool,
    shield: int,
    shield_line: ShieldLine,
) -> tuple[int, int, str]:
    """The hits (before the WL extra hit), the shield step and the words for the row read, when
    a location (armoured or wood, at shield damage ``shield``) is hit in ``band`` (IO-6.2).

    The first row of the band the location meets gives the hits. The band's last line applies
    per ``shield_line`` (IO-6.2 [AMBIG]): ``otherwise`` — only when no row does, with its shield
    step and its hits (and a row that applies changes no shield); ``always`` — its shield step in
    every case, the hits from the row (none when no row applies). The words are empty for a band
    with nothing in it (CR ≤ DR).
    """
    entry = getattr(chart, band)
    line = entry.last_line
    if not entry.rows and line.shield_step == 0 and line.hits == 0:
        return 0, 0, ""
    row = chart.row_for(band, armoured=armoured, shield=shield)
    where = f"{'armour' if armoured else 'wood'}, shield {shield}: "
    if shield_line == "always":
        hits = row.hits if row is not None else 0
        found = f"row {_row_words(chart, row, 'no hits')}" if row else "no row applies (no hits)"
        every = f'the last line "shield damage {line.shield_step}" in every case'
        return hits, line.shield_step, f"{where}{found}, and {every}"
    if row is not None:
        return row.hits, 0, where + f"row {_row_words(chart, row, 'no effect')}"
    last = f"shield damage {line.shield_step}" + (f", {_hit_words(line.hits)}" if line.hits else "")
    return line.hits, line.shield_step, where + f'no row applies, so the last line "{last}"'


def _hit_words(n: int) -> str:
    return f"{n} hit" if n == 1 else f"{n} hits"


def _row_words(chart: DamageChart, row: ChartRow, nothing: str) -> str:
    """A row as the chart prints it, e.g. ``"wood with shield damage: 2 hits"``."""
    when = {
        "no_shield_damage": "no shield damage",
        "wood_damaged": "wood with shield damage",
        "armour_damaged": f"armour with shield damage {chart.armour_damaged_at} or worse",
        "wood": "wood",
        "armour": "armour",
    }[row.when]
    return f'"{when}: {_hit_words(row.hits) if row.hits else nothing}"'


def _smoke(
    state: IronOakState, firer: str, mods: Sequence[Modifier], gunnery: DiceRolled
) -> SmokeChanged | None:
    """IO-6.2.3C: the firer's unmodified highest gun die at the trigger or more makes smoke —
    light, or heavy over light — unless a nonzero Bow-on/Stern-on or Armament modifier applied."""
    if any(m.rule in _NO_SMOKE_RULES for m in mods):
        return None
    if _highest_natural(gunnery) < state.data.tables.smoke.trigger_min:
        return None
    current = unit(state, firer).smoke  # ships and fort sections (IO-3.1: "each ship and fort")
    if current == "heavy":
        return None
    return SmokeChanged(ship=firer, smoke="heavy" if current == "light" else "light")


# --------------------------------------------------------------------------- evolve


def sink(state: IronOakState, ship_id: str, ships: dict[str, ShipState]) -> IronOakState:
    """IO-6.2.3J: with ``ships`` (the state's ships, already updated by the caller), remove the
    ship and its fouled/attached markers; a Hulk where the depth is ≤ 2 or the ship was
    aground."""
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


def damage_section(
    state: IronOakState, section_id: str, hits: int, **update: object
) -> IronOakState:
    """Fort section ``section_id`` with ``update`` and ``hits`` more hits; destroyed when its hits
    reach the card's ``hits`` (or when ``update`` says so, IO-6.3.11)."""
    sec = state.sections[section_id]
    total = sec.hits + hits
    destroyed = (
        bool(update.pop("destroyed", False))
        or sec.destroyed
        or total >= fort_section_card(state, section_id).hits
    )
    sections = dict(state.sections)
    sections[section_id] = sec.model_copy(update={**update, "hits": total, "destroyed": destroyed})
    return state.model_copy(update={"sections": sections})


def apply(state: IronOakState, event: DomainEvent) -> IronOakState:
    """Fold a gunnery event into a new state (the given state is left unchanged)."""
    if isinstance(event, GunneryResolved):
        if event.target in state.sections:
            sec = state.sections[event.target]
            shields = {**sec.shields, cast(Location, event.location): event.shield_after}
            return damage_section(state, sec.id, event.hits, shields=shields)
        ship = state.ships[event.target]
        shields = dict(ship.shields)
        shields[cast(Location, event.location)] = event.shield_after
        hits = ship.hits + event.hits
        ships = dict(state.ships)
        ships[ship.id] = ship.model_copy(update={"hits": hits, "shields": shields})
        if ship.afloat and hits >= state.card(ship.id).hit_value:
            return sink(state, ship.id, ships)
        return state.model_copy(update={"ships": ships})
    if isinstance(event, SmokeChanged):
        if event.ship in state.sections:  # a fort section's smoke (IO-3.1)
            sections = dict(state.sections)
            sections[event.ship] = sections[event.ship].model_copy(update={"smoke": event.smoke})
            return state.model_copy(update={"sections": sections})
        ship = state.ships[event.ship]
        ships = dict(state.ships)
        ships[ship.id] = ship.model_copy(update={"smoke": event.smoke})
        return state.model_copy(update={"ships": ships})
    return state  # CriticalRolled: its effects are separate events (criticals module)
