"""Iron & Oak movement (IO-4.0-4.2, IO-5.0-5.1.6, IO-5.3, IO-5.4): orders, paths, the movement
roll, its modifiers and hazards. Dice are scripted; values come from the bundled tables.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product
from typing import Any

import pytest

from domain.dice import FixedDice, Modifier
from domain.errors import IllegalCommand
from domain.events import DiceRolled
from domain.rulesets.iron_oak.data import bundled_scenario, resolve_data
from domain.rulesets.iron_oak.events import HazardChecked
from domain.rulesets.iron_oak.movement import (
    DriftWhenFouledWith,
    ShipMoved,
    apply,
    can_move,
    check_anchor,
    check_hazards,
    check_path,
    check_weigh,
    move_modifiers,
    resolve_move,
)
from domain.rulesets.iron_oak.scenario import Box, Current
from domain.rulesets.iron_oak.state import CriticalState, IronOakState, initial_state

DATA = resolve_data()


def game(scenario: str = "hampton_roads") -> IronOakState:
    return initial_state(bundled_scenario(scenario), DATA)


def put(state: IronOakState, ship: str, **changes: Any) -> IronOakState:
    ships = dict(state.ships)
    ships[ship] = ships[ship].model_copy(update=changes)
    return state.model_copy(update={"ships": ships})


def crits(*names: str, **levels: int) -> dict[str, CriticalState]:
    out = {n: CriticalState(name=n) for n in names}
    out.update({n: CriticalState(name=n, level=v) for n, v in levels.items()})
    return out


def with_markers(state: IronOakState, cell: tuple[int, int], *markers: str) -> IronOakState:
    all_markers = dict(state.markers)
    all_markers[f"{cell[0]},{cell[1]}"] = tuple(markers)
    return state.model_copy(update={"markers": all_markers})


def with_box(state: IronOakState, box: Box) -> IronOakState:
    boxes = [b for b in state.scenario.boxes if b.cell != box.cell] + [box]
    return state.model_copy(update={"scenario": state.scenario.model_copy(update={"boxes": boxes})})


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


# --------------------------------------------------------------------------- IO-4.1 / IO-4.2


def test_io_4_1_anchor_refused_in_depth_5() -> None:
    """IO-4.1: anchoring needs depth ≤ 4; Cumberland's box (1,1) has the default depth 5."""
    message = refused("IO-4.1", check_anchor, game(), "cumberland")
    assert "depth 5" in message


def test_io_4_1_anchor_allowed_in_depth_4_but_not_twice() -> None:
    """IO-4.1: box (4,0) has depth 4, so anchoring is allowed; an anchored ship cannot again."""
    state = put(game(), "monitor", cell=(4, 0))
    check_anchor(state, "monitor")
    message = refused("IO-4.1", check_anchor, put(state, "monitor", anchored=True), "monitor")
    assert "already anchored" in message


def test_io_4_2_weigh_needs_an_anchor() -> None:
    """IO-4.2: only an anchored ship can weigh anchor."""
    refused("IO-4.2", check_weigh, game(), "cumberland")
    check_weigh(put(game(), "cumberland", anchored=True), "cumberland")


# --------------------------------------------------------------------------- IO-4.0


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({}, (True, "move")),
        ({"anchored": True}, (False, "stuck")),
        ({"aground": True}, (False, "stuck")),
        ({"fouled_with": ("hulk",)}, (False, "stuck")),
        ({"fouled_with": ("heavy_obstruction",)}, (False, "stuck")),
        ({"criticals": crits("boiler")}, (False, "drift")),
        ({"criticals": crits("engine_stopped")}, (False, "drift")),
        ({"criticals": crits("engine_damaged")}, (True, "move")),
    ],
)
def test_io_4_0_who_moves_drifts_or_is_stuck(
    changes: dict[str, Any], expected: tuple[bool, str]
) -> None:
    """IO-4.0: anchored/aground/fouled with an obstacle: stuck; unpowered: drift."""
    assert can_move(put(game(), "cumberland", **changes), "cumberland") == expected


def _fouled_pair(enemy_aground: bool) -> IronOakState:
    state = game("wassaw_sound")
    state = put(state, "atlanta", cell=(2, 2), fouled_with=("weehawken",))
    return put(state, "weehawken", cell=(2, 2), fouled_with=("atlanta",), aground=enemy_aground)


def test_io_4_0_ambig_fouled_with_movable_enemy_drifts_by_default() -> None:
    """IO-4.0 [AMBIG] vs IO-5.2: by default (IO-5.2) a ship fouled with a movable enemy drifts,
    and one fouled with an immobile (aground) enemy is stuck."""
    assert can_move(_fouled_pair(False), "atlanta") == (False, "drift")
    assert can_move(_fouled_pair(True), "atlanta") == (False, "stuck")


def test_io_4_0_ambig_option_immobile_enemy_reverses_the_reading() -> None:
    """IO-4.0 [AMBIG]: with the IO-4.0 reading a ship drifts when its enemy cannot move."""
    opt: DriftWhenFouledWith = "immobile_enemy"
    assert can_move(_fouled_pair(True), "atlanta", drift_when_fouled_with=opt) == (False, "drift")
    assert can_move(_fouled_pair(False), "atlanta", drift_when_fouled_with=opt) == (
        False,
        "stuck",
    )


def test_io_5_3_towing_an_immobile_ship_holds_both() -> None:
    """IO-5.3: if either ship becomes immobile, neither moves."""
    state = put(game(), "cumberland", towing="monitor")
    state = put(state, "monitor", cell=(1, 1), towed_by="cumberland")
    assert can_move(state, "cumberland") == (True, "move")
    assert can_move(put(state, "monitor", aground=True), "cumberland") == (False, "stuck")


# --------------------------------------------------------------------------- paths


def test_io_4_0_stuck_ship_cannot_be_ordered_to_move() -> None:
    """IO-4.0: an anchored ship's move order is refused (the caller makes it drift instead)."""
    state = put(game(), "cumberland", anchored=True)
    refused("IO-4.0", check_path, state, "cumberland", [(1, 1), (2, 1)], 1)


def test_io_5_0_path_must_start_in_the_ships_box() -> None:
    """IO-5.0: the declared path starts where the ship is."""
    refused("IO-5.0", check_path, game(), "cumberland", [(2, 2), (2, 3)], 1)
    refused("IO-5.0", check_path, game(), "cumberland", [], 1)


def test_io_5_1_4_maneuver_0_stays() -> None:
    """IO-5.1.4: Maneuver 0 is the ship's own box alone."""
    check_path(game(), "cumberland", [(1, 1)], 0)
    refused("IO-5.1.4", check_path, game(), "cumberland", [(1, 1), (2, 1)], 0)


@pytest.mark.parametrize(
    ("path", "fragment"),
    [
        ([(1, 1), (3, 1)], "not to a neighbouring box"),
        ([(1, 1), (2, 1), (3, 1)], "exactly 1 step"),
        ([(1, 1)], "exactly 1 step"),
    ],
)
def test_io_5_1_5_maneuver_1_is_one_step(path: list[tuple[int, int]], fragment: str) -> None:
    """IO-5.1.5: Maneuver 1 moves to an adjacent GB, orthogonally or diagonally."""
    check_path(game(), "cumberland", [(1, 1), (2, 2)], 1)
    assert fragment in refused("IO-5.1.5", check_path, game(), "cumberland", path, 1)


def test_io_5_1_5_maneuver_1_cannot_leave_the_grid_here() -> None:
    """IO-5.1.5: a step off the grid is refused by the path check (map exits are not handled)."""
    state = put(game(), "cumberland", cell=(0, 1))
    message = refused("IO-5.1.5", check_path, state, "cumberland", [(0, 1), (-1, 1)], 1)
    assert "step 1" in message


def test_io_5_1_6_maneuver_2_two_diagonals_refused() -> None:
    """IO-5.0/IO-5.1.6: at most one diagonal step in the whole move."""
    state = put(game(), "cumberland", cell=(2, 2))
    check_path(state, "cumberland", [(2, 2), (3, 3), (3, 4)], 2)
    message = refused("IO-5.1.6", check_path, state, "cumberland", [(2, 2), (3, 3), (4, 2)], 2)
    assert "step 2" in message and "diagonal" in message


@pytest.mark.parametrize(
    "path",
    [
        [(2, 2), (3, 2), (2, 2)],  # out and back
        [(2, 2), (3, 2), (2, 3)],  # ends adjacent
        [(2, 2), (3, 2)],  # one step only
    ],
)
def test_io_5_1_6_maneuver_2_must_end_two_boxes_away(path: list[tuple[int, int]]) -> None:
    """IO-5.1.6: Maneuver 2 takes two steps to a non-adjacent GB two away."""
    state = put(game(), "cumberland", cell=(2, 2))
    refused("IO-5.1.6", check_path, state, "cumberland", path, 2)


def test_io_5_1_6_diagonal_squeeze_between_enemies_refused() -> None:
    """IO-5.1.6: no diagonal step past boxes holding enemy ships on both sides."""
    state = put(game("wassaw_sound"), "atlanta", cell=(1, 1))
    state = put(state, "weehawken", cell=(1, 2))
    path = [(1, 1), (2, 2), (3, 2)]
    check_path(state, "atlanta", path, 2)  # one flank only: allowed
    squeezed = put(state, "nahant", cell=(2, 1))
    message = refused("IO-5.1.6", check_path, squeezed, "atlanta", path, 2)
    assert "step 1" in message and "squeezes" in message
    # sunk ships do not block
    check_path(put(squeezed, "nahant", status="sunk"), "atlanta", path, 2)


def test_io_5_1_6_friendly_flank_does_not_squeeze() -> None:
    """IO-5.1.6: only enemies on both sides forbid the diagonal: a friend and an enemy do not."""
    state = put(game("wassaw_sound"), "weehawken", cell=(1, 1))
    state = put(state, "nahant", cell=(2, 1))  # friendly flank
    state = put(state, "atlanta", cell=(1, 2))  # enemy flank
    check_path(state, "weehawken", [(1, 1), (2, 2), (3, 2)], 2)


def test_io_5_3_towing_ship_cannot_use_maneuver_2() -> None:
    """IO-5.3: a towing ship cannot use Maneuver 2 (Maneuver 1 stays allowed)."""
    state = put(game(), "cumberland", cell=(2, 2), towing="monitor")
    state = put(state, "monitor", cell=(2, 2), towed_by="cumberland")
    check_path(state, "cumberland", [(2, 2), (2, 3)], 1)
    message = refused("IO-5.3", check_path, state, "cumberland", [(2, 2), (2, 3), (2, 4)], 2)
    assert "towing" in message


def test_io_5_0_bank_cannot_be_entered() -> None:
    """Banks (Wassaw Sound (0,2) and (0,3)) cannot be entered by any step of a move."""
    state = put(game("wassaw_sound"), "atlanta", cell=(1, 2))
    message = refused("IO-5.0", check_path, state, "atlanta", [(1, 2), (0, 2)], 1)
    assert "bank" in message and "step 1" in message
    state = put(state, "atlanta", cell=(1, 1))
    message = refused("IO-5.0", check_path, state, "atlanta", [(1, 1), (0, 2), (0, 3)], 2)
    assert "step 1" in message


# --------------------------------------------------------------------------- modifiers


@pytest.mark.parametrize(
    ("changes", "value", "rule"),
    [
        ({"crew_damage": 8}, -2, "IO-6.2.3G"),  # Cumberland crew light threshold 8
        ({"criticals": crits("captain")}, -1, "IO-6.3.3"),
        ({"criticals": crits("engine_damaged")}, -2, "IO-6.3.6"),
        ({"criticals": crits("rudder")}, -4, "IO-6.3.13"),
        ({"criticals": crits(speed=-1)}, -1, "IO-6.3.15"),
        ({"criticals": crits(speed=-2)}, -2, "IO-6.3.15"),
        ({"criticals": crits("smokestack")}, -2, "IO-6.3.16"),
        ({"opposed": True}, -1, "IO-5.1.3"),
    ],
)
def test_movement_modifier_each(changes: dict[str, Any], value: int, rule: str) -> None:
    """IO-6.2.3G, IO-6.3.3/6/13/15/16, IO-5.1.3: each condition gives its movement modifier."""
    state = put(game(), "cumberland", **changes)
    mods = move_modifiers(state, "cumberland", [(1, 1), (2, 1)])
    assert [(m.value, m.rule) for m in mods] == [(value, rule)]


@pytest.mark.parametrize("level", [2, 3, 4, 5])
def test_io_3_1_2_fire_movement_modifier(level: int) -> None:
    """IO-3.1.2: fire modifies movement by the table's value for its level (zero left out)."""
    state = put(game(), "cumberland", fire=level)
    mods = move_modifiers(state, "cumberland", [(1, 1), (2, 1)])
    value = DATA.tables.fire.levels[level].movement
    assert [(m.value, m.rule) for m in mods] == ([(value, "IO-3.1.2")] if value else [])


def test_no_modifiers_for_a_healthy_ship_and_below_crew_threshold() -> None:
    """IO-6.2.3G: crew damage below the light threshold gives nothing; zero values are left out."""
    state = put(game(), "cumberland", crew_damage=7)
    assert move_modifiers(state, "cumberland", [(1, 1), (2, 1)]) == []


def test_modifiers_stack() -> None:
    """Modifiers are cumulative: Virginia starts with a Smokestack critical (IO-0, IO-6.3.16)."""
    state = put(game(), "virginia", cell=(2, 2), criticals={**crits("smokestack", "captain")})
    mods = move_modifiers(state, "virginia", [(2, 2), (2, 3)])
    assert [m.rule for m in mods] == ["IO-6.3.3", "IO-6.3.16"]
    assert sum(m.value for m in mods) == -3


@pytest.mark.parametrize(("towed", "value"), [("monitor", -1), ("virginia", -2)])
def test_io_5_3_tow_modifier_from_hit_value_difference(towed: str, value: int) -> None:
    """IO-5.3: Cumberland (14) towing Monitor (12): diff 2 -> −1; Virginia (18): −4 -> −2."""
    state = put(game(), "cumberland", towing=towed)
    state = put(state, towed, cell=(1, 1), towed_by="cumberland")
    mods = move_modifiers(state, "cumberland", [(1, 1), (2, 1)])
    assert mods == [Modifier(value, "IO-5.3", mods[0].reason)]


def _in_current(cell: tuple[int, int], strength: str = "moderate") -> IronOakState:
    state = game("mobile_bay_gauntlet")  # current flows N, moderate
    if strength == "rapid":
        scenario = state.scenario.model_copy(
            update={"current": Current(direction="N", strength="rapid")}
        )
        state = state.model_copy(update={"scenario": scenario})
    return put(state, "tennessee", cell=cell)


@pytest.mark.parametrize(
    ("path", "value", "word"),
    [
        ([(2, 2), (2, 1)], 1, "with"),  # N: with the current
        ([(2, 3), (2, 2), (2, 1)], 1, "with"),  # N, N
        ([(2, 2), (2, 3)], -1, "against"),  # S: the current comes from dead ahead
        ([(2, 2), (1, 3)], -1, "against"),  # SW: forward diagonal
        ([(2, 2), (3, 3)], -1, "against"),  # SE: forward diagonal
        ([(2, 2), (3, 2), (3, 3)], -1, "against"),  # E then S: one step against is enough
        ([(2, 2), (1, 2)], None, ""),  # W: across
        ([(2, 2), (1, 1)], None, ""),  # NW: not every step in the current's direction
        ([(2, 3), (2, 2), (1, 1)], None, ""),  # N then NW
    ],
)
def test_io_5_1_2_current_with_and_against(
    path: list[tuple[int, int]], value: int | None, word: str
) -> None:
    """IO-5.1.2: + with the current (every step in its direction), − when a step heads toward the
    box it comes from (dead ahead or a forward diagonal)."""
    state = _in_current(path[0])
    mods = [m for m in move_modifiers(state, "tennessee", path) if m.rule == "IO-5.1.2"]
    if value is None:
        assert mods == []
    else:
        assert [m.value for m in mods] == [value]
        assert mods[0].reason.startswith(word)


def test_io_5_1_2_rapid_current_values() -> None:
    """IO-5.1.2: a rapid current uses rapid_with / rapid_against."""
    table = DATA.tables.current
    with_mod = move_modifiers(_in_current((2, 2), "rapid"), "tennessee", [(2, 2), (2, 1)])
    against = move_modifiers(_in_current((2, 2), "rapid"), "tennessee", [(2, 2), (2, 3)])
    assert [m.value for m in with_mod] == [table.rapid_with]
    assert [m.value for m in against] == [table.rapid_against]


def test_io_5_1_2_staying_has_no_current_modifier() -> None:
    """IO-5.1.2: the current modifies moves only; a one-box path has none."""
    assert move_modifiers(_in_current((2, 2)), "tennessee", [(2, 2)]) == []


# --------------------------------------------------------------------------- the movement roll


def test_io_1_6_1_tie_fails_and_ship_stays() -> None:
    """IO-1.6.1.A/B, IO-5.1.1: Cumberland's d6d4 against Maneuver 1's d6; 4 vs 4 fails."""
    state = game()
    events = resolve_move(state, "cumberland", [(1, 1), (2, 1)], 1, FixedDice([4, 1, 4]))
    (roll,) = rolls(events)
    assert roll.rule == "IO-5.1.1" and roll.purpose == "movement"
    assert roll.roll.expression == "d6d4" and roll.opposed_by is not None
    assert roll.opposed_by.expression == DATA.tables.movement_opposition.maneuver_1
    assert roll.success is False
    assert events[-1] == ShipMoved(ship="cumberland", path=[(1, 1), (2, 1)], success=False)
    assert fold(state, events).ships["cumberland"].cell == (1, 1)


def test_io_5_1_1_strictly_greater_moves_the_ship() -> None:
    """IO-5.1.1: 6 − 1 (Opposed) = 5 beats 4; the ship follows its path to the destination."""
    state = put(game(), "cumberland", smoke="light", opposed=True)
    events = resolve_move(state, "cumberland", [(1, 1), (2, 1)], 1, FixedDice([6, 1, 4]))
    assert events[-1] == ShipMoved(ship="cumberland", path=[(1, 1), (2, 1)], success=True)
    after = fold(state, events).ships["cumberland"]
    assert after.cell == (2, 1)
    assert after.smoke == "none"  # IO-5.1.5: success removes the smoke marker
    assert after.opposed is False  # IO-5.1.3: the −1 applies to the next move only


def test_io_5_1_6_maneuver_2_uses_its_opposition_dice() -> None:
    """IO-5.1.1/5.1.6: Maneuver 2 is opposed by the table's maneuver_2 dice."""
    state = put(game(), "cumberland", cell=(2, 2))
    events = resolve_move(state, "cumberland", [(2, 2), (2, 3), (2, 4)], 2, FixedDice([6, 4, 5]))
    (roll,) = rolls(events)
    assert roll.opposed_by is not None
    assert roll.opposed_by.expression == DATA.tables.movement_opposition.maneuver_2
    assert fold(state, events).ships["cumberland"].cell == (2, 4)


def test_io_5_1_1_movement_dice_follow_hits() -> None:
    """IO-5.1.1: the Movement Chart row for the ship's hits (Cumberland: 5+ hits -> d6)."""
    state = put(game(), "cumberland", hits=5)
    events = resolve_move(state, "cumberland", [(1, 1), (2, 1)], 1, FixedDice([3, 2]))
    assert rolls(events)[0].roll.expression == "d6"


def test_io_5_1_1_exact_odds_match_brute_force() -> None:
    """IO-5.1.1: p_success equals brute force over the faces, with modifiers and the floor of 1."""
    state = put(game(), "cumberland", criticals=crits("captain", "smokestack"))
    mods = move_modifiers(state, "cumberland", [(1, 1), (2, 1)])
    total = sum(m.value for m in mods)
    assert total == -3
    events = resolve_move(state, "cumberland", [(1, 1), (2, 1)], 1, FixedDice([6, 4, 1]))
    (roll,) = rolls(events)
    assert [m.rule for m in roll.roll.modifiers] == ["IO-6.3.3", "IO-6.3.16"]
    assert roll.roll.floor == 1 and roll.roll.total == 3
    wins = count = 0
    for a, b, o in product(range(1, 7), range(1, 5), range(1, 7)):
        count += 1
        wins += max(1, max(a, b) + total) > o
    assert Fraction(roll.p_success or "0") == Fraction(wins, count)


def test_resolve_move_does_not_mutate_state() -> None:
    """Pure functions: resolving a move leaves the given state as it was."""
    state = with_markers(put(game(), "cumberland", opposed=True), (2, 1), "mine")
    before = state.model_dump()
    resolve_move(state, "cumberland", [(1, 1), (2, 1)], 1, FixedDice([6, 1, 1, 1, 1, 9, 8]))
    assert state.model_dump() == before


def test_io_5_1_4_maneuver_0_checks_hazards_without_a_roll() -> None:
    """IO-5.1.4: staying needs no movement roll but hazards of the box are still checked."""
    state = put(game(), "cumberland", cell=(1, 0))  # depth 3, draft 4
    events = resolve_move(state, "cumberland", [(1, 0)], 0, FixedDice([9, 5, 1]))
    assert [r.purpose for r in rolls(events)] == ["shallows"]
    assert isinstance(events[1], HazardChecked) and events[1].passed
    assert events[-1] == ShipMoved(ship="cumberland", path=[(1, 0)], success=True)
    clear = resolve_move(game(), "cumberland", [(1, 1)], 0, FixedDice([]))
    assert clear == [ShipMoved(ship="cumberland", path=[(1, 1)], success=True)]


def test_failed_move_does_not_check_the_destination() -> None:
    """IO-5.4: on a failed roll the ship never reaches the shallow destination (1,0)."""
    events = resolve_move(game(), "cumberland", [(1, 1), (1, 0)], 1, FixedDice([1, 1, 6]))
    assert [r.purpose for r in rolls(events)] == ["movement"]


# --------------------------------------------------------------------------- hazards


@pytest.mark.parametrize(
    ("cell", "depth", "hits", "dice"),
    [
        ((1, 0), 3, 0, "d10"),  # draft 4, depth 3: 1 over
        ((0, 0), 2, 0, "d8"),  # 2 over
        ((2, 2), 1, 0, "d6"),  # 3 over
        ((2, 2), 0, 0, "d6"),  # 4 over
        ((1, 0), 3, 10, "d8"),  # heavily damaged: draft 5 (IO-6.2.3F), 2 over
    ],
)
def test_io_5_4_1_shallows_dice_by_excess(
    cell: tuple[int, int], depth: int, hits: int, dice: str
) -> None:
    """IO-5.4.1: 1 over -> d10, 2 -> d8, 3+ -> d6, against d10d6; heavy damage adds 1 to draft."""
    state = with_box(put(game(), "cumberland", cell=cell, hits=hits), Box(cell=cell, depth=depth))
    events = check_hazards(state, "cumberland", cell, FixedDice([6, 1, 1]))
    roll, checked = events
    assert isinstance(roll, DiceRolled) and roll.rule == "IO-5.4.1"
    assert roll.roll.expression == dice
    assert roll.opposed_by is not None and roll.opposed_by.expression == "d10d6"
    assert checked == HazardChecked(
        ship="cumberland", cell=cell, hazard="shallows", passed=True, effect="none"
    )


def test_io_5_4_1_no_check_when_deep_enough() -> None:
    """IO-5.4: a hazard exists only when the depth is less than the draft (Monitor draft 3)."""
    state = put(game(), "monitor", cell=(1, 0))  # depth 3
    assert check_hazards(state, "monitor", (1, 0), FixedDice([])) == []


def test_io_5_4_1_grounding_in_the_destination_ends_the_move() -> None:
    """IO-5.4.1: the ship reaches (1,0), fails the shallows check and is Aground there."""
    state = game()
    events = resolve_move(state, "cumberland", [(1, 1), (1, 0)], 1, FixedDice([6, 1, 1, 1, 5, 1]))
    assert [r.purpose for r in rolls(events)] == ["movement", "shallows"]
    checked = events[-2]
    assert isinstance(checked, HazardChecked)
    assert (checked.passed, checked.effect, checked.ends_move) == (False, "aground", True)
    after = fold(state, events).ships["cumberland"]
    assert after.cell == (1, 0) and after.aground
    assert can_move(fold(state, events), "cumberland") == (False, "stuck")


def test_io_5_4_origin_hazard_ending_the_move_skips_the_roll() -> None:
    """IO-5.4.1: grounding in the origin box ends the move before any movement roll."""
    state = put(game(), "cumberland", cell=(1, 0))
    events = resolve_move(state, "cumberland", [(1, 0), (2, 0)], 1, FixedDice([1, 5, 1]))
    assert [r.purpose for r in rolls(events)] == ["shallows"]
    assert events[-1] == ShipMoved(ship="cumberland", path=[(1, 0), (2, 0)], success=False)
    after = fold(state, events).ships["cumberland"]
    assert after.cell == (1, 0) and after.aground


@pytest.mark.parametrize(
    ("markers", "hazard", "mods"),
    [
        (("hulk",), "hulk", []),
        (("hulk", "hulk"), "hulk", [(-1, "IO-5.4.2")]),
        (("hulk", "hulk", "hulk"), "hulk", [(-2, "IO-5.4.2")]),
        (("obstruction",), "obstruction", []),
        (("heavy_obstruction",), "heavy_obstruction", [(-2, "IO-5.4.2")]),
        (("heavy_obstruction", "hulk"), "heavy_obstruction", [(-2, "IO-5.4.2"), (-1, "IO-5.4.2")]),
    ],
)
def test_io_5_4_2_hulk_and_obstruction_modifiers(
    markers: tuple[str, ...], hazard: str, mods: list[tuple[int, str]]
) -> None:
    """IO-5.4.2: d10d4 vs d10, −2 for a heavy obstruction, −1 per extra hulk; one check per box."""
    state = with_markers(game(), (1, 1), *markers)
    events = check_hazards(state, "cumberland", (1, 1), FixedDice([9, 1, 2]))
    roll, checked = events
    assert isinstance(roll, DiceRolled) and roll.rule == "IO-5.4.2"
    assert roll.roll.expression == "d10d4"
    assert roll.opposed_by is not None and roll.opposed_by.expression == "d10"
    assert [(m.value, m.rule) for m in roll.roll.modifiers] == mods
    assert isinstance(checked, HazardChecked) and checked.hazard == hazard


def test_io_5_4_2_failure_fouls_the_ship() -> None:
    """IO-5.4.2: 5 − 2 (heavy) = 3 does not beat 3: the ship is Fouled and cannot move (IO-4.0)."""
    state = with_markers(game(), (1, 1), "heavy_obstruction")
    events = check_hazards(state, "cumberland", (1, 1), FixedDice([5, 1, 3]))
    checked = events[-1]
    assert isinstance(checked, HazardChecked)
    assert (checked.passed, checked.effect, checked.ends_move) == (False, "fouled", True)
    after = fold(state, events)
    assert after.ships["cumberland"].fouled_with == ("heavy_obstruction",)
    assert can_move(after, "cumberland") == (False, "stuck")


def test_io_5_4_3_mine_explodes_hits_shield_and_removal() -> None:
    """IO-5.4.3: each mine is checked (d10d6 vs d10); the first passes, the second explodes:
    d8 on the Mine column -> hits, WL shield −4, move ended, that mine removed."""
    state = with_markers(game(), (1, 1), "mine", "mine")
    events = resolve_move(state, "cumberland", [(1, 1)], 0, FixedDice([5, 1, 3, 1, 1, 9, 7]))
    assert [(r.purpose, r.rule) for r in rolls(events)] == [
        ("mine", "IO-5.4.3"),
        ("mine", "IO-5.4.3"),
        ("mine damage", "IO-5.4.3"),
    ]
    hits = DATA.tables.torpedo.mine[7]
    checks = [e for e in events if isinstance(e, HazardChecked)]
    assert [(c.passed, c.effect) for c in checks] == [(True, "none"), (False, "mine")]
    assert (checks[1].hits, checks[1].ends_move) == (hits, True)
    # each HazardChecked follows its own DiceRolled(s)
    assert [type(e).__name__ for e in events] == [
        "DiceRolled",
        "HazardChecked",
        "DiceRolled",
        "DiceRolled",
        "HazardChecked",
        "ShipMoved",
    ]
    damage = rolls(events)[2]
    assert damage.comparison == "table" and damage.value == str(hits)
    after = fold(state, events)
    ship = after.ships["cumberland"]
    assert ship.hits == hits
    assert ship.shield("WL") == DATA.tables.damage_chart.shield_floor == -4
    assert after.box((1, 1)).markers == ["mine"]


def test_io_5_4_3_mine_in_the_destination_scenario_marker_removed() -> None:
    """IO-5.4.3: Mobile Bay's mine at (1,1) (depth 4) goes off on Hartford (draft 4) entering it
    and is removed."""
    state = put(game("mobile_bay_gauntlet"), "hartford", cell=(2, 1))
    path = [(2, 1), (1, 1)]
    dice = FixedDice([10, 1, 1, 1, 1, 10, 1])  # move 10 vs 1; mine 1 vs 10; d8 = 1
    events = resolve_move(state, "hartford", path, 1, dice)
    assert [r.purpose for r in rolls(events)] == ["movement", "mine", "mine damage"]
    after = fold(state, events)
    assert after.ships["hartford"].cell == (1, 1)
    assert after.ships["hartford"].hits == DATA.tables.torpedo.mine[1]
    assert after.box((1, 1)).markers == []
    assert "mine" in state.box((1, 1)).markers  # the original state still has it


def test_io_5_4_shallows_ends_before_mines() -> None:
    """IO-5.4 [AMBIG reading]: once a check ends the move, the box's other hazards are skipped."""
    state = with_markers(put(game(), "cumberland", cell=(1, 0)), (1, 0), "mine")
    events = check_hazards(state, "cumberland", (1, 0), FixedDice([1, 5, 1]))
    assert [r.purpose for r in rolls(events)] == ["shallows"]


def test_ship_moved_event_topic_and_tow_follows() -> None:
    """IO-5.1.1 ShipMoved/1; IO-5.3: the towed ship moves with its tower."""
    assert ShipMoved.TOPIC == "iron_oak.ShipMoved/1" and ShipMoved.RULE == "IO-5.1.1"
    state = put(game(), "cumberland", towing="monitor")
    state = put(state, "monitor", cell=(1, 1), towed_by="cumberland")
    after = apply(state, ShipMoved(ship="cumberland", path=[(1, 1), (2, 1)], success=True))
    assert after.ships["monitor"].cell == (2, 1)
    assert ShipMoved.model_validate(ShipMoved(ship="x", path=[(1, 2)], success=True).payload())


# --------------------------------------------------------------------------- review fixes


def test_io_5_4_3_io_6_2_3j_mine_hits_sink_the_ship() -> None:
    """IO-5.4.3 + IO-6.2.3J: Cumberland (hit value 14) with 13 hits; the mine goes off (1 vs 9),
    d8 = 1: 2 hits -> 15 ≥ 14, it sinks; the mine is removed and no Hulk in depth 5."""
    state = with_markers(put(game(), "cumberland", hits=13), (1, 1), "mine")
    dice = FixedDice([1, 1, 9, 1])
    events = resolve_move(state, "cumberland", [(1, 1)], 0, dice)
    assert dice.remaining == 0
    after = fold(state, events)
    ship = after.ships["cumberland"]
    assert ship.status == "sunk" and not ship.afloat and ship.hits == 15
    assert after.box((1, 1)).markers == []


def test_io_5_4_3_io_6_2_3j_mine_sinking_in_shallow_water_leaves_a_hulk() -> None:
    """IO-6.2.3J (gunnery's sinking): a ship sunk by a mine in depth ≤ 2 leaves a Hulk; the tow
    it was in is released."""
    state = with_markers(put(game(), "cumberland", cell=(0, 0), hits=13), (0, 0), "mine")
    state = put(state, "cumberland", towing="monitor")
    state = put(state, "monitor", cell=(0, 0), towed_by="cumberland")
    # heavily damaged, draft 5 (IO-6.2.3F): shallows d6 = 6 vs d10d6 1,1 (passed); mine 1,1 vs
    # 9 (goes off); d8 = 1: 2 hits
    events = resolve_move(state, "cumberland", [(0, 0)], 0, FixedDice([6, 1, 1, 1, 1, 9, 1]))
    after = fold(state, events)
    assert after.ships["cumberland"].status == "sunk"
    assert after.box((0, 0)).markers == ["hulk"]
    assert after.ships["monitor"].towed_by is None


def test_io_5_4_3_io_6_2_3j_mine_in_the_destination_sinks_the_ship_there() -> None:
    """IO-5.4.3 + IO-6.2.3J: the ship reaches (2,1), the mine there sinks it; it sank in (2,1)."""
    state = with_markers(put(game(), "cumberland", hits=13), (2, 1), "mine")
    # movement d6 (13 hits: d4) 4 vs d6 1; mine 1,1 vs 9; d8 = 1: 2 hits
    events = resolve_move(state, "cumberland", [(1, 1), (2, 1)], 1, FixedDice([4, 1, 1, 1, 9, 1]))
    after = fold(state, events)
    ship = after.ships["cumberland"]
    assert ship.status == "sunk" and ship.cell == (2, 1)
    assert after.box((2, 1)).markers == []


def _towed_pair(**towed: Any) -> IronOakState:
    """Monitor (draft 3) towing Cumberland (draft 4) in (1,1)."""
    state = put(game(), "monitor", cell=(1, 1), towing="cumberland")
    return put(state, "cumberland", cell=(1, 1), towed_by="monitor", **towed)


@pytest.mark.parametrize("criticals", [{}, crits("boiler")])
def test_io_5_3_io_4_0_towed_ship_follows_its_tower(criticals: dict[str, Any]) -> None:
    """IO-5.3 + IO-4.0: a towed ship behind a powered, movable tower neither moves by itself nor
    drifts, even without power: it may take Maneuver 0 only (it stays with its tower)."""
    state = _towed_pair(criticals=criticals)
    assert can_move(state, "cumberland") == (False, "towed")
    check_path(state, "cumberland", [(1, 1)], 0)
    message = refused("IO-5.3", check_path, state, "cumberland", [(1, 1), (2, 1)], 1)
    assert "towed by monitor" in message
    assert can_move(state, "monitor") == (True, "move")


def test_io_5_3_towed_ship_of_an_immobile_or_unpowered_tower() -> None:
    """IO-5.3 "if either ship becomes immobile, neither moves": an anchored tower holds its towed
    ship, even an unpowered one (no drift); a tower without power does not tow, so an unpowered
    towed ship drifts (with its tower, IO-5.2); a tower without power towing an aground ship
    does not drift either."""
    state = _towed_pair(criticals=crits("boiler"))
    assert can_move(put(state, "monitor", anchored=True), "cumberland") == (False, "stuck")
    unpowered_tower = put(state, "monitor", criticals=crits("engine_stopped"))
    assert can_move(unpowered_tower, "cumberland") == (False, "drift")
    grounded = put(unpowered_tower, "cumberland", aground=True)
    assert can_move(grounded, "monitor") == (False, "stuck")


@pytest.mark.parametrize(("level", "good", "bad"), [(1, (1, 2), (2, 1)), (2, (2, 1), (1, 2))])
def test_io_6_3_17_steering_one_direction_only(
    level: int, good: tuple[int, int], bad: tuple[int, int]
) -> None:
    """IO-6.3.17: Steering level 1 (d6 1-3): only vertically, the column never changes; level 2
    (4-6): only horizontally, the row never changes; a diagonal step breaks both."""
    state = put(game(), "cumberland", criticals=crits(steering=level))
    check_path(state, "cumberland", [(1, 1), good], 1)
    message = refused("IO-6.3.17", check_path, state, "cumberland", [(1, 1), bad], 1)
    assert "step 1" in message
    refused("IO-6.3.17", check_path, state, "cumberland", [(1, 1), (2, 2)], 1)  # diagonal
    far = (1, 3) if level == 1 else (3, 1)
    check_path(state, "cumberland", [(1, 1), good, far], 2)
    bent = [(1, 1), good, (2, 3)] if level == 1 else [(1, 1), good, (3, 2)]
    assert "step 2" in refused("IO-6.3.17", check_path, state, "cumberland", bent, 2)
    check_path(state, "cumberland", [(1, 1)], 0)  # staying is always allowed


def test_io_6_3_17_steering_without_a_direction_restricts_nothing() -> None:
    """IO-6.3.17: a Steering marker without a rolled direction (level 0) bars no step."""
    state = put(game(), "cumberland", criticals=crits("steering"))
    check_path(state, "cumberland", [(1, 1), (2, 2)], 1)


def test_io_5_4_towed_ship_checks_its_own_hazards_in_order() -> None:
    """IO-5.4 "linked ships each check": mines in the origin (1,1) and the destination (2,1).
    Dice order: tower's origin, towed origin, movement roll, tower's destination, towed
    destination; the towed ship's mine goes off in the destination (d8 = 7: 6 hits)."""
    state = with_markers(with_markers(_towed_pair(), (1, 1), "mine"), (2, 1), "mine")
    ok = [9, 1, 1]  # d10d6 9 vs d10 1: passed
    dice = FixedDice([*ok, *ok, 8, 1, 1, *ok, 1, 1, 9, 7])
    events = resolve_move(state, "monitor", [(1, 1), (2, 1)], 1, dice)
    assert dice.remaining == 0
    assert [(r.purpose, r.subject or r.target) for r in rolls(events)] == [
        ("mine", "monitor"),
        ("mine", "cumberland"),
        ("movement", "monitor"),
        ("mine", "monitor"),
        ("mine", "cumberland"),
        ("mine damage", "cumberland"),
    ]
    after = fold(state, events)
    assert after.ships["monitor"].cell == after.ships["cumberland"].cell == (2, 1)
    assert after.ships["cumberland"].hits == DATA.tables.torpedo.mine[7]
    assert after.box((2, 1)).markers == [] and after.box((1, 1)).markers == ["mine"]


def test_io_5_4_towed_ship_grounds_in_the_destination_and_holds_the_tow() -> None:
    """IO-5.4 + IO-5.4.1: Monitor (draft 3) tows Cumberland (draft 4) into (1,0), depth 3: only
    the towed ship checks the shallows; it fails and is Aground there. The tow holds (IO-4.3.1
    tow bonus), so neither moves until it is refloated or released (IO-5.3)."""
    state = _towed_pair()
    # movement d8d6 8 − 2 (tow) vs d6 1; shallows d10 1 vs d10d6 5, 1
    events = resolve_move(state, "monitor", [(1, 1), (1, 0)], 1, FixedDice([8, 1, 1, 1, 5, 1]))
    assert [(r.purpose, r.subject) for r in rolls(events)] == [
        ("movement", "monitor"),
        ("shallows", "cumberland"),
    ]
    after = fold(state, events)
    towed = after.ships["cumberland"]
    assert towed.cell == (1, 0) and towed.aground and towed.towed_by == "monitor"
    assert after.ships["monitor"].cell == (1, 0)
    assert can_move(after, "monitor") == (False, "stuck")


@pytest.mark.parametrize(("face", "moved"), [(1, False), (9, True)])
def test_io_5_4_towed_ship_grounding_in_the_origin_holds_both(face: int, moved: bool) -> None:
    """IO-5.4 + IO-5.3: the towed ship checks the shallows of the origin (1,0) after its tower
    (Monitor, draft 3: no check); grounded there, neither ship moves and there is no movement
    roll; passed, the move goes on."""
    state = put(_towed_pair(), "monitor", cell=(1, 0))
    state = put(state, "cumberland", cell=(1, 0))
    dice = FixedDice([face, 5, 1] + ([] if not moved else [8, 1, 1]))
    events = resolve_move(state, "monitor", [(1, 0), (2, 0)], 1, dice)
    assert dice.remaining == 0
    purposes = [r.purpose for r in rolls(events)]
    assert purposes == (["shallows", "movement"] if moved else ["shallows"])
    assert events[-1] == ShipMoved(ship="monitor", path=[(1, 0), (2, 0)], success=moved)
    after = fold(state, events)
    end = (2, 0) if moved else (1, 0)
    assert after.ships["monitor"].cell == after.ships["cumberland"].cell == end
    assert after.ships["cumberland"].aground is not moved


def test_io_5_4_tower_sunk_in_the_destination_leaves_the_towed_ship_behind() -> None:
    """IO-5.4 + IO-6.2.3J: the tower (11 hits, hit value 12) sinks on the destination's mine;
    the tow is gone, so the towed ship stays in the origin and checks nothing there."""
    state = with_markers(_towed_pair(), (2, 1), "mine")
    state = put(state, "monitor", hits=11)  # Movement Chart d4
    dice = FixedDice([4, 1, 1, 1, 9, 1])  # d4 4 − 2 vs 1; mine 1,1 vs 9; d8 = 1: 2 hits
    events = resolve_move(state, "monitor", [(1, 1), (2, 1)], 1, dice)
    assert dice.remaining == 0
    after = fold(state, events)
    assert after.ships["monitor"].status == "sunk"
    assert after.ships["cumberland"].cell == (1, 1) and after.ships["cumberland"].towed_by is None


def test_io_5_4_maneuver_0_of_a_tower_checks_only_its_own_box() -> None:
    """IO-5.1.4: the towed ship checks its box when it carries out its own Maneuver 0."""
    state = put(_towed_pair(), "monitor", cell=(1, 0))
    state = put(state, "cumberland", cell=(1, 0))
    assert resolve_move(state, "monitor", [(1, 0)], 0, FixedDice([])) == [
        ShipMoved(ship="monitor", path=[(1, 0)], success=True)
    ]
    events = resolve_move(state, "cumberland", [(1, 0)], 0, FixedDice([9, 5, 1]))
    assert [r.subject for r in rolls(events)] == ["cumberland"]
