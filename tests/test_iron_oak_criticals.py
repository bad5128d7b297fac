"""Iron & Oak critical effects (IO-6.3.1 – IO-6.3.17), repair (IO-3.1.1), fire status (IO-3.1.2).

Bundled (provisional) cards used: Virginia (CSA, crew 5/9-13, 18 hits, no spar, guns d10 /
d10d6 / d10, starts with a Smokestack critical; locations B A S WL D), Cumberland (USA, crew
16, 14 hits, guns d10d8 / d8 / d6d4), Monitor (USA monitor, crew 7, 12 hits; B TF TS TR WL A
D), Atlanta (CSA, green, crew 10, spar d10d8), Weehawken (USA monitor, elite, crew 8).
FixedDice faces are consumed in the order the docstrings of ``criticals`` give.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from domain.dice import FixedDice
from domain.errors import IllegalCommand, InvalidCommand
from domain.events import DiceRolled, DomainEvent
from domain.rulesets.iron_oak import gunnery
from domain.rulesets.iron_oak.criticals import (
    RULES,
    STEERING_HORIZONTAL,
    STEERING_VERTICAL,
    CriticalOptions,
    apply,
    apply_critical,
    armament_penalty,
    collateral_location,
)
from domain.rulesets.iron_oak.data import bundled_scenario, resolve_data
from domain.rulesets.iron_oak.events import (
    CriticalApplied,
    CriticalRepaired,
    CriticalRolled,
    FireChanged,
    GunneryResolved,
)
from domain.rulesets.iron_oak.repair import check_repair_party, repair_attempt, repair_target
from domain.rulesets.iron_oak.responses import blocks_t_ram_spar, response_modifiers
from domain.rulesets.iron_oak.ship_cards import GunSection
from domain.rulesets.iron_oak.state import CriticalState, IronOakState, initial_state
from domain.rulesets.iron_oak.status import fire_status

DATA = resolve_data()

PLACES: dict[str, dict[str, dict[str, Any]]] = {
    "hampton_roads": {
        "virginia": {"cell": (1, 1), "edge": None},
        "cumberland": {"cell": (2, 1)},  # not in Virginia's GB: no explosion attacks
        "monitor": {"cell": (1, 2)},
    },
    "wassaw_sound": {
        "atlanta": {"cell": (2, 2)},
        "weehawken": {"cell": (2, 3)},
        "nahant": {"cell": (2, 4)},
    },
}


def game(scenario: str = "hampton_roads", **updates: dict[str, Any]) -> IronOakState:
    state = initial_state(bundled_scenario(scenario), DATA)
    base = PLACES[scenario]
    ships = {
        sid: ship.model_copy(update={**base[sid], **updates.get(sid, {})})
        for sid, ship in state.ships.items()
    }
    return state.model_copy(update={"ships": ships})


def crits(**levels: tuple[int, int]) -> dict[str, CriticalState]:
    """name=(count, level) -> criticals dict."""
    return {n: CriticalState(name=n, count=c, level=lv) for n, (c, lv) in levels.items()}


def crit(
    state: IronOakState, unit: str, name: str, faces: tuple[int, ...] | list[int] = (), **kw: Any
) -> tuple[list[DomainEvent], IronOakState]:
    dice = FixedDice(faces)
    events = apply_critical(state, unit, name, dice, **kw)
    assert dice.remaining == 0, "every scripted face is used"
    after = state
    for event in events:  # the criticals' events, and the gunnery events of their attacks
        after = gunnery.apply(apply(after, event), event)
    return events, after


def applied(events: list[DomainEvent]) -> list[CriticalApplied]:
    return [e for e in events if isinstance(e, CriticalApplied)]


def rolls(events: list[DomainEvent]) -> list[DiceRolled]:
    return [e for e in events if isinstance(e, DiceRolled)]


# --------------------------------------------------------------------------- events


def test_events_have_topics_and_rules() -> None:
    for cls in (CriticalApplied, CriticalRepaired, FireChanged):
        assert cls.TOPIC.removeprefix("iron_oak.") == f"{cls.__name__}/1"
        assert cls.RULE.startswith("IO-")
    event = CriticalApplied(unit="x", name="ram", rule="IO-6.3.12", count=1, marker=True)
    assert event.rule_id() == "IO-6.3.12"


def test_unknown_critical_ship_and_sunk_ship_refused() -> None:
    state = game()
    with pytest.raises(InvalidCommand):
        apply_critical(state, "virginia", "leak", FixedDice([]))
    with pytest.raises(InvalidCommand):
        apply_critical(state, "nobody", "ram", FixedDice([]))
    sunk = game(virginia={"status": "sunk"})
    with pytest.raises(IllegalCommand) as err:
        apply_critical(sunk, "virginia", "ram", FixedDice([]))
    assert err.value.rule == "IO-6.3"


def test_state_is_not_mutated() -> None:
    state = game()
    before = state.model_dump()
    crit(state, "virginia", "magazine", [1, 1, 1, 1])
    assert state.model_dump() == before


# --------------------------------------------------------------------------- IO-6.3.1 Armament


def test_armament_steps_then_two_hits() -> None:
    """IO-6.3.1: −2, then −4, then 2 hits (the marker stays at −4)."""
    state = game()
    ev1, s1 = crit(state, "virginia", "armament")
    assert applied(ev1)[0].rule == "IO-6.3.1"
    assert s1.ships["virginia"].criticals["armament"] == CriticalState(
        name="armament", count=1, level=-2
    )
    _, s2 = crit(s1, "virginia", "armament")
    assert s2.ships["virginia"].criticals["armament"].level == -4
    ev3, s3 = crit(s2, "virginia", "armament")
    assert applied(ev3)[0].hits == 2
    assert s3.ships["virginia"].hits == 2
    assert s3.ships["virginia"].criticals["armament"].level == -4
    assert s3.ships["virginia"].criticals["armament"].count == 3


def _limited_data_state() -> IronOakState:
    """Cumberland with only limited guns (d6d4, d6)."""
    card = DATA.ships.get("cumberland").model_copy(
        update={"guns": [GunSection(name="a", dice="d6d4"), GunSection(name="b", dice="d6")]}
    )
    ships = DATA.ships.model_copy(
        update={"ships": [card if s.id == "cumberland" else s for s in DATA.ships.ships]}
    )
    state = game()
    return state.model_copy(update={"data": DATA.model_copy(update={"ships": ships})})


def test_armament_limited_guns_steps() -> None:
    """IO-6.3.1: a ship with only limited guns: −1, then −2, then 2 hits."""
    state = _limited_data_state()
    ev1, s1 = crit(state, "cumberland", "armament")
    assert applied(ev1)[0].level == -1
    _, s2 = crit(s1, "cumberland", "armament")
    assert s2.ships["cumberland"].criticals["armament"].level == -2
    ev3, _ = crit(s2, "cumberland", "armament")
    assert applied(ev3)[0].hits == 2


def test_armament_penalty_halves_for_a_limited_section() -> None:
    """IO-6.3.1: Cumberland's d6d4 spar-deck section is limited; its other sections are not."""
    state = game(cumberland={"criticals": crits(armament=(2, -4))})
    assert armament_penalty(state, "cumberland", 0) == -4
    assert armament_penalty(state, "cumberland", 2) == -2
    assert armament_penalty(game(), "cumberland", 2) == 0


# --------------------------------------------------------------------------- IO-6.3.2 Boiler


def test_boiler_first() -> None:
    """IO-6.3.2: loses power, d10+d8 hits, crew loss by the Boiler bands, a level-3 fire."""
    state = game()
    events, after = crit(state, "virginia", "boiler", [6, 3, 7])
    hits, crew = rolls(events)
    assert hits.roll.expression == "d10+d8" and hits.rule == "IO-6.3.2"
    assert crew.roll.expression == "d8"  # crew factor 13 (> 10)
    assert hits.roll.side == "USA"  # the opponent rolls the damage
    [ev] = applied(events)
    assert (ev.hits, ev.crew_loss, ev.fire, ev.marker) == (9, 7, 3, True)
    ship = after.ships["virginia"]
    assert not ship.powered
    assert (ship.hits, ship.crew_damage, ship.fire) == (9, 7, 3)


def test_boiler_crew_loss_is_not_capped() -> None:
    """IO-6.3.2: the Boiler's crew loss has no cap (only Crew's does, IO-6.3.5)."""
    state = game(virginia={"crew_damage": 10})
    _, after = crit(state, "virginia", "boiler", [1, 1, 8])
    assert after.ships["virginia"].crew_damage == 13  # capped at full only


def test_boiler_bands_differ_from_crew_bands() -> None:
    """IO-6.3.2 vs IO-6.3.5 [AMBIG]: Weehawken (crew 8) loses d4 by Boiler, d6 by Crew bands."""
    state = game("wassaw_sound")
    events, _ = crit(state, "weehawken", "boiler", [1, 1, 4])
    assert rolls(events)[1].roll.expression == "d4"
    events, _ = crit(state, "weehawken", "crew", [6])
    assert rolls(events)[0].roll.expression == "d6"
    opts = CriticalOptions(crew_loss_bands="crew")
    events, _ = crit(state, "weehawken", "boiler", [1, 1, 6], options=opts)
    assert rolls(events)[1].roll.expression == "d6"
    opts = CriticalOptions(crew_loss_bands="boiler")
    events, _ = crit(state, "weehawken", "crew", [4], options=opts)
    assert rolls(events)[0].roll.expression == "d4"


def test_boiler_sinks_without_crew_or_fire() -> None:
    """IO-6.3.2 "if the ship survives"; sinking by critical hits (IO-6.2.3J) leaves a hulk in
    shallow water."""
    state = game(virginia={"hits": 10, "cell": (0, 0)})
    events, after = crit(state, "virginia", "boiler", [5, 3])
    assert len(rolls(events)) == 1
    [ev] = applied(events)
    assert ev.crew_loss == 0 and ev.fire is None
    assert after.ships["virginia"].status == "sunk"
    assert "hulk" in after.markers["0,0"]


def test_boiler_second_two_hits() -> None:
    state = game(virginia={"criticals": crits(boiler=(1, 0))})
    events, after = crit(state, "virginia", "boiler")
    assert not rolls(events)
    assert after.ships["virginia"].hits == 2
    assert after.ships["virginia"].criticals["boiler"].count == 2


# --------------------------------------------------------------------------- 6.3.3, 6.3.12, 6.3.7


@pytest.mark.parametrize(
    ("name", "rule"),
    [("captain", "IO-6.3.3"), ("ram", "IO-6.3.12"), ("engine_stopped", "IO-6.3.7")],
)
def test_marker_then_two_hits(name: str, rule: str) -> None:
    state = game()
    ev1, s1 = crit(state, "cumberland", name)
    assert applied(ev1)[0].rule == rule
    assert name in s1.ships["cumberland"].criticals and s1.ships["cumberland"].hits == 0
    ev2, s2 = crit(s1, "cumberland", name)
    assert applied(ev2)[0].hits == 2
    assert s2.ships["cumberland"].hits == 2
    assert s2.ships["cumberland"].critical_count(name) == 2


def test_engine_stopped_loses_power() -> None:
    """IO-6.3.7: the ship is unpowered (it drifts)."""
    _, after = crit(game(), "cumberland", "engine_stopped")
    assert not after.ships["cumberland"].powered


# --------------------------------------------------------------------------- IO-6.3.4 Collateral


@pytest.mark.parametrize(
    ("ship", "hit", "expected"),
    [
        ("virginia", "B", "A"),
        ("virginia", "S", "A"),
        ("virginia", "A", "B"),  # target's choice: equal damage -> B
        ("monitor", "TF", "TS"),
        ("monitor", "TR", "TS"),
        ("monitor", "TS", "TF"),  # equal -> TF
        ("monitor", "A", "B"),  # the monitor card has no S
        ("virginia", "WL", "B"),  # any other: least damaged, card order
        ("virginia", "D", "B"),
    ],
)
def test_collateral_neighbours(ship: str, hit: str, expected: str) -> None:
    """IO-6.3.4: the neighbouring location takes one more −1."""
    state = game()
    events, after = crit(state, ship, "collateral", location=hit)
    [ev] = applied(events)
    assert (ev.location, ev.shield_after, ev.hits, ev.rule) == (expected, -1, 0, "IO-6.3.4")
    assert after.ships[ship].shield(expected) == -1  # type: ignore[arg-type]


def test_collateral_target_choice_prefers_less_damage() -> None:
    """IO-6.3.4 target's choice: the less damaged of B/S, TF/TR, or of all for WL/D."""
    state = game(
        virginia={"shields": {"B": -2, "A": -1, "S": -1, "WL": -1}},
        monitor={"shields": {"TF": -3, "TR": -1}},
    )
    assert collateral_location(state, "virginia", "A") == "S"
    assert collateral_location(state, "monitor", "TS") == "TR"
    assert collateral_location(state, "virginia", "WL") == "D"
    assert collateral_location(state, "virginia", "D") == "A"


def test_collateral_at_minus_four_two_hits() -> None:
    """IO-6.3.4: the neighbour is already at −4: 2 hits, the shield stays."""
    state = game(virginia={"shields": {"A": -4}})
    events, after = crit(state, "virginia", "collateral", location="B")
    [ev] = applied(events)
    assert (ev.hits, ev.shield_after) == (2, -4)
    assert after.ships["virginia"].hits == 2 and after.ships["virginia"].shield("A") == -4


def test_collateral_needs_a_location() -> None:
    with pytest.raises(InvalidCommand) as err:
        apply_critical(game(), "virginia", "collateral", FixedDice([]))
    assert err.value.rule == "IO-6.3.4"
    with pytest.raises(InvalidCommand):
        apply_critical(game(), "virginia", "collateral", FixedDice([]), location="TF")


# --------------------------------------------------------------------------- IO-6.3.5 Crew


def test_crew_loss_capped_at_half_current_crew() -> None:
    """IO-6.3.5: d8 for crew factor 13, capped at ½ of 13 = 6."""
    events, after = crit(game(), "virginia", "crew", [8])
    [roll] = rolls(events)
    assert roll.roll.expression == "d8" and roll.rule == "IO-6.3.5"
    assert applied(events)[0].crew_loss == 6
    assert after.ships["virginia"].crew_damage == 6


def test_crew_loss_below_cap_is_the_roll() -> None:
    events, _ = crit(game(), "virginia", "crew", [3])
    assert applied(events)[0].crew_loss == 3


def test_crew_loss_cap_uses_current_crew_minimum_one() -> None:
    """IO-6.3.5: current crew = full − damage; half rounded down, at least 1."""
    events, _ = crit(game(virginia={"crew_damage": 9}), "virginia", "crew", [8])
    assert applied(events)[0].crew_loss == 2  # current 4 -> 2
    events, after = crit(game(virginia={"crew_damage": 12}), "virginia", "crew", [8])
    assert applied(events)[0].crew_loss == 1  # current 1 -> ½ is 0 -> minimum 1
    assert after.ships["virginia"].crew_damage == 13


def test_full_crew_damage_removes_repair_party() -> None:
    """IO-3.1.1: the party stays until the unit reaches full crew damage."""
    state = game(virginia={"crew_damage": 12, "repair_party": True})
    _, after = crit(state, "virginia", "crew", [5])
    assert not after.ships["virginia"].repair_party


# --------------------------------------------------------------------------- IO-6.3.6 Engine


def test_engine_damaged_then_engine_stopped() -> None:
    """IO-6.3.6: 2nd Engine-Damaged becomes Engine-Stopped (IO-6.3.7)."""
    ev1, s1 = crit(game(), "cumberland", "engine_damaged")
    assert applied(ev1)[0].rule == "IO-6.3.6"
    assert s1.ships["cumberland"].powered
    ev2, s2 = crit(s1, "cumberland", "engine_damaged")
    assert [e.name for e in applied(ev2)] == ["engine_damaged", "engine_stopped"]
    ship = s2.ships["cumberland"]
    assert "engine_damaged" not in ship.criticals and "engine_stopped" in ship.criticals
    assert not ship.powered and ship.hits == 0


def test_engine_damaged_second_on_a_stopped_engine_two_hits() -> None:
    state = game(cumberland={"criticals": crits(engine_damaged=(1, 0), engine_stopped=(1, 0))})
    _, after = crit(state, "cumberland", "engine_damaged")
    assert after.ships["cumberland"].hits == 2


# --------------------------------------------------------------------------- 6.3.8 / 6.3.11


def test_explosion() -> None:
    """IO-6.3.8: d10+d6 hits, crew loss on the Crew bands but not capped at half the crew (the
    seed gives the cap only under 6.3.5: 「右の結果を乗員損害に適用」), a level-3 fire by
    default."""
    events, after = crit(game(), "virginia", "explosion", [4, 2, 8])
    hits, crew = rolls(events)
    assert hits.roll.expression == "d10+d6" and hits.rule == "IO-6.3.8"
    assert crew.roll.expression == "d8"
    ship = after.ships["virginia"]
    assert (ship.hits, ship.crew_damage, ship.fire) == (6, 8, 3)  # the full d8: 8
    assert applied(events)[0].marker is False and "explosion" not in ship.criticals


def test_explosion_fire_level_option_and_only_raises() -> None:
    """IO-6.3.8 [AMBIG] fire level: an option; a fire never lowers the current level."""
    opts = CriticalOptions(explosion_fire_level=4)
    _, after = crit(game(), "virginia", "explosion", [1, 1, 1], options=opts)
    assert after.ships["virginia"].fire == 4
    _, after = crit(game(virginia={"fire": 5}), "virginia", "explosion", [1, 1, 1])
    assert after.ships["virginia"].fire == 5


def test_magazine() -> None:
    """IO-6.3.11: d10+d8+d6 hits, then crew loss and fire as for Explosion."""
    events, after = crit(game(), "cumberland", "magazine", [3, 4, 2, 5])
    hits, crew = rolls(events)
    assert crew.rule == "IO-6.3.11"
    assert hits.roll.expression == "d10+d8+d6" and hits.rule == "IO-6.3.11"
    ship = after.ships["cumberland"]
    assert (ship.hits, ship.crew_damage, ship.fire) == (9, 5, 3)


def test_magazine_sinks() -> None:
    events, after = crit(game(), "monitor", "magazine", [10, 2, 1])
    assert len(rolls(events)) == 1
    assert after.ships["monitor"].status == "sunk"


# --------------------------------------------------------------------------- IO-6.3.9 Fire


@pytest.mark.parametrize(("face", "level"), [(1, 2), (4, 2), (5, 3), (8, 3), (9, 4), (10, 4)])
def test_fire_start_level(face: int, level: int) -> None:
    """IO-6.3.9: d10 1-4 level 2, 5-8 level 3, 9-10 level 4."""
    events, after = crit(game(), "virginia", "fire", [face])
    assert rolls(events)[0].rule == "IO-6.3.9"
    assert after.ships["virginia"].fire == level


def test_fire_critical_only_raises_the_level() -> None:
    """IO-6.3.9: a lower start level leaves a bigger fire as it is."""
    _, after = crit(game(virginia={"fire": 4}), "virginia", "fire", [2])
    assert after.ships["virginia"].fire == 4
    _, after = crit(game(virginia={"fire": 2}), "virginia", "fire", [9])
    assert after.ships["virginia"].fire == 4


# --------------------------------------------------------------------------- IO-6.3.10 Jam


def test_jam_on_a_monitor() -> None:
    """IO-6.3.10: the turret jams; 2nd: 2 hits."""
    ev1, s1 = crit(game(), "monitor", "jam")
    assert applied(ev1)[0].rule == "IO-6.3.10"
    assert "jam" in s1.ships["monitor"].criticals
    _, s2 = crit(s1, "monitor", "jam")
    assert s2.ships["monitor"].hits == 2


def test_jam_on_a_non_monitor_is_collateral() -> None:
    events, after = crit(game(), "virginia", "jam", location="B")
    [ev] = applied(events)
    assert ev.name == "collateral" and "IO-6.3.10" in ev.note
    assert "jam" not in after.ships["virginia"].criticals
    assert after.ships["virginia"].shield("A") == -1


# --------------------------------------------------------------------------- 6.3.13 Rudder


def test_rudder() -> None:
    """IO-6.3.13: a marker; it forbids Crossing the T and ram/spar; no repeat effect printed."""
    _, s1 = crit(game(), "cumberland", "rudder")
    assert blocks_t_ram_spar(s1, "cumberland") == "IO-6.3.13"
    assert blocks_t_ram_spar(game(), "cumberland") is None
    _, s2 = crit(s1, "cumberland", "rudder")
    assert s2.ships["cumberland"].hits == 0
    assert s2.ships["cumberland"].critical_count("rudder") == 2


# --------------------------------------------------------------------------- 6.3.14 Spar


def test_spar_torpedo_destroyed_then_two_hits() -> None:
    """IO-6.3.14: Atlanta's spar torpedo is destroyed; 2nd: 2 hits."""
    state = game("wassaw_sound")
    ev1, s1 = crit(state, "atlanta", "spar_torpedo")
    assert applied(ev1)[0].rule == "IO-6.3.14"
    assert "spar_torpedo" in s1.ships["atlanta"].criticals
    _, s2 = crit(s1, "atlanta", "spar_torpedo")
    assert s2.ships["atlanta"].hits == 2


def test_spar_torpedo_without_spar_is_collateral() -> None:
    events, after = crit(game(), "virginia", "spar_torpedo", location="S")
    [ev] = applied(events)
    assert ev.name == "collateral" and "IO-6.3.14" in ev.note
    assert after.ships["virginia"].shield("A") == -1
    assert "spar_torpedo" not in after.ships["virginia"].criticals


# --------------------------------------------------------------------------- 6.3.15 Speed


def test_speed_steps_then_two_hits() -> None:
    """IO-6.3.15: −1, −2, then 2 hits."""
    ev1, s1 = crit(game(), "cumberland", "speed")
    assert applied(ev1)[0].rule == "IO-6.3.15"
    assert s1.ships["cumberland"].criticals["speed"].level == -1
    _, s2 = crit(s1, "cumberland", "speed")
    assert s2.ships["cumberland"].criticals["speed"].level == -2
    _, s3 = crit(s2, "cumberland", "speed")
    assert s3.ships["cumberland"].hits == 2
    assert s3.ships["cumberland"].criticals["speed"].level == -2


# --------------------------------------------------------------------------- 6.3.16 Smokestack


def test_smokestack_first_and_second() -> None:
    """IO-6.3.16: destroyed; Virginia starts with one, so hers is a 2nd: 2 hits."""
    ev1, s1 = crit(game(), "cumberland", "smokestack")
    assert applied(ev1)[0].rule == "IO-6.3.16"
    assert "smokestack" in s1.ships["cumberland"].criticals and s1.ships["cumberland"].hits == 0
    _, after = crit(game(), "virginia", "smokestack")
    assert after.ships["virginia"].hits == 2


def test_smokestack_on_a_monitor_is_collateral() -> None:
    events, after = crit(game(), "monitor", "smokestack", location="TF")
    [ev] = applied(events)
    assert ev.name == "collateral" and "IO-6.3.16" in ev.note
    assert after.ships["monitor"].shield("TS") == -1
    assert "smokestack" not in after.ships["monitor"].criticals


# --------------------------------------------------------------------------- 6.3.17 Steering


@pytest.mark.parametrize(
    ("face", "level"),
    [(1, STEERING_VERTICAL), (3, STEERING_VERTICAL), (4, STEERING_HORIZONTAL), (6, 2)],
)
def test_steering_direction(face: int, level: int) -> None:
    """IO-6.3.17: d6 1-3 vertical only, 4-6 horizontal only."""
    events, after = crit(game(), "cumberland", "steering", [face])
    assert rolls(events)[0].rule == "IO-6.3.17"
    assert after.ships["cumberland"].criticals["steering"].level == level
    assert blocks_t_ram_spar(after, "cumberland") == "IO-6.3.17"


def test_steering_second_two_hits_keeps_direction() -> None:
    state = game(cumberland={"criticals": crits(steering=(1, STEERING_HORIZONTAL))})
    events, after = crit(state, "cumberland", "steering")
    assert not rolls(events)
    assert after.ships["cumberland"].hits == 2
    assert after.ships["cumberland"].criticals["steering"].level == STEERING_HORIZONTAL


# --------------------------------------------------------------------------- response dice


def test_response_modifiers() -> None:
    """Response dice: Boiler −5, Captain −1, Engine-Damaged −2, Engine-Stopped −5, Speed level,
    Smokestack −2, Steering −3 (IO-6.3.2/3/6/7/15/16/17)."""
    state = game(
        cumberland={
            "criticals": crits(
                boiler=(1, 0),
                captain=(1, 0),
                engine_damaged=(1, 0),
                engine_stopped=(1, 0),
                speed=(2, -2),
                smokestack=(1, 0),
                steering=(1, 1),
                rudder=(1, 0),
                armament=(1, -2),
            )
        }
    )
    mods = {m.rule: m.value for m in response_modifiers(state, "cumberland")}
    assert mods == {
        "IO-6.3.2": -5,
        "IO-6.3.3": -1,
        "IO-6.3.6": -2,
        "IO-6.3.7": -5,
        "IO-6.3.15": -2,
        "IO-6.3.16": -2,
        "IO-6.3.17": -3,
    }
    off = CriticalOptions(engine_damaged_response=False, smokestack_response=False)
    rules = {m.rule for m in response_modifiers(state, "cumberland", off)}
    assert "IO-6.3.6" not in rules and "IO-6.3.16" not in rules and "IO-6.3.2" in rules
    assert response_modifiers(game(), "cumberland") == []


# --------------------------------------------------------------------------- IO-3.1.1 repair


def repair(state: IronOakState, ship: str, faces: list[int], **kw: Any) -> list[DomainEvent]:
    dice = FixedDice(faces)
    events = repair_attempt(state, ship, dice, **kw)
    assert dice.remaining == 0
    return events


def test_repair_success_removes_the_critical() -> None:
    state = game(cumberland={"repair_party": True, "criticals": crits(rudder=(1, 0))})
    events = repair(state, "cumberland", [7, 2, 6])  # d10d4 -> 7 vs d10 6
    roll, done = events
    assert isinstance(roll, DiceRolled) and roll.rule == "IO-3.1.1" and roll.success
    assert roll.roll.expression == "d10d4" and roll.opposed_by is not None
    assert done == CriticalRepaired(unit="cumberland", name="rudder", removed=True)
    assert "rudder" not in apply(state, done).ships["cumberland"].criticals


def test_repair_failure_keeps_the_critical() -> None:
    state = game(cumberland={"repair_party": True, "criticals": crits(rudder=(1, 0))})
    events = repair(state, "cumberland", [6, 2, 6])  # a tie fails (IO-1.6.1.A/B)
    assert len(events) == 1 and isinstance(events[0], DiceRolled)
    assert events[0].success is False


def test_repair_armament_steps() -> None:
    """IO-3.1.1 / IO-6.3.1: −4 flips to −2; −2 goes."""
    state = game(cumberland={"repair_party": True, "criticals": crits(armament=(2, -4))})
    done = repair(state, "cumberland", [9, 1, 1])[-1]
    assert done == CriticalRepaired(unit="cumberland", name="armament", removed=False, level=-2)
    after = apply(state, done)
    assert after.ships["cumberland"].criticals["armament"] == CriticalState(
        name="armament", count=1, level=-2
    )
    done = repair(after, "cumberland", [9, 1, 1])[-1]
    assert isinstance(done, CriticalRepaired) and done.removed


def test_repair_limited_armament_steps() -> None:
    """IO-6.3.1: limited guns −2 → −1 → none."""
    state = _limited_data_state()
    ship = state.ships["cumberland"].model_copy(
        update={"repair_party": True, "criticals": crits(armament=(2, -2))}
    )
    state = state.model_copy(update={"ships": {**state.ships, "cumberland": ship}})
    done = repair(state, "cumberland", [9, 1, 1])[-1]
    assert isinstance(done, CriticalRepaired) and (done.removed, done.level) == (False, -1)
    done = repair(apply(state, done), "cumberland", [9, 1, 1])[-1]
    assert isinstance(done, CriticalRepaired) and done.removed


def test_repair_quality_modifiers() -> None:
    """IO-3.1.1: Elite +1 (Weehawken), Green −1 (Atlanta)."""
    state = game(
        "wassaw_sound",
        weehawken={"repair_party": True, "criticals": crits(jam=(1, 0))},
        atlanta={"repair_party": True, "criticals": crits(steering=(1, 1))},
    )
    roll = repair(state, "weehawken", [5, 1, 6])[0]
    assert isinstance(roll, DiceRolled) and roll.roll.total == 6 and roll.success is False
    events = repair(state, "weehawken", [6, 1, 6])
    assert isinstance(events[-1], CriticalRepaired)
    roll = repair(state, "atlanta", [7, 1, 6])[0]
    assert isinstance(roll, DiceRolled) and roll.roll.total == 6 and roll.success is False
    assert [m.value for m in roll.roll.modifiers] == [-1]


def test_repair_order_and_named_critical() -> None:
    """IO-3.1.1: by default the first repairable in the fixed order; non-repairables ignored."""
    state = game(
        cumberland={
            "repair_party": True,
            "criticals": crits(captain=(1, 0), armament=(1, -2), engine_stopped=(1, 0)),
        }
    )
    assert repair_target(state, "cumberland") == "engine_stopped"
    done = repair(state, "cumberland", [9, 1, 1])[-1]
    assert isinstance(done, CriticalRepaired) and done.name == "engine_stopped"
    done = repair(state, "cumberland", [9, 1, 1], critical="armament")[-1]
    assert isinstance(done, CriticalRepaired) and done.name == "armament"


def test_repair_refused() -> None:
    no_party = game(cumberland={"criticals": crits(rudder=(1, 0))})
    with pytest.raises(IllegalCommand) as err:
        repair_attempt(no_party, "cumberland", FixedDice([]))
    assert err.value.rule == "IO-3.1.1"
    nothing = game(cumberland={"repair_party": True, "criticals": crits(captain=(1, 0))})
    with pytest.raises(IllegalCommand):
        repair_attempt(nothing, "cumberland", FixedDice([]))
    with pytest.raises(IllegalCommand):
        repair_attempt(nothing, "cumberland", FixedDice([]), critical="captain")


def test_check_repair_party() -> None:
    """IO-3.1.1: not at full crew damage, none yet, not captured."""
    check_repair_party(game(), "cumberland")  # allowed
    refusals: list[dict[str, Any]] = [
        {"crew_damage": 16},
        {"repair_party": True},
        {"status": "captured", "captured_by": "CSA"},
        {"status": "sunk"},
    ]
    for update in refusals:
        with pytest.raises(IllegalCommand) as err:
            check_repair_party(game(cumberland=update), "cumberland")
        assert err.value.rule == "IO-3.1.1"


# --------------------------------------------------------------------------- IO-3.1.2 fire


def status(
    state: IronOakState, ship: str, faces: list[int], last5: bool = False
) -> tuple[list[DomainEvent], IronOakState]:
    dice = FixedDice(faces)
    events = fire_status(state, ship, dice, last5)
    assert dice.remaining == 0
    after = state
    for event in events:
        after = gunnery.apply(apply(after, event), event)
    return events, after


def test_fire_status_change_then_hits() -> None:
    """IO-3.1.2: the level changes on the table, then the new level's hits."""
    tables = DATA.tables.fire
    events, after = status(game(virginia={"fire": 3}), "virginia", [9])
    roll, changed = events
    assert isinstance(roll, DiceRolled) and roll.rule == "IO-3.1.2"
    assert changed == FireChanged(
        unit="virginia", before=3, rolled=4, after=4, hits=tables.levels[4].hits
    )
    assert after.ships["virginia"].fire == 4
    assert after.ships["virginia"].hits == tables.levels[4].hits


def test_fire_status_goes_out() -> None:
    events, after = status(game(virginia={"fire": 2}), "virginia", [1])
    assert isinstance(events[1], FireChanged) and events[1].hits == 0
    assert after.ships["virginia"].fire == 0 and after.ships["virginia"].hits == 0


def test_fire_status_without_fire() -> None:
    assert fire_status(game(), "virginia", FixedDice([]), False) == []


def test_level_five_fire_not_dropped_explodes() -> None:
    """IO-3.1.2: a level-5 fire still at 5 becomes an Explosion critical (IO-6.3.8)."""
    events, after = status(game(virginia={"fire": 5}), "virginia", [5, 3, 2, 4], last5=True)
    changed = next(e for e in events if isinstance(e, FireChanged))
    assert changed.explodes and changed.after == 0 and changed.hits == 0
    [boom] = applied(events)
    assert boom.name == "explosion" and boom.hits == 5
    ship = after.ships["virginia"]
    assert (ship.hits, ship.crew_damage, ship.fire) == (5, 4, 3)


def test_level_five_fire_that_drops_does_not_explode() -> None:
    events, after = status(game(virginia={"fire": 5}), "virginia", [1], last5=True)
    assert not applied(events)
    assert after.ships["virginia"].fire == 4
    assert after.ships["virginia"].hits == DATA.tables.fire.levels[4].hits


def test_new_level_five_fire_only_burns() -> None:
    """Without a level-5 fire at the previous Status Phase, no explosion yet."""
    events, after = status(game(virginia={"fire": 5}), "virginia", [7])
    assert not applied(events)
    assert after.ships["virginia"].hits == DATA.tables.fire.levels[5].hits


def test_fire_hits_sink() -> None:
    """IO-6.2.3J: fire hits that reach the hit value sink the ship."""
    _, after = status(game(monitor={"fire": 5, "hits": 11}), "monitor", [9])
    assert after.ships["monitor"].status == "sunk"


# --------------------------------------------------------------------------- coverage of IDs


def test_every_critical_has_its_rule() -> None:
    assert sorted(RULES.values(), key=lambda r: int(r.split(".")[-1])) == [
        f"IO-6.3.{i}" for i in range(1, 18)
    ]


# --------------------------------------------------------------------------- starting criticals


def test_io_6_3_1_io_6_3_15_starting_criticals_take_their_first_level() -> None:
    """IO-6.3.1 / IO-6.3.15 (IO-0 starting criticals): a scenario's Armament starts at −2 (−1
    for a ship whose guns are all limited, IO-6.2.3A) and Speed at −1 — what a 1st critical in
    play sets; markers without a value stay at 0."""
    scenario = bundled_scenario("hampton_roads")
    ships = [
        s.model_copy(update={"criticals": ["armament", "speed", "rudder"]})
        if s.id == "cumberland"
        else s
        for s in scenario.ships
    ]
    scenario = scenario.model_copy(update={"ships": ships})
    state = initial_state(scenario, DATA)
    start = state.ships["cumberland"].criticals
    assert {n: (c.count, c.level) for n, c in start.items()} == {
        "armament": (1, -2),
        "speed": (1, -1),
        "rudder": (1, 0),
    }
    fresh = game()
    for name in ("armament", "speed"):
        assert applied(crit(fresh, "cumberland", name)[0])[0].level == start[name].level
    assert armament_penalty(state, "cumberland", 2) == -1  # its limited d6d4 section: half
    limited = initial_state(scenario, _limited_data_state().data)
    assert limited.ships["cumberland"].criticals["armament"].level == -1


# --------------------------------------------------------------------------- IO-6.2.3G/H retire


@pytest.mark.parametrize(
    ("before", "face", "status", "expected"),
    [
        (5, 4, "active", "retiring"),  # 5 + 4 = 9 = Virginia's heavy threshold
        (4, 4, "active", "active"),  # 8: light only
        (5, 4, "captured", "captured"),  # a captured ship already retires for its captor
    ],
)
def test_io_6_2_3g_heavy_crew_damage_retires_the_ship(
    before: int, face: int, status: str, expected: str
) -> None:
    """IO-6.2.3G / IO-6.2.3H: crew damage reaching the heavy threshold (right of "/") makes
    the ship retire; the event's note says so."""
    update: dict[str, Any] = {"crew_damage": before, "status": status}
    if status == "captured":
        update["captured_by"] = "USA"
    events, after = crit(game(virginia=update), "virginia", "crew", [face])
    assert after.ships["virginia"].crew_damage == before + face
    assert after.ships["virginia"].status == expected
    assert ("IO-6.2.3G" in applied(events)[0].note) == (expected == "retiring")


def test_io_6_2_3g_boiler_crew_loss_can_retire_the_ship() -> None:
    """IO-6.2.3G: any crew loss counts — a Boiler's uncapped d8 here."""
    _, after = crit(game(virginia={"crew_damage": 3}), "virginia", "boiler", [1, 1, 8])
    assert after.ships["virginia"].status == "retiring"


# --------------------------------------------------------------------------- attacks on others


def gun_results(events: list[DomainEvent]) -> list[GunneryResolved]:
    return [e for e in events if isinstance(e, GunneryResolved)]


def test_io_6_3_2_boiler_attacks_fouled_ships_with_a_d10() -> None:
    """IO-6.3.2: fouled or attached ships take a d10 gunnery attack — after the Boiler's own
    event; resolved like gunnery (d8 location, defence dice, chart, critical roll), no gun
    modifiers. A ship merely in the same GB is not attacked by a Boiler."""
    state = game(
        virginia={"fouled_with": ("cumberland",), "repair_party": True, "smoke": "heavy"},
        cumberland={"cell": (1, 1), "fouled_with": ("virginia",)},
        monitor={"cell": (1, 1)},
    )
    events, after = crit(state, "virginia", "boiler", [1, 1, 1, 2, 10, 2, 1, 3, 4])
    kinds = [type(e).__name__ for e in events]
    assert kinds == [
        "DiceRolled",
        "DiceRolled",
        "CriticalApplied",
        "DiceRolled",
        "DiceRolled",
        "GunneryResolved",
        "DiceRolled",
        "CriticalRolled",
    ]
    where, attack = rolls(events)[2:4]
    assert (where.purpose, where.outcome) == ("hit location", "A")
    assert (attack.purpose, attack.rule, attack.roll.expression) == (
        "boiler attack",
        "IO-6.3.2",
        "d10",
    )
    assert attack.roll.modifiers == [] and attack.opposed_by is not None
    assert attack.opposed_by.expression == "d8d4"
    assert (attack.subject, attack.target, attack.roll.side) == ("virginia", "cumberland", "CSA")
    [hit] = gun_results(events)
    assert (hit.firer, hit.section, hit.target, hit.range) == (
        "virginia",
        -1,
        "cumberland",
        "point_blank",
    )
    assert (hit.attack, hit.rule, hit.rule_id(), hit.location) == (
        "boiler",
        "IO-6.3.2",
        "IO-6.3.2",
        "A",
    )
    assert (hit.cr, hit.dr, hit.band, hit.hits) == (10, 2, "critical", 2)
    last = events[-1]
    assert isinstance(last, CriticalRolled) and last.unit == "cumberland" and last.total == 7
    assert after.ships["cumberland"].hits == 2 and after.ships["cumberland"].shield("A") == -2
    assert after.ships["monitor"] == state.ships["monitor"]


def test_io_6_3_8_explosion_attacks_fouled_then_same_gb_ships() -> None:
    """IO-6.3.8: fouled or attached ships take d10d6 (Point Blank), other ships in the same GB
    d10 (Short), of either side; the ship's own hits, crew and fire come first."""
    state = game(
        virginia={"fouled_with": ("cumberland",)},
        cumberland={"cell": (1, 1), "fouled_with": ("virginia",)},
        monitor={"cell": (1, 1)},
    )
    # hits d10+d6, crew d8 | cumberland: d8, d10d6, d8d4 | monitor: d8, d10, d8d6
    faces = [1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1]
    events, after = crit(state, "virginia", "explosion", faces)
    assert isinstance(events[2], CriticalApplied) and events[2].name == "explosion"
    attacks = [r for r in rolls(events) if r.purpose == "explosion attack"]
    assert [(r.target, r.roll.expression, r.rule) for r in attacks] == [
        ("cumberland", "d10d6", "IO-6.3.8"),
        ("monitor", "d10", "IO-6.3.8"),
    ]
    assert [(g.target, g.range, g.attack) for g in gun_results(events)] == [
        ("cumberland", "point_blank", "explosion"),
        ("monitor", "short", "explosion"),
    ]
    assert after.ships["virginia"].hits == 2


def test_io_6_3_11_magazine_attacks_even_when_the_ship_sinks() -> None:
    """IO-6.3.11: attached (towed) ships take d10d8d6, others in the GB d10d4 — also when the
    exploding ship sinks (the attacks come before "if the ship sinks, ignore the rest")."""
    hit_value = DATA.ships.get("virginia").hit_value
    state = game(
        virginia={"towing": "cumberland", "hits": hit_value - 1},
        cumberland={"cell": (1, 1), "towed_by": "virginia"},
        monitor={"cell": (1, 1)},
    )
    # hits d10+d8+d6 (sunk: no crew roll) | cumberland: d8, d10d8d6, d8d4 | monitor: d8,
    # d10d4, d8d6
    faces = [1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]
    events, after = crit(state, "virginia", "magazine", faces)
    assert [(g.target, g.range) for g in gun_results(events)] == [
        ("cumberland", "point_blank"),
        ("monitor", "short"),
    ]
    attacks = [r for r in rolls(events) if r.purpose == "magazine attack"]
    assert [r.roll.expression for r in attacks] == ["d10d8d6", "d10d4"]
    assert after.ships["virginia"].status == "sunk"
    assert after.ships["cumberland"].towed_by is None


def test_io_6_3_2_second_boiler_makes_no_attack() -> None:
    """IO-6.3.2: a 2nd Boiler is 2 hits only — no explosion, no attack."""
    state = game(
        virginia={"fouled_with": ("cumberland",), "criticals": crits(boiler=(1, 0))},
        cumberland={"cell": (1, 1), "fouled_with": ("virginia",)},
    )
    events, _ = crit(state, "virginia", "boiler")
    assert gun_results(events) == [] and not rolls(events)


def test_io_6_3_8_attack_p_success_is_exact() -> None:
    """IO-6.3.8: the attack roll's p_success is P(d10 > DR) for the location's defence."""
    state = game(monitor={"cell": (1, 1)})
    events, _ = crit(state, "virginia", "explosion", [1, 1, 1, 1, 5, 3, 2])
    [attack] = [r for r in rolls(events) if r.purpose == "explosion attack"]
    assert attack.opposed_by is not None and attack.opposed_by.expression == "d8d6"  # B
    wins = sum(a > max(b, c) for a in range(1, 11) for b in range(1, 9) for c in range(1, 7))
    assert Fraction(attack.p_success or "x") == Fraction(wins, 10 * 8 * 6)


def test_io_3_1_2_level_five_explosion_attacks_ships_in_the_gb() -> None:
    """IO-3.1.2 / IO-6.3.8: an Explosion from a level-5 fire attacks the GB like any other."""
    state = game(virginia={"fire": 5}, monitor={"cell": (1, 1)})
    events, after = status(state, "virginia", [5, 3, 2, 4, 1, 10, 1, 1, 6, 6], last5=True)
    [hit] = [e for e in events if isinstance(e, GunneryResolved)]
    assert (hit.target, hit.attack, hit.range, hit.location, hit.band) == (
        "monitor",
        "explosion",
        "short",
        "B",
        "critical",
    )
    assert isinstance(events[-1], CriticalRolled) and events[-1].unit == "monitor"
    assert after.ships["monitor"].shield("B") == -2
