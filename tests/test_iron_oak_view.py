"""Iron & Oak read model and log lines (domain.rulesets.iron_oak.view).

States come from the bundled (provisional) scenarios and data, changed with ``model_copy``:
Hampton Roads (Virginia off the S edge with a Smokestack critical, Cumberland at [1, 1], Monitor
at [3, 0]), Mobile Bay: The Gauntlet (mines, obstructions, a bank, a N current, Fort Morgan
beside [4, 3] on the E edge and Fort Gaines beside [0, 2] on the W edge) and Wassaw Sound
(night).
"""

from __future__ import annotations

from typing import Any, ClassVar

import pytest

from domain.chance import describe_roll
from domain.engine import Session, decode, header_for
from domain.events import (
    CommandIssued,
    DiceRolled,
    DomainEvent,
    GameEnded,
    RollRecord,
)
from domain.read_model import CellView, GameView, UnitView
from domain.ruleset import get_ruleset
from domain.rulesets.iron_oak import events as ev
from domain.rulesets.iron_oak import turn_events as te
from domain.rulesets.iron_oak.data import BUNDLED_SCENARIOS, bundled_scenario, resolve_data
from domain.rulesets.iron_oak.events import IRON_OAK_EVENTS
from domain.rulesets.iron_oak.rules import victory_points
from domain.rulesets.iron_oak.state import CriticalState, IronOakState, Pair, initial_state
from domain.rulesets.iron_oak.turn_events import TURN_EVENTS
from domain.rulesets.iron_oak.view import describe, read_model
from viewer.figures import board_figure

DATA = resolve_data()
HIDDEN_CARDS = ("full_steam", "well_aimed", "engine_trouble", "misfire")
HIDDEN_NAMES = ("Full Steam", "Well Aimed", "Engine Trouble", "Misfire")


def game(
    scenario: str = "hampton_roads",
    ships: dict[str, dict[str, Any]] | None = None,
    sections: dict[str, dict[str, Any]] | None = None,
    **update: Any,
) -> IronOakState:
    base = initial_state(bundled_scenario(scenario), DATA)
    new_ships = {
        sid: ship.model_copy(update=(ships or {}).get(sid, {})) for sid, ship in base.ships.items()
    }
    new_sections = {
        sid: sec.model_copy(update=(sections or {}).get(sid, {}))
        for sid, sec in base.sections.items()
    }
    return base.model_copy(update={"ships": new_ships, "sections": new_sections, **update})


def unit(view: GameView, uid: str) -> UnitView:
    return next(u for u in view.units if u.id == uid)


def cell(view: GameView, where: tuple[int, int]) -> CellView:
    return next(c for c in view.board.cells if c.cell == where)


# --------------------------------------------------------------------------- board


@pytest.mark.parametrize("scenario", BUNDLED_SCENARIOS)
def test_grid_board_has_a_cell_per_box_with_its_depth(scenario: str) -> None:
    """IO-1.1: the 5 × 5 grid of boxes (GB), each with its depth (IO-5.4.1)."""
    state = game(scenario)
    view = read_model(state)
    grid = state.scenario.grid
    assert view.ruleset == "iron_oak"
    assert view.scenario == state.scenario.title  # issue 21 item 7: its title, not its id
    assert view.scenario and view.scenario != scenario
    assert (view.board.kind, view.board.width, view.board.height) == ("grid", 5, 5)
    assert (grid.columns, grid.rows) == (5, 5)
    assert view.board.unit == "GB"
    assert sorted(c.cell for c in view.board.cells) == [
        (col, row) for col in range(grid.columns) for row in range(grid.rows)
    ]
    for c in view.board.cells:
        depth = state.box(c.cell).depth
        assert c.details["depth"] == depth
        assert c.label.startswith(f"depth {depth}")
    board_figure(view)  # the generic viewer draws it


def test_cells_show_bank_current_markers_and_forts() -> None:
    """IO-5.2 banks and current, IO-5.4 hazards (mines, obstructions), forts beside a box."""
    view = read_model(game("mobile_bay_gauntlet"))
    mines = cell(view, (1, 2))
    assert mines.details["markers"] == "mine×2"
    assert "mine×2" in mines.label
    assert mines.details["depth"] == 4
    assert "heavy obst" in cell(view, (0, 3)).label
    assert cell(view, (0, 3)).details["markers"] == "heavy_obstruction"
    bank = cell(view, (4, 4))
    assert bank.details["bank"] is True
    assert "bank" in bank.label
    assert cell(view, (2, 2)).details["bank"] is None
    # the scenario's default current flows N, moderate
    assert cell(view, (2, 2)).details["current"] == "N"
    assert cell(view, (2, 2)).details["current_strength"] == "moderate"
    assert "↑" in cell(view, (2, 2)).label
    assert cell(view, (4, 3)).details["forts"] == "Fort Morgan (E edge)"
    assert cell(view, (4, 3)).label.endswith("fort")
    assert cell(view, (0, 2)).details["forts"] == "Fort Gaines (W edge)"
    assert cell(view, (2, 2)).details["forts"] is None


def test_cells_show_markers_that_appear_during_play() -> None:
    """IO-6.2.3J: a hulk left in a box shows on the box (state markers, not the scenario's)."""
    view = read_model(game(markers={"2,2": ("hulk",)}))
    assert cell(view, (2, 2)).details["markers"] == "hulk"
    assert cell(view, (2, 2)).label == "depth 5 hulk"
    assert read_model(game("hampton_roads")).board.cells[0].details["markers"] is None


def test_rapid_current_has_a_double_arrow() -> None:
    state = game("mobile_bay_gauntlet")
    current = state.scenario.current
    assert current is not None
    rapid = current.model_copy(update={"direction": "SE", "strength": "rapid"})
    state = state.model_copy(
        update={"scenario": state.scenario.model_copy(update={"current": rapid})}
    )
    c = cell(read_model(state), (2, 2))
    assert "⇘" in c.label
    assert (c.details["current"], c.details["current_strength"]) == ("SE", "rapid")


# --------------------------------------------------------------------------- ships


def test_ship_units_show_their_card() -> None:
    """IO-1.0.1.1: name, hit value, crew factor, draft, VP, icons, guns from the ship card."""
    state = game()
    view = read_model(state)
    assert [u.id for u in view.units] == ["virginia", "cumberland", "monitor"]
    virginia = unit(view, "virginia")
    card = state.card("virginia")
    assert (virginia.side, virginia.name, virginia.kind) == ("CSA", "CSS Virginia", "ironclad")
    assert virginia.strength == card.hit_value
    assert virginia.damage == 0
    assert virginia.status == "active"
    d = virginia.details
    assert d["card"] == "virginia"
    assert d["vp"] == card.vp
    assert d["draft"] == card.draft
    assert d["crew"] == f"{card.crew.light}/{card.crew.heavy}-{card.crew.full}"
    assert d["crew_damage"] == 0
    assert d["crew_level"] == "none"
    assert d["ram"] == card.ram
    assert d["movement_dice"] == card.movement[0].dice
    assert isinstance(d["provisional"], str)
    assert "hit_value" in d["provisional"]
    assert unit(view, "monitor").kind == "monitor"
    assert unit(view, "monitor").details["icons"] == "monitor, low_freeboard"
    assert unit(view, "cumberland").kind == "wooden"


def test_ships_sharing_a_card_have_distinct_names() -> None:
    """Wassaw Sound: Weehawken and Nahant both use the Weehawken card (IO-1.0.1.1)."""
    view = read_model(game("wassaw_sound"))
    assert unit(view, "weehawken").name == "USS Weehawken"
    assert unit(view, "nahant").name == "Nahant (USS Weehawken card)"
    assert unit(view, "nahant").details["card"] == "weehawken"
    assert len({u.name for u in view.units}) == len(view.units)


def test_ship_cells_and_off_map_edge() -> None:
    """IO-5.1.5: a ship waiting off the map has no box; the view names its edge."""
    view = read_model(game())
    assert unit(view, "cumberland").cell == (1, 1)
    assert unit(view, "monitor").cell == (3, 0)
    virginia = unit(view, "virginia")
    assert virginia.cell is None
    assert virginia.details["off_map"] == "S edge"
    assert unit(view, "monitor").details["off_map"] is None


def test_light_and_heavy_damage() -> None:
    """IO-3.5.1: light damage from the 2nd Movement Chart row, heavy from the 3rd (and the
    heavy-damage draft, IO-6.2.3F)."""
    state = game()
    card = state.card("monitor")
    light = read_model(game(ships={"monitor": {"hits": card.light_damage_at}}))
    d = unit(light, "monitor").details
    assert unit(light, "monitor").damage == card.light_damage_at
    assert (d["hull"], d["heavily_damaged"]) == ("light", False)
    assert d["movement_dice"] == card.movement[1].dice
    assert d["effective_draft"] == card.draft
    heavy = read_model(game(ships={"monitor": {"hits": card.heavy_damage_at}}))
    d = unit(heavy, "monitor").details
    assert (d["hull"], d["heavily_damaged"]) == ("heavy", True)
    assert d["movement_dice"] == card.movement[2].dice
    assert d["effective_draft"] == card.draft + DATA.tables.modifiers.heavy_damage_draft
    assert (d["light_damage_at"], d["heavy_damage_at"]) == (
        card.light_damage_at,
        card.heavy_damage_at,
    )
    fresh = unit(read_model(state), "monitor").details
    assert fresh["hull"] == "none"


def test_crew_damage_levels() -> None:
    """IO-6.2.3G: crew damage against the light / heavy / full crew factor."""
    crew = DATA.ships.get("cumberland").crew
    for damage, level in ((crew.light, "light"), (crew.heavy, "heavy"), (crew.full, "full")):
        view = read_model(game(ships={"cumberland": {"crew_damage": damage}}))
        d = unit(view, "cumberland").details
        assert (d["crew_damage"], d["crew_level"]) == (damage, level)


def test_shields_per_location() -> None:
    """IO-6.2.1: shield damage per hit location (0 to −4); undamaged locations are not listed."""
    view = read_model(game(ships={"cumberland": {"shields": {"WL": -2, "A": 0, "B": -4}}}))
    d = unit(view, "cumberland").details
    assert d["shield WL"] == -2
    assert d["shield B"] == -4
    assert "shield A" not in d
    assert not any(k.startswith("shield") for k in unit(view, "monitor").details)


def test_criticals_with_count_and_marker_level() -> None:
    """IO-6.3: each critical with its occurrence count and marker value; IO-6.3.17 steering
    direction; the starting Smokestack critical of Hampton Roads (IO-0)."""
    assert unit(read_model(game()), "virginia").details["criticals"] == "smokestack"
    criticals = {
        "armament": CriticalState(name="armament", count=2, level=-4),
        "steering": CriticalState(name="steering", level=1),
        "captain": CriticalState(name="captain"),
        "boiler": CriticalState(name="boiler"),
    }
    view = read_model(game(ships={"monitor": {"criticals": criticals}}))
    d = unit(view, "monitor").details
    assert d["criticals"] == "armament ×2 (-4), steering (vertical only), captain, boiler"
    assert d["unpowered"] is True  # IO-4.3.2: a Boiler critical takes the power away
    assert unit(view, "cumberland").details["criticals"] is None
    assert unit(view, "cumberland").details["unpowered"] is None


def test_ship_markers_and_relations() -> None:
    """IO-3.1.1 repair party, IO-3.1.2 fire, IO-6.2.3C smoke, IO-4.1 anchor, IO-4.3 aground,
    IO-5.6.4 fouled, IO-5.3 tow, IO-5.1.3 Opposed, IO-5.5 Bow-on/Stern-on, IO-6.2.4 Gunfire."""
    state = game(
        ships={
            "monitor": {
                "fire": 3,
                "smoke": "heavy",
                "anchored": True,
                "repair_party": True,
                "opposed": True,
                "fouled_with": ("cumberland", "hulk"),
                "towing": "cumberland",
            },
            "cumberland": {"aground": True, "towed_by": "monitor"},
        },
        pairs=(
            Pair(ship="monitor", other="virginia", kind="bow_on"),
            Pair(ship="cumberland", other="monitor", kind="stern_on"),
        ),
        opposed_by={"monitor": "virginia"},
        gunfire=("monitor",),
        level5=(),
    )
    view = read_model(state)
    m = unit(view, "monitor").details
    assert m["fire"] == 3
    assert m["smoke"] == "heavy"
    assert m["anchored"] is True
    assert m["repair_party"] is True
    assert m["opposed"] is True
    assert m["opposed_by"] == "virginia"
    assert m["fouled_with"] == "cumberland, hulk"
    assert m["towing"] == "cumberland"
    assert m["bow_on_to"] == "virginia"
    assert m["stern_on_from"] == "cumberland"
    assert m["gunfire"] is True
    c = unit(view, "cumberland").details
    assert c["aground"] is True
    assert c["towed_by"] == "monitor"
    assert c["stern_on_to"] == "monitor"
    # markers that are off are None, so the viewer's hover text leaves them out
    for key in ("fire", "smoke", "anchored", "repair_party", "opposed", "gunfire", "bow_on_to"):
        assert c[key] is None


def test_orders_are_sealed_until_revealed() -> None:
    """IO-3.2: an order card is face down (its kind unknown) until revealed (IO-3.3.1 A)."""
    from domain.rulesets.iron_oak.state import SealedOrder

    state = game(
        orders={
            "monitor": SealedOrder(digest="ab" * 32),
            "cumberland": SealedOrder(digest="cd" * 32, order="maneuver_1", number=2),
        }
    )
    view = read_model(state)
    assert unit(view, "monitor").details["order"] == "sealed"
    assert unit(view, "cumberland").details["order"] == "maneuver_1 (#2)"
    assert unit(view, "virginia").details["order"] is None


def test_sunk_exited_and_captured_ships() -> None:
    """IO-6.2.3J sunk (keeps its box), IO-5.1.5 exited (off the map), IO-6.2.3I captured; the
    generic board figure draws them all without failing."""
    state = game(
        ships={
            "cumberland": {"status": "sunk", "hits": 14},
            "monitor": {"status": "exited", "cell": None, "edge": "N"},
            "virginia": {"status": "captured", "captured_by": "USA", "cell": (2, 2), "edge": None},
        }
    )
    view = read_model(state)
    assert unit(view, "cumberland").status == "sunk"
    assert unit(view, "cumberland").cell == (1, 1)
    assert unit(view, "monitor").status == "exited"
    assert unit(view, "monitor").cell is None
    assert unit(view, "monitor").details["off_map"] == "N edge"
    assert unit(view, "virginia").status == "captured"
    assert unit(view, "virginia").details["captured_by"] == "USA"
    sides = {s.id: s for s in view.sides}
    assert (sides["USA"].units_total, sides["USA"].units_active) == (2, 0)
    assert (sides["CSA"].units_total, sides["CSA"].units_active) == (1, 0)
    assert sides["USA"].details["sunk"] == 1
    assert sides["USA"].details["exited"] == 1
    assert sides["CSA"].details["captured"] == 1
    fig = board_figure(view)
    drawn = {uid for trace in fig.data if trace.customdata is not None for uid in trace.customdata}
    assert {"cumberland", "virginia"} <= drawn
    assert "monitor" not in drawn


# --------------------------------------------------------------------------- forts


def test_fort_sections_are_units_on_the_fort_box() -> None:
    """IO-6.0: each fort section fires and is fired at on its own: a unit on its fort's box."""
    state = game("mobile_bay_gauntlet")
    view = read_model(state)
    forts = [u for u in view.units if u.kind == "fort"]
    assert [u.id for u in forts] == [
        "fort_morgan.water_battery",
        "fort_morgan.main_bastion",
        "fort_gaines.north_face",
        "fort_gaines.south_face",
    ]
    water = unit(view, "fort_morgan.water_battery")
    section = DATA.forts.get("fort_morgan").sections[0]
    assert (water.side, water.cell, water.status) == ("CSA", (4, 3), "active")
    assert water.strength == section.hits
    assert water.name == "Fort Morgan: Water battery"
    assert water.details["fort"] == "Fort Morgan"
    assert water.details["edge"] == "E"
    assert water.details["crew"] == section.crew
    assert unit(view, "fort_gaines.north_face").cell == (0, 2)
    assert {s.id: s.details.get("fort_sections") for s in view.sides} == {
        "CSA": "4/4",
        "USA": None,
    }
    board_figure(view)


def test_fort_section_damage() -> None:
    """IO-6.2 hits, shields, crew and fire on a section; IO-6.3.11 a destroyed section."""
    state = game(
        "mobile_bay_gauntlet",
        sections={
            "fort_morgan.water_battery": {
                "hits": 5,
                "shields": {"A": -2},
                "crew_damage": 3,
                "fire": 2,
                "criticals": {"armament": CriticalState(name="armament", level=-2)},
            },
            "fort_gaines.south_face": {"hits": 10, "destroyed": True},
        },
    )
    view = read_model(state)
    water = unit(view, "fort_morgan.water_battery")
    assert water.damage == 5
    assert water.details["shield A"] == -2
    assert water.details["crew_damage"] == 3
    assert water.details["fire"] == 2
    assert water.details["criticals"] == "armament (-2)"
    assert unit(view, "fort_gaines.south_face").status == "destroyed"
    assert {s.id: s for s in view.sides}["CSA"].details["fort_sections"] == "3/4"


# --------------------------------------------------------------------------- sides, result


def test_hidden_hands_are_counted_never_named() -> None:
    """IO-3.4: how many action cards a side holds is public, which cards is not."""
    state = game(
        hands={"CSA": ("full_steam", "misfire"), "USA": ("well_aimed",)},
        exchanged={"USA": ("engine_trouble",)},
        cards_used=("CSA",),
    )
    view = read_model(state)
    sides = {s.id: s for s in view.sides}
    assert sides["CSA"].details["cards_in_hand"] == 2
    assert sides["USA"].details["cards_in_hand"] == 1
    assert sides["USA"].details["exchanges"] == 1
    assert sides["CSA"].details["card_used_this_turn"] is True
    assert sides["USA"].details["card_used_this_turn"] is False
    text = view.model_dump_json()
    for hidden in (*HIDDEN_CARDS, *HIDDEN_NAMES):
        assert hidden not in text


def test_the_log_names_hidden_cards_only_to_the_umpire_and_their_owner() -> None:
    """IO-3.4: the umpire's log line names every dealt or exchanged card; a side's line, from
    the event as ``redact`` shows it to that side, names only its own; the orders that deal or
    exchange name no card."""
    ruleset = get_ruleset("iron_oak")
    dealt = te.CardsDealt(hands={"CSA": ["full_steam", "misfire"], "USA": ["well_aimed", "strike"]})
    assert describe(dealt) == (
        "action cards dealt: CSA [Full Steam, Misfire]; USA [Well Aimed, Strike!]"
    )
    csa = describe(ruleset.redact(dealt, "CSA"))
    assert csa == "action cards dealt: CSA [Full Steam, Misfire]; USA [?, ?]"
    assert "Well Aimed" not in csa and "Strike" not in csa
    swap = te.CardExchanged(side="USA", discarded="full_steam", drawn="misfire")
    assert describe(swap) == "USA exchanges Full Steam for Misfire"
    assert describe(ruleset.redact(swap, "CSA")) == "USA exchanges a card"
    assert describe(ruleset.redact(swap, "USA")) == "USA exchanges Full Steam for Misfire"
    orders = [
        describe(CommandIssued(index=0, side=None, command={"type": "deal", "hands": {}})),
        describe(
            CommandIssued(
                index=9,
                side="USA",
                command={"type": "exchange_card", "discard": "full_steam", "draw": "misfire"},
            )
        ),
    ]
    assert orders == [
        "order #0 by umpire: deal (cards hidden)",
        "order #9 by USA: exchange_card (cards hidden)",
    ]
    uneven = te.CardsDealt(hands={"CSA": ["misfire", "strike"], "USA": ["strike"]}, known=False)
    assert describe(uneven).endswith("(physical cards)")
    empty = te.CardExchanged(side="CSA", discarded="strike", drawn=None)
    assert describe(empty) == "CSA exchanges Strike! (none drawn)"


def test_sides_and_their_victory_points() -> None:
    """IO-3.5.1, IO-6.2.3I: VP for each enemy ship sunk or captured (the card's VP)."""
    view = read_model(game())
    assert [(s.id, s.name, s.vp) for s in view.sides] == [
        ("CSA", "Confederacy", 0),
        ("USA", "Union", 0),
    ]
    state = game(ships={"cumberland": {"status": "sunk", "hits": 14}})
    view = read_model(state)
    cumberland_vp = DATA.ships.get("cumberland").vp
    assert {s.id: s.vp for s in view.sides} == {"CSA": cumberland_vp, "USA": 0}
    assert {s.id: s.vp for s in view.sides} == victory_points(state)
    assert view.result is None


def test_exit_vp_shown_and_scored() -> None:
    """IO-3.5 scenario exit VP (Mobile Bay: Hartford scores for leaving by the N edge)."""
    state = game("mobile_bay_gauntlet", ships={"hartford": {"status": "exited", "edge": "N"}})
    view = read_model(state)
    assert unit(view, "hartford").details["exit_vp"] == 5
    assert {s.id: s.vp for s in view.sides}["USA"] == 5


@pytest.mark.parametrize(("winner", "expected"), [("USA", "USA"), ("", None)])
def test_result(winner: str, expected: str | None) -> None:
    """IO-3.5: the result with its winner ("" in the state: a draw) and the final VP."""
    state = game(
        ships={"virginia": {"status": "sunk", "hits": 18}},
        phase="over",
        result={"winner": winner, "reason": "turn limit 10 reached"},
    )
    view = read_model(state)
    assert view.phase == "over"
    assert view.result is not None
    assert view.result.winner == expected
    assert view.result.reason == "turn limit 10 reached"
    assert view.result.rule == "IO-3.5"
    assert view.result.vp == {"CSA": 0, "USA": DATA.ships.get("virginia").vp}


def test_turn_phase_active_side_and_notes() -> None:
    """IO-3.0 turn and step; IO-6.2.4 night; IO-GAPS provisional data."""
    view = read_model(game(turn=3, phase="gunnery", active="CSA"))
    assert (view.turn, view.phase, view.active_side) == (3, "gunnery", "CSA")
    assert "night (IO-6.2.4)" not in view.notes
    assert any(n.startswith("provisional data (IO-GAPS)") for n in view.notes)
    assert "night (IO-6.2.4)" in read_model(game("wassaw_sound")).notes
    assert read_model(game(active=None)).active_side is None


# --------------------------------------------------------------------------- describe

ROLL = DiceRolled(
    purpose="gunnery",
    rule="IO-6.2",
    subject="virginia",
    target="cumberland",
    first_die=0,
    roll=RollRecord(side="CSA", expression="d10", faces=[9], natural=9, total=9),
    comparison="at_least",
    compared_with=4,
    outcome="success",
    success=True,
    p_success="7/10",
    p_outcome="7/10",
    value="1",
    expected="7/10",
)

# one instance of every Iron & Oak event class, with its log line
SAMPLES: list[tuple[DomainEvent, str]] = [
    (
        ev.GunneryResolved(
            firer="virginia",
            section=1,
            target="cumberland",
            range="medium",
            face=3,
            location="A",
            cr=9,
            dr=4,
            band="double",
            hits=2,
            shield_before=0,
            shield_after=-2,
        ),
        "virginia fires section 1 at cumberland (medium): hit A (d8 3), CR 9 vs DR 4 → double, "
        "2 hits, shield A 0→-2",
    ),
    (
        ev.CriticalRolled(unit="cumberland", column="wl_bow_on", total=8, critical="fire"),
        "critical on cumberland (WL Bow-on column): 2d6 = 8 → fire",
    ),
    (ev.SmokeChanged(ship="virginia", smoke="light"), "virginia: light smoke"),
    (
        ev.HazardChecked(
            ship="monitor",
            cell=(1, 2),
            hazard="mine",
            passed=False,
            effect="mine",
            hits=3,
            ends_move=True,
        ),
        "monitor hazard check (mine) at (1,2): failed → mine, 3 hits, move ends",
    ),
    (
        ev.ShipMoved(ship="monitor", path=[(2, 3), (2, 2)], success=True),
        "monitor moves (2,3)->(2,2)",
    ),
    (
        ev.CriticalApplied(
            unit="cumberland", name="fire", rule="IO-6.3.9", count=1, marker=False, fire=3
        ),
        "cumberland suffers fire [IO-6.3.9]: fire level 3",
    ),
    (
        ev.CriticalRepaired(unit="virginia", name="armament", removed=False, level=-2),
        "repair party on virginia repairs armament (marker now -2)",
    ),
    (
        ev.FireChanged(unit="virginia", before=3, rolled=4, after=4, hits=2),
        "fire on virginia: level 3, rolled 4 → level 4, 2 hits",
    ),
    (
        ev.ShipDrifted(ship="monitor", path=[(3, 0), (3, 1)], result="drifted", effect="drifted"),
        "monitor drifts (3,0)->(3,1)",
    ),
    (
        ev.RefloatAttempted(ship="virginia", success=False, critical="engine_damaged"),
        "virginia fails to refloat (powered) [IO-4.3.1]; critical: engine_damaged",
    ),
    (ev.UnfoulAttempted(ship="monitor", success=True), "monitor unfouls"),
    (ev.TowAttached(tower="monitor", towed="cumberland"), "monitor takes cumberland in tow"),
    (
        ev.TowReleased(tower="monitor", towed="cumberland"),
        "monitor releases the tow of cumberland",
    ),
    (
        ev.CrossTAttempted(ship="monitor", target="virginia", kind="stern_on", success=True),
        "monitor crosses the T of virginia: virginia is stern-on to it",
    ),
    (
        ev.ContactRolled(ship="virginia", target="cumberland", success=True),
        "virginia makes contact with cumberland",
    ),
    (
        ev.SparResolved(
            ship="atlanta", target="weehawken", detonated=True, target_hits=4, target_wl_after=-4
        ),
        "atlanta's spar torpedo detonates against weehawken: 4 hits (WL -4)",
    ),
    (
        ev.RamResolved(
            ship="virginia",
            target="cumberland",
            attack=9,
            defence=4,
            diff=5,
            target_hits=3,
            attacker_hits=0,
            target_wl_after=-2,
            attacker_wl_after=0,
            ram_check_passed=True,
        ),
        "virginia rams cumberland: 9 vs 4 (diff 5), 3 hits (WL -2); ram check passed",
    ),
    (
        ev.ShipsFouled(ship="virginia", target="cumberland"),
        "virginia and cumberland are fouled",
    ),
    (
        ev.RamAftermath(ship="virginia", target="cumberland"),
        "virginia is bow-on to cumberland after the attack",
    ),
    (te.StepBegan(turn=2, step=7, phase="movement", side="USA"), "turn 2: USA movement"),
    (
        te.CardsDealt(hands={"CSA": ["?"] * 2, "USA": ["strike"] * 2}),
        "action cards dealt: CSA [?, ?]; USA [Strike!, Strike!]",
    ),
    (te.RepairParty(unit="virginia", placed=True), "repair party placed on virginia"),
    (
        te.StatusChecked(side="CSA", level5=["virginia"]),
        "CSA status phase done; level-5 fire on virginia",
    ),
    (
        te.OrderCompleted(ship="monitor"),
        "monitor's order is carried out",
    ),
    (te.EscapeAttempted(ship="monitor", success=True), "monitor escapes the T"),
    (
        te.StatusChosen(side="USA"),
        "USA makes its status choices (resolved with the other side's, IO-9.3.1)",
    ),
    (
        te.OrdersAssigned(side="USA", seals={"a": "1", "b": "2", "c": "3"}),
        "USA puts order cards on 3 ships (sealed)",
    ),
    (
        te.OrderRevealed(ship="monitor", order="maneuver_1", salt="s", path=[(2, 3), (2, 2)]),
        "monitor reveals maneuver_1 path (2,3)->(2,2)",
    ),
    (
        te.CardPlayed(
            side="CSA", card="full_steam", unit="virginia", use="movement", value=2, window="own"
        ),
        "CSA plays Full Steam on virginia",
    ),
    (te.ShipAnchored(ship="monitor", anchored=True), "monitor anchors"),
    (
        te.OpposingManeuver(ship="monitor", target="virginia"),
        "monitor opposes virginia (Opposed marker)",
    ),
    (
        te.MapEdgeCrossed(ship="virginia", entering=True, cell=(2, 4), edge="S", success=True),
        "virginia enters at (2,4) from the S edge",
    ),
    (
        te.ShieldRepaired(unit="virginia", location="WL", shield_after=-1),
        "virginia's shield WL repaired to -1",
    ),
    (te.DriftCheck(ship="monitor", passed=False), "monitor fails the drift check and drifts"),
    (
        te.FireDeclared(
            side="CSA", fires=[{"firer": "virginia", "section": 1, "target": "cumberland"}]
        ),
        "CSA declares 1 fire: virginia s1 → cumberland",
    ),
    (
        te.FireCancelled(firer="virginia", section=1),
        "misfire: virginia's fire (section 1) is cancelled",
    ),
    (
        te.ShipCaptured(ship="cumberland", by="CSA"),
        "cumberland strikes its colours: captured by CSA",
    ),
    (
        te.CardExchanged(side="USA", discarded="?", drawn="?"),
        "USA exchanges a card",
    ),
    (
        te.GunfireMarkers(units=["virginia", "monitor"], placed=True),
        "Gunfire markers placed on virginia, monitor",
    ),
    (
        te.ResolutionCheckpoint(command={"type": "respond_fire"}, side="CSA"),
        "CSA's respond_fire stops for a decision (IO-6.3.4)",
    ),
    (
        te.CollateralAwaited(
            unit="virginia",
            side="CSA",
            critical="collateral",
            hit="A",
            candidates=["B", "S"],
            shields={"B": -1, "S": 0},
        ),
        "Collateral on virginia after the hit on A: CSA chooses B (shield -1) or S (shield 0) "
        "[IO-6.3.4]",
    ),
    (
        te.CollateralChosen(unit="virginia", side="CSA", location="S"),
        "CSA puts virginia's Collateral damage on S",
    ),
]


@pytest.mark.parametrize(("event", "line"), SAMPLES, ids=lambda x: type(x).__name__)
def test_describe_iron_oak_events(event: DomainEvent, line: str) -> None:
    assert describe(event) == line


def test_every_iron_oak_event_has_a_description() -> None:
    """Every registered Iron & Oak topic has a sample above (and so a log line of its own)."""
    registered = set(IRON_OAK_EVENTS.topics()) | set(TURN_EVENTS.topics())
    sampled = {type(e).TOPIC for e, _ in SAMPLES}
    missing = sorted(registered - sampled)
    assert not missing, f"add a describe() branch and a sample for {missing}"


def test_describe_engine_events() -> None:
    assert describe(ROLL) == describe_roll(ROLL)
    ended = GameEnded(winner=None, reason="turn limit 10 reached", rule="IO-3.5", vp={"CSA": 6})
    assert describe(ended) == "game over: draw (turn limit 10 reached) [IO-3.5]; VP CSA 6"
    won = GameEnded(winner="CSA", reason="x", rule="IO-3.5", vp={"CSA": 6, "USA": 0})
    assert describe(won).startswith("game over: CSA wins")
    reveal = CommandIssued(
        index=4,
        side="USA",
        command={
            "type": "reveal_order",
            "ship": "monitor",
            "order": "maneuver_1",
            "salt": "secret",
            "path": [[2, 3], [2, 2]],
            "target": None,
            "cards": [{"card": "full_steam", "firer": None}],
        },
    )
    assert describe(reveal) == (
        "order #4 by USA: reveal_order ship=monitor order=maneuver_1 path=[(2,3), (2,2)] "
        "cards=[{card=full_steam}]"
    )
    seals = CommandIssued(
        index=2, side="CSA", command={"type": "assign_orders", "seals": {"virginia": "ab"}}
    )
    assert describe(seals) == "order #2 by CSA: assign_orders (1 sealed)"


def test_unknown_events_fall_back_to_their_class_name() -> None:
    class SomethingNew(DomainEvent):
        TOPIC: ClassVar[str] = "iron_oak.SomethingNew/1"

    assert describe(SomethingNew()) == "SomethingNew"


@pytest.mark.parametrize("scenario", BUNDLED_SCENARIOS)
def test_bot_game_reads_and_describes(scenario: str) -> None:
    """A whole bot game: every event gets its own line, and every state a drawable view."""
    header = header_for(
        "iron_oak",
        bundled_scenario(scenario).model_dump(mode="json"),
        game_id="00000000-0000-4000-8000-0000000000ab",
        seed=3,
    )
    session = Session(header)
    views = [read_model(session.state.rules)]
    while session.submit_bot() is not None:
        views.append(read_model(session.state.rules))
    assert session.state.result is not None
    final = views[-1]
    assert final.result is not None
    assert final.phase == "over"
    ruleset = get_ruleset("iron_oak")
    for fact in session.facts:
        event = decode(session.state, fact)
        line = describe(event)
        assert line and line != type(event).__name__
        for viewer in ("CSA", "USA"):  # a side never reads the other side's cards (IO-3.4)
            seen = describe(ruleset.redact(event, viewer))
            hidden: list[str] = []
            if isinstance(event, te.CardsDealt):
                hidden = [c for side, cards in event.hands.items() if side != viewer for c in cards]
            elif isinstance(event, te.CardExchanged) and event.side != viewer:
                hidden = [event.discarded, event.drawn or ""]
            mine = set(event.hands.get(viewer, [])) if isinstance(event, te.CardsDealt) else set()
            for card in filter(None, hidden):
                if card not in mine:
                    assert DATA.cards.get(card).name not in seen
    board_figure(final)
