"""Attacks and the damage deck inside an Armada game (SWA-2.2, SWA-ATK 1–6, SWA-3.2, SWA-3.3,
SWA-DEF, SWA-DMG): orders through the engine, refusals that name their rule and append
nothing, and the face-up damage cards whose effects act outside attacks."""

from __future__ import annotations

from typing import Any

import pytest

from domain.dice import SeededDice
from domain.errors import IllegalCommand, InvalidCommand, NotYourTurn, WakeError
from domain.events import DomainEvent
from domain.frozen import changed
from domain.rulesets.armada import rules, status_phase
from domain.rulesets.armada.attack_events import (
    AttackDeclared,
    AttackEnded,
    CommNoiseResolved,
    DamageCardDealt,
    DamageSuffered,
    UnitDestroyed,
)
from domain.rulesets.armada.damage import DeckState, HeldCard
from domain.rulesets.armada.events import (
    DialDiscarded,
    DialRevealed,
    SquadronActivationEnded,
    TokenGained,
    TurnPassed,
)
from domain.rulesets.armada.ruleset import ArmadaRuleset
from domain.rulesets.armada.ship_commands import repair_points
from domain.rulesets.armada.squadron_phase import engaged_with
from domain.rulesets.armada.state import ArmadaState, with_ship
from tests.armada_helpers import Game, armada, of, scenario, ship, squadron

__all__ = ["armada"]


def _close(no_attacks: list[int] | None = None) -> dict[str, Any]:
    """A Victory II facing north and a CR90 facing south, front arcs at close range, with a
    TIE and an X-wing between their flanks."""
    return scenario(
        [
            ship("victory", "empire", "victory_ii", 457.2, 300.0, 0.0, 1),
            ship("cr90", "rebels", "cr90_a", 457.2, 500.0, 180.0, 1),
        ],
        [
            squadron("tie", "empire", "tie_fighter", 250.0, 400.0),
            squadron("xwing", "rebels", "x_wing", 250.0, 440.0),
        ],
        first="empire",
        no_attacks=no_attacks,
    )


def _dials(game: Game, command: str = "concentrate_fire") -> None:
    for side in ("empire", "rebels"):
        plan = {
            s.id: [command] * game.state.card(s.id).command
            for s in game.state.ships.values()
            if s.side == side
        }
        game.set_dials(side, plan)


def _attack(attacker: str, defender: str, zone: str | None, dzone: str | None) -> dict[str, Any]:
    order: dict[str, Any] = {"type": "attack", "attacker": attacker, "defender": defender}
    if zone is not None:
        order["zone"] = zone
    if dzone is not None:
        order["defending_zone"] = dzone
    return order


def _finish_attack(game: Game) -> list[DomainEvent]:
    """Let the bots make every decision of the attack in progress."""
    events: list[DomainEvent] = []
    while game.state.attack is not None:
        events += game.bot()
    return events


# --------------------------------------------------------------------------- declaring


def test_swa_atk_1_an_attack_order_declares_rolls_and_waits_for_a_decision(
    armada: ArmadaRuleset,
) -> None:
    """SWA-ATK 1–2 / SWA-2.2: the activating ship declares from its front zone; the damage
    deck is shuffled at the first card that could be due, the pool is rolled, and the attack
    waits for its actor; the phase's own orders wait until it is over."""
    game = Game(_close())
    _dials(game)
    game.reveal("victory")
    events = game.do("empire", _attack("victory", "cr90", "front", "front"))
    declared = of(events, AttackDeclared)[0]
    assert (declared.range, declared.distance, declared.obstructed) == ("close", 2, False)
    assert game.state.deck_shuffled and len(game.state.deck.draw) == 52
    attack = game.state.attack
    assert attack is not None and attack.attacker.zone == "front"
    assert game.state.activation is not None and game.state.activation.attacks == ("front",)
    assert armada.to_act(game.state) == [
        attack.attacker.side if attack.step != "defend" else "rebels"
    ]
    maneuver = {"type": "maneuver", "ship": "victory", "speed": 1, "clicks": [0]}
    game.refuse("empire", maneuver, IllegalCommand, "SWA-2.2")
    events = _finish_attack(game)
    assert of(events, AttackEnded)
    assert game.state.attack is None
    on_zone = [e for e in of(events, DamageSuffered) if e.zone == "front"]
    if on_zone:
        assert game.state.ships["cr90"].shields["front"] == on_zone[-1].shields


def test_swa_atk_1_refusals_name_their_rule_and_append_nothing(armada: ArmadaRuleset) -> None:
    """SWA-ATK 1 / SWA-2.2 / SWA-3.2: a target out of arc, a friendly target, a ship that is
    not activating, a second attack from the same zone, an unknown unit — refused, nothing
    appended."""
    game = Game(_close())
    _dials(game)
    game.refuse("empire", _attack("victory", "cr90", "front", "front"), IllegalCommand, "SWA-2")
    game.reveal("victory")
    game.refuse("empire", _attack("victory", "cr90", "rear", "front"), IllegalCommand, "SWA-ATK 1")
    game.refuse("empire", _attack("victory", "tie", "left", None), IllegalCommand, "SWA-ATK 1")
    game.refuse("rebels", _attack("cr90", "victory", "front", "front"), NotYourTurn, None)
    game.refuse("empire", _attack("victory", "nobody", "front", None), InvalidCommand, None)
    game.refuse("empire", _attack("victory", "cr90", None, "front"), InvalidCommand, None)
    game.do("empire", _attack("victory", "cr90", "front", "front"))
    _finish_attack(game)
    game.refuse("empire", _attack("victory", "cr90", "front", "front"), IllegalCommand, "SWA-2.2")
    game.refuse(
        "empire", {"type": "end_defence"}, IllegalCommand, "SWA-ATK"
    )  # no attack in progress


def test_swa_2_2_no_attacks_in_a_skipped_round(armada: ArmadaRuleset) -> None:
    """SWA-2.2: in the rounds the scenario skips (round 1 of the learning scenario) attack
    orders are refused and the bot does not attack."""
    game = Game(_close(no_attacks=[1]))
    _dials(game)
    game.reveal("victory")
    game.refuse("empire", _attack("victory", "cr90", "front", "front"), IllegalCommand, "SWA-2.2")
    assert armada.bot_command(game.state, "empire").type == "maneuver"  # type: ignore[union-attr]


def test_swa_atk_decisions_are_orders_of_the_side_the_attack_waits_for(
    armada: ArmadaRuleset,
) -> None:
    """SWA-ATK 3–4: each decision is an order of the attack's actor; the other side is
    refused, and the listed legal orders are all accepted."""
    game = Game(_close(), seed=11)
    _dials(game)
    game.reveal("victory")
    game.do("empire", _attack("victory", "cr90", "front", "front"))
    while game.state.attack is not None:
        attack = game.state.attack
        actor = armada.to_act(game.state)[0]
        other = "rebels" if actor == "empire" else "empire"
        legal = armada.legal_commands(game.state, actor)
        assert legal, attack.step
        order = legal[-1].model_dump(mode="json")
        game.refuse(other, order, NotYourTurn, None)
        game.do(actor, order)
    assert game.state.activation is not None


def test_swa_r3_concentrate_fire_dial_spent_in_the_attack(armada: ArmadaRuleset) -> None:
    """SWA-R3: the kept Concentrate Fire dial adds a die inside the attack; the dial is spent
    and the command resolved for the round (it cannot be spent again)."""
    game = Game(_close(), seed=3)
    _dials(game)
    game.reveal("victory")
    game.do("empire", _attack("victory", "cr90", "front", "front"))
    attack = game.state.attack
    assert attack is not None
    while attack is not None and attack.step != "modify":
        game.bot()
        attack = game.state.attack
    assert attack is not None and attack.attacker.concentrate_fire_dial
    colour = attack.pool[0].colour
    game.do("empire", {"type": "concentrate_fire", "spend": "dial", "add": colour})
    ship = game.state.ships["victory"]
    assert "concentrate_fire" in ship.resolved
    assert game.state.activation is not None and game.state.activation.dial is None
    game.refuse(
        "empire", {"type": "concentrate_fire", "spend": "dial", "add": colour}, IllegalCommand, None
    )


def _squadron_phase(data: dict[str, Any]) -> Game:
    game = Game(data)
    _dials(game, "navigate")
    for ship_id in ("victory", "cr90"):
        game.reveal(ship_id)
        game.maneuver(ship_id, speed=0, clicks=[], navigate_dial=True)
    assert game.state.phase == "squadron" and game.state.active == "empire"
    return game


def test_swa_3_2_a_squadron_without_a_target_ends_its_activation_at_once(
    armada: ArmadaRuleset,
) -> None:
    """SWA-3 / SWA-3.2: a squadron activated without moving and with no enemy at distance 1
    has nothing left to do: its activation ends at once."""
    data = _close()
    data["squadrons"][1]["y"] = 600.0  # the X-wing out of distance 1
    game = _squadron_phase(data)
    events = game.do("empire", {"type": "activate_squadron", "squadron": "tie"})
    assert of(events, SquadronActivationEnded)
    assert game.state.squadron_activation is None


def test_swa_3_2_a_squadron_attacks_at_distance_1_and_its_activation_ends_with_the_attack(
    armada: ArmadaRuleset,
) -> None:
    """SWA-3.2: a squadron attacks at distance 1 only (a ship at distance 2 is refused); its
    attack runs through the pipeline and the activation ends when the attack is over."""
    game = _squadron_phase(_close())
    game.do("empire", {"type": "activate_squadron", "squadron": "tie"})
    game.refuse("empire", _attack("tie", "cr90", None, "right"), IllegalCommand, "SWA-3.2")
    game.refuse("empire", _attack("tie", "xwing", "front", None), InvalidCommand, None)
    events = game.do("empire", _attack("tie", "xwing", None, None))
    assert of(events, AttackDeclared)[0].armament == "anti_squadron"
    events += _finish_attack(game)
    assert of(events, AttackEnded) and of(events, SquadronActivationEnded)
    assert game.state.squadron_activation is None


def test_swa_3_3_an_engaged_squadron_may_not_attack_a_ship(armada: ArmadaRuleset) -> None:
    """SWA-3.3: a squadron engaged by an enemy squadron must attack a squadron, not a ship at
    distance 1."""
    data = _close()
    data["ships"][1].update(x=290.0, y=480.0)  # the CR90 at distance 1 of the TIE
    game = _squadron_phase(data)
    game.do("empire", {"type": "activate_squadron", "squadron": "tie"})
    game.refuse("empire", _attack("tie", "cr90", None, "right"), IllegalCommand, "SWA-3.3")
    game.do("empire", _attack("tie", "xwing", None, None))


# --------------------------------------------------------------------------- damage cards


def _activated(game: Game, **ship_fields: Any) -> ArmadaState:
    """The game's state with the Victory's fields changed (face-up cards, speed ...)."""
    return with_ship(game.state, "victory", **ship_fields)


def _decide(state: ArmadaState, side: str, order: dict[str, Any], seed: int = 1) -> Any:
    ruleset = ArmadaRuleset()
    command = ruleset.parse_command(order)
    events = rules.decide(state, side, command, SeededDice(seed))
    return events, rules.fold_all(state, events)


def _face_up(card: str) -> tuple[HeldCard, ...]:
    return (HeldCard(card=card, face_up=True),)


def test_swa_dmg_crew_panic_damage_or_discard_before_the_reveal(armada: ArmadaRuleset) -> None:
    """SWA-DMG Crew Panic: before revealing, the owner takes 1 damage (on the zone it names)
    or throws the dial away unrevealed and activates without a command; a reveal that does
    not choose is refused."""
    game = Game(_close())
    _dials(game)
    state = _activated(game, damage=_face_up("crew_panic"))
    order = game.reveal_order("victory")
    with pytest.raises(IllegalCommand, match="Crew Panic") as info:
        _decide(state, "empire", order)
    assert info.value.rule == "SWA-DMG"
    events, after = _decide(state, "empire", {**order, "panic": "damage", "panic_zone": "rear"})
    assert of(events, DamageSuffered)[0].zone == "rear"
    assert after.ships["victory"].shields["rear"] == state.ships["victory"].shields["rear"] - 1
    assert of(events, DialRevealed)
    top = state.ships["victory"].dials[0].slot
    events, after = _decide(
        state, "empire", {"type": "reveal_dial", "ship": "victory", "slot": top, "panic": "discard"}
    )
    assert [type(e) for e in events][:1] == [DialDiscarded]
    assert after.activation is not None and after.activation.dial is None
    assert after.ships["victory"].dials == state.ships["victory"].dials[1:]


def test_swa_dmg_comm_noise_sets_the_top_dial_openly(armada: ArmadaRuleset) -> None:
    """SWA-DMG Comm Noise: when the opponent sets the top dial, the game replaces it with an
    open dial of that command; its reveal needs no salt and must name that command."""
    game = Game(_close())
    _dials(game)
    ship = game.state.ships["victory"]
    event = CommNoiseResolved(ship="victory", choice="dial", command="repair", card="comm_noise")
    state = rules.evolve(game.state, event)
    top = state.ships["victory"].dials[0]
    assert top.command == "repair" and top.slot == ship.dials[0].slot
    with pytest.raises(IllegalCommand, match="Comm Noise"):
        _decide(
            state,
            "empire",
            {"type": "reveal_dial", "ship": "victory", "slot": top.slot, "command": "navigate"},
        )
    events, _ = _decide(
        state,
        "empire",
        {"type": "reveal_dial", "ship": "victory", "slot": top.slot, "command": "repair"},
    )
    assert of(events, DialRevealed)[0].command == "repair"


def test_swa_dmg_life_support_failure_discards_and_blocks_command_tokens(
    armada: ArmadaRuleset,
) -> None:
    """SWA-DMG Life Support Failure: dealt face up, the ship's command tokens go; while it is
    face up a dial spent for a token gives none."""
    game = Game(_close())
    _dials(game)
    state = _activated(game, tokens=("navigate",))
    dealt = DamageCardDealt(
        ship="victory", card="life_support_failure", face_up=True, effect="no_command_tokens"
    )
    state = rules.evolve(state, dealt)
    assert state.ships["victory"].tokens == ()
    events, after = _decide(state, "empire", game.reveal_order("victory", to_token=True))
    gained = of(events, TokenGained)[0]
    assert gained.discarded == gained.command
    assert after.ships["victory"].tokens == ()


def test_swa_dmg_compartment_fire_keeps_tokens_exhausted(armada: ArmadaRuleset) -> None:
    """SWA-DMG Compartment Fire / SWA-4: the Status Phase readies no defence token of a ship
    with it face up."""
    game = Game(_close())
    tokens = tuple(changed(t, state="exhausted") for t in game.state.ships["victory"].defense)
    state = _activated(game, defense=tokens, damage=_face_up("compartment_fire"))
    status = status_phase.resolve(state)
    assert "victory" not in status.readied
    after = status_phase.apply(state, status)
    assert all(t.state == "exhausted" for t in after.ships["victory"].defense)


def test_swa_dmg_thrust_control_malfunction_takes_a_click_off_the_last_joint(
    armada: ArmadaRuleset,
) -> None:
    """SWA-DMG Thrust-Control Malfunction / SWA-2.3a: the last joint that may turn allows one
    click less."""
    game = Game(_close())
    _dials(game, "navigate")
    game.reveal("victory")
    state = _activated(game, damage=_face_up("thrust_control_malfunction"))
    order = {"type": "maneuver", "ship": "victory", "speed": 1, "clicks": [1]}
    with pytest.raises(IllegalCommand) as info:
        _decide(state, "empire", order)
    assert info.value.rule == "SWA-2.3a"
    _decide(game.state, "empire", order)  # without the card the click is legal


def test_swa_dmg_ruptured_engine_and_thruster_fissure_damage_outside_attacks(
    armada: ArmadaRuleset,
) -> None:
    """SWA-DMG Ruptured Engine: after a maneuver at speed > 1 the ship takes 1 damage;
    Thruster Fissure: a speed change costs 1 damage. Both on the zone with the most shields."""
    data = _close()
    data["ships"][1].update(x=150.0, y=780.0)
    game = Game(data)
    _dials(game, "navigate")
    game.reveal("victory")
    order = {
        "type": "maneuver",
        "ship": "victory",
        "speed": 2,
        "clicks": [0, 0],
        "navigate_dial": True,
    }
    state = _activated(game, damage=_face_up("ruptured_engine"))
    events, _ = _decide(state, "empire", order)
    assert [e.rule for e in of(events, DamageSuffered)] == ["SWA-DMG"]
    state = _activated(game, damage=_face_up("thruster_fissure"))
    events, _ = _decide(state, "empire", order)
    assert [e.rule for e in of(events, DamageSuffered)] == ["SWA-DMG"]
    events, _ = _decide(game.state, "empire", order)
    assert not of(events, DamageSuffered)


def test_swa_dmg_power_failure_and_capacitor_failure_in_repairs(armada: ArmadaRuleset) -> None:
    """SWA-DMG Power Failure halves the engineering value (rounded down); Capacitor Failure
    stops a zone with no shields from recovering one (SWA-R3 Repair)."""
    game = Game(_close())
    printed = game.state.card("victory").engineering
    state = _activated(game, damage=_face_up("power_failure"))
    assert repair_points(state, "victory", True, False) == printed // 2
    _dials(game, "repair")
    game.reveal("victory")
    shields = {**game.state.ships["victory"].shields, "rear": 0}
    state = _activated(game, shields=shields, damage=_face_up("capacitor_failure"))
    order = {
        "type": "repair",
        "ship": "victory",
        "effects": [{"effect": "recover_shield", "zone": "rear"}],
    }
    with pytest.raises(IllegalCommand, match="Capacitor Failure"):
        _decide(state, "empire", order)
    _decide(_activated(game, shields=shields), "empire", order)
    # RRG Repair: discard the Capacitor Failure first, then the empty zone may recover
    state = with_ship(state, "victory", tokens=("repair",))
    first_discard = {
        **order,
        "token": True,
        "effects": [
            {"effect": "discard_damage", "card": 0},
            {"effect": "recover_shield", "zone": "rear"},
        ],
    }
    _, after = _decide(state, "empire", first_discard)
    assert after.ships["victory"].shields["rear"] == 1 and after.ships["victory"].damage == ()


def test_swa_ovl_damaged_controls_adds_a_card_when_overlapping(armada: ArmadaRuleset) -> None:
    """SWA-DMG Damaged Controls / SWA-OVL: overlapping a ship deals it one more face-down
    card."""
    data = scenario(
        [
            ship("victory", "empire", "victory_ii", 457.2, 300.0, 0.0, 2),
            ship("cr90", "rebels", "cr90_a", 457.2, 420.0, 180.0, 1),
        ],
        first="empire",
    )
    game = Game(data)
    _dials(game, "navigate")
    game.reveal("victory")
    state = _activated(game, damage=_face_up("damaged_controls"))
    events, after = _decide(
        state, "empire", {"type": "maneuver", "ship": "victory", "speed": 2, "clicks": [0, 0]}
    )
    counts = {e.unit: e.cards for e in of(events, DamageSuffered)}
    assert counts == {"victory": 2, "cr90": 1}
    assert len(after.ships["victory"].damage) == 3


def test_swa_dmg_a_face_up_choice_outside_an_attack_waits_for_its_chooser(
    armada: ArmadaRuleset,
) -> None:
    """SWA-DMG / SWA-OVL: an asteroid field deals Injured Crew face up; the owner's choice of
    the token to discard is an order, every other order waits (refused with SWA-DMG), and the
    game goes on once it is made."""
    obstacles = [{"id": "rock", "shape": "asteroid_1", "x": 457.2, "y": 420.0}]
    data = scenario(
        [
            ship("victory", "empire", "victory_ii", 457.2, 300.0, 0.0, 1),
            ship("cr90", "rebels", "cr90_a", 150.0, 780.0, 180.0, 1),
        ],
        first="empire",
        obstacles=obstacles,
    )
    game = Game(data)
    _dials(game, "navigate")
    game.reveal("victory")
    deck = DeckState(draw=("injured_crew", "structural_damage", "structural_damage"))
    state = changed(game.state, deck=deck, deck_shuffled=True)
    events, after = _decide(
        state, "empire", {"type": "maneuver", "ship": "victory", "speed": 1, "clicks": [0]}
    )
    dealt = of(events, DamageCardDealt)
    assert [(d.card, d.face_up) for d in dealt] == [("injured_crew", True)]
    if not after.dealings:  # the rock missed the final position: nothing to check
        pytest.skip("the maneuver did not end on the asteroid field")
    ruleset = ArmadaRuleset()
    assert ruleset.to_act(after) == ["empire"]
    with pytest.raises(WakeError) as info:
        rules.decide(after, "empire", ruleset.parse_command({"type": "end_defence"}), SeededDice(1))
    legal = ruleset.legal_commands(after, "empire")
    assert legal and all(o.type == "discard_defence_token" for o in legal)
    with pytest.raises(IllegalCommand) as refused:
        rules.decide(
            after,
            "rebels",
            ruleset.parse_command({"type": "set_dials", "dials": {}}),
            SeededDice(1),
        )
    assert refused.value.rule == "SWA-DMG"
    events = rules.decide(after, "empire", legal[0], SeededDice(1))
    final = rules.fold_all(after, events)
    assert not final.dealings
    assert sum(t.state == "discarded" for t in final.ships["victory"].defense) == 1
    del info


def test_swa_5_a_destroyed_ship_leaves_its_cards_on_the_discard_pile(armada: ArmadaRuleset) -> None:
    """SWA-DMG / SWA-5: a ship destroyed (here by leaving the play area) puts its damage
    cards on the discard pile, and the game ends when a side has no ship left."""
    data = scenario(
        [
            ship("victory", "empire", "victory_ii", 457.2, 300.0, 0.0, 1),
            ship("cr90", "rebels", "cr90_a", 457.2, 850.0, 0.0, 2),
        ],
        first="rebels",
    )
    game = Game(data)
    _dials(game, "navigate")
    state = with_ship(game.state, "cr90", damage=(HeldCard(card="structural_damage"),))
    state = changed(state, deck_shuffled=True)
    events, after = _decide(state, "rebels", game.reveal_order("cr90"))
    events, after = _decide(
        after, "rebels", {"type": "maneuver", "ship": "cr90", "speed": 2, "clicks": [0, 0]}
    )
    destroyed = of(events, UnitDestroyed)[0]
    assert destroyed.cards == ["structural_damage"] and destroyed.rule == "SWA-OVL"
    assert after.deck.discard == ("structural_damage",)
    assert after.result is not None and after.result["winner"] == "empire"


# --------------------------------------------------------------------------- pass tokens


def _uneven(first: str) -> dict[str, Any]:
    """The Empire's one Victory against three Rebel corvettes, far apart."""
    return scenario(
        [
            ship("victory", "empire", "victory_ii", 457.2, 150.0, 0.0, 1),
            ship("cr90", "rebels", "cr90_a", 200.0, 780.0, 180.0, 1),
            ship("cr90b", "rebels", "cr90_b", 450.0, 780.0, 180.0, 1),
            ship("cr90c", "rebels", "cr90_a", 700.0, 780.0, 180.0, 1),
        ],
        first=first,
    )


def test_swa_pass_tokens_are_an_option_gained_by_the_smaller_fleet(armada: ArmadaRuleset) -> None:
    """SWA-PASS / SWA-RRG (a Rules Reference 1.6 rule the seed omits): off by default (the
    Learn to Play has none, passing is refused); with
    ``pass_tokens=rrg_1_6`` the player with fewer ships gains the difference, one fewer when
    it is the first player."""
    assert armada.resolve_options({})["pass_tokens"] == "off"
    game = Game(_uneven("rebels"))
    assert game.state.pass_tokens == {}
    _dials(game, "navigate")
    game.reveal("cr90")
    game.maneuver("cr90")
    game.refuse("empire", {"type": "pass_turn"}, IllegalCommand, "SWA-PASS")
    second = Game(_uneven("rebels"), options={"pass_tokens": "rrg_1_6"})
    assert second.state.pass_tokens == {"empire": 2}
    first = Game(_uneven("empire"), options={"pass_tokens": "rrg_1_6"})
    assert first.state.pass_tokens == {"empire": 1}


def test_swa_pass_spending_a_token_and_its_conditions(armada: ArmadaRuleset) -> None:
    """SWA-PASS (RRG 1.6 Ship Phase): the second player with no more unactivated ships than
    the first may spend a token instead of activating; the turn goes to the opponent; not on
    two consecutive turns; the first player only after activating a ship and with fewer
    unactivated ships; each refusal names the rule and appends nothing."""
    game = Game(_uneven("rebels"), options={"pass_tokens": "rrg_1_6"})
    _dials(game, "navigate")
    game.reveal("cr90")
    game.maneuver("cr90")
    # empire: 1 unactivated, rebels: 2 -> the second player may pass
    events = game.do("empire", {"type": "pass_turn"})
    passed = of(events, TurnPassed)[0]
    assert (passed.side, passed.tokens_left) == ("empire", 1)
    assert game.state.pass_tokens == {"empire": 1} and game.state.active == "rebels"
    game.reveal("cr90b")
    game.maneuver("cr90b")
    game.refuse("empire", {"type": "pass_turn"}, IllegalCommand, "SWA-PASS")  # consecutive
    game.reveal("victory")
    game.refuse("empire", {"type": "pass_turn"}, IllegalCommand, "SWA-PASS")  # activating
    game.maneuver("victory")
    assert game.state.active == "rebels"
    game.refuse("rebels", {"type": "pass_turn"}, IllegalCommand, "SWA-PASS")  # no token


def test_swa_pass_the_first_player_needs_an_activation_and_fewer_ships(
    armada: ArmadaRuleset,
) -> None:
    """SWA-PASS: a first player with pass tokens may not pass before activating a ship."""
    data = _uneven("empire")
    data["ships"].insert(1, ship("victory2", "empire", "victory_i", 250.0, 150.0, 0.0, 1))
    game = Game(data, options={"pass_tokens": "rrg_1_6"})
    assert game.state.pass_tokens == {}  # 2 against 3, first player: one fewer
    data["ships"].pop(1)
    game = Game(data, options={"pass_tokens": "rrg_1_6"})
    assert game.state.pass_tokens == {"empire": 1}
    _dials(game, "navigate")
    error = game.refuse("empire", {"type": "pass_turn"}, IllegalCommand, "SWA-PASS")
    assert "first player" in str(error)


def test_swa_pass_the_bot_passes_while_the_enemy_is_far(armada: ArmadaRuleset) -> None:
    """SWA-PASS: with pass tokens the bot passes instead of activating when none of its ships
    has an enemy ship within long range, and the game goes on to the end."""
    game = Game(_uneven("rebels"), options={"pass_tokens": "rrg_1_6"})
    _dials(game, "navigate")
    game.reveal("cr90")
    game.maneuver("cr90")
    events = game.bot()
    assert of(events, TurnPassed) and game.state.pass_tokens == {"empire": 1}
    game.play_until(lambda s: s.phase == "over", limit=3000)


def test_swa_3_3_obstructed_squadrons_are_not_engaged(armada: ArmadaRuleset) -> None:
    """SWA-3.3 / SWA-RRG "Engagement": two enemy squadrons at distance 1 are engaged unless the
    line of sight between them is obstructed (here by a station between them)."""
    def squadrons(obstacles: list[dict[str, Any]]) -> Game:
        return Game(
            scenario(
                [
                    ship("victory", "empire", "victory_ii", 700.0, 150.0, 0.0, 1),
                    ship("cr90", "rebels", "cr90_a", 700.0, 780.0, 180.0, 1),
                ],
                [
                    squadron("tie", "empire", "tie_fighter", 250.0, 350.0),
                    squadron("xwing", "rebels", "x_wing", 250.0, 450.0),
                ],
                obstacles=obstacles,
            )
        )

    clear = squadrons([])
    assert engaged_with(clear.state, "tie") == ["xwing"]
    blocked = squadrons([{"id": "st", "shape": "station", "x": 250.0, "y": 400.0}])
    assert engaged_with(blocked.state, "tie") == []
    assert engaged_with(blocked.state, "xwing") == []
