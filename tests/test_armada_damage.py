"""The Armada damage deck (SWA-DMG): the 52 cards shuffled from the game's dice, dealing face
down and face up, reshuffling the discards, destruction at cards ≥ hull, hidden information,
and the effect of every card (one test per card), inside attacks (SWA-ATK) and as stats or hooks.

Decks here are rigged piles (top first) so dealing draws no dice. Dice faces: red 1–2 blank,
3–4 hit, 5–6 crit, 7 accuracy, 8 hit+hit; blue 1–4 hit, 5–6 crit, 7–8 accuracy.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from domain.cards import HIDDEN_CARD, shuffle_probability
from domain.dice import FixedDice, SeededDice
from domain.errors import IllegalCommand, ScenarioError
from domain.events import DomainEvent
from domain.rulesets.armada import attack as A
from domain.rulesets.armada import damage as D
from domain.rulesets.armada.attack_events import (
    AttackDieRemoved,
    CommNoiseResolved,
    DamageCardDealt,
    DamageCardFlipped,
    DamageDeckShuffled,
    DamageTotalled,
    DefenceTokenDiscarded,
    ShieldsLost,
    UnitDestroyed,
)
from domain.rulesets.armada.attack_state import (
    Attacker,
    EndDefence,
    Geometry,
    RemoveDie,
    ShipDefender,
    SpendAccuracy,
    SpendDefenceToken,
    SquadronDefender,
)
from domain.rulesets.armada.data import DicePool, bundled_damage_deck, load_damage_deck
from domain.rulesets.armada.defence import DefenceToken, starting_tokens

CAT = bundled_damage_deck()
FILLER = ("coolant_discharge",) * 10
LONG = Geometry(range="long", distance=5)
CLOSE = Geometry(range="close", distance=1)


def hull(**kw: Any) -> D.ShipHull:
    base: dict[str, Any] = dict(
        id="cr90",
        side="rebel",
        hull=4,
        shields={"front": 2, "right": 2, "rear": 1, "left": 2},
        tokens=starting_tokens(["evade", "evade", "redirect"]),
        speed=2,
        dials=1,
    )
    return D.ShipHull(**{**base, **kw})


def deck(*cards: str) -> D.DeckState:
    return D.DeckState(draw=(*cards, *FILLER))


def deal_up(ship: D.ShipHull, card: str, **kw: Any) -> D.Dealt[D.ShipHull]:
    """Deal ``card`` face up to ``ship`` (as an asteroid field does)."""
    return D.deal_cards(
        ship,
        1,
        face_up=True,
        opponent="empire",
        deck=deck(card),
        dice=FixedDice([]),
        catalogue=CAT,
        **kw,
    )


def of(events: list[DomainEvent], cls: type[Any]) -> list[Any]:
    return [e for e in events if isinstance(e, cls)]


def victory(**kw: Any) -> Attacker:
    base: dict[str, Any] = dict(
        id="vsd",
        side="empire",
        kind="ship",
        zone="front",
        size="medium",
        battery=DicePool(red=2, blue=2),
        anti_squadron=DicePool(blue=1),
    )
    return Attacker(**{**base, **kw})


def defender(**kw: Any) -> ShipDefender:
    base: dict[str, Any] = dict(
        id="cr90",
        side="rebel",
        hull=4,
        shields={"front": 2, "right": 2, "rear": 1, "left": 2},
        speed=2,
        zone="front",
        size="small",
    )
    return ShipDefender(**{**base, **kw})


def attack(
    att: Attacker, dfd: Any, geometry: Geometry, faces: list[int], pile: tuple[str, ...] = FILLER
) -> A.Outcome:
    return A.declare(
        att, dfd, geometry, FixedDice(faces), deck=D.DeckState(draw=pile), catalogue=CAT
    )


def decide(out: A.Outcome, decision: Any, faces: list[int] | None = None) -> A.Outcome:
    return A.decide(
        out.attack,
        decision,
        FixedDice(faces or []),
        deck=out.deck,
        catalogue=CAT,
        side=A.actor(out.attack),
    )


# --------------------------------------------------------------------------- the deck


def test_the_deck_holds_52_cards_and_every_effect_is_implemented_swa_dmg() -> None:
    """SWA-DMG: 52 cards, 22 kinds; every effect key in the data is implemented, and the data's
    timing and flip flags agree with the implementation."""
    assert CAT.size == 52 and len(CAT.cards) == 22
    assert D.unknown_effects(CAT) == [] and D.check_catalogue(CAT) is CAT
    assert {c.effect for c in CAT.cards} == set(D.EFFECTS)
    for card in CAT.cards:
        dealt_once = card.effect in D.WHEN_DEALT
        assert (card.timing == "when_dealt") == dealt_once, card.id
        assert card.flips_facedown == dealt_once, card.id
        assert (D.EFFECTS[card.effect].scope == "dealt") == dealt_once


def test_an_unknown_effect_key_is_refused_swa_dmg() -> None:
    """SWA-DMG: a user's deck naming an effect Wake does not implement is refused."""
    data = CAT.model_dump()
    data["cards"][0]["effect"] = "summon_death_star"
    with pytest.raises(ScenarioError) as info:
        D.check_catalogue(load_damage_deck(data))
    assert "summon_death_star" in str(info.value)


def test_the_deck_is_shuffled_from_the_game_dice_swa_dmg() -> None:
    """SWA-DMG: the shuffle is a Fisher–Yates over the game's dice: replayable from its faces,
    the same for the same seed, each order 1/52!."""
    dice = SeededDice(11)
    event, state = D.new_deck(CAT, dice)
    assert Counter(state.draw) == Counter(CAT.card_ids()) and state.discard == ()
    assert len(event.faces) == 51 and event.next_die == dice.position == 51
    assert D.apply_deck(D.DeckState(), event) == state
    again, _ = D.new_deck(CAT, SeededDice(11))
    other, _ = D.new_deck(CAT, SeededDice(12))
    assert again == event and other.faces != event.faces
    assert shuffle_probability(52) > 0


def test_the_discards_are_reshuffled_when_the_deck_runs_out_swa_dmg() -> None:
    """SWA-DMG: a card drawn from an empty deck comes from the shuffled discard pile."""
    pile = D.DeckState(draw=(), discard=("power_failure", "structural_damage"))
    dice = FixedDice([2])
    dealt = D.deal_cards(hull(), 1, opponent="empire", deck=pile, dice=dice, catalogue=CAT)
    shuffled = of(dealt.events, DamageDeckShuffled)[0]
    assert shuffled.reason == "reshuffle" and shuffled.cards == [
        "power_failure",
        "structural_damage",
    ]
    assert shuffled.next_die == 1
    assert of(dealt.events, DamageCardDealt)[0].card == "power_failure"  # face 2 keeps the order
    assert dealt.deck == D.DeckState(draw=("structural_damage",), discard=())
    with pytest.raises(ScenarioError):
        D.deal_cards(hull(), 1, opponent="empire", deck=D.DeckState(), dice=dice, catalogue=CAT)


def test_face_down_cards_and_the_deck_order_are_hidden_swa_dmg() -> None:
    """SWA-DMG: face-down cards (from every side, their owner too), the shuffle faces and a
    destroyed ship's cards are hidden; the umpire sees everything; face-up cards are open."""
    down = DamageCardDealt(ship="cr90", card="power_failure")
    up = DamageCardDealt(
        ship="cr90", card="power_failure", face_up=True, effect="halve_engineering"
    )
    shuffled = DamageDeckShuffled(cards=["a", "b"], faces=[1], next_die=3)
    gone = UnitDestroyed(unit="cr90", kind="ship", cards=["a", "b"])
    assert D.redact(down, "rebel").card == HIDDEN_CARD  # type: ignore[attr-defined]
    assert D.redact(down, None) == down
    assert D.redact(up, "empire") == up
    assert D.redact(shuffled, "empire").faces == []  # type: ignore[attr-defined]
    assert D.redact(shuffled, "empire").next_die == 3  # type: ignore[attr-defined]
    assert D.redact(gone, "rebel").cards == [HIDDEN_CARD] * 2  # type: ignore[attr-defined]


def test_damage_goes_to_shields_then_face_down_cards_swa_dmg() -> None:
    """SWA-DMG / SWA-ATK 5: damage takes the zone's shields first, then one face-down card a
    point; the standard critical effect turns the first card face up."""
    dealt = D.suffer_damage(
        hull(), "rear", 3, opponent="empire", deck=deck(), dice=FixedDice([]), catalogue=CAT
    )
    assert dealt.ship.shields["rear"] == 0
    assert [c.face_up for c in dealt.ship.cards] == [False, False]
    dealt = D.suffer_damage(
        hull(),
        "rear",
        3,
        face_up_first=True,
        opponent="empire",
        deck=deck("power_failure"),
        dice=FixedDice([]),
        catalogue=CAT,
    )
    assert [c.face_up for c in dealt.ship.cards] == [True, False]
    assert dealt.ship.face_up == ("power_failure",)
    assert D.effects_at("engineering", dealt.ship, CAT) == ("halve_engineering",)


def test_a_ship_is_destroyed_at_cards_equal_to_hull_swa_dmg() -> None:
    """SWA-DMG: at damage cards ≥ hull the ship is destroyed, dealing stops, its cards go to
    the discard pile."""
    dealt = D.suffer_damage(
        hull(), "rear", 9, opponent="empire", deck=deck(), dice=FixedDice([]), catalogue=CAT
    )
    assert len(dealt.ship.cards) == 4 and dealt.ship.destroyed and dealt.dealing is None
    gone = of(dealt.events, UnitDestroyed)[0]
    assert gone.cards == ["coolant_discharge"] * 4
    assert dealt.deck.discard == ("coolant_discharge",) * 4
    assert (
        D.suffer_damage(
            dealt.ship,
            "front",
            1,
            opponent="empire",
            deck=dealt.deck,
            dice=FixedDice([]),
            catalogue=CAT,
        ).events
        == []
    )


def test_a_face_up_card_that_destroys_the_ship_does_not_act_swa_dmg() -> None:
    """SWA-DMG: the ship is destroyed at once; the card's effect does not resolve."""
    ship = hull(hull=1)
    dealt = deal_up(ship, "shield_failure")
    assert dealt.ship.destroyed and dealt.dealing is None
    assert not of(dealt.events, ShieldsLost) and not of(dealt.events, DamageCardFlipped)


def test_folding_the_events_rebuilds_ship_and_deck_swa_dmg() -> None:
    """SWA-DMG: apply_ship / apply_dealing / apply_deck rebuild what dealing decided."""
    start = hull()
    pile = deck("structural_damage", "injured_crew")
    dealt = D.suffer_damage(
        start,
        "front",
        4,
        face_up_first=True,
        opponent="empire",
        deck=pile,
        dice=FixedDice([]),
        catalogue=CAT,
    )
    ship, dealing, state = start, None, pile
    for event in dealt.events:
        ship, dealing, state = (
            D.apply_ship(ship, event),
            D.apply_dealing(dealing, event),
            (D.apply_deck(state, event)),
        )
    assert (ship, dealing, state) == (dealt.ship, dealt.dealing, dealt.deck)


# --------------------------------------------------------------------------- when dealt


def test_structural_damage_deals_another_face_down_card_swa_dmg() -> None:
    """SWA-DMG Structural Damage: one more face-down card, then this card turns face down."""
    dealt = deal_up(hull(), "structural_damage")
    assert [(c.card, c.face_up) for c in dealt.ship.cards] == [
        ("structural_damage", False),
        ("coolant_discharge", False),
    ]
    assert dealt.dealing is None
    names = [type(e).__name__ for e in dealt.events]
    assert names.index("DamageCardFlipped") > names.index("DamageCardDealt", 2)


def test_injured_crew_owner_discards_a_token_swa_dmg() -> None:
    """SWA-DMG Injured Crew: the owner chooses a defence token to discard; then face down."""
    dealt = deal_up(hull(), "injured_crew")
    assert dealt.dealing is not None and D.chooser(dealt.ship, dealt.dealing) == "rebel"
    assert D.legal_choices(dealt.ship, dealt.dealing) == [
        D.DiscardDefenceToken(token=0),
        D.DiscardDefenceToken(token=2),
    ]
    done = D.resolve_choice(
        dealt.ship,
        dealt.dealing,
        D.DiscardDefenceToken(token=1),
        deck=dealt.deck,
        dice=FixedDice([]),
        catalogue=CAT,
    )
    assert done.ship.tokens[1].state == "discarded"
    assert of(done.events, DefenceTokenDiscarded)[0].kind == "evade"
    assert done.ship.cards[0].face_up is False and done.dealing is None
    with pytest.raises(IllegalCommand):
        D.resolve_choice(
            done.ship,
            done.dealing,
            D.DiscardDefenceToken(token=1),
            deck=done.deck,
            dice=FixedDice([]),
            catalogue=CAT,
        )
    # one kind of token left: no choice; none left: nothing
    one = deal_up(
        hull(tokens=(DefenceToken(kind="brace"), DefenceToken(kind="brace"))), "injured_crew"
    )
    assert one.dealing is None and one.ship.tokens[0].state == "discarded"
    none = deal_up(hull(tokens=()), "injured_crew")
    assert none.dealing is None and not of(none.events, DefenceTokenDiscarded)


def test_comm_noise_opponent_lowers_speed_or_changes_the_dial_swa_dmg() -> None:
    """SWA-DMG Comm Noise: the opponent may lower the speed by 1, set the top dial, or not."""
    dealt = deal_up(hull(), "comm_noise")
    assert D.chooser(dealt.ship, dealt.dealing) == "empire"
    choices = D.legal_choices(dealt.ship, dealt.dealing)
    assert D.SpeedOrDial(choice="speed") in choices
    assert D.SpeedOrDial(choice="dial", command="repair") in choices
    assert D.SpeedOrDial(choice="none") in choices
    slow = D.resolve_choice(
        dealt.ship,
        dealt.dealing,
        D.SpeedOrDial(choice="speed"),
        deck=dealt.deck,
        dice=FixedDice([]),
        catalogue=CAT,
    )
    assert slow.ship.speed == 1 and of(slow.events, CommNoiseResolved)[0].speed == 1
    dial = D.resolve_choice(
        dealt.ship,
        dealt.dealing,
        D.SpeedOrDial(choice="dial", command="navigate"),
        deck=dealt.deck,
        dice=FixedDice([]),
        catalogue=CAT,
    )
    assert of(dial.events, CommNoiseResolved)[0].command == "navigate"
    assert dial.ship.speed == 2
    # at speed 0 with no dial left there is nothing to choose
    idle = deal_up(hull(speed=0, dials=0), "comm_noise")
    assert idle.dealing is None and of(idle.events, CommNoiseResolved)[0].choice == "none"
    with pytest.raises(IllegalCommand):  # no dial to change
        stalled = deal_up(hull(speed=1, dials=0), "comm_noise")
        D.resolve_choice(
            stalled.ship,
            stalled.dealing,
            D.SpeedOrDial(choice="dial", command="navigate"),
            deck=stalled.deck,
            dice=FixedDice([]),
            catalogue=CAT,
        )


def test_projector_misaligned_strongest_zone_loses_all_swa_dmg() -> None:
    """SWA-DMG Projector Misaligned: the zone with the most shields loses them all; the owner
    picks among tied zones."""
    dealt = deal_up(
        hull(shields={"front": 3, "right": 1, "rear": 1, "left": 2}), "projector_misaligned"
    )
    assert dealt.dealing is None and dealt.ship.shields["front"] == 0
    assert of(dealt.events, ShieldsLost)[0].amount == 3
    tied = deal_up(hull(), "projector_misaligned")
    assert D.chooser(tied.ship, tied.dealing) == "rebel"
    assert D.legal_choices(tied.ship, tied.dealing) == [
        D.LoseShieldsZone(zone=z) for z in ("front", "right", "left")
    ]
    with pytest.raises(IllegalCommand):
        D.resolve_choice(
            tied.ship,
            tied.dealing,
            D.LoseShieldsZone(zone="rear"),
            deck=tied.deck,
            dice=FixedDice([]),
            catalogue=CAT,
        )
    done = D.resolve_choice(
        tied.ship,
        tied.dealing,
        D.LoseShieldsZone(zone="left"),
        deck=tied.deck,
        dice=FixedDice([]),
        catalogue=CAT,
    )
    assert done.ship.shields == {"front": 2, "right": 2, "rear": 1, "left": 0}
    bare = deal_up(
        hull(shields=dict.fromkeys(("front", "right", "rear", "left"), 0)), "projector_misaligned"
    )
    assert bare.dealing is None and not of(bare.events, ShieldsLost)


def test_shield_failure_opponent_strips_two_zones_swa_dmg() -> None:
    """SWA-DMG Shield Failure: the opponent picks up to two zones; each loses one shield."""
    dealt = deal_up(hull(), "shield_failure")
    assert D.chooser(dealt.ship, dealt.dealing) == "empire"
    assert D.StripShields(zones=("front", "rear")) in D.legal_choices(dealt.ship, dealt.dealing)
    with pytest.raises(IllegalCommand):
        D.resolve_choice(
            dealt.ship,
            dealt.dealing,
            D.StripShields(zones=("front", "front")),
            deck=dealt.deck,
            dice=FixedDice([]),
            catalogue=CAT,
        )
    done = D.resolve_choice(
        dealt.ship,
        dealt.dealing,
        D.StripShields(zones=("rear", "front")),
        deck=dealt.deck,
        dice=FixedDice([]),
        catalogue=CAT,
    )
    assert done.ship.shields == {"front": 1, "right": 2, "rear": 0, "left": 2}
    assert done.ship.cards[0].face_up is False


def test_a_pending_choice_comes_before_the_next_card_swa_dmg() -> None:
    """SWA-DMG: cards are dealt one at a time; a face-up card's choice is made before the next
    card of the same damage is dealt."""
    dealt = D.suffer_damage(
        hull(shields=dict.fromkeys(("front", "right", "rear", "left"), 0)),
        "front",
        3,
        face_up_first=True,
        opponent="empire",
        deck=deck("injured_crew"),
        dice=FixedDice([]),
        catalogue=CAT,
    )
    assert len(dealt.ship.cards) == 1 and dealt.dealing is not None and dealt.dealing.due == 2
    done = D.resolve_choice(
        dealt.ship,
        dealt.dealing,
        D.DiscardDefenceToken(token=2),
        deck=dealt.deck,
        dice=FixedDice([]),
        catalogue=CAT,
    )
    assert len(done.ship.cards) == 3 and done.dealing is None


# --------------------------------------------------------------------------- inside attacks


def test_blinded_gunners_no_accuracy_spending_swa_dmg() -> None:
    """SWA-DMG Blinded Gunners: the attacker cannot spend accuracy icons."""
    dfd = defender(tokens=starting_tokens(["brace"]))
    out = attack(victory(face_up=("blinded_gunners",)), dfd, LONG, [7, 3])
    assert out.attack.step == "defend"  # the accuracy could not be spent: nothing to modify
    out = attack(victory(), dfd, LONG, [7, 3])
    assert SpendAccuracy(die=0, token=0) in A.legal_decisions(out.attack, CAT)
    blinded = out.attack.model_copy(update={"attacker": victory(face_up=("blinded_gunners",))})
    with pytest.raises(IllegalCommand) as info:
        A.decide(
            blinded, SpendAccuracy(die=0, token=0), FixedDice([]), deck=out.deck, catalogue=CAT
        )
    assert info.value.rule == "SWA-DMG"


def test_capacitor_failure_no_redirect_from_an_empty_zone_swa_dmg() -> None:
    """SWA-DMG Capacitor Failure: while the defending zone has no shields, no Redirect; and a
    zone without shields can neither recover nor receive shields."""
    cards = (D.HeldCard(card="capacitor_failure", face_up=True),)
    empty = {"front": 0, "right": 2, "rear": 1, "left": 2}
    out = attack(
        victory(),
        defender(tokens=starting_tokens(["redirect", "brace"]), cards=cards, shields=empty),
        LONG,
        [3, 3],
    )
    assert all(
        d.token != 0 for d in A.legal_decisions(out.attack, CAT) if isinstance(d, SpendDefenceToken)
    )
    with pytest.raises(IllegalCommand) as info:
        decide(out, SpendDefenceToken(token=0, zone="left"))
    assert info.value.rule == "SWA-DMG"
    out = attack(
        victory(), defender(tokens=starting_tokens(["redirect"]), cards=cards), LONG, [3, 3]
    )
    assert SpendDefenceToken(token=0, zone="left") in A.legal_decisions(out.attack, CAT)
    effects = D.face_up_effects(cards, CAT)
    assert D.shields_locked(effects, 0) and not D.shields_locked(effects, 1)
    assert D.effects_at("repair", cards, CAT) == ("empty_zone_shield_lock",)


def test_coolant_discharge_one_ship_attack_each_round_swa_dmg() -> None:
    """SWA-DMG Coolant Discharge: only one attack each round can target a ship."""
    hurt = victory(face_up=("coolant_discharge",), ship_attacks_this_round=1)
    with pytest.raises(IllegalCommand) as info:
        attack(hurt, defender(), LONG, [3, 3])
    assert info.value.rule == "SWA-DMG"
    squadron = SquadronDefender(id="x1", side="rebel", hull=5)
    assert attack(hurt, squadron, CLOSE, [1]).attack.step == "additional"
    assert attack(victory(face_up=("coolant_discharge",)), defender(), LONG, [3, 3]).attack.over


def test_damaged_munitions_drops_a_die_against_ships_swa_dmg() -> None:
    """SWA-DMG Damaged Munitions: attacking a ship, remove one die of the attacker's choice
    before rolling."""
    out = attack(victory(face_up=("damaged_munitions",)), defender(), Geometry(range="medium"), [])
    assert A.legal_decisions(out.attack, CAT) == [RemoveDie(colour="red"), RemoveDie(colour="blue")]
    out = decide(out, RemoveDie(colour="red"), [1, 1, 1])
    removed = of(out.events, AttackDieRemoved)[0]
    assert (removed.rule, removed.reason) == ("SWA-DMG", "Damaged Munitions")
    # against a squadron it does nothing
    squadron = SquadronDefender(id="x1", side="rebel", hull=5)
    out = attack(victory(face_up=("damaged_munitions",)), squadron, CLOSE, [1])
    assert not of(out.events, AttackDieRemoved)


def test_point_defense_failure_drops_a_die_against_squadrons_swa_dmg() -> None:
    """SWA-DMG Point-Defense Failure: attacking a squadron, one die fewer (a lone colour is
    removed without asking; no die left cancels the attack, SWA-ATK 2)."""
    squadron = SquadronDefender(id="x1", side="rebel", hull=5)
    hurt = victory(face_up=("point_defense_failure",), anti_squadron=DicePool(blue=2))
    out = attack(hurt, squadron, CLOSE, [1])
    assert of(out.events, AttackDieRemoved)[0].reason == "Point-Defense Failure"
    assert len(out.attack.pool) == 1
    out = attack(victory(face_up=("point_defense_failure",)), squadron, CLOSE, [])
    assert out.attack.cancelled
    assert not of(attack(hurt, defender(), LONG, [1, 1]).events, AttackDieRemoved)


def test_depowered_armament_no_long_range_swa_dmg() -> None:
    """SWA-DMG Depowered Armament: the ship cannot attack at long range."""
    with pytest.raises(IllegalCommand) as info:
        attack(victory(face_up=("depowered_armament",)), defender(), LONG, [1, 1])
    assert info.value.rule == "SWA-DMG"
    assert attack(
        victory(face_up=("depowered_armament",)), defender(), Geometry(range="medium"), [1, 1, 1, 1]
    ).attack.over


def test_disengaged_fire_control_no_obstructed_targets_swa_dmg() -> None:
    """SWA-DMG Disengaged Fire Control: no target the attack to which is obstructed."""
    hurt = victory(face_up=("disengaged_fire_control",))
    with pytest.raises(IllegalCommand) as info:
        attack(hurt, defender(), Geometry(range="long", obstructed=True), [1])
    assert info.value.rule == "SWA-DMG"
    assert attack(hurt, defender(), LONG, [1, 1]).attack.over


def test_faulty_countermeasures_only_ready_tokens_swa_dmg() -> None:
    """SWA-DMG Faulty Countermeasures: exhausted defence tokens cannot be spent."""
    cards = (D.HeldCard(card="faulty_countermeasures", face_up=True),)
    tokens = (DefenceToken(kind="brace", state="exhausted"), DefenceToken(kind="evade"))
    out = attack(victory(), defender(tokens=tokens, cards=cards), LONG, [3, 3])
    with pytest.raises(IllegalCommand) as info:
        decide(out, SpendDefenceToken(token=0))
    assert info.value.rule == "SWA-DMG"
    assert all(
        d.token == 1 for d in A.legal_decisions(out.attack, CAT) if isinstance(d, SpendDefenceToken)
    )
    out = decide(out, SpendDefenceToken(token=1, dice=(0,)))
    assert out.attack.over


def test_targeter_disruption_no_critical_effects_swa_dmg() -> None:
    """SWA-DMG Targeter Disruption: the attacker resolves no critical effect."""
    bare = {"front": 0, "right": 2, "rear": 1, "left": 2}
    out = attack(victory(face_up=("targeter_disruption",)), defender(shields=bare), LONG, [5, 3])
    total = of(out.events, DamageTotalled)[0]
    assert (total.critical, total.blocked) == (False, "no_critical_effects")
    assert all(not d.face_up for d in of(out.events, DamageCardDealt))


def test_face_up_cards_dealt_in_an_attack_wait_for_their_choice_swa_dmg() -> None:
    """SWA-DMG / SWA-ATK 5: the standard critical effect deals Shield Failure face up; the
    attacker (the defender's opponent) chooses, then the attack ends."""
    bare = {"front": 0, "right": 2, "rear": 1, "left": 2}
    out = attack(victory(), defender(shields=bare), LONG, [5, 3], pile=("shield_failure", *FILLER))
    assert out.attack.step == "damage" and A.actor(out.attack) == "empire"
    out = decide(out, D.StripShields(zones=("right", "left")))
    assert out.attack.over and out.attack.defender.shields == {
        "front": 0,
        "right": 1,
        "rear": 1,
        "left": 1,
    }
    assert [c.face_up for c in out.attack.defender.cards] == [False, False]
    with pytest.raises(IllegalCommand):
        decide(out, EndDefence())


# --------------------------------------------------------------------------- stats and hooks


def test_compartment_fire_tokens_are_not_readied_swa_dmg() -> None:
    """SWA-DMG Compartment Fire: the ship's defence tokens are not readied (SWA-4)."""
    dealt = deal_up(hull(), "compartment_fire")
    effects = D.face_up_effects(dealt.ship, CAT)
    assert not D.may_ready_defence_tokens(effects)
    assert D.effects_at("status", dealt.ship, CAT) == ("no_defense_token_ready",)
    assert D.may_ready_defence_tokens(())


def test_crew_panic_before_revealing_a_dial_swa_dmg() -> None:
    """SWA-DMG Crew Panic: before revealing a dial, 1 damage or the dial is discarded."""
    dealt = deal_up(hull(), "crew_panic")
    assert D.must_panic_before_reveal(D.face_up_effects(dealt.ship, CAT))
    assert D.effects_at("reveal", dealt.ship, CAT) == ("damage_or_discard_dial",)
    assert dealt.ship.cards[0].face_up  # persistent: it stays face up


def test_damaged_controls_overlap_deals_a_card_swa_dmg() -> None:
    """SWA-DMG Damaged Controls: overlapping a ship or an obstacle deals one more face-down
    card (one per copy)."""
    assert D.overlap_cards(("overlap_extra_damage",)) == 1
    assert D.overlap_cards(("overlap_extra_damage", "overlap_extra_damage")) == 2
    assert D.overlap_cards(()) == 0
    assert D.effects_at("overlap", deal_up(hull(), "damaged_controls").ship, CAT)


def test_life_support_failure_no_command_tokens_swa_dmg() -> None:
    """SWA-DMG Life Support Failure: the command tokens go when it is dealt face up and none may
    be held while it is face up."""
    dealt = deal_up(hull(), "life_support_failure")
    assert not D.may_hold_command_tokens(D.face_up_effects(dealt.ship, CAT))
    assert D.effects_at("dealt", dealt.ship, CAT) == ("no_command_tokens",)
    assert of(dealt.events, DamageCardDealt)[0].effect == "no_command_tokens"


def test_power_failure_halves_engineering_swa_dmg() -> None:
    """SWA-DMG Power Failure: engineering value halved, rounding down."""
    assert D.engineering_value(4, ("halve_engineering",)) == 2
    assert D.engineering_value(3, ("halve_engineering",)) == 1
    assert D.engineering_value(3, ()) == 3
    assert D.effects_at("engineering", deal_up(hull(), "power_failure").ship, CAT)


def test_ruptured_engine_damage_after_a_fast_maneuver_swa_dmg() -> None:
    """SWA-DMG Ruptured Engine: after a maneuver with the speed dial above 1, 1 damage."""
    assert D.damage_after_maneuver(("damage_after_fast_maneuver",), 2) == 1
    assert D.damage_after_maneuver(("damage_after_fast_maneuver",), 1) == 0
    assert D.damage_after_maneuver((), 3) == 0
    assert D.effects_at("after_maneuver", deal_up(hull(), "ruptured_engine").ship, CAT)


def test_thrust_control_malfunction_last_joint_loses_a_click_swa_dmg() -> None:
    """SWA-DMG Thrust-Control Malfunction: the last joint that may click allows one less."""
    effect = ("last_joint_yaw_minus_one",)
    assert D.damaged_yaw_limits((0, 1, 2), effect) == (0, 1, 1)
    assert D.damaged_yaw_limits((1, 1, 0), effect) == (1, 0, 0)
    assert D.damaged_yaw_limits((1,), effect) == (0,)
    assert D.damaged_yaw_limits((0, 0), effect) == (0, 0)
    assert D.damaged_yaw_limits((0, 1, 2), effect * 2) == (0, 1, 0)
    assert D.effects_at("course", deal_up(hull(), "thrust_control_malfunction").ship, CAT)


def test_thruster_fissure_damage_on_speed_change_swa_dmg() -> None:
    """SWA-DMG Thruster Fissure: a change of speed by 1 or more costs 1 damage."""
    assert D.damage_on_speed_change(("damage_on_speed_change",), 2, 3) == 1
    assert D.damage_on_speed_change(("damage_on_speed_change",), 2, 2) == 0
    assert D.effects_at("speed_change", deal_up(hull(), "thruster_fissure").ship, CAT)


@pytest.mark.parametrize("card", [c.id for c in bundled_damage_deck().cards])
def test_every_card_dealt_face_up_resolves_swa_dmg(card: str) -> None:
    """SWA-DMG: every card can be dealt face up; when-dealt cards end face down once resolved
    (each legal choice), persistent ones stay face up."""
    dealt = deal_up(hull(), card)
    effect = CAT.get(card).effect
    options = D.legal_choices(dealt.ship, dealt.dealing) or [None]
    for choice in options:
        done = (
            dealt
            if choice is None
            else D.resolve_choice(
                dealt.ship,
                dealt.dealing,
                choice,
                deck=dealt.deck,
                dice=FixedDice([]),
                catalogue=CAT,
            )
        )
        assert done.dealing is None
        first = done.ship.cards[0]
        assert first.card == card and first.face_up == (effect not in D.WHEN_DEALT)
