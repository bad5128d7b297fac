"""Star Wars: Armada through the engine: scenarios, setup (SWA-SETUP), the Command Phase's sealed
dials (SWA-R2), revealing them (SWA-2.1), commands and tokens (SWA-R3), scoring and winning
(SWA-5), hidden information, the read model and the conformance suite.

The ruleset is registered in process by the ``armada`` fixture (it is not an entry point yet).
Attacks are not integrated yet (another slice), so bot games go the six rounds unless a ship
leaves the play area.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from domain.conformance import check_refusals, check_ruleset
from domain.errors import (
    GameOver,
    IllegalCommand,
    InvalidCommand,
    NotYourTurn,
    ScenarioError,
    WrongPhase,
    WrongSide,
)
from domain.events import GameEnded
from domain.frozen import changed
from domain.rulesets.armada import rules, scoring
from domain.rulesets.armada.events import (
    CommandResolved,
    DamageCardDiscarded,
    DialRevealed,
    DialsAssigned,
    PhaseBegan,
    ShieldsRepaired,
    ShipDeployed,
    TokenGained,
    TurnBegan,
)
from domain.rulesets.armada.options import ArmadaOptions
from domain.rulesets.armada.ruleset import SEALED, ArmadaRuleset
from domain.rulesets.armada.state import DamageCardState, with_ship
from tests.armada_helpers import (
    Game,
    armada,
    bundled,
    duel,
    of,
    ship,
)

__all__ = ["armada"]
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "scenarios" / "armada"


def _in_ship_phase(game: Game, empire: dict[str, list[str]], rebels: dict[str, list[str]]) -> None:
    game.set_dials("empire", empire)
    game.set_dials("rebels", rebels)
    assert game.state.phase == "ship"


DUEL_DIALS_EMPIRE = {"victory": ["navigate", "repair", "squadron"]}
DUEL_DIALS_REBELS = {"cr90": ["navigate"], "nebulon": ["repair", "navigate"]}


# --------------------------------------------------------------------------- scenarios


def test_bundled_scenarios_are_fixtures_too(armada: ArmadaRuleset) -> None:
    """The scenario files shipped with the ruleset are the conformance fixtures."""
    for path in sorted(FIXTURES.glob("*.json")):
        assert json.loads(path.read_text("utf-8")) == bundled(path.stem)


def test_swa_data_scenario_is_resolved_with_the_data_embedded(armada: ArmadaRuleset) -> None:
    """SWA-DATA: the resolved scenario embeds every data table, so a game never depends on
    files that change later; the learning scenario is labelled provisional ([GAP])."""
    resolved = armada.resolve_scenario(bundled("core_learning"))
    assert set(resolved) == {"id", "title", "scenario", "data"}
    assert resolved["scenario"]["provisional"] is True
    assert {s["id"] for s in resolved["data"]["ships"]["ships"]} >= {"victory_ii", "cr90_a"}
    assert armada.resolve_scenario(resolved) == resolved
    assert armada.sides(resolved) == [("empire", "Galactic Empire"), ("rebels", "Rebel Alliance")]


@pytest.mark.parametrize(
    "change, message",
    [
        (
            {
                "ships": [
                    ship("v", "empire", "no_such", 400, 150),
                    ship("c", "rebels", "cr90_a", 300, 780),
                ]
            },
            "unknown ship card",
        ),
        (
            {
                "ships": [
                    ship("v", "empire", "cr90_a", 400, 150),
                    ship("c", "rebels", "cr90_a", 300, 780),
                ]
            },
            "a rebel ship in the empire fleet",
        ),
        (
            {
                "ships": [
                    ship("v", "empire", "victory_ii", 400, 150),
                    ship("c", "rebels", "cr90_a", 420, 160),
                ]
            },
            "overlaps",
        ),
        (
            {
                "ships": [
                    ship("v", "empire", "victory_ii", 400, 150, speed=3),
                    ship("c", "rebels", "cr90_a", 300, 780),
                ]
            },
            "speed chart",
        ),
        (
            {
                "ships": [
                    ship("v", "empire", "victory_ii", 10, 150),
                    ship("c", "rebels", "cr90_a", 300, 780),
                ]
            },
            "outside the play area",
        ),
        (
            {
                "ships": [
                    {"id": "v", "side": "empire", "card": "victory_ii"},
                    ship("c", "rebels", "cr90_a", 300, 780),
                ]
            },
            "deployment",
        ),
        ({"ships": [ship("v", "empire", "victory_ii", 400, 150)]}, "ships"),
        ({"first_player": "droids"}, "first_player"),
    ],
)
def test_swa_setup_bad_scenarios_are_refused_naming_the_problem(
    armada: ArmadaRuleset, change: dict[str, Any], message: str
) -> None:
    """SWA-SETUP / SWA-DATA: a scenario that does not fit the data is refused with its field."""
    data = {**duel(), **change}
    with pytest.raises(ScenarioError, match=message):
        armada.resolve_scenario(data)


def test_swa_5_points_option_defaults_to_printed(armada: ArmadaRuleset) -> None:
    """SWA-5 / SWA-DATA: the ``points`` option picks printed (default) or updated costs."""
    defaults = {"points": "printed", "evade": "rrg_1_6", "pass_tokens": "off"}
    assert armada.resolve_options({}) == defaults
    assert armada.resolve_options({"points": "updated"}) == {**defaults, "points": "updated"}
    with pytest.raises(ScenarioError, match="points"):
        armada.resolve_options({"points": "secret"})
    with pytest.raises(ScenarioError):
        armada.resolve_options({"evade": "1.6"})


# --------------------------------------------------------------------------- setup


def test_swa_setup_deployment_alternates_one_ship_or_two_squadrons(armada: ArmadaRuleset) -> None:
    """SWA-SETUP: starting with the first player, sides alternate placing one ship or two
    squadrons; round 1's Command Phase begins when everything is down."""
    game = Game(bundled("core_deployment"))
    assert game.state.phase == "setup" and game.state.active == "empire"
    game.refuse(
        "rebels",
        {"type": "deploy_ship", "ship": "cr90", "x": 300, "y": 820, "heading": 180, "speed": 2},
        NotYourTurn,
        "SWA-SETUP",
    )
    game.refuse(
        "empire",
        {"type": "deploy_squadrons", "squadrons": {"tie_1": [400, 120], "tie_2": [460, 120]}},
        IllegalCommand,
        "SWA-SETUP",
    )
    events = game.do(
        "empire",
        {"type": "deploy_ship", "ship": "victory", "x": 457.2, "y": 90, "heading": 0, "speed": 2},
    )
    assert of(events, ShipDeployed)[0].ship == "victory"
    assert of(events, TurnBegan)[0].side == "rebels"
    game.do(
        "rebels",
        {"type": "deploy_ship", "ship": "cr90", "x": 300, "y": 820, "heading": 180, "speed": 2},
    )
    game.do(
        "empire",
        {"type": "deploy_squadrons", "squadrons": {"tie_1": [380, 90], "tie_2": [380, 140]}},
    )
    assert game.state.active == "rebels"
    game.play_until(lambda s: s.phase != "setup")
    assert game.state.phase == "command" and game.state.round == 1
    assert all(s.deployed for s in game.state.ships.values())
    assert all(s.deployed for s in game.state.squadrons.values())


def test_swa_setup_placement_rules(armada: ArmadaRuleset) -> None:
    """SWA-SETUP: ships entirely in the deployment zone (distance 3 of the side's edge) at a
    speed on their chart; squadrons two at a time within distance 1–2 of a friendly ship; no
    overlaps."""
    game = Game(bundled("core_deployment"))
    deploy = {"type": "deploy_ship", "ship": "victory", "heading": 0, "speed": 2}
    game.refuse("empire", {**deploy, "x": 457.2, "y": 400}, IllegalCommand, "SWA-SETUP")
    game.refuse(
        "empire", {**deploy, "x": 457.2, "y": 150}, IllegalCommand, "SWA-SETUP"
    )  # sticks out
    game.refuse("empire", {**deploy, "x": 457.2, "y": 90, "speed": 3}, IllegalCommand, "SWA-SETUP")
    game.refuse("empire", {**deploy, "ship": "cr90", "x": 457.2, "y": 90}, WrongSide, "SWA-SETUP")
    game.do("empire", {**deploy, "x": 457.2, "y": 90})
    game.do(
        "rebels",
        {"type": "deploy_ship", "ship": "cr90", "x": 300, "y": 820, "heading": 180, "speed": 2},
    )
    far = {"type": "deploy_squadrons", "squadrons": {"tie_1": [100, 100], "tie_2": [457.2, 170]}}
    game.refuse("empire", far, IllegalCommand, "SWA-SETUP")
    on_ship = {"type": "deploy_squadrons", "squadrons": {"tie_1": [457.2, 90], "tie_2": [380, 90]}}
    game.refuse("empire", on_ship, IllegalCommand, "SWA-SETUP")
    one = {"type": "deploy_squadrons", "squadrons": {"tie_1": [380, 90]}}
    game.refuse("empire", one, IllegalCommand, "SWA-SETUP")


# --------------------------------------------------------------------------- command phase


def test_swa_r2_dials_up_to_the_command_value_in_round_1(armada: ArmadaRuleset) -> None:
    """SWA-SEED / SWA-R1 / SWA-R2: the game opens with round 1's Command Phase; each ship gets dials
    until it holds its command value (Victory 3, CR90 1, Nebulon-B 2); both sides set them, in
    either order, and the Ship Phase begins with the first player's turn."""
    game = Game(duel())
    assert (game.state.phase, game.state.round) == ("command", 1)
    assert armada.to_act(game.state) == ["empire", "rebels"]
    game.refuse(
        "empire", game.seal_dials({"victory": ["navigate", "repair"]}), IllegalCommand, "SWA-R2"
    )
    game.refuse("empire", game.seal_dials({"cr90": ["navigate"]}), WrongSide, "SWA-R2")
    bad = {"type": "set_dials", "dials": {"victory": ["navigate", "x", "y"]}}
    game.refuse("empire", bad, InvalidCommand, "SWA-R2")
    events = game.set_dials("rebels", DUEL_DIALS_REBELS)
    assert of(events, DialsAssigned)[0].first_slot == {"cr90": 0, "nebulon": 0}
    assert armada.to_act(game.state) == ["empire"]
    game.refuse("rebels", game.seal_dials({"cr90": ["navigate"]}), NotYourTurn, "SWA-R2")
    events = game.set_dials("empire", DUEL_DIALS_EMPIRE)
    assert [e.phase for e in of(events, PhaseBegan)] == ["ship"]
    assert of(events, TurnBegan)[0].side == "rebels"
    assert [d.slot for d in game.state.ships["victory"].dials] == [0, 1, 2]


def test_swa_r2_later_rounds_add_one_dial_at_the_bottom(armada: ArmadaRuleset) -> None:
    """SWA-R2: after a round each ship lacks the dial it revealed; the new one goes under the
    stack, so the dials set in round 1 come up first, in order."""
    game = Game(duel())
    _in_ship_phase(game, DUEL_DIALS_EMPIRE, DUEL_DIALS_REBELS)
    game.play_until(lambda s: s.phase == "command")
    assert game.state.round == 2
    victory = game.state.ships["victory"]
    assert [d.slot for d in victory.dials] == [1, 2]
    game.refuse(
        "empire", game.seal_dials({"victory": ["navigate", "navigate"]}), IllegalCommand, "SWA-R2"
    )
    game.set_dials("empire", {"victory": ["concentrate_fire"]})
    assert [d.slot for d in game.state.ships["victory"].dials] == [1, 2, 3]
    assert [d.round for d in game.state.ships["victory"].dials] == [1, 1, 2]


def test_swa_r2_redact_hides_the_other_sides_dials(armada: ArmadaRuleset) -> None:
    """SWA-R2 hidden information: a side's dials are seals; the other side's view of them shows
    only how many were set (the umpire sees the digests)."""
    game = Game(duel())
    game.set_dials("empire", DUEL_DIALS_EMPIRE)
    assigned = of(game.events, DialsAssigned)[0]
    mine = armada.redact(assigned, "empire")
    theirs = armada.redact(assigned, "rebels")
    assert mine == assigned and armada.redact(assigned, None) == assigned
    assert theirs.dials == {"victory": [SEALED] * 3}  # type: ignore[attr-defined]
    from domain.engine import decode

    issued = decode(game.session.state, game.session.facts[0])
    assert armada.redact(issued, "rebels").command["dials"] == {"victory": [SEALED] * 3}  # type: ignore[attr-defined]
    assert "navigate" not in json.dumps([f.payload for f in game.session.facts])


# --------------------------------------------------------------------------- reveal


def test_swa_2_1_reveal_the_top_dial_only_and_only_with_its_salt(armada: ArmadaRuleset) -> None:
    """SWA-2.1 / SWA-R2: a ship activates by revealing its top dial; a dial not at the top of
    the stack, or a command or salt that does not open the seal, is refused and appends
    nothing; the revealed dial is public from then on."""
    game = Game(duel())
    _in_ship_phase(game, DUEL_DIALS_EMPIRE, DUEL_DIALS_REBELS)
    second = {
        **game.reveal_order("nebulon"),
        "slot": 1,
        "command": "navigate",
        "salt": game.salt("nebulon", 1),
    }
    error = game.refuse("rebels", second, IllegalCommand, "SWA-R2")
    assert "top" in str(error)
    game.refuse(
        "rebels", {**game.reveal_order("nebulon"), "command": "navigate"}, IllegalCommand, "SWA-R2"
    )
    game.refuse(
        "rebels", {**game.reveal_order("nebulon"), "salt": "guess"}, IllegalCommand, "SWA-R2"
    )
    game.refuse("empire", game.reveal_order("victory"), NotYourTurn, "SWA-2")
    game.refuse("rebels", game.reveal_order("victory"), WrongSide, "SWA-2")
    events = game.reveal("nebulon")
    assert of(events, DialRevealed)[0].command == "repair"
    assert game.state.activation is not None and game.state.activation.dial == "repair"
    view = armada.read_model(game.state)
    nebulon = next(u for u in view.units if u.id == "nebulon")
    assert nebulon.details["dials_revealed"] == "R1 repair"
    assert nebulon.details["dials_face_down"] == 1
    game.refuse("rebels", game.reveal_order("cr90"), IllegalCommand, "SWA-2")  # one at a time


def test_swa_2_activations_alternate_and_a_side_out_of_ships_passes(armada: ArmadaRuleset) -> None:
    """SWA-2: starting with the first player the sides alternate one activation each; a side
    with no ship left to activate passes, so the other activates its remaining ships; a ship
    activates once a round."""
    game = Game(duel())
    _in_ship_phase(game, DUEL_DIALS_EMPIRE, DUEL_DIALS_REBELS)
    game.reveal("cr90")
    game.maneuver("cr90")
    assert of(game.events, TurnBegan)[0].side == "empire"
    game.reveal("victory")
    game.maneuver("victory")
    assert of(game.events, TurnBegan)[0].side == "rebels"
    again = {"type": "reveal_dial", "ship": "cr90", "slot": 1, "command": "navigate", "salt": "x"}
    error = game.refuse("rebels", again, IllegalCommand, "SWA-2")
    assert "already activated" in str(error)
    game.reveal("nebulon")
    events = game.maneuver("nebulon")
    assert [e.phase for e in of(events, PhaseBegan)] == ["squadron"]


# --------------------------------------------------------------------------- commands and tokens


def test_swa_r3_dial_spent_for_a_token_and_the_token_caps(armada: ArmadaRuleset) -> None:
    """SWA-2.1 / SWA-R3: a dial spent at once gives its token; a second token like one the ship
    holds is discarded at once; beyond the command value one token is discarded (the new one
    unless the player names another it holds); a token the ship does not hold cannot be
    named."""
    game = Game(duel())
    _in_ship_phase(game, DUEL_DIALS_EMPIRE, DUEL_DIALS_REBELS)
    game.refuse(
        "rebels",
        game.reveal_order("cr90", to_token=True, discard_token="repair"),
        IllegalCommand,
        "SWA-R3",
    )
    events = game.reveal("cr90", to_token=True)
    assert of(events, TokenGained)[0].discarded is None
    assert game.state.ships["cr90"].tokens == ("navigate",)
    assert game.state.activation is not None and game.state.activation.dial is None


def test_swa_r3_token_cap_and_duplicates_at_decide_level(armada: ArmadaRuleset) -> None:
    """SWA-R3: duplicates are discarded; over the command value the named token goes."""
    game = Game(duel())
    _in_ship_phase(game, DUEL_DIALS_EMPIRE, DUEL_DIALS_REBELS)
    base = game.state
    dup = with_ship(base, "nebulon", tokens=("repair",))
    order = armada.parse_command(game.reveal_order("nebulon", to_token=True))
    events = rules.decide(dup, "rebels", order, None)  # type: ignore[arg-type]
    assert of(events, TokenGained)[0].discarded == "repair"
    full = with_ship(base, "nebulon", tokens=("navigate", "squadron"))
    events = rules.decide(full, "rebels", order, None)  # type: ignore[arg-type]
    assert of(events, TokenGained)[0].discarded == "repair"  # the new one by default
    named = armada.parse_command(
        game.reveal_order("nebulon", to_token=True, discard_token="squadron")
    )
    events = rules.decide(full, "rebels", named, None)  # type: ignore[arg-type]
    after = rules.fold_all(full, events)
    assert sorted(after.ships["nebulon"].tokens) == ["navigate", "repair"]
    wrong = armada.parse_command(
        game.reveal_order("nebulon", to_token=True, discard_token="concentrate_fire")
    )
    with pytest.raises(IllegalCommand) as info:
        rules.decide(full, "rebels", wrong, None)  # type: ignore[arg-type]
    assert info.value.rule == "SWA-R3"


def test_swa_r3_a_token_the_ship_does_not_hold_is_refused(armada: ArmadaRuleset) -> None:
    """SWA-R3: spending a Navigate token the ship does not hold is refused and appends
    nothing; so is a speed change with no Navigate command."""
    game = Game(duel())
    _in_ship_phase(game, DUEL_DIALS_EMPIRE, DUEL_DIALS_REBELS)
    game.reveal("cr90")
    order = {
        "type": "maneuver",
        "ship": "cr90",
        "speed": 3,
        "clicks": [0, 0, 0],
        "navigate_token": True,
    }
    error = game.refuse("rebels", order, IllegalCommand, "SWA-R3")
    assert "holds no navigate token" in str(error)
    faster = {"type": "maneuver", "ship": "cr90", "speed": 4, "clicks": [0, 0, 0, 0]}
    game.refuse("rebels", faster, IllegalCommand, "SWA-R3")
    events = game.do("rebels", {**faster, "navigate_dial": True})
    assert of(events, CommandResolved)[0].command == "navigate"
    assert game.state.ships["cr90"].speed == 4


def test_swa_r3_each_command_once_per_round_and_dial_plus_token(armada: ArmadaRuleset) -> None:
    """SWA-R3: a dial and a token of the same command spent together count as one resolution
    (Navigate: speed ±2); the command cannot be resolved again that round."""
    game = Game(duel())
    _in_ship_phase(game, DUEL_DIALS_EMPIRE, DUEL_DIALS_REBELS)
    state = with_ship(game.state, "cr90", tokens=("navigate",))
    order = armada.parse_command(game.reveal_order("cr90"))
    state = rules.fold_all(state, rules.decide(state, "rebels", order, None))  # type: ignore[arg-type]
    slow = armada.parse_command(
        {
            "type": "maneuver",
            "ship": "cr90",
            "speed": 1,
            "clicks": [0],
            "navigate_dial": True,
            "navigate_token": True,
        }
    )
    events = rules.decide(state, "rebels", slow, None)  # type: ignore[arg-type]
    resolved = of(events, CommandResolved)
    assert len(resolved) == 1 and resolved[0].dial and resolved[0].token
    after = rules.fold_all(state, events)
    assert after.ships["cr90"].speed == 1 and after.ships["cr90"].tokens == ()
    assert after.ships["cr90"].resolved == ("navigate",)


def test_swa_r3_squadron_command_once_a_round(armada: ArmadaRuleset) -> None:
    """SWA-R3: each command resolves at most once per round."""
    game = Game(duel())
    _in_ship_phase(game, {"victory": ["squadron", "navigate", "navigate"]}, DUEL_DIALS_REBELS)
    game.reveal("cr90")
    game.maneuver("cr90")
    game.reveal("victory")
    state = with_ship(game.state, "victory", tokens=("squadron",))
    order = armada.parse_command({"type": "squadron_command", "ship": "victory", "dial": True})
    state = rules.fold_all(state, rules.decide(state, "empire", order, None))  # type: ignore[arg-type]
    again = armada.parse_command(
        {"type": "squadron_command", "ship": "victory", "dial": False, "token": True}
    )
    with pytest.raises(IllegalCommand) as info:
        rules.decide(state, "empire", again, None)  # type: ignore[arg-type]
    assert info.value.rule == "SWA-R3" and "this round" in str(info.value)


def test_swa_r3_repair_points_and_effects(armada: ArmadaRuleset) -> None:
    """SWA-R3 Repair: the dial gives engineering-value points (Nebulon-B: 3), the token half
    rounded up; 1 point moves a shield, 2 recover one, 3 discard a damage card; effects one
    at a time, never beyond the maximum shields, and not beyond the points."""
    game = Game(duel())
    _in_ship_phase(game, DUEL_DIALS_EMPIRE, DUEL_DIALS_REBELS)
    game.reveal("cr90")
    game.maneuver("cr90")
    game.reveal("victory")
    game.maneuver("victory")
    game.reveal("nebulon")
    state = with_ship(
        game.state,
        "nebulon",
        shields={"front": 1, "left": 1, "right": 1, "rear": 2},
        damage=(
            DamageCardState(card="structural_damage"),
            DamageCardState(card="comm_noise", face_up=True),
        ),
    )

    def decide(effects: list[dict[str, Any]], **spend: bool) -> list[Any]:
        order = armada.parse_command(
            {"type": "repair", "ship": "nebulon", "effects": effects, **spend}
        )
        return rules.decide(state, "rebels", order, None)  # type: ignore[arg-type]

    events = decide(
        [
            {"effect": "move_shield", "source": "rear", "zone": "front"},
            {"effect": "recover_shield", "zone": "front"},
        ]
    )
    assert of(events, CommandResolved)[0].amount == 3
    after = rules.fold_all(state, events)
    assert after.ships["nebulon"].shields == {"front": 3, "left": 1, "right": 1, "rear": 1}
    assert len(of(events, ShieldsRepaired)) == 2
    events = decide([{"effect": "discard_damage", "card": 1}])
    discarded = of(events, DamageCardDiscarded)[0]
    assert (discarded.card, discarded.face_up) == ("comm_noise", True)
    after = rules.fold_all(state, events)
    assert [c.card for c in after.ships["nebulon"].damage] == ["structural_damage"]
    assert after.deck.discard == ("comm_noise",)
    for effects, why in (
        (
            [
                {"effect": "recover_shield", "zone": "front"},
                {"effect": "recover_shield", "zone": "front"},
            ],
            "costs",
        ),
        ([{"effect": "recover_shield", "zone": "rear"}], "maximum"),
        ([{"effect": "move_shield", "source": "front", "zone": "left"}], "maximum"),
        ([{"effect": "discard_damage", "card": 5}], "no damage card"),
    ):
        with pytest.raises(IllegalCommand, match=why) as info:
            decide(effects)
        assert info.value.rule == "SWA-R3"
    with pytest.raises(IllegalCommand, match="holds no repair token"):
        decide([], dial=False, token=True)


# --------------------------------------------------------------------------- winning


def test_swa_5_after_the_last_round_a_tie_goes_to_the_second_player(armada: ArmadaRuleset) -> None:
    """SWA-5 / SWA-SETUP: with nothing destroyed the scores tie 0–0 after round 6, and the
    second player wins (a scenario that skips every attack step, SWA-2.2)."""
    data = duel()
    data["no_attacks_in_rounds"] = [1, 2, 3, 4, 5, 6]
    game = Game(data)
    game.play_until(lambda s: s.phase == "over", limit=5000)
    ended = of(game.events, GameEnded)[0]
    assert game.state.round == 6
    assert ended.winner == "empire" and ended.rule == "SWA-5"  # the rebels hold initiative
    assert ended.vp == {"empire": 0, "rebels": 0}
    game.refuse("empire", game.seal_dials({}), GameOver, None)


def test_swa_5_scores_count_destroyed_enemy_points_printed_or_updated(
    armada: ArmadaRuleset,
) -> None:
    """SWA-5: a side's score is the fleet points of the enemy units destroyed; the ``points``
    option reads the printed (Victory II 85, X-wing 13) or updated costs (80, 12)."""
    game = Game(duel())
    state = with_ship(game.state, "victory", destroyed=True)
    from domain.rulesets.armada.state import with_squadron

    state = with_squadron(state, "xwing", destroyed=True)
    assert scoring.scores(state) == {"empire": 13, "rebels": 85}
    updated = changed(state, options=ArmadaOptions(points="updated"))
    assert scoring.scores(updated) == {"empire": 12, "rebels": 80}
    assert scoring.final(state).winner == "rebels"
    assert scoring.immediate(state) is not None
    ended = scoring.immediate(state)
    assert ended is not None and ended.winner == "rebels" and "destroyed" in ended.reason
    both = with_ship(with_ship(state, "cr90", destroyed=True), "nebulon", destroyed=True)
    tie = scoring.immediate(both)
    assert tie is not None and tie.winner == "empire"  # 13 + 44 + 57 = 114 against 85
    assert scoring.final(game.state).winner == "empire"  # 0–0: the second player


# --------------------------------------------------------------------------- read model


def test_read_model_shows_units_with_position_heading_and_status(armada: ArmadaRuleset) -> None:
    """The read model: every ship and squadron with its position (mm) and heading, speed,
    shields per hull zone, defence tokens; sides with scores; a continuous board."""
    game = Game(duel())
    view = armada.read_model(game.state)
    assert view.board.kind == "continuous" and view.board.unit == "mm"
    assert (view.board.width, view.board.height) == (914.4, 914.4)
    victory = next(u for u in view.units if u.id == "victory")
    assert victory.position == (457.2, 150.0) and victory.heading == 0.0
    assert victory.details["speed"] == 2
    assert victory.details["shields"] == "F3 R3 A1 L3"
    assert victory.details["defense_tokens"] == "brace, redirect, redirect"
    tie = next(u for u in view.units if u.id == "tie")
    assert tie.kind == "squadron" and tie.details["hull"] == 3 and tie.heading is None
    assert [s.vp for s in view.sides] == [0, 0]
    assert armada.describe(
        of(Game(duel()).set_dials("empire", DUEL_DIALS_EMPIRE), DialsAssigned)[0]
    ).startswith("empire sets")


# --------------------------------------------------------------------------- conformance


@pytest.mark.parametrize("name", ["core_learning", "core_deployment"])
def test_conformance_suite(armada: ArmadaRuleset, name: str, tmp_path: Path) -> None:
    """The published conformance suite on the shipped scenarios: bots finish (six rounds while
    attacks are not integrated), determinism, live == replay == store, record round trip,
    state JSON round trip, read model, rule summaries; orders out of turn append nothing."""
    data = bundled(name)
    session = check_ruleset("armada", data, workdir=tmp_path)
    assert session.state.result is not None and session.state.result.rule == "SWA-5"
    assert check_refusals("armada", data) > 0


def test_every_event_rule_has_a_summary(armada: ArmadaRuleset) -> None:
    """Every rule ID the events name has a one-line summary (the explain panel)."""
    from domain.rulesets.armada.events import ARMADA_EVENTS

    for topic in ARMADA_EVENTS.topics():
        cls = ARMADA_EVENTS._by_topic[topic]
        assert armada.rule_summary(cls.RULE), topic


def test_wrong_phase_is_refused(armada: ArmadaRuleset) -> None:
    """SWA-R1: an order of another phase is refused with WrongPhase."""
    game = Game(duel())
    order = {
        "type": "reveal_dial",
        "ship": "victory",
        "slot": 0,
        "command": "navigate",
        "salt": "x",
    }
    game.refuse("empire", order, WrongPhase, "SWA-2")
