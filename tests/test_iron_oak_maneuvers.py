"""Iron & Oak maneuvers: drift (IO-5.2), refloat (IO-4.3, IO-4.3.1, IO-4.3.2), unfoul (IO-4.4),
towing (IO-5.3), Crossing the T (IO-5.5, IO-5.5.1, IO-5.5.2) and ram/spar (IO-5.6, IO-5.6.1-5.6.5,
IO-6.3.12-6.3.14, IO-6.3.17). Dice are scripted; values come from the bundled tables
(wassaw_sound: atlanta CSA has ram d8d6 and spar d10d8, moves d8d4, WL d8d4; weehawken USA moves
d8d6, WL d10d6, hit value 14).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from domain.dice import FixedDice, Modifier
from domain.errors import IllegalCommand
from domain.events import DiceRolled
from domain.rulesets.iron_oak.crossing_t import check_cross_t, cross_t
from domain.rulesets.iron_oak.data import bundled_scenario, resolve_data
from domain.rulesets.iron_oak.drift import drift
from domain.rulesets.iron_oak.events import (
    ContactRolled,
    CrossTAttempted,
    HazardChecked,
    RamAftermath,
    RamResolved,
    RefloatAttempted,
    ShipDrifted,
    ShipsFouled,
    SparResolved,
    TowAttached,
    TowReleased,
    UnfoulAttempted,
)
from domain.rulesets.iron_oak.evolve import evolve
from domain.rulesets.iron_oak.maneuvers import apply
from domain.rulesets.iron_oak.ramming import check_ram, ram_spar
from domain.rulesets.iron_oak.refloat import refloat
from domain.rulesets.iron_oak.scenario import Box, Current
from domain.rulesets.iron_oak.state import (
    CriticalState,
    IronOakState,
    Pair,
    fold_all,
    initial_state,
)
from domain.rulesets.iron_oak.towing import attach_tow, release_tow
from domain.rulesets.iron_oak.unfoul import unfoul

DATA = resolve_data()
HERE = (2, 1)  # depth 5 in wassaw_sound: no shallows for atlanta (draft 5) or weehawken (3)


def game() -> IronOakState:
    """atlanta (CSA) and weehawken (USA) together in HERE; nahant (USA) stays at (3, 4)."""
    state = initial_state(bundled_scenario("wassaw_sound"), DATA)
    state = put(state, "atlanta", cell=HERE)
    return put(state, "weehawken", cell=HERE)


def put(state: IronOakState, ship: str, **changes: Any) -> IronOakState:
    ships = dict(state.ships)
    ships[ship] = ships[ship].model_copy(update=changes)
    return state.model_copy(update={"ships": ships})


def crits(*names: str) -> dict[str, CriticalState]:
    return {n: CriticalState(name=n) for n in names}


def with_box(state: IronOakState, box: Box) -> IronOakState:
    boxes = [b for b in state.scenario.boxes if b.cell != box.cell] + [box]
    return state.model_copy(update={"scenario": state.scenario.model_copy(update={"boxes": boxes})})


def with_markers(state: IronOakState, cell: tuple[int, int], *markers: str) -> IronOakState:
    all_markers = dict(state.markers)
    all_markers[f"{cell[0]},{cell[1]}"] = tuple(markers)
    return state.model_copy(update={"markers": all_markers})


def fold(state: IronOakState, events: list[Any]) -> IronOakState:
    for event in events:
        state = apply(state, event)
    return state


def refused(rule: str, fn: Any, *args: Any, **kwargs: Any) -> str:
    with pytest.raises(IllegalCommand) as info:
        fn(*args, **kwargs)
    assert info.value.rule == rule, str(info.value)
    return info.value.message


def rolls(events: list[Any]) -> list[DiceRolled]:
    return [e for e in events if isinstance(e, DiceRolled)]


def only(events: list[Any], cls: type[Any]) -> Any:
    found = [e for e in events if isinstance(e, cls)]
    assert len(found) == 1, events
    return found[0]


# --------------------------------------------------------------------------- IO-5.2 drift


def current(state: IronOakState, cell: tuple[int, int], direction: str) -> IronOakState:
    depth = state.box(cell).depth
    flow = Current.model_validate({"direction": direction, "strength": "moderate"})
    return with_box(state, Box(cell=cell, depth=depth, current=flow))


@pytest.mark.parametrize(
    ("face", "effect", "path"),
    [
        (4, "stay", [(2, 1)]),
        (5, "drift_1", [(2, 1), (3, 1)]),
        (9, "drift_2", [(2, 1), (3, 1), (4, 1)]),
    ],
)
def test_drift_moves_with_the_current_of_the_box_io_5_2(
    face: int, effect: str, path: list[tuple[int, int]]
) -> None:
    state = current(game(), HERE, "E")
    events = drift(state, "atlanta", FixedDice([face]))
    roll, moved = events
    assert isinstance(roll, DiceRolled) and roll.rule == "IO-5.2" and roll.outcome == effect
    assert isinstance(moved, ShipDrifted)
    assert moved.path == path and moved.effect == effect
    assert moved.result == ("stay" if effect == "stay" else "drifted")
    after = fold(state, events)
    assert after.ships["atlanta"].cell == path[-1]
    assert state.ships["atlanta"].cell == HERE  # not mutated


def test_drift_without_current_stays_io_5_2() -> None:
    state = game()
    assert state.box(HERE).current is None
    events = drift(state, "atlanta", FixedDice([10]))
    moved = only(events, ShipDrifted)
    assert moved.result == "stay" and moved.path == [HERE]


def test_drift_off_the_map_leaves_the_game_io_5_2() -> None:
    state = put(game(), "atlanta", cell=(2, 0))
    state = current(state, (2, 0), "N")
    events = drift(state, "atlanta", FixedDice([6]))
    moved = only(events, ShipDrifted)
    assert moved.result == "exited" and moved.edge == "N" and moved.path == [(2, 0)]
    ship = fold(state, events).ships["atlanta"]
    assert ship.status == "exited" and ship.cell is None and ship.edge == "N"
    assert not ship.afloat


def test_drift_onto_a_bank_grounds_in_the_previous_box_io_5_2() -> None:
    # wassaw_sound: (0, 2) is a bank; drifting 2 W from (2, 2) stops in (1, 2), aground.
    # (2, 2) is made deep enough for atlanta, so that its own box holds no hazard (IO-5.4)
    state = put(game(), "atlanta", cell=(2, 2))
    flow = Current.model_validate({"direction": "W", "strength": "moderate"})
    state = with_box(state, Box(cell=(2, 2), depth=6, current=flow))
    events = drift(state, "atlanta", FixedDice([10]))
    moved = only(events, ShipDrifted)
    assert moved.result == "aground" and moved.path == [(2, 2), (1, 2)]
    ship = fold(state, events).ships["atlanta"]
    assert ship.cell == (1, 2) and ship.aground


def test_drift_carries_the_fouled_partner_io_5_2() -> None:
    state = put(game(), "atlanta", fouled_with=("weehawken",))
    state = put(state, "weehawken", fouled_with=("atlanta",))
    state = current(state, HERE, "S")
    state = with_box(state, Box(cell=(2, 2), depth=6))  # no shallows where they end up (IO-5.4)
    after = fold(state, drift(state, "atlanta", FixedDice([5])))
    assert after.ships["atlanta"].cell == (2, 2) and after.ships["weehawken"].cell == (2, 2)


def test_drift_into_a_mined_box_checks_the_mine_there_io_5_2_io_5_4_3() -> None:
    """IO-5.4 names the box a ship moves to: a ship the current carries into a mined box
    checks the mine there, after the drift (d10d6 against d10, then d8 on the Mine column)."""
    state = with_markers(current(game(), HERE, "E"), (3, 1), "mine")
    events = drift(state, "atlanta", FixedDice([5, 1, 1, 10, 8]))
    moved = only(events, ShipDrifted)
    assert moved.path == [HERE, (3, 1)] and moved.result == "drifted"
    check = only(events, HazardChecked)
    assert events.index(moved) < events.index(check)
    assert (check.hazard, check.cell, check.passed, check.effect) == ("mine", (3, 1), False, "mine")
    assert [r.rule for r in rolls(events)] == ["IO-5.2", "IO-5.4.3", "IO-5.4.3"]
    after = fold(state, events)
    ship = after.ships["atlanta"]
    assert ship.cell == (3, 1) and ship.hits == check.hits > 0
    assert "mine" not in after.markers.get("3,1", ())


def test_each_ship_of_a_drifting_group_checks_the_new_box_io_5_4() -> None:
    """Linked ships each check (IO-5.4): the rolling ship first, then its fouled partner."""
    state = put(game(), "atlanta", fouled_with=("weehawken",))
    state = put(state, "weehawken", fouled_with=("atlanta",))
    state = with_markers(current(state, HERE, "E"), (3, 1), "mine")
    events = drift(state, "atlanta", FixedDice([5, 10, 6, 1, 1, 1, 10, 8]))
    checks = [e for e in events if isinstance(e, HazardChecked)]
    assert [(c.ship, c.passed) for c in checks] == [("atlanta", True), ("weehawken", False)]
    after = fold(state, events)
    assert after.ships["atlanta"].cell == after.ships["weehawken"].cell == (3, 1)
    assert after.ships["weehawken"].hits > 0 and after.ships["atlanta"].hits == 0


def test_a_hazard_in_its_own_box_holds_a_drifting_ship_io_5_2_io_5_4_1() -> None:
    """IO-5.4 also names the box a ship moves from: a ship that grounds there does not drift,
    and there is no drift roll."""
    flow = Current.model_validate({"direction": "E", "strength": "moderate"})
    state = with_box(game(), Box(cell=HERE, depth=3, current=flow))  # atlanta draws 5: d8
    events = drift(state, "atlanta", FixedDice([1, 10, 6]))
    assert [r.rule for r in rolls(events)] == ["IO-5.4.1"]
    held = only(events, ShipDrifted)
    assert (held.result, held.effect, held.path) == ("stay", "hazard", [HERE])
    ship = fold(state, events).ships["atlanta"]
    assert ship.cell == HERE and ship.aground


def test_a_partner_fouled_by_a_hulk_holds_the_whole_group_io_5_3_io_5_4_2() -> None:
    """IO-5.3: if either linked ship becomes immobile, neither moves."""
    state = put(game(), "atlanta", fouled_with=("weehawken",))
    state = put(state, "weehawken", fouled_with=("atlanta",))
    state = with_markers(current(state, HERE, "E"), HERE, "hulk")
    events = drift(state, "atlanta", FixedDice([10, 4, 1, 1, 1, 10]))
    checks = [e for e in events if isinstance(e, HazardChecked)]
    assert [(c.ship, c.effect) for c in checks] == [("atlanta", "none"), ("weehawken", "fouled")]
    assert only(events, ShipDrifted).effect == "hazard"
    after = fold(state, events)
    assert after.ships["atlanta"].cell == after.ships["weehawken"].cell == HERE


def test_drift_refused_for_an_anchored_ship_io_4_0() -> None:
    state = put(game(), "atlanta", anchored=True)
    refused("IO-4.0", drift, state, "atlanta", FixedDice([5]))


# --------------------------------------------------------------------------- IO-4.3 refloat


def aground(state: IronOakState, ship: str = "atlanta", **changes: Any) -> IronOakState:
    return put(state, ship, aground=True, **changes)


def test_refloat_refused_when_not_aground_io_4_3() -> None:
    refused("IO-4.3", refloat, game(), "atlanta", FixedDice([]))


def test_refloat_powered_success_and_strain_passed_io_4_3_1() -> None:
    state = aground(game())
    events = refloat(state, "atlanta", FixedDice([9, 1, 5, 8, 1, 3]))
    first, strain = rolls(events)
    assert (first.roll.expression, first.opposed_by and first.opposed_by.expression) == (
        "d10d8",
        "d10",
    )
    assert (strain.roll.expression, strain.opposed_by and strain.opposed_by.expression) == (
        "d10d8",
        "d8",
    )
    result = only(events, RefloatAttempted)
    assert result.success and result.critical is None and not result.wl_column_roll
    assert result.rule == "IO-4.3.1" and result.branch == "powered"
    assert not fold(state, events).ships["atlanta"].aground


def test_refloat_powered_strain_failure_engine_damaged_io_4_3_1() -> None:
    # strain: ship 3 vs opponent 5: failure, but 5 < 3 × 3: no WL critical
    events = refloat(aground(game()), "atlanta", FixedDice([9, 1, 5, 3, 1, 5]))
    result = only(events, RefloatAttempted)
    assert result.success and result.critical == "engine_damaged" and not result.wl_column_roll


def test_refloat_powered_strain_triple_adds_wl_critical_io_4_3_1() -> None:
    # strain: ship 2 vs opponent 6 = 3 × 2: Engine-Damaged and a Waterline critical
    events = refloat(aground(game()), "atlanta", FixedDice([9, 1, 5, 2, 1, 6]))
    result = only(events, RefloatAttempted)
    assert result.critical == "engine_damaged" and result.wl_column_roll
    assert (result.ship_result, result.opponent_result) == (2, 6)
    # P(d8 ≥ 3 × d10d8) for the strain roll, computed with p_at_least_times
    assert Fraction(result.p_triple) == Fraction(3, 128)  # P(max=1)·6/8 + P(max=2)·3/8


def test_refloat_powered_failure_stays_aground_io_4_3_1() -> None:
    state = aground(game())
    events = refloat(state, "atlanta", FixedDice([3, 2, 7]))
    result = only(events, RefloatAttempted)
    assert not result.success and result.critical is None
    assert len(rolls(events)) == 1  # no strain check after a failure
    assert fold(state, events).ships["atlanta"].aground


def test_refloat_tow_bonus_needs_a_qualified_friendly_tower_io_4_3_1() -> None:
    # weehawken aground, towed by nahant (both USA): 3 + 2 beats 4
    state = aground(game(), "weehawken", towed_by="nahant")
    state = put(state, "nahant", cell=HERE, towing="weehawken")
    events = refloat(state, "weehawken", FixedDice([3, 2, 4, 8, 1, 2]))
    assert rolls(events)[0].roll.total == 5
    assert only(events, RefloatAttempted).success and only(events, RefloatAttempted).tow_bonus
    # a tower with a Speed critical gives no bonus: 3 vs 4 fails
    slow = put(state, "nahant", criticals=crits("speed"))
    events = refloat(slow, "weehawken", FixedDice([3, 2, 4]))
    assert not only(events, RefloatAttempted).success
    assert not only(events, RefloatAttempted).tow_bonus


def test_refloat_engine_damaged_failure_engine_stopped_and_wl_io_4_3_1() -> None:
    state = aground(game(), criticals=crits("engine_damaged"))
    events = refloat(state, "atlanta", FixedDice([2, 6, 1]))
    (roll,) = rolls(events)
    assert roll.roll.expression == "d8" and roll.opposed_by is not None
    assert roll.opposed_by.expression == "d10d8"
    result = only(events, RefloatAttempted)
    assert result.branch == "engine_damaged" and not result.success
    assert result.critical == "engine_stopped" and result.wl_column_roll  # 6 ≥ 3 × 2
    events = refloat(state, "atlanta", FixedDice([3, 6, 1]))
    result = only(events, RefloatAttempted)
    assert result.critical == "engine_stopped" and not result.wl_column_roll  # 6 < 9
    events = refloat(state, "atlanta", FixedDice([7, 3, 2]))
    result = only(events, RefloatAttempted)
    assert result.success and result.critical is None
    assert not fold(state, events).ships["atlanta"].aground


def test_refloat_unpowered_d6_and_wl_column_io_4_3_2() -> None:
    state = aground(game(), criticals=crits("engine_stopped"))
    events = refloat(state, "atlanta", FixedDice([1, 3, 1]))
    (roll,) = rolls(events)
    assert roll.roll.expression == "d6" and roll.rule == "IO-4.3.2"
    result = only(events, RefloatAttempted)
    assert result.branch == "unpowered" and result.rule == "IO-4.3.2"
    assert not result.success and result.critical is None and result.wl_column_roll
    events = refloat(state, "atlanta", FixedDice([6, 2, 1]))
    assert only(events, RefloatAttempted).success
    assert not fold(state, events).ships["atlanta"].aground


# --------------------------------------------------------------------------- IO-4.4 unfoul


def test_unfoul_refused_when_not_fouled_io_4_4() -> None:
    refused("IO-4.4", unfoul, game(), "atlanta", FixedDice([]), False)


def test_unfoul_heavy_obstruction_minus_two_io_4_4() -> None:
    plain = put(game(), "atlanta", fouled_with=("obstruction",))
    events = unfoul(plain, "atlanta", FixedDice([5, 4, 1]), False)
    assert only(events, UnfoulAttempted).success
    assert fold(plain, events).ships["atlanta"].fouled_with == ()
    heavy = put(game(), "atlanta", fouled_with=("heavy_obstruction",))
    events = unfoul(heavy, "atlanta", FixedDice([5, 4, 1]), False)
    (roll,) = rolls(events)
    assert [m.value for m in roll.roll.modifiers] == [-2] and roll.roll.total == 3
    assert not only(events, UnfoulAttempted).success
    assert fold(heavy, events).ships["atlanta"].fouled_with == ("heavy_obstruction",)


def test_unfoul_ship_foul_frees_both_ships_io_4_4() -> None:
    state = put(game(), "atlanta", fouled_with=("weehawken",))
    state = put(state, "weehawken", fouled_with=("atlanta", "hulk"))
    after = fold(state, unfoul(state, "atlanta", FixedDice([9, 2, 1]), False))
    assert after.ships["atlanta"].fouled_with == ()
    assert after.ships["weehawken"].fouled_with == ("hulk",)


def test_unfoul_failure_first_order_checks_drift_io_4_4() -> None:
    state = put(game(), "atlanta", fouled_with=("weehawken",))
    state = put(state, "weehawken", fouled_with=("atlanta",))
    state = current(state, HERE, "E")
    events = unfoul(state, "atlanta", FixedDice([2, 5, 1, 6]), True)
    assert not only(events, UnfoulAttempted).success
    moved = only(events, ShipDrifted)
    assert moved.path == [HERE, (3, 1)]
    # not the first Order Phase: no drift
    events = unfoul(state, "atlanta", FixedDice([2, 5, 1]), False)
    assert not [e for e in events if isinstance(e, ShipDrifted)]


# --------------------------------------------------------------------------- IO-5.3 towing


def usa_pair() -> IronOakState:
    return put(game(), "nahant", cell=HERE)


def test_attach_and_release_tow_io_5_3() -> None:
    state = usa_pair()
    events = attach_tow(state, "nahant", "weehawken")
    assert events == [TowAttached(tower="nahant", towed="weehawken")]
    after = fold(state, events)
    assert after.ships["nahant"].towing == "weehawken"
    assert after.ships["weehawken"].towed_by == "nahant"
    released = release_tow(after, "nahant")
    assert released == [TowReleased(tower="nahant", towed="weehawken")]
    final = fold(after, released)
    assert final.ships["nahant"].towing is None and final.ships["weehawken"].towed_by is None


def test_tow_refusals_io_5_3() -> None:
    state = usa_pair()
    captured = put(state, "atlanta", captured_by="USA")  # counts for its captor (IO-6.2.3I)
    assert attach_tow(captured, "nahant", "atlanta")
    refused("IO-5.3", attach_tow, state, "nahant", "nahant")
    refused("IO-5.3", attach_tow, state, "nahant", "atlanta")  # an enemy
    refused("IO-5.3", attach_tow, put(state, "nahant", cell=(3, 4)), "nahant", "weehawken")
    unpowered = put(state, "nahant", criticals=crits("boiler"))
    refused("IO-5.3", attach_tow, unpowered, "nahant", "weehawken")
    towing = fold(state, attach_tow(state, "nahant", "weehawken"))
    refused("IO-5.3", attach_tow, towing, "weehawken", "nahant")
    refused("IO-5.3", release_tow, state, "nahant")


# --------------------------------------------------------------------------- IO-5.5 Crossing the T


def test_cross_t_success_target_becomes_bow_on_io_5_5_1() -> None:
    state = game()
    # ship 7 − 1 = 6 beats 5
    events = cross_t(state, "atlanta", "weehawken", "bow_on", FixedDice([7, 1, 5, 1]))
    roll = rolls(events)[0]
    assert roll.roll.expression == "d8d4" and roll.opposed_by is not None
    assert roll.opposed_by.expression == "d8d6"
    assert [(m.value, m.rule) for m in roll.roll.modifiers] == [(-1, "IO-5.5")]
    attempt = only(events, CrossTAttempted)
    assert attempt.success and attempt.kind == "bow_on"
    after = fold(state, events)
    assert after.relation("weehawken", "atlanta") == "bow_on"
    assert after.relation("atlanta", "weehawken") is None


def test_cross_t_minus_one_makes_a_tie_fail_io_5_5() -> None:
    state = game()
    events = cross_t(state, "atlanta", "weehawken", "stern_on", FixedDice([6, 1, 5, 1]))
    assert rolls(events)[0].roll.total == 5
    assert not only(events, CrossTAttempted).success
    assert fold(state, events).pairs == ()


def test_cross_t_response_modifiers_apply_to_the_target() -> None:
    state = game()
    response = [Modifier(-3, "IO-6.3.17", "Steering critical")]
    events = cross_t(state, "atlanta", "weehawken", "stern_on", FixedDice([5, 1, 6, 1]), response)
    target_roll = rolls(events)[0].opposed_by
    assert target_roll is not None and target_roll.total == 3
    assert only(events, CrossTAttempted).success
    assert fold(state, events).relation("weehawken", "atlanta") == "stern_on"


def limited(state: IronOakState, limit: str) -> IronOakState:
    """``state`` with the IO-5.5.1 / IO-5.5.2 ``bow_on_limit`` reading."""
    options = state.options.model_copy(update={"bow_on_limit": limit})
    return state.model_copy(update={"options": options})


@pytest.mark.parametrize(
    ("limit", "kept"),
    [
        # the crossing ship holds one Bow-on: weehawken may stay Bow-on to nahant too
        ("crossing_ship", [Pair(ship="weehawken", other="nahant", kind="bow_on")]),
        # 1.0: weehawken may be Bow-on to one ship only
        ("target", []),
        ("game", []),
    ],
)
def test_only_one_bow_on_at_a_time_io_5_5_1(limit: str, kept: list[Pair]) -> None:
    """IO-5.5.1 「一度には1艦しかBow-onにできない」 per ``bow_on_limit``: atlanta crosses the
    bow of weehawken, which was Bow-on to nahant and Stern-on to atlanta; the Stern-on to
    atlanta always goes (a new relation between the same two ships)."""
    state = put(game(), "nahant", side="CSA", cell=HERE)  # a second CSA ship for the test
    state = limited(state, limit).model_copy(
        update={
            "pairs": (
                Pair(ship="weehawken", other="nahant", kind="bow_on"),
                Pair(ship="weehawken", other="atlanta", kind="stern_on"),
            )
        }
    )
    events = cross_t(state, "atlanta", "weehawken", "bow_on", FixedDice([8, 1, 2, 1]))
    after = fold(state, events)
    assert after.pairs == (*kept, Pair(ship="weehawken", other="atlanta", kind="bow_on"))


def test_one_bow_on_per_crossing_ship_io_5_5_1() -> None:
    """IO-5.5.1, ``bow_on_limit=crossing_ship`` (default): atlanta held nahant Bow-on; crossing
    weehawken's bow releases nahant. With ``target`` (1.0) nahant stays Bow-on to atlanta."""
    state = put(game(), "nahant", cell=HERE)
    state = state.model_copy(
        update={"pairs": (Pair(ship="nahant", other="atlanta", kind="bow_on"),)}
    )
    events = cross_t(state, "atlanta", "weehawken", "bow_on", FixedDice([8, 1, 2, 1]))
    assert fold(state, events).pairs == (Pair(ship="weehawken", other="atlanta", kind="bow_on"),)
    old = limited(state, "target")
    assert fold(old, events).pairs == (
        Pair(ship="nahant", other="atlanta", kind="bow_on"),
        Pair(ship="weehawken", other="atlanta", kind="bow_on"),
    )


def test_stern_crossing_keeps_other_bow_on_pair_io_5_5_2() -> None:
    state = put(game(), "nahant", side="CSA", cell=HERE)
    state = state.model_copy(
        update={"pairs": (Pair(ship="weehawken", other="nahant", kind="bow_on"),)}
    )
    after = fold(state, cross_t(state, "atlanta", "weehawken", "stern_on", FixedDice([8, 1, 2, 1])))
    assert after.relation("weehawken", "nahant") == "bow_on"
    assert after.relation("weehawken", "atlanta") == "stern_on"


def test_cross_t_removes_the_opposed_marker_io_5_5() -> None:
    """By default (the mover reading) the crossing ship's marker, placed by the target, goes;
    the option ``remove_opposed="target"`` removes the target's marker instead."""
    state = put(game(), "weehawken", opposed=True)
    events = cross_t(
        state, "atlanta", "weehawken", "bow_on", FixedDice([1, 1, 8, 1]), remove_opposed="target"
    )
    assert not only(events, CrossTAttempted).success
    assert only(events, CrossTAttempted).opposed_removed == ["weehawken"]
    assert not fold(state, events).ships["weehawken"].opposed
    # the other reading: the crossing ship's marker, placed by the target, goes
    mover = put(game(), "atlanta", opposed=True)
    events = cross_t(
        mover,
        "atlanta",
        "weehawken",
        "bow_on",
        FixedDice([8, 1, 2, 1]),
        opposed_by="weehawken",
    )
    assert not fold(mover, events).ships["atlanta"].opposed


def test_cross_t_opposed_minus_one_spared_against_the_opposer_io_5_1_3() -> None:
    state = put(game(), "atlanta", opposed=True)
    by_other = cross_t(state, "atlanta", "weehawken", "bow_on", FixedDice([7, 1, 5, 1]))
    assert rolls(by_other)[0].roll.total == 5  # −1 cross, −1 Opposed
    by_target = cross_t(
        state, "atlanta", "weehawken", "bow_on", FixedDice([7, 1, 5, 1]), opposed_by="weehawken"
    )
    assert rolls(by_target)[0].roll.total == 6


def test_cross_t_against_a_bow_on_target_minus_one_io_5_5_1() -> None:
    state = game().model_copy(
        update={"pairs": (Pair(ship="weehawken", other="atlanta", kind="bow_on"),)}
    )
    events = cross_t(state, "atlanta", "weehawken", "stern_on", FixedDice([7, 1, 5, 1]))
    assert rolls(events)[0].roll.total == 5
    assert "IO-5.5.1" in [m.rule for m in rolls(events)[0].roll.modifiers]


def test_cross_t_refusals_io_5_5() -> None:
    state = game()
    check_cross_t(state, "atlanta", "weehawken", "bow_on")  # legal
    refused(
        "IO-5.5",
        check_cross_t,
        put(state, "weehawken", cell=(3, 1)),
        "atlanta",
        "weehawken",
        "bow_on",
    )
    refused(
        "IO-5.5",
        check_cross_t,
        put(state, "atlanta", anchored=True),
        "atlanta",
        "weehawken",
        "bow_on",
    )
    refused(
        "IO-5.5",
        check_cross_t,
        put(state, "atlanta", aground=True),
        "atlanta",
        "weehawken",
        "bow_on",
    )
    refused(
        "IO-5.5",
        check_cross_t,
        put(state, "atlanta", fouled_with=("hulk",)),
        "atlanta",
        "weehawken",
        "bow_on",
    )
    refused(
        "IO-6.3.13",
        check_cross_t,
        put(state, "atlanta", criticals=crits("rudder")),
        "atlanta",
        "weehawken",
        "bow_on",
    )
    refused(
        "IO-6.3.17",
        check_cross_t,
        put(state, "atlanta", criticals=crits("steering")),
        "atlanta",
        "weehawken",
        "bow_on",
    )
    refused("IO-5.5", check_cross_t, state, "atlanta", "weehawken", "bow_on", {"weehawken"})
    refused(
        "IO-5.5",
        cross_t,
        state,
        "atlanta",
        "weehawken",
        "bow_on",
        FixedDice([]),
        failed_last_turn={"weehawken"},
    )
    check_cross_t(state, "atlanta", "weehawken", "bow_on", {"nahant"})  # another target is fine


# --------------------------------------------------------------------------- IO-5.6 ram and spar

# dice, in order: contact [d8, d4] vs [d8, d6]; spar [d10, d8] vs [d4], d8, d8;
# ram [d8, d6] vs [d10, d6]; ram check [d10, d8] vs [d8]; fouling [d10, d8] vs [d8] or [d6]
CONTACT = [8, 1, 2, 1]
CHECK_OK = [9, 1, 2]
NO_FOUL = [9, 1, 2]


def test_ram_positive_diff_hits_the_target_io_5_6_3() -> None:
    state = game()
    dice = FixedDice([*CONTACT, 8, 1, 3, 1, *CHECK_OK, *NO_FOUL])
    events = ram_spar(state, "atlanta", "weehawken", False, True, dice)
    assert dice.remaining == 0
    ram = only(events, RamResolved)
    assert (ram.attack, ram.defence, ram.diff) == (8, 3, 5)
    assert (ram.target_hits, ram.attacker_hits) == (5, 0)
    assert ram.target_wl_after == -4 and ram.attacker_wl_after == 0  # 0 − 5, floored at −4
    assert ram.ram_check_passed and ram.critical is None
    after = fold(state, events)
    assert after.ships["weehawken"].hits == 5 and after.ships["weehawken"].shield("WL") == -4
    assert after.ships["atlanta"].hits == 0
    ram_roll = next(r for r in rolls(events) if r.purpose == "ram")
    assert ram_roll.roll.expression == "d8d6" and ram_roll.opposed_by is not None
    assert ram_roll.opposed_by.expression == "d10d6"


def test_ram_negative_diff_hits_the_attacker_io_5_6_3() -> None:
    state = game()
    events = ram_spar(
        state,
        "atlanta",
        "weehawken",
        False,
        True,
        FixedDice([*CONTACT, 2, 1, 5, 1, *CHECK_OK, *NO_FOUL]),
    )
    ram = only(events, RamResolved)
    assert (ram.diff, ram.target_hits, ram.attacker_hits) == (-3, 0, 3)
    after = fold(state, events)
    assert after.ships["atlanta"].hits == 3 and after.ships["atlanta"].shield("WL") == -3
    assert after.ships["weehawken"].hits == 0


@pytest.mark.parametrize(("attack", "each"), [(5, 2), (1, 1), (6, 3)])
def test_ram_tie_both_take_half_attack_min_one_io_5_6_3(attack: int, each: int) -> None:
    state = game()
    dice = FixedDice([*CONTACT, attack, 1, attack, 1, *CHECK_OK, *NO_FOUL])
    events = ram_spar(state, "atlanta", "weehawken", False, True, dice)
    ram = only(events, RamResolved)
    assert ram.diff == 0 and ram.target_hits == ram.attacker_hits == each
    after = fold(state, events)
    assert after.ships["atlanta"].hits == after.ships["weehawken"].hits == each
    assert after.ships["atlanta"].shield("WL") == -each


def test_ram_shield_damage_grows_from_existing_value_io_5_6_3() -> None:
    state = put(game(), "atlanta", shields={"WL": -2})
    events = ram_spar(
        state,
        "atlanta",
        "weehawken",
        False,
        True,
        FixedDice([*CONTACT, 1, 1, 6, 1, *CHECK_OK, *NO_FOUL]),
    )
    # atlanta's ram 1 vs 6: 5 hits; its WL −2 − 5 stops at −4
    assert only(events, RamResolved).attacker_wl_after == -4


def test_ram_check_failure_names_a_ram_critical_io_5_6_3() -> None:
    events = ram_spar(
        game(),
        "atlanta",
        "weehawken",
        False,
        True,
        FixedDice([*CONTACT, 8, 1, 3, 1, 2, 1, 5, *NO_FOUL]),
    )
    ram = only(events, RamResolved)
    assert ram.ram_check_passed is False and ram.critical == "ram"
    check = next(r for r in rolls(events) if r.purpose == "ram check")
    assert check.roll.expression == "d10d8" and check.opposed_by is not None
    assert check.opposed_by.expression == "d8"


def test_ram_critical_is_minus_five_io_6_3_12() -> None:
    state = put(game(), "atlanta", criticals=crits("ram"))
    check_ram(state, "atlanta", "weehawken", False, True)  # not barred
    events = ram_spar(
        state,
        "atlanta",
        "weehawken",
        False,
        True,
        FixedDice([*CONTACT, 8, 1, 2, 1, *CHECK_OK, *NO_FOUL]),
    )
    ram = only(events, RamResolved)
    assert (ram.attack, ram.diff) == (3, 1)


def test_spar_before_ram_and_ship_spar_self_damage_io_5_6_2() -> None:
    state = game()
    dice = FixedDice([*CONTACT, 9, 1, 2, 3, 8, 5, 1, 6, 1, *CHECK_OK, *NO_FOUL])
    events = ram_spar(state, "atlanta", "weehawken", True, True, dice)
    assert dice.remaining == 0
    purposes = [r.purpose for r in rolls(events)]
    assert purposes == [
        "ram/spar contact",
        "spar detonation",
        "spar torpedo damage",
        "ship spar damage",
        "ram",
        "ram check",
        "fouling",
    ]
    spar = only(events, SparResolved)
    # spar_torp[3] = 4 hits, WL to −4; ship_spar[8] = 3 hits on atlanta, its WL −3
    assert spar.detonated and spar.target_hits == 4 and spar.target_wl_after == -4
    assert spar.attacker_hits == 3 and spar.attacker_wl_after == -3
    assert spar.critical == "spar_torpedo"
    # the ram meets the WL already at −4: defence 6 − 4 = 2 (shield damage, IO-6.2.1)
    ram = only(events, RamResolved)
    assert (ram.attack, ram.defence, ram.diff) == (5, 2, 3)
    ram_roll = next(r for r in rolls(events) if r.purpose == "ram")
    assert ram_roll.opposed_by is not None
    assert [(m.value, m.rule) for m in ram_roll.opposed_by.modifiers] == [(-4, "IO-6.2.1")]
    assert events.index(spar) < events.index(ram)
    after = fold(state, events)
    assert after.ships["weehawken"].hits == 7 and after.ships["weehawken"].shield("WL") == -4
    assert after.ships["atlanta"].hits == 3 and after.ships["atlanta"].shield("WL") == -3


def test_spar_only_failed_detonation_and_d6_fouling_io_5_6_4() -> None:
    state = game()
    events = ram_spar(
        state, "atlanta", "weehawken", True, False, FixedDice([*CONTACT, 1, 1, 4, 9, 1, 2])
    )
    assert not only(events, SparResolved).detonated
    fouling = rolls(events)[-1]
    assert fouling.purpose == "fouling" and fouling.opposed_by is not None
    assert fouling.opposed_by.expression == "d6"
    assert fold(state, events).ships["weehawken"].hits == 0


def test_contact_failure_ends_the_attack_io_5_6_1() -> None:
    state = game()
    events = ram_spar(state, "atlanta", "weehawken", True, True, FixedDice([2, 1, 8, 1]))
    assert not only(events, ContactRolled).success
    assert len(rolls(events)) == 1
    assert fold(state, events) == state


def test_contact_anchored_target_rolls_d10_minus_five_io_5_6_1() -> None:
    state = put(game(), "weehawken", anchored=True)
    events = ram_spar(
        state,
        "atlanta",
        "weehawken",
        False,
        True,
        FixedDice([2, 1, 6, 8, 1, 3, 1, *CHECK_OK, *NO_FOUL]),
    )
    contact = rolls(events)[0]
    assert contact.opposed_by is not None and contact.opposed_by.expression == "d10"
    assert [(m.value, m.rule) for m in contact.opposed_by.modifiers] == [(-5, "IO-5.6.1")]
    assert contact.opposed_by.total == 1
    result = only(events, ContactRolled)
    assert result.success and result.immobile_target


def test_contact_plus_one_against_a_bow_on_target_io_5_5_1() -> None:
    base = game()
    bow = base.model_copy(
        update={"pairs": (Pair(ship="weehawken", other="atlanta", kind="bow_on"),)}
    )
    tie = [4, 1, 4, 1]
    assert not only(
        ram_spar(base, "atlanta", "weehawken", False, True, FixedDice(tie)), ContactRolled
    ).success
    events = ram_spar(
        bow, "atlanta", "weehawken", False, True, FixedDice([*tie, 8, 1, 3, 1, *CHECK_OK, *NO_FOUL])
    )
    assert only(events, ContactRolled).success
    assert (1, "IO-5.5.1") in [(m.value, m.rule) for m in rolls(events)[0].roll.modifiers]


def test_no_ram_or_spar_after_a_stern_crossing_io_5_5_2() -> None:
    state = game().model_copy(
        update={"pairs": (Pair(ship="weehawken", other="atlanta", kind="stern_on"),)}
    )
    refused("IO-5.5.2", check_ram, state, "atlanta", "weehawken", True, False)
    refused("IO-5.5.2", ram_spar, state, "atlanta", "weehawken", False, True, FixedDice([]))


def test_ram_refusals_io_5_6() -> None:
    state = game()
    refused("IO-5.6", check_ram, state, "atlanta", "weehawken", False, False)
    refused(
        "IO-5.6",
        check_ram,
        put(state, "weehawken", cell=(3, 1)),
        "atlanta",
        "weehawken",
        False,
        True,
    )
    refused(
        "IO-4.0",
        check_ram,
        put(state, "atlanta", anchored=True),
        "atlanta",
        "weehawken",
        False,
        True,
    )
    unarmed = put(state, "nahant", cell=HERE, side="CSA")  # weehawken's card: no ram, no spar
    refused("IO-5.6.2", check_ram, unarmed, "nahant", "weehawken", True, False)
    refused("IO-5.6.3", check_ram, unarmed, "nahant", "weehawken", False, True)
    spent = put(state, "atlanta", criticals=crits("spar_torpedo"))
    refused("IO-6.3.14", check_ram, spent, "atlanta", "weehawken", True, False)
    check_ram(spent, "atlanta", "weehawken", False, True)  # the ram is still there
    refused(
        "IO-6.3.13",
        check_ram,
        put(state, "atlanta", criticals=crits("rudder")),
        "atlanta",
        "weehawken",
        False,
        True,
    )
    refused(
        "IO-6.3.17",
        check_ram,
        put(state, "atlanta", criticals=crits("steering")),
        "atlanta",
        "weehawken",
        True,
        False,
    )
    refused("IO-5.6.5", check_ram, state, "atlanta", "weehawken", False, True, {"weehawken"})


def test_fouling_failure_fouls_both_and_ends_the_t_io_5_6_4() -> None:
    state = game().model_copy(
        update={"pairs": (Pair(ship="weehawken", other="atlanta", kind="bow_on"),)}
    )
    events = ram_spar(
        state,
        "atlanta",
        "weehawken",
        False,
        True,
        FixedDice([*CONTACT, 8, 1, 3, 1, *CHECK_OK, 1, 1, 5]),
    )
    fouling = rolls(events)[-1]
    assert fouling.rule == "IO-5.6.4" and fouling.opposed_by is not None
    assert fouling.opposed_by.expression == "d8"
    assert only(events, ShipsFouled) == ShipsFouled(ship="atlanta", target="weehawken")
    after = fold(state, events)
    assert after.ships["atlanta"].fouled_with == ("weehawken",)
    assert after.ships["weehawken"].fouled_with == ("atlanta",)
    # IO-5.5.3: the T ends; IO-5.6.5: the attacker is Bow-on to the target, for gunnery only
    assert after.pairs == ()
    assert fold_all(state, events, evolve).combat_relation("atlanta", "weehawken") == "bow_on"


def test_aftermath_attacker_bow_on_to_target_io_5_6_5() -> None:
    state = game()
    events = ram_spar(
        state,
        "atlanta",
        "weehawken",
        False,
        True,
        FixedDice([*CONTACT, 8, 1, 3, 1, *CHECK_OK, *NO_FOUL]),
    )
    assert events[-1] == RamAftermath(ship="atlanta", target="weehawken")
    after = fold_all(state, events, evolve)
    assert after.aftermath == (("atlanta", "weehawken"),)
    assert after.combat_relation("atlanta", "weehawken") == "bow_on"
    assert after.pairs == ()  # a Bow-on for gunnery, not a crossed T
    assert not after.ships["atlanta"].fouled_with


def test_sinking_ram_skips_fouling_and_aftermath_io_6_2_3j() -> None:
    state = put(game(), "weehawken", hits=12)  # its Movement Chart is down to d4
    dice = FixedDice([8, 1, 2, 8, 1, 3, 1, *CHECK_OK])
    events = ram_spar(state, "atlanta", "weehawken", False, True, dice)
    assert dice.remaining == 0 and only(events, RamResolved).target_hits == 5
    assert not [e for e in events if isinstance(e, RamAftermath | ShipsFouled)]
    after = fold(state, events)
    assert after.ships["weehawken"].status == "sunk"
    assert after.relation("atlanta", "weehawken") is None


def test_attacker_checks_hazards_first_io_5_6() -> None:
    state = with_markers(game(), HERE, "mine")
    # the mine goes off (1 vs 9), d8 = 1: 2 hits, the attack ends
    events = ram_spar(state, "atlanta", "weehawken", False, True, FixedDice([1, 1, 9, 1]))
    hazard = only(events, HazardChecked)
    assert hazard.effect == "mine" and hazard.ends_move
    assert not [e for e in events if isinstance(e, ContactRolled)]
    after = fold(state, events)
    assert after.ships["atlanta"].hits == 2 and "mine" not in after.box(HERE).markers
    # the mine check passes: the attack goes on
    events = ram_spar(
        state,
        "atlanta",
        "weehawken",
        False,
        True,
        FixedDice([9, 1, 2, *CONTACT, 8, 1, 3, 1, *CHECK_OK, *NO_FOUL]),
    )
    assert rolls(events)[0].rule == "IO-5.4.3" and only(events, ContactRolled).success


# --------------------------------------------------------------------------- review fixes


def test_towing_ship_may_cross_the_t_io_5_5() -> None:
    """IO-5.5: the seed bars a towing ship only from Maneuver 2 (IO-5.3) and the Opposing
    Maneuver (IO-5.1.3), not from crossing the T."""
    state = put(game(), "nahant", side="CSA", cell=HERE, towed_by="atlanta")
    state = put(state, "atlanta", towing="nahant")
    check_cross_t(state, "atlanta", "weehawken", "bow_on")
    events = cross_t(state, "atlanta", "weehawken", "stern_on", FixedDice([8, 1, 2, 1]))
    assert fold(state, events).relation("weehawken", "atlanta") == "stern_on"


def test_only_one_stern_on_at_a_time_io_5_5_2() -> None:
    """IO-5.5.2 「一度には1艦しかStern-onにできない」 with ``bow_on_limit=target`` (1.0):
    weehawken Stern-on to nahant becomes Stern-on to atlanta instead; its Bow-on pair is another
    kind and stays."""
    state = limited(put(game(), "nahant", side="CSA", cell=HERE), "target")
    state = state.model_copy(
        update={"pairs": (Pair(ship="weehawken", other="nahant", kind="stern_on"),)}
    )
    events = cross_t(state, "atlanta", "weehawken", "stern_on", FixedDice([8, 1, 2, 1]))
    after = fold(state, events)
    assert after.pairs == (Pair(ship="weehawken", other="atlanta", kind="stern_on"),)
    with_bow = state.model_copy(
        update={
            "pairs": (
                Pair(ship="weehawken", other="nahant", kind="bow_on"),
                Pair(ship="weehawken", other="nahant", kind="stern_on"),
            )
        }
    )
    after = fold(
        with_bow, cross_t(with_bow, "atlanta", "weehawken", "stern_on", FixedDice([8, 1, 2, 1]))
    )
    assert after.pairs == (
        Pair(ship="weehawken", other="nahant", kind="bow_on"),
        Pair(ship="weehawken", other="atlanta", kind="stern_on"),
    )


def _reattacking_atlanta() -> IronOakState:
    """A DataSet whose atlanta card has spar_reattack (as USS Spuyten Duyvil's, IO-1.0.1.1 J)."""
    cards = [
        c.model_copy(update={"spar_reattack": True}) if c.id == "atlanta" else c
        for c in DATA.ships.ships
    ]
    data = DATA.model_copy(update={"ships": DATA.ships.model_copy(update={"ships": cards})})
    return game().model_copy(update={"data": data})


def test_spar_reattack_ignores_the_spar_critical_io_1_0_1_1_j_io_5_6_2() -> None:
    """IO-1.0.1.1 J / IO-5.6.2: only a card with spar_reattack (USS Spuyten Duyvil) may attack
    with its spar again despite its Spar critical marker; any other ship is barred (IO-6.3.14)."""
    spent = put(_reattacking_atlanta(), "atlanta", criticals=crits("spar_torpedo"))
    check_ram(spent, "atlanta", "weehawken", True, False)
    check_ram(spent, "atlanta", "weehawken", True, True)
    plain = put(game(), "atlanta", criticals=crits("spar_torpedo"))
    refused("IO-6.3.14", check_ram, plain, "atlanta", "weehawken", True, False)


def _fouled_atlanta_weehawken(**weehawken: Any) -> IronOakState:
    state = put(game(), "atlanta", fouled_with=("weehawken",))
    state = put(state, "weehawken", **{"fouled_with": ("atlanta",), **weehawken})
    return current(state, HERE, "E")


@pytest.mark.parametrize(
    "weehawken",
    [
        {"anchored": True},
        {"aground": True},
        {"fouled_with": ("atlanta", "hulk")},
        {"criticals": crits("boiler")},
        {"criticals": crits("engine_stopped")},
    ],
)
def test_unfoul_failure_drifts_only_with_a_movable_partner_io_4_4(
    weehawken: dict[str, Any],
) -> None:
    """IO-4.4 「他の移動可能な船とからまって初めての命令フェイス」: the failure drift needs a fouled
    partner ship that can move (not anchored, aground, fouled with an obstacle or unpowered)."""
    state = _fouled_atlanta_weehawken(**weehawken)
    dice = FixedDice([2, 5, 1])
    events = unfoul(state, "atlanta", dice, True)
    assert dice.remaining == 0
    assert not only(events, UnfoulAttempted).success
    assert not [e for e in events if isinstance(e, ShipDrifted)]


def test_unfoul_failure_no_drift_when_itself_fouled_with_a_hulk_io_4_4() -> None:
    """IO-4.4 + IO-4.0: a ship also fouled with a hulk cannot drift, whatever its partner."""
    state = put(_fouled_atlanta_weehawken(), "atlanta", fouled_with=("weehawken", "hulk"))
    events = unfoul(state, "atlanta", FixedDice([2, 5, 1]), True)
    assert not [e for e in events if isinstance(e, ShipDrifted)]


def test_unfoul_drift_does_not_drag_an_immobile_ship_io_4_4() -> None:
    """IO-4.4 + IO-4.0: atlanta is fouled with weehawken (movable) and nahant (anchored); the
    failure drift takes atlanta and weehawken one box E, the anchored nahant stays."""
    state = put(_fouled_atlanta_weehawken(), "atlanta", fouled_with=("weehawken", "nahant"))
    state = put(state, "nahant", cell=HERE, fouled_with=("atlanta",), anchored=True)
    events = unfoul(state, "atlanta", FixedDice([2, 5, 1, 6]), True)
    assert only(events, ShipDrifted).path == [HERE, (3, 1)]
    after = fold(state, events)
    assert after.ships["atlanta"].cell == after.ships["weehawken"].cell == (3, 1)
    assert after.ships["nahant"].cell == HERE


def test_towed_ship_does_not_drift_io_5_3() -> None:
    """IO-5.3 + IO-4.0: an unpowered ship towed by a powered, movable ship goes with its tower:
    it does not drift (and so does not drag its tower); with its tower aground neither moves."""
    state = put(game(), "nahant", cell=HERE, towing="weehawken")
    state = put(state, "weehawken", towed_by="nahant", criticals=crits("boiler"))
    state = current(state, HERE, "E")
    message = refused("IO-5.3", drift, state, "weehawken", FixedDice([9]))
    assert "towed by nahant" in message
    refused("IO-4.0", drift, put(state, "nahant", aground=True), "weehawken", FixedDice([9]))
    refused("IO-4.0", drift, put(state, "weehawken", anchored=True), "nahant", FixedDice([9]))
