"""Iron & Oak: the damage-chart odds on every gunnery event (IO-6.2), the Jam penalty
(IO-6.3.10), the optional rules low freeboard (IO-9.1) and tugs (IO-9.2), and action-card
modifiers on movement, hazards and contact rolls (IO-7.0)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from domain.dice import FixedDice, joint, modified_distribution, parse
from domain.events import DiceRolled
from domain.rulesets.iron_oak.data import bundled_scenario, resolve_data
from domain.rulesets.iron_oak.events import GunneryResolved
from domain.rulesets.iron_oak.gunnery import GunneryOptions, gunnery_modifiers, resolve_fire
from domain.rulesets.iron_oak.movement import check_hazards, move_modifiers
from domain.rulesets.iron_oak.options import IronOakOptions
from domain.rulesets.iron_oak.state import CardEffect, CriticalState, IronOakState, initial_state

DATA = resolve_data()


def hampton(**updates: dict[str, Any]) -> IronOakState:
    state = initial_state(bundled_scenario("hampton_roads"), DATA)
    base = {
        "virginia": {"cell": (1, 1)},
        "cumberland": {"cell": (1, 1)},
        "monitor": {"cell": (1, 2)},
    }
    ships = {
        sid: ship.model_copy(update={**base.get(sid, {}), **updates.get(sid, {})})
        for sid, ship in state.ships.items()
    }
    return state.model_copy(update={"ships": ships})


def test_io_6_2_gunnery_event_carries_band_text_and_exact_band_odds() -> None:
    """IO-6.2: the resolution names its damage-chart band and the odds of every band, which
    sum to 1 and match an independent enumeration of CR and DR."""
    state = hampton()
    events = resolve_fire(
        state, "virginia", 1, "cumberland", FixedDice([4, 9, 5, 2, 1, 1, 1, 1, 1])
    )
    resolved = next(e for e in events if isinstance(e, GunneryResolved))
    gunnery = next(e for e in events if isinstance(e, DiceRolled) and e.purpose == "gunnery")
    assert resolved.band_text.startswith(
        {"no_effect": "CR ≤ DR", "over": "DR <", "double": "2·DR", "critical": "CR ≥ 3"}[
            resolved.band
        ]
    )
    odds = {k: Fraction(v) for k, v in resolved.p_band.items()}
    assert set(odds) == {"no_effect", "over", "double", "critical"}
    assert sum(odds.values()) == 1
    assert gunnery.opposed_by is not None
    cr = modified_distribution(parse(gunnery.roll.expression), gunnery.roll.modifiers, 1)
    dr = modified_distribution(
        parse(gunnery.opposed_by.expression), gunnery.opposed_by.modifiers, 1
    )
    chart = DATA.tables.damage_chart
    expected = sum((p for (c, d), p in joint(cr, dr).items() if c >= 3 * d), Fraction(0))
    assert odds["critical"] == expected
    assert odds["no_effect"] == 1 - Fraction(gunnery.p_success or "0")
    assert chart.band(9, 3) == "critical"


def test_io_6_3_10_jammed_monitor_turret_fires_at_minus_two() -> None:
    """IO-6.3.10: a Jam critical on a monitor gives its gunnery −2; not on other ships."""
    jam = {"jam": CriticalState(name="jam")}
    state = hampton(monitor={"criticals": jam}, virginia={"criticals": jam})
    monitor = gunnery_modifiers(state, "monitor", 0, "virginia", "medium")
    assert any(m.rule == "IO-6.3.10" and m.value == -2 for m in monitor)
    virginia = gunnery_modifiers(state, "virginia", 1, "monitor", "medium")
    assert not any(m.rule == "IO-6.3.10" for m in virginia)


def _wl_face(state: IronOakState, ship: str) -> int:
    card = state.card(ship)
    return next(f for f in range(1, 9) if card.location_for(f).code == "WL")


def _other_face(state: IronOakState, ship: str) -> int:
    card = state.card(ship)
    return next(f for f in range(1, 9) if card.location_for(f).code not in ("WL", "S", "B"))


def test_io_9_1_low_freeboard_rerolls_a_waterline_hit_on_a_monitor() -> None:
    """IO-9.1 (optional): a monitor hit on WL rolls the location die again; off by default."""
    state = hampton()
    wl, other = _wl_face(state, "monitor"), _other_face(state, "monitor")
    faces = [wl, other, 10, 1, 1, 1, 1, 1]
    on = resolve_fire(
        state, "virginia", 0, "monitor", FixedDice(faces), GunneryOptions(low_freeboard=True)
    )
    locations = [e for e in on if isinstance(e, DiceRolled) and "hit location" in e.purpose]
    assert [e.rule for e in locations] == ["IO-6.2", "IO-9.1"]
    resolved = next(e for e in on if isinstance(e, GunneryResolved))
    assert resolved.location == state.card("monitor").location_for(other).code
    off = resolve_fire(state, "virginia", 0, "monitor", FixedDice(faces), GunneryOptions())
    assert next(e for e in off if isinstance(e, GunneryResolved)).location == "WL"


def test_io_9_1_low_freeboard_does_not_touch_ordinary_ships() -> None:
    """IO-9.1: only monitors (and low-freeboard ships) re-roll."""
    state = hampton()
    wl = _wl_face(state, "cumberland")
    events = resolve_fire(
        state,
        "virginia",
        1,
        "cumberland",
        FixedDice([wl, 10, 6, 1, 1, 1, 1]),
        GunneryOptions(low_freeboard=True),
    )
    assert next(e for e in events if isinstance(e, GunneryResolved)).location == "WL"


def test_io_9_2_tugs_count_double_hit_value_on_the_tow_table() -> None:
    """IO-9.2 (optional): a tug (Bombshell, Zouave) tows with double its hit value."""
    base = initial_state(bundled_scenario("hampton_roads"), DATA)
    zouave = base.ships["monitor"].model_copy(
        update={"id": "zouave", "card": "zouave", "cell": (2, 2), "towing": "cumberland"}
    )
    ships = {
        **base.ships,
        "zouave": zouave,
        "cumberland": base.ships["cumberland"].model_copy(
            update={"cell": (2, 2), "towed_by": "zouave"}
        ),
    }
    plain = base.model_copy(update={"ships": ships})
    tugs = plain.model_copy(update={"options": IronOakOptions(tugs=True)})
    path = [(2, 2), (2, 1)]
    tow = DATA.tables.tow
    diff = DATA.ships.get("zouave").hit_value - DATA.ships.get("cumberland").hit_value
    doubled = 2 * DATA.ships.get("zouave").hit_value - DATA.ships.get("cumberland").hit_value
    off = [m for m in move_modifiers(plain, "zouave", path) if m.rule == "IO-5.3"]
    on = [m for m in move_modifiers(tugs, "zouave", path) if m.rule == "IO-9.2"]
    assert [m.value for m in off] == ([tow.modifier(diff)] if tow.modifier(diff) else [])
    assert [m.value for m in on] == ([tow.modifier(doubled)] if tow.modifier(doubled) else [])
    assert tow.modifier(doubled) != tow.modifier(diff)


def test_io_7_0_movement_and_hazard_cards_modify_the_rolls_of_their_ship() -> None:
    """IO-7.0: a movement card's value is a modifier on the ship's movement roll; a hazard
    card's on its hazard checks; other ships are not affected."""
    state = hampton(virginia={"cell": (2, 2)})
    effects = (
        CardEffect(card="full_steam", unit="virginia", use="movement", value=2),
        CardEffect(card="pilot_error", unit="virginia", use="hazard", value=-2),
    )
    state = state.model_copy(update={"effects": effects})
    mods = move_modifiers(state, "virginia", [(2, 2), (2, 1)])
    assert [(m.value, m.rule) for m in mods if m.rule == "IO-7.0"] == [(2, "IO-7.0")]
    assert not [m for m in move_modifiers(state, "monitor", [(1, 2)]) if m.rule == "IO-7.0"]
    deep = state.box((2, 2)).model_copy(update={"depth": 0})
    shallow = state.model_copy(
        update={"scenario": state.scenario.model_copy(update={"boxes": [deep]})}
    )
    events = check_hazards(shallow, "virginia", (2, 2), FixedDice([6, 1, 1]))
    roll = next(e for e in events if isinstance(e, DiceRolled))
    assert [(m.value, m.rule) for m in roll.roll.modifiers] == [(-2, "IO-7.0")]


def test_io_8_0_campaign_rules_are_not_in_the_seed_so_the_blockade_icon_is_inert() -> None:
    """IO-8.0 (campaign, omitted from the seed) and IO-1.0.1.1 H (the blockade icon is for the
    campaign only): a ship card with the icon plays exactly like one without it."""
    card = DATA.ships.get("virginia")
    marked = card.model_copy(update={"icons": [*card.icons, "blockade"]})
    ships = DATA.ships.model_copy(
        update={"ships": [marked if s.id == "virginia" else s for s in DATA.ships.ships]}
    )
    data = DATA.model_copy(update={"ships": ships})
    plain = hampton()
    campaign = plain.model_copy(update={"data": data})
    assert "blockade" in campaign.card("virginia").icons
    for state_a, state_b in ((plain, campaign),):
        assert move_modifiers(state_a, "virginia", [(1, 1), (1, 2)]) == move_modifiers(
            state_b, "virginia", [(1, 1), (1, 2)]
        )
        assert gunnery_modifiers(state_a, "virginia", 1, "monitor", "medium") == (
            gunnery_modifiers(state_b, "virginia", 1, "monitor", "medium")
        )
    faces = [4, 9, 5, 2, 1, 1, 1, 1, 1]
    a = resolve_fire(plain, "virginia", 1, "monitor", FixedDice(faces))
    b = resolve_fire(campaign, "virginia", 1, "monitor", FixedDice(faces))
    assert a == b


def test_io_6_2_hit_location_and_critical_rolls_are_luck_neutral() -> None:
    """IO-6.2 / IO-6.3: the d8 location and the 2d6 critical pick an entry, not a better or
    worse number, so they count neither as luck nor bad luck (value == expected); the gunnery
    roll itself carries the luck."""
    state = hampton(cumberland={"shields": {"A": -2}})
    events = resolve_fire(state, "virginia", 1, "cumberland", FixedDice([3, 10, 6, 1, 1, 4, 3]))
    rolls = {e.purpose: e for e in events if isinstance(e, DiceRolled)}
    assert rolls["hit location"].value == rolls["hit location"].expected == "0"
    assert rolls["critical"].value == rolls["critical"].expected == "0"
    assert rolls["gunnery"].value != rolls["gunnery"].expected
