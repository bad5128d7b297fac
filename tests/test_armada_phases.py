"""Star Wars: Armada phases: the maneuver (SWA-2.3, SWA-MOV) with Navigate (SWA-R3), overlaps
and the play-area edge (SWA-OVL), the attack step's seam (SWA-2.2), squadrons in the Squadron
Phase and by Squadron command (SWA-3, SWA-3.1, SWA-3.3, SWA-3.4), and the Status Phase (SWA-4).

Positions are millimetres on the 3'×3' play area, headings degrees clockwise from +y.
"""

from __future__ import annotations

import math
from typing import Any

import pytest
from shapely.geometry import Point
from shapely.ops import nearest_points

from domain.errors import IllegalCommand, NotYourTurn
from domain.events import GameEnded
from domain.rulesets.armada import bot, rules, ship_phase, squadron_phase, status_phase
from domain.rulesets.armada.arcs import distance_between
from domain.rulesets.armada.attack_events import (
    DamageCardDealt,
    DamageDeckShuffled,
    DamageSuffered,
)
from domain.rulesets.armada.events import (
    ActivationEnded,
    DamageCardDiscarded,
    ObstacleOverlapped,
    PhaseBegan,
    ShipManeuvered,
    ShipsOverlapped,
    SquadronActivated,
    SquadronActivationEnded,
    SquadronMoved,
    SquadronsDisplaced,
    SquadronsPlaced,
    StatusResolved,
    TurnBegan,
    UnitDestroyed,
)
from domain.rulesets.armada.geometry import Pose
from domain.rulesets.armada.maneuver import courses, execute, final_pose, yaw_limits
from domain.rulesets.armada.maneuvering import TOUCH, Mover
from domain.rulesets.armada.ruleset import ArmadaRuleset
from domain.rulesets.armada.state import DamageCardState, DefenseTokenState, with_ship
from tests.armada_helpers import Game, armada, bundled, of, scenario, ship, squadron

__all__ = ["armada"]


def _ship_phase(game: Game, empire: dict[str, list[str]], rebels: dict[str, list[str]]) -> None:
    game.set_dials("empire", empire)
    game.set_dials("rebels", rebels)


def _dials(game: Game, command: str = "navigate") -> dict[str, dict[str, list[str]]]:
    """Every ship's round-1 dials all set to ``command``, per side."""
    plan: dict[str, dict[str, list[str]]] = {"empire": {}, "rebels": {}}
    for s in game.state.ships.values():
        plan[s.side][s.id] = [command] * game.state.card(s.id).command
    return plan


def _start(game: Game, command: str = "navigate") -> None:
    plan = _dials(game, command)
    _ship_phase(game, plan["empire"], plan["rebels"])


# --------------------------------------------------------------------------- maneuver


def _lone_corvette(
    x: float = 300.0, y: float = 400.0, heading: float = 0.0, speed: int = 2
) -> dict[str, Any]:
    return scenario(
        [
            ship("victory", "empire", "victory_ii", 700.0, 120.0, 0.0, 1),
            ship("cr90", "rebels", "cr90_a", x, y, heading, speed),
        ]
    )


def test_swa_2_3_the_maneuver_lands_where_the_tool_puts_it(armada: ArmadaRuleset) -> None:
    """SWA-2.3 / SWA-MOV: the ship ends exactly at the maneuver tool's final pose for its
    course and side; its dial and the activation end with it."""
    game = Game(_lone_corvette())
    _start(game)
    game.reveal("cr90")
    events = game.maneuver("cr90", clicks=[1, 2], side="right")
    moved = of(events, ShipManeuvered)[0]
    card = game.state.card("cr90")
    tool = game.state.data.geometry.maneuver_tool
    size = game.state.data.geometry.base_sizes[card.size]
    expected = execute(Pose(300.0, 400.0, 0.0), size, tool, [1, 2], "right").final
    assert (moved.x, moved.y, moved.heading) == (expected.x, expected.y, expected.heading)
    assert game.state.ships["cr90"].pose == expected
    assert of(events, ActivationEnded)[0].unspent == "navigate"  # kept, not spent: discarded


def test_swa_mov_speed_0_still_executes_a_maneuver(armada: ArmadaRuleset) -> None:
    """SWA-MOV: at speed 0 the ship stays put but has executed its maneuver."""
    game = Game(_lone_corvette(speed=1))
    _start(game)
    game.reveal("cr90")
    events = game.maneuver("cr90", speed=0, clicks=[], navigate_dial=True)
    moved = of(events, ShipManeuvered)[0]
    assert (moved.speed, moved.x, moved.y) == (0, 300.0, 400.0)
    assert of(events, ActivationEnded)


def test_swa_2_3a_a_click_beyond_the_speed_chart_is_refused(armada: ArmadaRuleset) -> None:
    """SWA-2.3a: each joint clicks at most its yaw on the speed chart (CR90 speed 2: I, II); a
    Navigate dial raises one joint by one ("–"→"I"→"II"), and "II" cannot be raised."""
    game = Game(_lone_corvette())
    _start(game)
    game.reveal("cr90")
    order = {"type": "maneuver", "ship": "cr90", "speed": 2, "clicks": [2, 0]}
    error = game.refuse("rebels", order, IllegalCommand, "SWA-2.3a")
    assert "joint 1" in str(error)
    game.refuse("rebels", {**order, "clicks": [0]}, IllegalCommand, "SWA-2.3a")
    game.refuse("rebels", {**order, "clicks": [0, 0], "raise_joint": 1}, IllegalCommand, "SWA-R3")
    raised = {**order, "navigate_dial": True}
    game.refuse("rebels", {**raised, "raise_joint": 2}, IllegalCommand, "SWA-R3")
    events = game.do("rebels", {**raised, "raise_joint": 1})
    assert of(events, ShipManeuvered)[0].clicks == [2, 0]


def test_swa_2_3b_the_tool_goes_on_the_other_side_when_the_ship_would_overlap_it(
    armada: ArmadaRuleset,
) -> None:
    """SWA-2.3b: a final position overlapping the tool on the chosen side (and not on the
    other) is refused; the same course with the tool on the other side is taken."""
    game = Game(_lone_corvette(speed=1))
    _start(game)
    game.reveal("cr90")
    mover = Mover(game.state, "cr90")
    found = None
    for course in courses(yaw_limits(game.state.card("cr90"), 1)):
        for side, other in (("right", "left"), ("left", "right")):
            if mover.overlaps_tool(course, side) and not mover.overlaps_tool(course, other):  # type: ignore[arg-type]
                found = (list(course), side, other)
                break
        if found:
            break
    assert found is not None, "a hard turn toward the tool overlaps it"
    course, side, other = found
    order = {"type": "maneuver", "ship": "cr90", "speed": 1, "clicks": course, "side": side}
    error = game.refuse("rebels", order, IllegalCommand, "SWA-2.3b")
    assert other in str(error)
    assert of(game.do("rebels", {**order, "side": other}), ShipManeuvered)


def test_the_bot_scores_courses_with_the_tools_own_final_pose(armada: ArmadaRuleset) -> None:
    """SWA-MOV: the bot's quick final pose and ``final_pose`` (the step-down's) equal the
    maneuver tool's at every speed and yaw of the CR90's chart, on both sides."""
    game = Game(_lone_corvette(heading=37.0))
    state = game.state
    card = state.card("cr90")
    size = state.data.geometry.base_sizes[card.size]
    tool = state.data.geometry.maneuver_tool
    start = state.ships["cr90"].pose
    for speed in range(1, card.max_speed + 1):
        for course in courses(yaw_limits(card, speed)):
            for side in ("left", "right"):
                fast = bot.quick_final(start, size, tool, course, side)  # type: ignore[arg-type]
                assert fast == execute(start, size, tool, course, side).final  # type: ignore[arg-type]
                # the step-down's final pose, without the tool's shapes
                assert final_pose(start, size, tool, course, side) == fast  # type: ignore[arg-type]


# --------------------------------------------------------------------------- overlapping


def test_swa_ovl_step_down_and_a_damage_card_to_both_ships(armada: ArmadaRuleset) -> None:
    """SWA-OVL: a final position overlapping another ship retries one speed lower, down to 0;
    then the moving ship and the closest ship it overlapped are each dealt a face-down damage
    card from the damage deck, shuffled from the game's dice at that first card (SWA-DMG)."""
    data = scenario(
        [
            ship("victory", "empire", "victory_ii", 457.2, 300.0, 0.0, 2),
            ship("cr90", "rebels", "cr90_a", 457.2, 420.0, 180.0, 1),
        ],
        first="empire",
    )
    game = Game(data)
    _start(game)
    game.reveal("victory")
    events = game.maneuver("victory")
    moved = of(events, ShipManeuvered)[0]
    assert moved.speed < 2 and moved.overlapped_at == list(range(2, moved.speed, -1))
    assert of(events, ShipsOverlapped)[0].other == "cr90"
    assert of(events, DamageDeckShuffled)[0].reason == "setup"
    dealt = of(events, DamageCardDealt)
    assert [(d.ship, d.face_up) for d in dealt] == [("victory", False), ("cr90", False)]
    assert [(e.unit, e.cards, e.rule) for e in of(events, DamageSuffered)] == [
        ("victory", 1, "SWA-OVL"),
        ("cr90", 1, "SWA-OVL"),
    ]
    state = game.state
    assert [len(state.ships[s].damage) for s in ("victory", "cr90")] == [1, 1]
    assert len(state.deck.draw) == 50
    assert state.ships["victory"].speed == 2  # the dial is unchanged


def _tie_ahead() -> dict[str, Any]:
    return scenario(
        [
            ship("victory", "empire", "victory_ii", 457.2, 150.0, 0.0, 1),
            ship("cr90", "rebels", "cr90_a", 300.0, 780.0, 180.0, 1),
        ],
        [squadron("tie", "empire", "tie_fighter", 457.2, 245.0)],
        first="empire",
    )


def test_swa_ovl_overlapped_squadrons_are_placed_by_the_opponent(armada: ArmadaRuleset) -> None:
    """SWA-OVL: squadrons under a ship's final position are placed touching it by the player
    not moving the ship (whoever owns them); the mover cannot place them, a squadron not
    touching the ship is refused; then the activation ends."""
    game = Game(_tie_ahead())
    _start(game)
    game.reveal("victory")
    events = game.maneuver("victory")
    displaced = of(events, SquadronsDisplaced)[0]
    assert displaced.squadrons == ["tie"] and displaced.placer == "rebels"
    assert not of(events, ActivationEnded)
    assert armada.to_act(game.state) == ["rebels"]
    place = armada.bot_command(game.state, "rebels")
    assert place is not None
    order = place.model_dump(mode="json")
    game.refuse("empire", order, NotYourTurn, "SWA-OVL")
    game.refuse(
        "rebels",
        {"type": "place_squadrons", "positions": {"tie": [100.0, 500.0]}},
        IllegalCommand,
        "SWA-OVL",
    )
    game.refuse("rebels", {"type": "place_squadrons", "positions": {}}, IllegalCommand, "SWA-OVL")
    events = game.do("rebels", order)
    assert of(events, SquadronsPlaced) and of(events, ActivationEnded)
    state = game.state
    gap = distance_between(state.placed("victory").base, state.disc("tie"))
    assert 0 <= gap <= TOUCH


def test_swa_ovl_a_ship_leaving_the_play_area_is_destroyed_and_swa_5_ends_the_game(
    armada: ArmadaRuleset,
) -> None:
    """SWA-OVL: a ship with part of its base outside the play area is destroyed; SWA-5: a
    side whose last ship is destroyed loses at once."""
    game = Game(_lone_corvette(x=457.2, y=840.0, heading=0.0, speed=2))
    _start(game)
    game.reveal("cr90")
    events = game.maneuver("cr90")
    assert of(events, UnitDestroyed)[0].unit == "cr90"
    ended = of(events, GameEnded)[0]
    assert ended.winner == "empire" and ended.rule == "SWA-5"
    assert ended.vp == {"empire": 44, "rebels": 0}
    assert game.state.phase == "over"


def test_swa_ovl_obstacles_under_the_final_position_as_0_1_read_them(
    armada: ArmadaRuleset,
) -> None:
    """SWA-OVL as version 0.1 read it (its records re-run so): a station makes the ship discard
    a damage card (a face-up one first, to the discard pile) with no order of its owner; an
    asteroid field deals a face-up damage card from the deck."""
    obstacles = [
        {"id": "station", "shape": "station", "x": 300.0, "y": 560.0},
        {"id": "rock", "shape": "asteroid_1", "x": 600.0, "y": 560.0},
    ]
    data = scenario(
        [
            ship("victory", "empire", "victory_ii", 457.2, 120.0, 0.0, 1),
            ship("cr90", "rebels", "cr90_a", 300.0, 700.0, 180.0, 2),
            ship("nebulon", "rebels", "nebulon_b_escort", 600.0, 700.0, 180.0, 2),
        ],
        obstacles=obstacles,
    )
    game = Game(data, version="0.1")
    _start(game)
    state = with_ship(
        game.state,
        "cr90",
        damage=(
            DamageCardState(card="structural_damage"),
            DamageCardState(card="blinded_gunners", face_up=True),
        ),
    )
    reveal = armada.parse_command(game.reveal_order("cr90"))
    state = rules.fold_all(state, rules.decide(state, "rebels", reveal, None))  # type: ignore[arg-type]
    move = armada.parse_command({"type": "maneuver", "ship": "cr90", "speed": 2, "clicks": [0, 0]})
    events = rules.decide(state, "rebels", move, None)  # type: ignore[arg-type]
    assert of(events, ObstacleOverlapped)[0].kind == "station"
    discarded = of(events, DamageCardDiscarded)[0]
    assert (discarded.card, discarded.rule) == ("blinded_gunners", "SWA-OVL")
    assert rules.fold_all(state, events).deck.discard == ("blinded_gunners",)
    game.reveal("cr90")
    game.maneuver("cr90")
    game.reveal("victory")
    game.maneuver("victory")
    game.reveal("nebulon")
    events = game.maneuver("nebulon", clicks=[0, 0])
    assert of(events, ObstacleOverlapped)[0].obstacle == "rock"
    dealt = of(events, DamageCardDealt)
    assert dealt and dealt[0].face_up and of(events, DamageSuffered)[0].rule == "SWA-OVL"
    assert game.state.ships["nebulon"].damage[0].card == dealt[0].card


# --------------------------------------------------------------------------- attack seam


def test_swa_2_2_attack_step_seam(armada: ArmadaRuleset) -> None:
    """SWA-2.2: the attack pipeline may attack from the activating ship only, at most twice and
    from different hull zones, and not in the rounds the scenario skips (round 1 of the
    learning scenario)."""
    learning = Game(bundled("core_learning"))
    _start(learning)
    learning.reveal("cr90")
    with pytest.raises(IllegalCommand) as info:
        ship_phase.check_ship_attack(learning.state, "rebels", "cr90", "front")
    assert info.value.rule == "SWA-2.2" and "round 1" in str(info.value)
    game = Game(_lone_corvette())
    _start(game)
    game.reveal("cr90")
    state = game.state
    ship_phase.check_ship_attack(state, "rebels", "cr90", "front")
    with pytest.raises(IllegalCommand):
        ship_phase.check_ship_attack(state, "rebels", "victory", "front")
    state = ship_phase.mark_ship_attack(state, "front")
    assert state.activation is not None and state.activation.step == "attack"
    with pytest.raises(IllegalCommand, match="another zone"):
        ship_phase.check_ship_attack(state, "rebels", "cr90", "front")
    state = ship_phase.mark_ship_attack(state, "left")
    with pytest.raises(IllegalCommand, match="two attacks"):
        ship_phase.check_ship_attack(state, "rebels", "cr90", "right")
    repair = armada.parse_command({"type": "repair", "ship": "cr90", "dial": False, "token": True})
    with pytest.raises(IllegalCommand, match="before the attack step"):
        rules.decide(state, "rebels", repair, None)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- squadrons


def _squadrons() -> dict[str, Any]:
    return scenario(
        [
            ship("victory", "empire", "victory_ii", 457.2, 150.0, 0.0, 1),
            ship("cr90", "rebels", "cr90_a", 200.0, 780.0, 180.0, 1),
        ],
        [
            squadron("tie_1", "empire", "tie_fighter", 350.0, 150.0),
            squadron("tie_2", "empire", "tie_fighter", 560.0, 150.0),
            squadron("tie_3", "empire", "tie_fighter", 457.2, 310.0),
            squadron("tie_far", "empire", "tie_fighter", 850.0, 600.0),
            squadron("x_1", "rebels", "x_wing", 400.0, 500.0),
            squadron("x_2", "rebels", "x_wing", 500.0, 500.0),
        ],
    )


def _to_squadron_phase(game: Game) -> None:
    _start(game)
    game.reveal("cr90")
    game.maneuver("cr90")
    game.reveal("victory")
    game.maneuver("victory", clicks=[1])
    assert game.state.phase == "squadron"


def test_swa_3_two_activations_a_turn_starting_with_the_first_player(armada: ArmadaRuleset) -> None:
    """SWA-3: the first player activates two squadrons (the second one must follow), then the
    other player two; a side with none left passes and the other goes on. SWA-3.4: each
    activation toggles the slider, and a squadron that has activated cannot again."""
    game = Game(_squadrons())
    _to_squadron_phase(game)
    assert game.state.active == "rebels"
    events = game.do(
        "rebels", {"type": "activate_squadron", "squadron": "x_1", "move_to": [400.0, 450.0]}
    )
    assert of(events, SquadronActivated)[0].slider == "red"
    assert of(events, SquadronMoved) and of(events, SquadronActivationEnded)
    assert game.state.active == "rebels"  # must activate a second one
    game.refuse(
        "rebels", {"type": "activate_squadron", "squadron": "x_1"}, IllegalCommand, "SWA-3.4"
    )
    game.refuse("empire", {"type": "activate_squadron", "squadron": "tie_1"}, NotYourTurn, "SWA-3")
    events = game.do("rebels", {"type": "activate_squadron", "squadron": "x_2"})
    assert of(events, TurnBegan)[0].side == "empire"
    game.do("empire", {"type": "activate_squadron", "squadron": "tie_1"})
    events = game.do("empire", {"type": "activate_squadron", "squadron": "tie_2"})
    assert of(events, TurnBegan)[0].side == "empire"  # the rebels have none left
    game.do("empire", {"type": "activate_squadron", "squadron": "tie_3"})
    events = game.do("empire", {"type": "activate_squadron", "squadron": "tie_far"})
    status = of(events, StatusResolved)[0]
    assert status.initiative == "red"
    assert [e.phase for e in of(events, PhaseBegan)] == ["status", "command"]
    assert all(game.state.squadron_ready(s) for s in game.state.squadrons)  # SWA-3.4 / SWA-4


def test_swa_3_1_squadron_moves_up_to_its_speed_and_not_onto_anything(
    armada: ArmadaRuleset,
) -> None:
    """SWA-3.1: a squadron moves at most its speed's distance band (X-wing speed 3: 185.5 mm)
    and may not end on a ship or another squadron; a move is the activation in the Squadron
    Phase."""
    game = Game(_squadrons())
    _to_squadron_phase(game)
    activate = {"type": "activate_squadron", "squadron": "x_1"}
    game.refuse("rebels", {**activate, "move_to": [400.0, 300.0]}, IllegalCommand, "SWA-3.1")
    game.refuse("rebels", {**activate, "move_to": [500.0, 500.0]}, IllegalCommand, "SWA-3.1")
    base = game.state.placed("victory").base
    near = nearest_points(base, Point(457.2, 310.0))[0]  # the base's point nearest tie_3
    with pytest.raises(IllegalCommand, match="cannot end on victory") as info:
        squadron_phase.check_move(game.state, "tie_3", (near.x, near.y - 5.0))
    assert info.value.rule == "SWA-3.1"
    events = game.do("rebels", {**activate, "move_to": [400.0, 500.0 - 185.5]})
    assert math.isclose(of(events, SquadronMoved)[0].distance, 185.5)


def test_swa_3_3_an_engaged_squadron_cannot_move(armada: ArmadaRuleset) -> None:
    """SWA-3.3: a squadron at distance 1 of an enemy squadron is engaged and cannot move."""
    data = _squadrons()
    data["squadrons"][4] = squadron("x_1", "rebels", "x_wing", 457.2, 380.0)  # 36 mm from tie_3
    game = Game(data)
    _to_squadron_phase(game)
    assert squadron_phase.engaged_with(game.state, "x_1") == ["tie_3"]
    order = {"type": "activate_squadron", "squadron": "x_1", "move_to": [457.2, 400.0]}
    error = game.refuse("rebels", order, IllegalCommand, "SWA-3.3")
    assert "engaged with TIE Fighter Squadron 3" in str(error)  # by name (issue 21)
    view = armada.read_model(game.state)
    assert next(u for u in view.units if u.id == "x_1").details["engaged_with"] == "tie_3"


def test_swa_r3_squadron_command_activates_squadrons_in_range(armada: ArmadaRuleset) -> None:
    """SWA-R3 Squadron: the dial activates up to the squadron value (Victory: 3) of friendly
    squadrons at close–medium range, one at a time, each moving and attacking in either order;
    not one beyond medium range; they have then activated this round (SWA-3.4). Without the
    command, squadrons do not activate in the Ship Phase."""
    game = Game(_squadrons())
    plan = _dials(game)
    plan["empire"]["victory"] = ["squadron", "navigate", "navigate"]
    _ship_phase(game, plan["empire"], plan["rebels"])
    game.reveal("cr90")
    game.refuse(
        "rebels", {"type": "activate_squadron", "squadron": "x_1"}, IllegalCommand, "SWA-R3"
    )
    game.maneuver("cr90")
    game.reveal("victory")
    game.refuse(
        "empire", {"type": "activate_squadron", "squadron": "tie_1"}, IllegalCommand, "SWA-R3"
    )
    game.do("empire", {"type": "squadron_command", "ship": "victory"})
    assert game.state.activation is not None and game.state.activation.squadrons == 3
    attacked = ship_phase.mark_ship_attack(game.state, "front")
    late = armada.parse_command({"type": "activate_squadron", "squadron": "tie_1"})
    with pytest.raises(IllegalCommand, match="before the ship's attack step"):
        rules.decide(attacked, "empire", late, None)  # type: ignore[arg-type]
    game.refuse(
        "empire", {"type": "activate_squadron", "squadron": "tie_far"}, IllegalCommand, "SWA-R3"
    )
    events = game.do(
        "empire", {"type": "activate_squadron", "squadron": "tie_1", "move_to": [350.0, 300.0]}
    )
    assert of(events, SquadronActivated)[0].by_ship == "victory"
    assert of(events, SquadronActivationEnded)  # moved, and no attack to make yet
    game.do("empire", {"type": "activate_squadron", "squadron": "tie_2"})
    assert game.state.squadron_activation is not None  # it may still move
    game.refuse(
        "empire",
        {"type": "maneuver", "ship": "victory", "speed": 1, "clicks": [0]},
        IllegalCommand,
        "SWA-R3",
    )
    events = game.do(
        "empire", {"type": "move_squadron", "squadron": "tie_2", "x": 560.0, "y": 300.0}
    )
    assert of(events, SquadronActivationEnded)
    game.do("empire", {"type": "activate_squadron", "squadron": "tie_3"})
    game.do("empire", {"type": "end_squadron_activation", "squadron": "tie_3"})
    game.refuse(
        "empire", {"type": "activate_squadron", "squadron": "tie_far"}, IllegalCommand, "SWA-R3"
    )
    game.maneuver("victory", clicks=[1])
    assert game.state.phase == "squadron"
    game.do("rebels", {"type": "activate_squadron", "squadron": "x_1"})
    game.do("rebels", {"type": "activate_squadron", "squadron": "x_2"})
    assert game.state.active == "empire"
    game.refuse(
        "empire", {"type": "activate_squadron", "squadron": "tie_1"}, IllegalCommand, "SWA-3.4"
    )
    events = game.do("empire", {"type": "activate_squadron", "squadron": "tie_far"})
    assert [e.phase for e in of(events, PhaseBegan)] == ["status", "command"]


# --------------------------------------------------------------------------- status


def test_swa_4_status_readies_tokens_and_flips_the_initiative_token(armada: ArmadaRuleset) -> None:
    """SWA-4: exhausted defence tokens are readied (discarded ones stay discarded), the
    initiative token flips, and ships may activate again next round."""
    game = Game(_squadrons())
    state = with_ship(
        game.state,
        "victory",
        activated=True,
        resolved=("navigate",),
        defense=(
            DefenseTokenState(kind="brace", state="exhausted"),
            DefenseTokenState(kind="redirect", state="discarded"),
            DefenseTokenState(kind="redirect"),
        ),
    )
    status = status_phase.resolve(state)
    assert status.readied == {"victory": 1} and status.initiative == "red"
    after = status_phase.apply(state, status)
    assert [t.state for t in after.ships["victory"].defense] == ["ready", "discarded", "ready"]
    assert after.initiative == "red"
    assert not after.ships["victory"].activated and after.ships["victory"].resolved == ()
    # every squadron activates every round (SWA-3), so all sliders show red again by now
    assert after.squadron_ready("tie_1") is (after.squadrons["tie_1"].slider == "red")
