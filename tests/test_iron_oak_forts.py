"""Iron & Oak forts (IO-6.0, IO-6.1, IO-6.2, IO-6.2.3D, IO-6.3.8, IO-6.3.11, IO-3.1.2).

Mobile Bay: The Gauntlet, bundled (provisional) data. Fort Morgan sits on the E edge beside
[4, 3]: its water battery (gun d10d8; defence d10d8, 12 hits, crew 8) and main bastion. Fort
Gaines (W edge beside [0, 2]): north face, south face (guns d10 and a limited d6; defence d8d6,
10 hits, crew 6). Ships: Tennessee (CSA), Tecumseh (Weehawken card, USA monitor) and Hartford
(USA, wood; guns d10d8d6 X/X, d8d6, d6; A d8d6 is a * location, D d6).

Readings pinned here (see the gunnery and criticals module docstrings): a fort section is a
single armoured location recorded as "A", with no d8; its DR is its defence dice with only its
own shield damage; forts do not fire at forts; criticals with no meaning for a fort have no
effect.
"""

from __future__ import annotations

from typing import Any

import pytest

from domain.dice import FixedDice
from domain.errors import IllegalCommand, InvalidCommand
from domain.events import DiceRolled, DomainEvent
from domain.rulesets.iron_oak import criticals, gunnery
from domain.rulesets.iron_oak.criticals import FORT_NO_EFFECT, apply_critical
from domain.rulesets.iron_oak.data import bundled_scenario, resolve_data
from domain.rulesets.iron_oak.events import (
    CriticalApplied,
    CriticalRolled,
    FireChanged,
    GunneryResolved,
    SmokeChanged,
)
from domain.rulesets.iron_oak.gunnery import (
    FORT_LOCATION,
    check_fire,
    fire_range,
    gunnery_modifiers,
    resolve_fire,
)
from domain.rulesets.iron_oak.state import CardEffect, CriticalState, IronOakState, initial_state
from domain.rulesets.iron_oak.status import fire_status

DATA = resolve_data()
TABLES = DATA.tables
WATER = "fort_morgan.water_battery"
BASTION = "fort_morgan.main_bastion"
SOUTH = "fort_gaines.south_face"
NORTH = "fort_gaines.north_face"

PLACES: dict[str, dict[str, Any]] = {
    "tennessee": {"cell": (2, 0)},
    "tecumseh": {"cell": (2, 2), "edge": None},
    "hartford": {"cell": (3, 3), "edge": None},  # one GB from Fort Morgan's cell: Medium
}


def game(
    ships: dict[str, dict[str, Any]] | None = None,
    sections: dict[str, dict[str, Any]] | None = None,
    **state: Any,
) -> IronOakState:
    base = initial_state(bundled_scenario("mobile_bay_gauntlet"), DATA)
    ships = ships or {}
    sections = sections or {}
    new_ships = {
        sid: ship.model_copy(update={**PLACES[sid], **ships.get(sid, {})})
        for sid, ship in base.ships.items()
    }
    new_sections = {
        sid: sec.model_copy(update=sections.get(sid, {})) for sid, sec in base.sections.items()
    }
    return base.model_copy(update={"ships": new_ships, "sections": new_sections, **state})


def night(state: IronOakState) -> IronOakState:
    return state.model_copy(update={"scenario": state.scenario.model_copy(update={"night": True})})


def fire(
    state: IronOakState, firer: str, section: int, target: str, faces: list[int], **kw: Any
) -> list[DomainEvent]:
    dice = FixedDice(faces)
    events = resolve_fire(state, firer, section, target, dice, **kw)
    assert dice.remaining == 0, "every scripted face is used"
    return events


def fold(state: IronOakState, events: list[DomainEvent]) -> IronOakState:
    for event in events:
        state = criticals.apply(gunnery.apply(state, event), event)
    return state


def resolved(events: list[DomainEvent]) -> GunneryResolved:
    [event] = [e for e in events if isinstance(e, GunneryResolved)]
    return event


def rolls(events: list[DomainEvent], purpose: str | None = None) -> list[DiceRolled]:
    return [
        e for e in events if isinstance(e, DiceRolled) and (purpose is None or e.purpose == purpose)
    ]


def refused(state: IronOakState, firer: str, section: int, target: str, **kw: Any) -> str | None:
    with pytest.raises(IllegalCommand) as info:
        check_fire(state, firer, section, target, **kw)
    return info.value.rule


def mods_of(state: IronOakState, firer: str, section: int, target: str) -> list[tuple[int, str]]:
    rng = check_fire(state, firer, section, target)
    return [(m.value, m.rule) for m in gunnery_modifiers(state, firer, section, target, rng)]


def crit(
    state: IronOakState, unit: str, name: str, faces: list[int] | tuple[int, ...] = ()
) -> tuple[list[DomainEvent], IronOakState]:
    dice = FixedDice(faces)
    events = apply_critical(state, unit, name, dice)
    assert dice.remaining == 0, "every scripted face is used"
    return events, fold(state, events)


def applied(events: list[DomainEvent]) -> list[CriticalApplied]:
    return [e for e in events if isinstance(e, CriticalApplied)]


# --------------------------------------------------------------------------- set-up


def test_io_6_0_fort_sections_are_units_of_the_scenario() -> None:
    """IO-6.0: every section of every fort is a unit "<fort>.<section>" beside its fort's cell."""
    state = game()
    assert sorted(state.sections) == sorted([WATER, BASTION, NORTH, SOUTH])
    assert state.sections[WATER].cell == (4, 3) and state.sections[SOUTH].cell == (0, 2)
    assert gunnery.fort_section_card(state, SOUTH).guns[1].limited


# --------------------------------------------------------------------------- IO-6.1 range


@pytest.mark.parametrize(
    ("cell", "expected"),
    [
        ((4, 3), "short"),
        ((3, 3), "medium"),
        ((4, 2), "medium"),
        ((3, 4), "medium"),
        ((2, 3), "long"),
        ((1, 3), None),
    ],
)
def test_io_6_1_fort_counts_as_in_the_adjacent_gb(cell: tuple[int, int], expected: str) -> None:
    """IO-6.1 (seed: 「それに隣接するGBに存在するとみなす」, deemed to be in the adjacent GB): a
    ship in the fort's cell is at Short, one GB away Medium, two Long, beyond that out of
    range — the same both ways; never Point Blank."""
    state = game({"hartford": {"cell": cell}})
    assert fire_range(state, "hartford", WATER) == expected
    assert fire_range(state, WATER, "hartford") == expected


def test_io_6_1_fort_out_of_range_refused() -> None:
    """IO-6.1: beyond Long a fort and a ship cannot fire at each other."""
    state = game({"hartford": {"cell": (1, 3)}})
    assert refused(state, WATER, 0, "hartford") == "IO-6.1"
    assert refused(state, "hartford", 1, WATER) == "IO-6.1"


# --------------------------------------------------------------------------- IO-6.2 fire at a fort


def test_io_6_2_fire_at_a_fort_targets_one_section_single_location() -> None:
    """IO-6.2: fire at a fort targets a single section. Reading: the section is one location
    ("A"), so no d8 is rolled; the DR is the section's defence dice; armoured chart columns."""
    state = game()
    events = fire(state, "hartford", 1, WATER, [7, 2, 3, 1])  # d8d6 vs d10d8: 7 vs 3
    assert rolls(events, "hit location") == []
    [gunnery_roll] = rolls(events, "gunnery")
    assert gunnery_roll.opposed_by is not None
    assert gunnery_roll.opposed_by.expression == "d10d8"
    assert (gunnery_roll.subject, gunnery_roll.target) == ("hartford", WATER)
    event = resolved(events)
    assert (event.target, event.location, event.face, event.range) == (WATER, "A", 0, "medium")
    # armour undamaged: no row of the band applies, so its last line: −2 and 2 hits
    assert (event.band, event.hits, event.shield_after) == ("double", 2, -2)
    after = fold(state, events)
    assert after.sections[WATER].shields == {FORT_LOCATION: -2}
    assert after.sections[WATER].hits == 2
    assert after.sections[BASTION].shields == {}  # only that section
    assert after.ships == state.ships


def test_io_6_2_1_section_dr_modified_only_by_its_shield_damage() -> None:
    """IO-6.2 / IO-6.2.1: the section's DR takes its own shield damage; damaged armour takes
    hits; a critical band rolls 2d6 on the Ship column for the section."""
    state = game(sections={WATER: {"shields": {"A": -2}}, BASTION: {"shields": {"A": -4}}})
    events = fire(state, "hartford", 1, WATER, [8, 1, 3, 1, 6, 6])
    [gunnery_roll] = rolls(events, "gunnery")
    assert gunnery_roll.opposed_by is not None
    assert [(m.value, m.rule) for m in gunnery_roll.opposed_by.modifiers] == [(-2, "IO-6.2.1")]
    event = resolved(events)
    assert (event.cr, event.dr, event.band) == (8, 1, "critical")
    assert event.hits == 2  # armour with shield damage −2 or worse: 2 hits
    assert events[-1] == CriticalRolled(
        unit=WATER, column="ship", total=12, critical=TABLES.critical_table.ship[12]
    )
    assert fold(state, events).sections[WATER].hits == 2


def test_io_6_2_section_destroyed_at_its_hits() -> None:
    """IO-6.2: a section is destroyed when its hits reach the card's value (water battery 12);
    it can no longer fire or be fired at (IO-6.0), and no critical is rolled for it."""
    state = game(sections={WATER: {"hits": 11, "shields": {"A": -2}}})
    events = fire(state, "hartford", 1, WATER, [8, 1, 2, 1])  # 8 vs 0→1: critical, no 2d6
    assert resolved(events).band == "critical"
    assert rolls(events, "critical") == []
    after = fold(state, events)
    assert after.sections[WATER].destroyed and after.sections[WATER].hits == 13
    assert refused(after, "hartford", 1, WATER) == "IO-6.0"
    assert refused(after, WATER, 0, "hartford") == "IO-6.0"
    assert not after.sections[BASTION].destroyed


def test_io_6_2_one_short_of_the_section_hits_survives() -> None:
    state = game(sections={WATER: {"hits": 10, "shields": {"A": -2}}})
    after = fold(state, fire(state, "hartford", 1, WATER, [4, 1, 5, 1]))  # 4 vs 3: over, 1 hit
    assert after.sections[WATER].hits == 11 and not after.sections[WATER].destroyed


# --------------------------------------------------------------------------- IO-6.0 a fort fires


def test_io_6_0_a_fort_section_fires_at_one_target() -> None:
    """IO-6.0: each fort section may fire; ``section`` indexes its own guns. IO-3.1 / IO-6.2.3C:
    forts check smoke too (「各艦及び要塞は火災と煙の状態を判定」), so a natural 10 puts Light
    smoke on the firing section."""
    state = game()
    events = fire(state, WATER, 0, "hartford", [3, 10, 2, 4, 1])  # A d8d6: 10 vs 4
    [where] = rolls(events, "hit location")
    assert where.roll.side == "CSA" and where.subject == WATER
    event = resolved(events)
    assert (event.firer, event.section, event.target) == (WATER, 0, "hartford")
    assert (event.range, event.location, event.band) == ("medium", "A", "double")
    assert [e.smoke for e in events if isinstance(e, SmokeChanged) and e.ship == WATER] == ["light"]
    after = fold(state, events)
    assert after.ships["hartford"].shield("A") == -2
    assert after.sections[WATER].smoke == "light"


def test_io_6_0_fort_refusals() -> None:
    """IO-6.0: no fire at friends or between forts; an unknown gun or unit is invalid;
    IO-6.2.3G: a section at full crew damage (its card's crew) cannot fire."""
    state = game({"tennessee": {"cell": (4, 3)}})
    assert refused(state, WATER, 0, "tennessee") == "IO-6.0"
    assert refused(state, "tennessee", 0, WATER) == "IO-6.0"
    with pytest.raises(IllegalCommand, match="fort") as info:
        check_fire(state, WATER, 0, SOUTH)
    assert info.value.rule == "IO-6.0"
    with pytest.raises(InvalidCommand):
        check_fire(state, WATER, 1, "hartford")  # the water battery has one gun
    with pytest.raises(InvalidCommand):
        check_fire(state, "fort_morgan.nothing", 0, "hartford")
    full = game(sections={WATER: {"crew_damage": 8}})
    assert refused(full, WATER, 0, "hartford") == "IO-6.2.3G"
    assert check_fire(game(sections={WATER: {"crew_damage": 7}}), WATER, 0, "hartford")


def test_io_6_2_1_fort_modifiers() -> None:
    """IO-6.2.1: a fort section's Armament marker (IO-6.3.1; half for its limited d6,
    IO-6.2.3A), Captain (IO-6.3.3), fire (IO-3.1.2), cards (IO-7.0) and an aground target
    (IO-6.2.3E) modify its CR."""
    state = game(
        {"hartford": {"cell": (0, 2), "aground": True}},
        {
            SOUTH: {
                "criticals": {
                    "armament": CriticalState(name="armament", level=-2),
                    "captain": CriticalState(name="captain"),
                },
                "fire": 3,
            }
        },
        effects=(CardEffect(card="well_aimed", unit=SOUTH, use="gunnery", value=2, section=1),),
    )
    common = [
        (TABLES.modifiers.captain, "IO-6.3.3"),
        (TABLES.fire.levels[3].gunnery, "IO-3.1.2"),
        (TABLES.modifiers.aground_target, "IO-6.2.3E"),
    ]
    assert mods_of(state, SOUTH, 0, "hartford") == [(-2, "IO-6.3.1"), *common]
    assert mods_of(state, SOUTH, 1, "hartford") == [(-1, "IO-6.3.1"), *common, (2, "IO-7.0")]


# --------------------------------------------------------------------------- IO-6.2.3D plunging


def test_io_6_2_3d_plunging_fire_by_a_fort_at_long_range() -> None:
    """IO-6.2.3D: a fort firing at Long range may declare plunging fire: Hartford's * location
    A becomes D (defence d6)."""
    state = game({"hartford": {"cell": (2, 3)}})
    events = fire(state, WATER, 0, "hartford", [2, 5, 3, 4], plunging=True)
    event = resolved(events)
    assert (event.range, event.location) == ("long", "D")
    [gunnery_roll] = rolls(events, "gunnery")
    assert gunnery_roll.opposed_by is not None and gunnery_roll.opposed_by.expression == "d6"
    plain = resolved(fire(state, WATER, 0, "hartford", [2, 5, 3, 4, 1]))
    assert plain.location == "A"


def test_io_6_2_3d_plunging_refused_for_ships_and_other_ranges() -> None:
    """IO-6.2.3D: only a fort, and only at Long range; a refused declaration rolls nothing."""
    state = game()
    assert refused(state, "hartford", 1, WATER, plunging=True) == "IO-6.2.3D"
    assert refused(state, WATER, 0, "hartford", plunging=True) == "IO-6.2.3D"  # Medium
    ships = game({"tennessee": {"cell": (2, 4)}, "hartford": {"cell": (2, 2)}})
    assert refused(ships, "tennessee", 0, "hartford", plunging=True) == "IO-6.2.3D"
    dice = FixedDice([1, 1, 1, 1])
    with pytest.raises(IllegalCommand):
        resolve_fire(state, WATER, 0, "hartford", dice, plunging=True)
    assert dice.remaining == 4


# --------------------------------------------------------------------------- IO-6.2.4 night


def test_io_6_2_4_night_fire_at_and_by_forts() -> None:
    """IO-6.2.4: a fort is never fouled, so night applies to fire at it and by it; Long is N/A.
    A Gunfire marker changes nothing by default ([GAP]); with ``gunfire_marker=reveals_target``
    (1.0's reading) night does not apply against a target that carries one."""
    state = night(game())
    assert mods_of(state, "hartford", 1, WATER) == [(-3, "IO-6.2.4")]
    assert mods_of(state, WATER, 0, "hartford") == [(-3, "IO-6.2.4")]
    marked = state.model_copy(update={"gunfire": (WATER,)})
    assert mods_of(marked, "hartford", 1, WATER) == [(-3, "IO-6.2.4")]
    assert mods_of(revealing(marked), "hartford", 1, WATER) == []
    far = night(game({"hartford": {"cell": (2, 3)}}))
    assert refused(far, WATER, 0, "hartford") == "IO-6.2.4"
    far_marked = far.model_copy(update={"gunfire": ("hartford",)})
    assert refused(far_marked, WATER, 0, "hartford") == "IO-6.2.4"
    assert check_fire(revealing(far_marked), WATER, 0, "hartford")


def revealing(state: IronOakState) -> IronOakState:
    """``state`` with ``gunfire_marker=reveals_target`` (IO-6.2.4 [GAP], 1.0's reading)."""
    options = state.options.model_copy(update={"gunfire_marker": "reveals_target"})
    return state.model_copy(update={"options": options})


# --------------------------------------------------------------------------- fort criticals


def test_io_6_3_8_explosion_on_a_fort_section() -> None:
    """IO-6.3.8: fort: d10+d6 hits on the section; it survives: d4 crew and a level-3 fire. No
    attacks on ships (Hartford is beside the fort: no further dice)."""
    state = game()
    events, after = crit(state, WATER, "explosion", [4, 2, 3])
    hits, crew = rolls(events)
    assert (hits.roll.expression, hits.rule, hits.roll.side) == ("d10+d6", "IO-6.3.8", "USA")
    assert crew.roll.expression == "d4"
    [ev] = applied(events)
    assert (ev.unit, ev.hits, ev.crew_loss, ev.fire, ev.marker) == (WATER, 6, 3, 3, False)
    sec = after.sections[WATER]
    assert (sec.hits, sec.crew_damage, sec.fire, sec.destroyed) == (6, 3, 3, False)
    assert after.ships == state.ships
    assert not any(isinstance(e, GunneryResolved) for e in events)


def test_io_6_3_8_explosion_destroying_the_section_skips_crew_and_fire() -> None:
    """IO-6.3.8: "if the section is destroyed, ignore the rest"."""
    state = game(sections={WATER: {"hits": 10}})
    events, after = crit(state, WATER, "explosion", [1, 1])
    [ev] = applied(events)
    assert (ev.crew_loss, ev.fire) == (0, None)
    assert after.sections[WATER].destroyed and after.sections[WATER].fire == 0


def test_io_6_3_8_fort_crew_loss_stops_at_full_crew() -> None:
    state = game(sections={NORTH: {"crew_damage": 5}})
    _, after = crit(state, NORTH, "explosion", [1, 1, 4])
    assert after.sections[NORTH].crew_damage == 6


def test_io_6_3_11_magazine_destroys_the_section() -> None:
    """IO-6.3.11: fort: the section is destroyed — no roll, the other sections stand."""
    state = game()
    events, after = crit(state, WATER, "magazine")
    [ev] = applied(events)
    assert (ev.destroys, ev.rule, ev.hits) == (True, "IO-6.3.11", 0)
    assert after.sections[WATER].destroyed and not after.sections[BASTION].destroyed
    assert refused(after, WATER, 0, "hartford") == "IO-6.0"
    with pytest.raises(IllegalCommand) as info:
        apply_critical(after, WATER, "fire", FixedDice([5]))
    assert info.value.rule == "IO-6.3"


def test_io_6_3_1_armament_on_a_fort_section() -> None:
    """IO-6.3.1 / IO-6.2.3A: −2, −4, then 2 hits; gunnery takes it per gun (limited d6 half)."""
    ev1, s1 = crit(game(), SOUTH, "armament")
    assert applied(ev1)[0].level == -2
    _, s2 = crit(s1, SOUTH, "armament")
    assert s2.sections[SOUTH].criticals["armament"].level == -4
    assert gunnery.armament_penalty(s2, SOUTH, 0) == -4
    assert gunnery.armament_penalty(s2, SOUTH, 1) == -2
    ev3, s3 = crit(s2, SOUTH, "armament")
    assert applied(ev3)[0].hits == 2 and s3.sections[SOUTH].hits == 2


def test_io_6_3_3_captain_on_a_fort_section() -> None:
    """IO-6.3.3 (reading: the fort's commander): a marker, gunnery −1; 2nd: 2 hits."""
    _, s1 = crit(game(), WATER, "captain")
    assert (TABLES.modifiers.captain, "IO-6.3.3") in mods_of(s1, WATER, 0, "hartford")
    _, s2 = crit(s1, WATER, "captain")
    assert s2.sections[WATER].hits == 2


@pytest.mark.parametrize("name", ["collateral", "jam"])
def test_io_6_3_4_collateral_and_jam_on_a_fort_section(name: str) -> None:
    """IO-6.3.4 / IO-6.3.10 (reading): the section is its only location: −1 more shield
    damage on it; already at −4: 2 hits."""
    events, after = crit(game(sections={WATER: {"shields": {"A": -1}}}), WATER, name)
    [ev] = applied(events)
    assert (ev.name, ev.location, ev.shield_after) == ("collateral", "A", -2)
    assert after.sections[WATER].shields == {"A": -2}
    _, after = crit(game(sections={WATER: {"shields": {"A": -4}}}), WATER, name)
    assert after.sections[WATER].hits == 2 and after.sections[WATER].shields == {"A": -4}


def test_io_6_3_5_crew_on_a_fort_section() -> None:
    """IO-6.3.5: the crew bands by the section's crew (8: d6), capped at half (4)."""
    events, after = crit(game(), WATER, "crew", [6])
    assert rolls(events)[0].roll.expression == "d6"
    assert applied(events)[0].crew_loss == 4 and after.sections[WATER].crew_damage == 4


def test_io_6_3_9_fire_on_a_fort_section() -> None:
    """IO-6.3.9: d10 9-10: a level-4 fire on the section."""
    _, after = crit(game(), WATER, "fire", [9])
    assert after.sections[WATER].fire == 4


@pytest.mark.parametrize("name", sorted(FORT_NO_EFFECT))
def test_io_6_3_criticals_without_meaning_for_a_fort_have_no_effect(name: str) -> None:
    """IO-6.3 (reading): Boiler, Engine, Ram, Rudder, Smokestack, Spar, Speed and Steering mean
    nothing for a fort: no dice, no marker, no damage; the event says so."""
    state = game()
    events, after = crit(state, WATER, name)
    [ev] = events
    assert isinstance(ev, CriticalApplied)
    assert (ev.name, ev.marker, ev.hits, ev.note) == (name, False, 0, "no effect on a fort section")
    assert after == state


# --------------------------------------------------------------------------- IO-3.1.2 fire


def status(
    state: IronOakState, unit: str, faces: list[int], last5: bool = False
) -> tuple[list[DomainEvent], IronOakState]:
    dice = FixedDice(faces)
    events = fire_status(state, unit, dice, last5)
    assert dice.remaining == 0
    return events, fold(state, events)


def test_io_3_1_2_fire_status_on_a_fort_section() -> None:
    """IO-3.1 / IO-3.1.2: forts check their fires too: level change, then the hits."""
    events, after = status(game(sections={WATER: {"fire": 3}}), WATER, [9])
    assert events[1] == FireChanged(
        unit=WATER, before=3, rolled=4, after=4, hits=TABLES.fire.levels[4].hits
    )
    assert after.sections[WATER].fire == 4
    assert after.sections[WATER].hits == TABLES.fire.levels[4].hits
    assert status(game(), WATER, [])[0] == []


def test_io_3_1_2_fort_level_five_fire_explodes_as_a_fort() -> None:
    """IO-3.1.2 / IO-6.3.8: a level-5 fire that did not drop is a fort Explosion."""
    events, after = status(game(sections={WATER: {"fire": 5}}), WATER, [5, 4, 2, 3], last5=True)
    [boom] = applied(events)
    assert boom.name == "explosion" and boom.hits == 6 and boom.crew_loss == 3
    sec = after.sections[WATER]
    assert (sec.fire, sec.hits, sec.crew_damage) == (3, 6, 3)


def test_io_3_1_2_fire_hits_destroy_a_section_and_a_destroyed_one_does_not_burn() -> None:
    state = game(sections={WATER: {"fire": 5, "hits": 11}})
    _, after = status(state, WATER, [9])
    assert after.sections[WATER].destroyed
    assert fire_status(after, WATER, FixedDice([]), False) == []


def test_io_3_1_fort_smoke_spoils_its_fire_and_clears_in_the_status_phase() -> None:
    """IO-3.1, IO-6.2.3C: a fort section's smoke modifies its own fire, and its side's Status
    Phase checks it for removal like a ship's (success lightens it one step)."""
    state = game(sections={WATER: {"smoke": "heavy"}})
    mods = gunnery.gunnery_modifiers(state, WATER, 0, "hartford", "medium")
    heavy = DATA.tables.smoke.heavy
    assert (heavy, "IO-6.2.3C") in [(m.value, m.rule) for m in mods]
    from domain.rulesets.iron_oak.evolve import evolve
    from domain.rulesets.iron_oak.state import StatusChoice
    from domain.rulesets.iron_oak.status import run_status

    events = run_status(state, {"CSA": StatusChoice()}, FixedDice([10]), evolve)
    removal = [e for e in rolls(events, "smoke removal") if e.subject == WATER]
    assert len(removal) == 1 and removal[0].success
    after = state
    for event in events:
        after = evolve(after, event)
    assert after.sections[WATER].smoke == "light"


def test_io_3_1_1_a_fort_section_takes_a_repair_party_and_repairs() -> None:
    """IO-3.1.1 ("a unit" may place a repair party, forts included): a fort section with an
    Armament critical gets a party at the end of its side's Status Phase, fires at −2 while
    it is there, and at the next Status Phase the party repairs (d10d4 vs d10; −4 → −2)."""
    from domain.rulesets.iron_oak.evolve import evolve
    from domain.rulesets.iron_oak.state import CriticalState, StatusChoice
    from domain.rulesets.iron_oak.status import run_status

    armament = {"armament": CriticalState(name="armament", count=2, level=-4)}
    state = game(sections={WATER: {"criticals": armament}})
    placed = run_status(state, {"CSA": StatusChoice(place=(WATER,))}, FixedDice([]), evolve)
    after = state
    for event in placed:
        after = evolve(after, event)
    assert after.sections[WATER].repair_party
    mods = gunnery.gunnery_modifiers(after, WATER, 0, "hartford", "medium")
    assert (DATA.tables.modifiers.repair_party, "IO-3.1.1") in [(m.value, m.rule) for m in mods]
    repaired = run_status(after, {"CSA": StatusChoice()}, FixedDice([9, 3, 2]), evolve)
    [roll] = rolls(repaired, "repair armament")
    assert roll.success and roll.subject == WATER
    for event in repaired:
        after = evolve(after, event)
    assert after.sections[WATER].criticals["armament"].level == -2
