"""Iron & Oak gunnery (IO-6.0 – IO-6.2.4, the IO-6.3 critical roll), on the bundled data.

Ships (bundled, provisional cards): Virginia (CSA, armoured; guns 0 d10 bow 0/stern X, 1 d10d6
X/X, 2 d10 X/0), Cumberland (USA, wood; gun 2 d6d4 −2/−2), Monitor (USA, monitor; gun d10d8).
FixedDice faces are consumed: d8 location, the section's dice, the defence dice, then 2d6.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product
from typing import Any

import pytest

from domain.dice import FixedDice, parse
from domain.errors import IllegalCommand
from domain.events import DiceRolled, DomainEvent
from domain.rulesets.iron_oak.data import bundled_scenario, resolve_data
from domain.rulesets.iron_oak.events import CriticalRolled, GunneryResolved, SmokeChanged
from domain.rulesets.iron_oak.gunnery import (
    GunneryOptions,
    apply,
    check_fire,
    effective_side,
    fire_range,
    gunnery_modifiers,
    hit_location,
    resolve_fire,
)
from domain.rulesets.iron_oak.options import IronOakOptions, ShieldLine
from domain.rulesets.iron_oak.state import (
    CardEffect,
    CriticalState,
    IronOakState,
    Pair,
    initial_state,
)

DATA = resolve_data()
TABLES = DATA.tables
MODS = TABLES.modifiers
CHART = TABLES.damage_chart

HAMPTON: dict[str, dict[str, Any]] = {
    "virginia": {"cell": (1, 1), "edge": None},
    "cumberland": {"cell": (1, 1)},
    "monitor": {"cell": (1, 2)},
}
WASSAW: dict[str, dict[str, Any]] = {
    "atlanta": {"cell": (2, 2)},
    "weehawken": {"cell": (2, 3)},
    "nahant": {"cell": (2, 4)},
}


def game(
    scenario: str = "hampton_roads",
    pairs: tuple[tuple[str, str, str], ...] = (),
    **updates: dict[str, Any],
) -> IronOakState:
    """The scenario with ships placed (defaults above) and per-ship field updates."""
    state = initial_state(bundled_scenario(scenario), DATA)
    base = HAMPTON if scenario == "hampton_roads" else WASSAW
    ships = {
        sid: ship.model_copy(update={**base[sid], **updates.get(sid, {})})
        for sid, ship in state.ships.items()
    }
    return state.model_copy(
        update={
            "ships": ships,
            "pairs": tuple(Pair(ship=a, other=b, kind=k) for a, b, k in pairs),
        }
    )


def fire(
    state: IronOakState, firer: str, section: int, target: str, faces: list[int], **kw: Any
) -> list[DomainEvent]:
    dice = FixedDice(faces)
    events = resolve_fire(state, firer, section, target, dice, **kw)
    assert dice.remaining == 0, "every scripted face is used"
    return events


def resolved(events: list[DomainEvent]) -> GunneryResolved:
    [event] = [e for e in events if isinstance(e, GunneryResolved)]
    return event


def rolls(events: list[DomainEvent], purpose: str) -> list[DiceRolled]:
    return [e for e in events if isinstance(e, DiceRolled) and e.purpose == purpose]


def fold(state: IronOakState, events: list[DomainEvent]) -> IronOakState:
    for event in events:
        state = apply(state, event)
    return state


def refused(state: IronOakState, firer: str, section: int, target: str) -> str | None:
    with pytest.raises(IllegalCommand) as info:
        check_fire(state, firer, section, target)
    return info.value.rule


# --------------------------------------------------------------------------- IO-6.1 range


def test_io_6_1_short_medium_long_and_out_of_range() -> None:
    """IO-6.1: same GB short, adjacent medium, two GB long, further out of range."""
    for cell, expected in [((1, 1), "short"), ((2, 2), "medium"), ((3, 0), "long"), ((4, 1), None)]:
        state = game(monitor={"cell": cell})
        assert fire_range(state, "virginia", "monitor") == expected


def test_io_6_1_point_blank_when_fouled() -> None:
    """IO-6.1 / IO-6.2.3B: ships fouled with each other are at Point Blank."""
    state = game(
        virginia={"fouled_with": ("cumberland",)}, cumberland={"fouled_with": ("virginia",)}
    )
    assert fire_range(state, "virginia", "cumberland") == "point_blank"
    assert check_fire(state, "cumberland", 1, "virginia") == "point_blank"
    assert fire_range(state, "virginia", "monitor") == "medium"


def test_io_6_1_off_map_has_no_range() -> None:
    """IO-6.1: an off-map ship has no range to anything."""
    state = initial_state(bundled_scenario("hampton_roads"), DATA)  # Virginia starts off-map
    assert fire_range(state, "virginia", "cumberland") is None


def test_io_6_1_out_of_range_refused() -> None:
    """IO-6.1: fire beyond two GB is refused."""
    assert refused(game(monitor={"cell": (4, 4)}), "monitor", 0, "virginia") == "IO-6.1"
    assert check_fire(game(monitor={"cell": (3, 3)}), "monitor", 0, "virginia") == "long"


def test_io_6_1_io_5_6_5_point_blank_against_the_rammer() -> None:
    """IO-6.1 / IO-5.6.5: a target that rammed or spar-attacked the firer in the previous Action
    Phase is at Point Blank while both are in the same GB; not the other way round."""
    state = game().model_copy(update={"rammed": (("cumberland", "virginia"),)})
    assert fire_range(state, "virginia", "cumberland") == "point_blank"
    assert check_fire(state, "virginia", 0, "cumberland") == "point_blank"
    assert fire_range(state, "cumberland", "virginia") == "short"
    apart = game(cumberland={"cell": (2, 1)}).model_copy(update={"rammed": state.rammed})
    assert fire_range(apart, "virginia", "cumberland") == "medium"
    assert fire_range(game(), "virginia", "cumberland") == "short"


# --------------------------------------------------------------------------- legality


def test_io_6_0_firer_and_target_must_be_afloat_on_the_map() -> None:
    """IO-6.0: an off-map firer or a sunk target cannot take part."""
    state = initial_state(bundled_scenario("hampton_roads"), DATA)
    assert refused(state, "virginia", 0, "cumberland") == "IO-6.0"
    assert refused(game(cumberland={"status": "sunk"}), "virginia", 0, "cumberland") == "IO-6.0"


def test_io_6_0_friendly_target_refused() -> None:
    """IO-6.0: ships fire at enemies only."""
    assert refused(game(), "cumberland", 1, "monitor") == "IO-6.0"


def test_io_5_5_1_x_section_cannot_fire_when_bow_on() -> None:
    """IO-5.5.1: a section marked "X" for Bow-on cannot fire while its ship is Bow-on."""
    state = game(pairs=(("virginia", "cumberland", "bow_on"),))
    assert refused(state, "virginia", 1, "cumberland") == "IO-5.5.1"
    assert refused(state, "virginia", 2, "cumberland") == "IO-5.5.1"
    assert check_fire(state, "virginia", 0, "cumberland") == "short"
    assert check_fire(game(), "virginia", 1, "cumberland") == "short"  # not Bow-on: fires


def test_io_5_5_2_x_section_cannot_fire_when_stern_on() -> None:
    """IO-5.5.2: the same for Stern-on and the stern value."""
    state = game(pairs=(("virginia", "cumberland", "stern_on"),))
    assert refused(state, "virginia", 0, "cumberland") == "IO-5.5.2"
    assert check_fire(state, "virginia", 2, "cumberland") == "short"


def test_io_6_2_3g_full_crew_damage_cannot_fire() -> None:
    """IO-6.2.3G: at full crew damage (Virginia full = 13) the ship cannot fire."""
    full = DATA.ships.get("virginia").crew.full
    assert refused(game(virginia={"crew_damage": full}), "virginia", 0, "cumberland") == (
        "IO-6.2.3G"
    )
    assert check_fire(game(virginia={"crew_damage": full - 1}), "virginia", 0, "cumberland")


def test_io_6_2_3i_captured_ship_cannot_fire() -> None:
    """IO-6.2.3I: a captured ship cannot fire."""
    state = game(virginia={"status": "captured", "captured_by": "USA"})
    assert refused(state, "virginia", 0, "cumberland") == "IO-6.2.3I"


def test_io_6_2_3i_captured_ship_counts_for_its_captor() -> None:
    """IO-6.2.3I: a captured ship is on its captor's side: its old side may fire at it, the
    captor's may not."""
    state = game(virginia={"status": "captured", "captured_by": "USA"})
    assert effective_side(state.ships["virginia"]) == "USA"
    assert refused(state, "cumberland", 1, "virginia") == "IO-6.0"
    assert effective_side(state.ships["cumberland"]) == "USA"


def test_io_6_2_4_gunfire_marker_lifts_night_reading() -> None:
    """IO-6.2.4 [GAP], ``gunfire_marker=reveals_target`` (1.0's reading): no night modifier and
    no "N/A" against a target carrying a Gunfire marker (its muzzle flashes give it away); the
    firer's own marker does not help it. With the default ``no_effect`` the marker changes
    nothing."""
    plain = game("wassaw_sound")
    marked = plain.model_copy(update={"gunfire": ("nahant", "weehawken")})
    assert refused(marked, "atlanta", 0, "nahant") == "IO-6.2.4"
    assert mods_of(marked, "atlanta", 0, "weehawken") == [(-3, "IO-6.2.4")]
    options = plain.options.model_copy(update={"gunfire_marker": "reveals_target"})
    state = plain.model_copy(update={"options": options})
    lit = state.model_copy(update={"gunfire": ("nahant", "weehawken")})
    assert check_fire(lit, "atlanta", 0, "nahant") == "long"
    assert mods_of(lit, "atlanta", 0, "weehawken") == []
    assert mods_of(state, "atlanta", 0, "weehawken") == [(-3, "IO-6.2.4")]
    own = state.model_copy(update={"gunfire": ("atlanta",)})
    assert refused(own, "atlanta", 0, "nahant") == "IO-6.2.4"
    events = fire(lit, "atlanta", 0, "nahant", [3, 5, 2, 1])
    assert resolved(events).range == "long"


def test_io_6_2_4_night_na_range_refused() -> None:
    """IO-6.2.4: at night, "N/A" on the Night Gunnery Chart (bundled: long) means no fire."""
    assert TABLES.night_gunnery.long == "N/A"
    state = game("wassaw_sound")
    assert refused(state, "atlanta", 0, "nahant") == "IO-6.2.4"
    assert check_fire(state, "atlanta", 0, "weehawken") == "medium"


# --------------------------------------------------------------------------- IO-6.2.1 modifiers


def mods_of(state: IronOakState, firer: str, section: int, target: str) -> list[tuple[int, str]]:
    rng = check_fire(state, firer, section, target)
    return [(m.value, m.rule) for m in gunnery_modifiers(state, firer, section, target, rng)]


CASES: list[tuple[str, IronOakState, str, int, str, list[tuple[int, str]]]] = [
    ("none", game(), "virginia", 0, "cumberland", []),
    (
        "firer bow-on: section bow value",
        game(pairs=(("cumberland", "virginia", "bow_on"),)),
        "cumberland",
        2,
        "virginia",
        [(-2, "IO-5.5.1")],
    ),
    (
        "firer stern-on: section stern value",
        game(pairs=(("cumberland", "virginia", "stern_on"),)),
        "cumberland",
        2,
        "virginia",
        [(-2, "IO-5.5.2")],
    ),
    (
        "firer bow-on with a 0 value: omitted",
        game(pairs=(("virginia", "cumberland", "bow_on"),)),
        "virginia",
        0,
        "cumberland",
        [],
    ),
    (
        "target bow-on",
        game(pairs=(("cumberland", "virginia", "bow_on"),)),
        "virginia",
        0,
        "cumberland",
        [(MODS.bow_on, "IO-5.5.1")],
    ),
    (
        "target stern-on",
        game(pairs=(("cumberland", "virginia", "stern_on"),)),
        "virginia",
        0,
        "cumberland",
        [(MODS.stern_on, "IO-5.5.2")],
    ),
    (
        "repair party",
        game(virginia={"repair_party": True}),
        "virginia",
        0,
        "cumberland",
        [(-2, "IO-3.1.1")],
    ),
    (
        "armament marker",
        game(virginia={"criticals": {"armament": CriticalState(name="armament", level=-4)}}),
        "virginia",
        0,
        "cumberland",
        [(-4, "IO-6.3.1")],
    ),
    (
        "captain",
        game(virginia={"criticals": {"captain": CriticalState(name="captain")}}),
        "virginia",
        0,
        "cumberland",
        [(MODS.captain, "IO-6.3.3")],
    ),
    (
        "fire level 5",
        game(virginia={"fire": 5}),
        "virginia",
        0,
        "cumberland",
        [(TABLES.fire.levels[5].gunnery, "IO-3.1.2")],
    ),
    ("fire level 2 (0): omitted", game(virginia={"fire": 2}), "virginia", 0, "cumberland", []),
    (
        "light smoke",
        game(virginia={"smoke": "light"}),
        "virginia",
        0,
        "cumberland",
        [(TABLES.smoke.light, "IO-6.2.3C")],
    ),
    (
        "heavy smoke",
        game(virginia={"smoke": "heavy"}),
        "virginia",
        0,
        "cumberland",
        [(TABLES.smoke.heavy, "IO-6.2.3C")],
    ),
    (
        "smoke on the target: not the firer's (default)",
        game(cumberland={"smoke": "heavy"}),
        "virginia",
        0,
        "cumberland",
        [],
    ),
    (
        "aground firer",
        game(virginia={"aground": True}),
        "virginia",
        0,
        "cumberland",
        [(MODS.aground_firer, "IO-6.2.3E")],
    ),
    (
        "aground target",
        game(cumberland={"aground": True}),
        "virginia",
        0,
        "cumberland",
        [(MODS.aground_target, "IO-6.2.3E")],
    ),
    (
        "fouled non-monitor",
        game(virginia={"fouled_with": ("hulk",)}),
        "virginia",
        0,
        "monitor",
        [(MODS.fouled_non_monitor, "IO-6.2.3B")],
    ),
    (
        "fouled monitor: no penalty",
        game(monitor={"fouled_with": ("hulk",)}),
        "monitor",
        0,
        "virginia",
        [],
    ),
    (
        "night, medium range",
        game("wassaw_sound"),
        "atlanta",
        0,
        "weehawken",
        [(-3, "IO-6.2.4")],
    ),
    (
        "night, fouled target: no night modifier",
        game(
            "wassaw_sound",
            atlanta={"fouled_with": ("weehawken",)},
            weehawken={"cell": (2, 2), "fouled_with": ("atlanta",)},
        ),
        "atlanta",
        0,
        "weehawken",
        [(MODS.fouled_non_monitor, "IO-6.2.3B")],
    ),
]


@pytest.mark.parametrize(
    ("state", "firer", "section", "target", "expected"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_io_6_2_1_each_modifier_cites_its_rule(
    state: IronOakState, firer: str, section: int, target: str, expected: list[tuple[int, str]]
) -> None:
    """IO-6.2.1: modifiers are cumulative, each cites its rule, zero values are left out."""
    assert mods_of(state, firer, section, target) == expected


def test_io_6_3_1_io_6_2_3a_armament_penalty_per_gun_section() -> None:
    """IO-6.3.1 / IO-6.2.3A: a −4 Armament marker costs Cumberland's d10d8 section −4 and its
    limited d6d4 section only −2 (limited guns take half); the roll records it."""
    marker = {"armament": CriticalState(name="armament", count=2, level=-4)}
    state = game(cumberland={"criticals": marker})
    assert mods_of(state, "cumberland", 0, "virginia") == [(-4, "IO-6.3.1")]
    assert mods_of(state, "cumberland", 2, "virginia") == [(-2, "IO-6.3.1")]
    [gunnery] = rolls(fire(state, "cumberland", 2, "virginia", [2, 6, 4, 5, 1]), "gunnery")
    assert [(m.value, m.rule) for m in gunnery.roll.modifiers] == [(-2, "IO-6.3.1")]
    assert gunnery.roll.total == 6 - 2
    one = {"armament": CriticalState(name="armament", count=1, level=-2)}
    assert mods_of(game(cumberland={"criticals": one}), "cumberland", 2, "virginia") == [
        (-1, "IO-6.3.1")
    ]


def test_io_7_0_action_card_modifiers_apply_to_their_unit_and_section() -> None:
    """IO-7.0: cards played this segment on the firer for gunnery modify its CR: one for a named
    section only, one for any section; a card on another unit does not count."""
    effects = (
        CardEffect(card="well_aimed", unit="virginia", use="gunnery", value=2, section=0),
        CardEffect(card="rapid_fire", unit="virginia", use="gunnery", value=1),
        CardEffect(card="well_aimed", unit="cumberland", use="gunnery", value=2),
        CardEffect(card="full_steam", unit="virginia", use="movement", value=2),
    )
    state = game().model_copy(update={"effects": effects})
    assert mods_of(state, "virginia", 0, "cumberland") == [(2, "IO-7.0"), (1, "IO-7.0")]
    assert mods_of(state, "virginia", 1, "cumberland") == [(1, "IO-7.0")]
    [gunnery] = rolls(fire(state, "virginia", 0, "cumberland", [2, 5, 3, 1]), "gunnery")
    assert gunnery.roll.total == 5 + 3
    assert "Well" in gunnery.roll.modifiers[0].reason


def test_io_6_2_1_modifiers_are_cumulative_and_used_by_the_roll() -> None:
    """IO-6.2.1: several modifiers together, all recorded on the gunnery roll."""
    state = game(
        virginia={"repair_party": True, "fire": 3, "smoke": "light"},
        cumberland={"aground": True},
    )
    expected = [(-2, "IO-3.1.1"), (-1, "IO-3.1.2"), (-1, "IO-6.2.3C"), (2, "IO-6.2.3E")]
    assert mods_of(state, "virginia", 0, "cumberland") == expected
    [gunnery] = rolls(fire(state, "virginia", 0, "cumberland", [2, 7, 3, 1]), "gunnery")
    assert [(m.value, m.rule) for m in gunnery.roll.modifiers] == expected
    assert gunnery.roll.total == 7 - 2


def test_io_6_2_3e_non_monitor_fouled_with_aground_ship() -> None:
    """IO-6.2.3E: a non-monitor fouled with an aground ship fires at the penalty; fire at it gets
    the bonus; a monitor fouled with it does not take the penalty."""
    state = game(
        virginia={"fouled_with": ("cumberland",)},
        cumberland={"aground": True, "fouled_with": ("virginia",)},
        monitor={"cell": (1, 1)},
    )
    assert (MODS.aground_firer, "IO-6.2.3E") in mods_of(state, "virginia", 0, "monitor")
    assert (MODS.aground_target, "IO-6.2.3E") in mods_of(state, "monitor", 0, "virginia")


# --------------------------------------------------------------------------- floors and odds


def test_io_6_2_1_cr_and_dr_never_below_1() -> None:
    """IO-6.2.1: CR −5 on a natural 1 and DR −4 on a natural 1 both count as 1."""
    state = game(
        pairs=(("cumberland", "virginia", "bow_on"),),
        cumberland={"repair_party": True, "criticals": {"captain": CriticalState(name="captain")}},
        virginia={"shields": {"WL": -4}},
    )
    events = fire(state, "cumberland", 2, "virginia", [6, 1, 1, 1, 1])
    [gunnery] = rolls(events, "gunnery")
    assert gunnery.opposed_by is not None
    assert sum(m.value for m in gunnery.roll.modifiers) == -5
    assert (gunnery.roll.total, gunnery.opposed_by.total) == (1, 1)
    assert gunnery.roll.floor == gunnery.opposed_by.floor == 1
    assert [(m.value, m.rule) for m in gunnery.opposed_by.modifiers] == [(-4, "IO-6.2.1")]
    event = resolved(events)
    assert (event.cr, event.dr, event.band, event.hits) == (1, 1, "no_effect", 0)


def brute_force(gun: str, defence: str, cr_mod: int, dr_mod: int) -> Fraction:
    g, d = parse(gun).dice, parse(defence).dice
    wins = total = 0
    for gf in product(*(range(1, die.sides + 1) for die in g)):
        cr = max(1, max(gf) + cr_mod)
        for df in product(*(range(1, die.sides + 1) for die in d)):
            total += 1
            wins += cr > max(1, max(df) + dr_mod)
    return Fraction(wins, total)


@pytest.mark.parametrize(
    ("state", "firer", "section", "target", "faces"),
    [
        (
            game(
                pairs=(("cumberland", "virginia", "bow_on"),),
                cumberland={"repair_party": True},
                virginia={"shields": {"WL": -3}},
            ),
            "cumberland",
            2,
            "virginia",
            [6, 4, 3, 8, 4],
        ),
        (
            game(pairs=(("cumberland", "virginia", "bow_on"),), cumberland={"shields": {"A": -1}}),
            "virginia",
            0,
            "cumberland",
            [3, 5, 2, 4],
        ),
        (game(virginia={"shields": {"B": -4}}), "monitor", 0, "virginia", [1, 9, 2, 3, 6, 3, 4]),
        (game(virginia={"fire": 5, "smoke": "heavy"}), "virginia", 1, "monitor", [2, 7, 6, 10, 1]),
    ],
)
def test_io_6_2_p_success_is_exact(
    state: IronOakState, firer: str, section: int, target: str, faces: list[int]
) -> None:
    """IO-6.2 / IO-6.2.1: the gunnery roll's p_success is P(CR > DR), brute-forced over every
    face with modifiers and the floor of 1; the d8's p_outcome counts the faces of its location."""
    events = fire(state, firer, section, target, faces)
    [where] = rolls(events, "hit location")
    [gunnery] = rolls(events, "gunnery")
    assert gunnery.opposed_by is not None
    gun = state.card(firer).guns[section].dice
    loc = state.card(target).location(where.outcome)  # type: ignore[arg-type]
    assert loc is not None
    cr_mod = sum(m.value for m in gunnery.roll.modifiers)
    dr_mod = sum(m.value for m in gunnery.opposed_by.modifiers)
    assert dr_mod == state.ships[target].shield(loc.code)
    assert Fraction(gunnery.p_success or "x") == brute_force(gun, loc.defence, cr_mod, dr_mod)
    same = sum(hit_location(state, firer, target, f) == where.outcome for f in range(1, 9))
    assert Fraction(where.p_outcome) == Fraction(same, 8)
    assert (where.first_die, gunnery.first_die) == (0, 1)


# --------------------------------------------------------------------------- IO-6.2 damage chart

DAMAGE = [
    # id, target, shields, faces, band, hits, shield after, shield_line (bundled chart values)
    ("wood undamaged over", "cumberland", {}, [2, 5, 3, 1], "over", 0, 0, "otherwise"),
    ("wood damaged over", "cumberland", {"A": -1}, [2, 3, 3, 1], "over", 1, -1, "otherwise"),
    ("wood undamaged double", "cumberland", {}, [2, 6, 3, 1], "double", 2, -2, "otherwise"),
    ("wood damaged double", "cumberland", {"A": -1}, [2, 4, 3, 1], "double", 2, -1, "otherwise"),
    (
        "wood undamaged critical",
        "cumberland",
        {},
        [2, 9, 3, 1, 3, 4],
        "critical",
        2,
        -2,
        "otherwise",
    ),
    ("no effect", "cumberland", {"A": -1}, [2, 2, 3, 1], "no_effect", 0, -1, "otherwise"),
    ("armour undamaged over", "virginia", {}, [2, 5, 1, 3, 2], "over", 0, 0, "otherwise"),
    ("armour at -1: last line", "virginia", {"A": -1}, [2, 5, 1, 4, 2], "over", 0, -2, "otherwise"),
    ("armour damaged over", "virginia", {"A": -2}, [2, 5, 1, 5, 2], "over", 1, -2, "otherwise"),
    ("armour damaged double", "virginia", {"A": -2}, [2, 6, 1, 5, 2], "double", 2, -2, "otherwise"),
    ("armour undamaged double", "virginia", {}, [2, 6, 1, 3, 2], "double", 2, -2, "otherwise"),
    ("always: wood undamaged over", "cumberland", {}, [2, 5, 3, 1], "over", 0, -1, "always"),
    (
        "always: armour damaged over",
        "virginia",
        {"A": -2},
        [2, 5, 1, 5, 2],
        "over",
        1,
        -3,
        "always",
    ),
    ("always: armour undamaged double", "virginia", {}, [2, 6, 1, 3, 2], "double", 0, -2, "always"),
    ("always: shield floor -4", "virginia", {"A": -4}, [2, 6, 1, 7, 2], "double", 2, -4, "always"),
]


@pytest.mark.parametrize(
    ("target", "shields", "faces", "band", "hits", "after", "shield_line"),
    [case[1:] for case in DAMAGE],
    ids=[case[0] for case in DAMAGE],
)
def test_io_6_2_standard_damage_chart(
    target: str,
    shields: dict[str, int],
    faces: list[int],
    band: str,
    hits: int,
    after: int,
    shield_line: ShieldLine,
) -> None:
    """IO-6.2 / IO-6.2.1: hits by wood/armour and damaged state from the band's rows; the band's
    last line (shield step, hits) when no row applies, or with ``shield_line=always`` its shield
    step every time; shields never go below −4."""
    firer = "virginia" if target == "cumberland" else "monitor"
    if target == "cumberland":
        state = game(cumberland={"shields": shields})
    else:
        state = game(virginia={"shields": shields})
    state = state.model_copy(update={"options": IronOakOptions(shield_line=shield_line)})
    events = fire(state, firer, 0, target, faces)
    event = resolved(events)
    assert event.location == "A"
    assert (event.band, event.hits, event.shield_after) == (band, hits, after)
    assert event.shield_before == shields.get("A", 0)
    new = fold(state, events)
    assert new.ships[target].hits == hits
    assert new.ships[target].shield("A") == after


def test_io_6_2_bundled_chart_values_pinned() -> None:
    """IO-6.2: the values the damage tests rely on."""
    assert (CHART.armour_damaged_at, CHART.shield_floor, CHART.wl_extra_hit) == (-2, -4, 1)
    assert (CHART.over.last_line.shield_step, CHART.double.last_line.shield_step) == (-1, -2)


def test_io_6_2_waterline_hit_adds_one_extra_hit() -> None:
    """IO-6.2: a WL hit that causes hits adds 1; a WL hit causing none adds nothing."""
    state = game(cumberland={"shields": {"WL": -1}})
    event = resolved(fire(state, "virginia", 0, "cumberland", [7, 3, 3, 1]))
    assert (event.location, event.band, event.hits) == ("WL", "over", 1 + CHART.wl_extra_hit)
    event = resolved(fire(game(), "virginia", 0, "cumberland", [7, 3, 2, 1]))
    assert (event.location, event.band, event.hits) == ("WL", "over", 0)


# --------------------------------------------------------------------------- IO-6.2.2 location


def test_io_6_2_2_stern_hit_becomes_bow_when_target_bow_on() -> None:
    """IO-6.2.2 (option swap): the seed swaps S and B both ways when the target is Bow-on to the
    firer (default ``full``); the digest's ``paired`` reading only turns S into B."""
    state = game(pairs=(("cumberland", "virginia", "bow_on"),))
    assert hit_location(state, "virginia", "cumberland", 6) == "B"
    assert hit_location(state, "virginia", "cumberland", 1) == "S"
    paired = GunneryOptions(swap="paired")
    assert hit_location(state, "virginia", "cumberland", 6, options=paired) == "B"
    assert hit_location(state, "virginia", "cumberland", 1, options=paired) == "B"
    none = GunneryOptions(swap="none")
    assert hit_location(state, "virginia", "cumberland", 6, options=none) == "S"
    assert hit_location(game(), "virginia", "cumberland", 6) == "S"
    events = fire(state, "virginia", 0, "cumberland", [6, 2, 2, 1])
    [where] = rolls(events, "hit location")
    assert (where.outcome, where.p_outcome) == ("B", "1/8")  # only the S face turns to B
    assert resolved(events).location == "B"


def test_io_6_2_2_bow_hit_becomes_stern_when_target_stern_on() -> None:
    """IO-6.2.2: B→S when the target is Stern-on (and S→B under the seed's full swap); kept as
    B when the card has no S (monitor)."""
    state = game(
        pairs=(("cumberland", "virginia", "stern_on"), ("monitor", "virginia", "stern_on"))
    )
    assert hit_location(state, "virginia", "cumberland", 1) == "S"
    assert hit_location(state, "virginia", "cumberland", 6) == "B"
    paired = GunneryOptions(swap="paired")
    assert hit_location(state, "virginia", "cumberland", 6, options=paired) == "S"
    assert hit_location(state, "virginia", "monitor", 1) == "B"


def test_io_6_2_3d_plunging_fire_turns_starred_locations_to_deck() -> None:
    """IO-6.2.2 / IO-6.2.3D: under plunging fire a * location becomes D."""
    state = game()
    assert hit_location(state, "virginia", "cumberland", 2, plunging=True) == "D"
    assert hit_location(state, "virginia", "cumberland", 1, plunging=True) == "B"
    assert hit_location(state, "virginia", "cumberland", 2) == "A"


def test_io_6_2_3b_fouled_waterline_hits_become_a_or_ts() -> None:
    """IO-6.2.3B: between fouled ships WL hits become TS on a monitor, A otherwise."""
    state = game(
        virginia={"fouled_with": ("cumberland", "monitor")},
        cumberland={"fouled_with": ("virginia",)},
        monitor={"cell": (1, 1), "fouled_with": ("virginia",)},
    )
    assert hit_location(state, "virginia", "cumberland", 7) == "A"
    assert hit_location(state, "virginia", "monitor", 6) == "TS"
    assert hit_location(state, "monitor", "virginia", 6) == "A"
    assert hit_location(game(), "virginia", "cumberland", 7) == "WL"


# --------------------------------------------------------------------------- IO-6.2.3C smoke


def smoke_events(events: list[DomainEvent]) -> list[SmokeChanged]:
    return [e for e in events if isinstance(e, SmokeChanged)]


def test_io_6_2_3c_unmodified_eight_makes_light_then_heavy_smoke() -> None:
    """IO-6.2.3C: an unmodified gun die of 8+ places Light Smoke, then flips it to Heavy."""
    state = game()
    events = fire(state, "virginia", 0, "cumberland", [2, 8, 3, 1])
    assert smoke_events(events) == [SmokeChanged(ship="virginia", smoke="light")]
    state = fold(state, events)
    assert state.ships["virginia"].smoke == "light"
    events = fire(state, "virginia", 0, "cumberland", [2, 10, 8, 1])
    assert smoke_events(events) == [SmokeChanged(ship="virginia", smoke="heavy")]
    state = fold(state, events)
    assert state.ships["virginia"].smoke == "heavy"
    assert smoke_events(fire(state, "virginia", 0, "cumberland", [2, 10, 8, 1])) == []


def test_io_6_2_3c_smoke_uses_the_unmodified_die() -> None:
    """IO-6.2.3C: a 7 raised to 9 by modifiers makes no smoke; an 8 lowered to 6 does."""
    state = game(cumberland={"aground": True})
    assert smoke_events(fire(state, "virginia", 0, "cumberland", [2, 7, 4, 1])) == []
    state = game(virginia={"repair_party": True})
    assert smoke_events(fire(state, "virginia", 0, "cumberland", [2, 8, 3, 1]))


def test_io_6_2_3c_no_smoke_with_bow_on_or_armament_modifier() -> None:
    """IO-6.2.3C: no smoke while a Bow-on/Stern-on or Armament modifier applies."""
    bow = game(pairs=(("cumberland", "virginia", "bow_on"),))
    assert smoke_events(fire(bow, "virginia", 0, "cumberland", [2, 9, 4, 1])) == []
    armament = game(virginia={"criticals": {"armament": CriticalState(name="armament", level=-2)}})
    assert smoke_events(fire(armament, "virginia", 0, "cumberland", [2, 9, 4, 1])) == []


# --------------------------------------------------------------------------- IO-6.3 critical


@pytest.mark.parametrize(
    ("pairs", "face", "column"),
    [
        ((("cumberland", "virginia", "bow_on"),), 7, "wl_bow_on"),
        ((("cumberland", "virginia", "stern_on"),), 7, "wl_stern_on"),
        ((), 8, "wl_other"),
        ((("cumberland", "virginia", "bow_on"),), 2, "ship"),
    ],
)
def test_io_6_3_critical_band_rolls_2d6_on_the_column(
    pairs: tuple[tuple[str, str, str], ...], face: int, column: str
) -> None:
    """IO-6.3: CR ≥ 3·DR rolls 2d6 on the Critical Hit Table; WL hits use the column of the
    target's relation to the firer, other locations the Ship column."""
    state = game(pairs=pairs)
    events = fire(state, "virginia", 0, "cumberland", [face, 9, 2, 1, 1, 1])
    assert resolved(events).band == "critical"
    [crit] = rolls(events, "critical")
    assert (crit.rule, crit.roll.expression, crit.roll.faces, crit.first_die) == (
        "IO-6.3",
        "2d6",
        [1, 1],
        4,
    )
    entries = getattr(TABLES.critical_table, column)
    assert crit.outcome == entries[2]
    expected = CriticalRolled(unit="cumberland", column=column, total=2, critical=entries[2])
    assert events[-1] == expected
    assert apply(state, expected) == state


def test_io_6_3_critical_p_outcome_is_exact() -> None:
    """IO-6.3: the 2d6 roll's p_outcome is the chance of that critical on the column."""
    events = fire(game(), "virginia", 0, "cumberland", [2, 9, 2, 1, 3, 4])
    [crit] = rolls(events, "critical")
    column = TABLES.critical_table.ship
    ways = sum(column[a + b] == crit.outcome for a in range(1, 7) for b in range(1, 7))
    assert crit.outcome == column[7]
    assert Fraction(crit.p_outcome) == Fraction(ways, 36)


def test_io_6_3_no_critical_roll_below_three_times() -> None:
    """IO-6.3: the double band rolls no 2d6."""
    events = fire(game(), "virginia", 0, "cumberland", [2, 8, 3, 1])
    assert resolved(events).band == "double"
    assert rolls(events, "critical") == []
    assert not any(isinstance(e, CriticalRolled) for e in events)


# --------------------------------------------------------------------------- IO-6.2.3J sinking


def test_io_6_2_3j_sinks_at_hit_value() -> None:
    """IO-6.2.3J: hits reaching the hit value sink the ship; its fouled markers go."""
    hit_value = DATA.ships.get("cumberland").hit_value
    state = game(
        cumberland={"hits": hit_value - 2, "shields": {"WL": -1}, "fouled_with": ("monitor",)},
        monitor={"fouled_with": ("cumberland",)},
    )
    events = fire(state, "virginia", 0, "cumberland", [7, 3, 3, 1])
    assert resolved(events).hits == 2
    new = fold(state, events)
    assert new.ships["cumberland"].status == "sunk"
    assert new.ships["cumberland"].hits == hit_value
    assert new.ships["monitor"].fouled_with == ()
    assert new.markers == state.markers  # depth 5 at [1, 1]: no hulk
    assert refused(new, "virginia", 0, "cumberland") == "IO-6.0"


def test_io_6_2_3j_one_short_of_hit_value_stays_afloat() -> None:
    """IO-6.2.3J: one hit short of the hit value the ship floats."""
    hit_value = DATA.ships.get("cumberland").hit_value
    state = game(cumberland={"hits": hit_value - 3, "shields": {"WL": -1}})
    new = fold(state, fire(state, "virginia", 0, "cumberland", [7, 3, 3, 1]))
    assert new.ships["cumberland"].status == "active"


def test_io_6_2_3j_hulk_in_shallow_water_and_no_critical_for_a_sunk_ship() -> None:
    """IO-6.2.3J: sinking in depth ≤ 2 leaves a Hulk; a sunk ship rolls no critical."""
    hit_value = DATA.ships.get("cumberland").hit_value
    state = game(virginia={"cell": (4, 4)}, cumberland={"cell": (4, 4), "hits": hit_value - 1})
    events = fire(state, "virginia", 0, "cumberland", [2, 9, 2, 1])  # no 2d6 scripted
    assert resolved(events).band == "critical"
    assert rolls(events, "critical") == []
    new = fold(state, events)
    assert new.ships["cumberland"].status == "sunk"
    assert new.markers["4,4"] == ("hulk",)


# --------------------------------------------------------------------------- purity


def test_resolve_fire_does_not_mutate_state() -> None:
    """resolve_fire and apply are pure: the input state is unchanged."""
    state = game(cumberland={"shields": {"A": -1}})
    before = state.model_dump()
    events = fire(state, "virginia", 0, "cumberland", [2, 9, 6, 1])
    new = fold(state, events)
    assert state.model_dump() == before
    assert new is not state
    assert new.ships["cumberland"].hits != state.ships["cumberland"].hits


def test_refused_fire_rolls_nothing() -> None:
    """IO-6.1: a refused order draws no dice."""
    dice = FixedDice([1, 1, 1, 1])
    with pytest.raises(IllegalCommand):
        resolve_fire(game(monitor={"cell": (4, 4)}), "monitor", 0, "virginia", dice)
    assert dice.remaining == 4


def test_io_6_2_3e_firing_at_a_monitor_held_by_an_aground_ship_gets_the_bonus() -> None:
    """IO-6.2.3E: firing at an aground ship *and at any ship fouled with or attached to it*
    gets the bonus (「座礁した船及びこの船とからまっている又は繋がっている船を目標にすると」);
    the monitor exception is for the firer's penalty only."""
    state = game(
        cumberland={"aground": True, "fouled_with": ("monitor",), "cell": (1, 2)},
        monitor={"fouled_with": ("cumberland",)},
    )
    mods = gunnery_modifiers(state, "virginia", 1, "monitor", "medium")
    assert (MODS.aground_target, "IO-6.2.3E") in [(m.value, m.rule) for m in mods]
    own = gunnery_modifiers(state, "monitor", 0, "virginia", "medium")
    assert "IO-6.2.3E" not in [m.rule for m in own]  # a monitor fires without the penalty
