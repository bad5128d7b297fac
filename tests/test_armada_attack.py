"""The Armada attack pipeline, step by step (SWA-ATK 1–6, SWA-DICE, SWA-3.2, SWA-3.3, SWA-R3,
SWA-DATA keywords), and the custom-dice pool roll it records (domain.chance.pool_roll).

Dice faces (SWA-DICE, ``domain.dice``): red 1–2 blank, 3–4 hit, 5–6 crit, 7 accuracy,
8 hit+hit; blue 1–4 hit, 5–6 crit, 7–8 accuracy; black 1–2 blank, 3–6 hit, 7–8 hit+crit.
FixedDice faces are consumed in throw order: the pool red, then blue, then black.
The damage deck is a rigged pile (top first) so that no shuffle draws dice.
"""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest

from domain.chance import parse_pool, pool_expression, pool_roll, roll_icons
from domain.dice import (
    ARMADA_BLACK,
    ARMADA_BLUE,
    ARMADA_RED,
    CustomDie,
    DiceError,
    FixedDice,
    SeededDice,
    pool_distribution,
)
from domain.errors import IllegalCommand, InvalidCommand, NotYourTurn
from domain.events import DiceRolled, DomainEvent, EventRegistry
from domain.rulesets.armada import attack as A
from domain.rulesets.armada import damage as D
from domain.rulesets.armada.attack_events import (
    ATTACK_EVENTS,
    AttackDeclared,
    AttackDiceGathered,
    AttackDiceRolled,
    AttackDieRemoved,
    AttackEnded,
    AttackStepBegan,
    DamageCardDealt,
    DamageSuffered,
    DamageTotalled,
    PoolDie,
    UnitDestroyed,
    describe,
)
from domain.rulesets.armada.attack_state import (
    Attacker,
    AttackState,
    ConcentrateFire,
    ConcentrateFireReroll,
    EndAttack,
    EndAttackEffects,
    EndDefence,
    Geometry,
    RemoveDie,
    ShipDefender,
    SpendAccuracy,
    SpendDefenceToken,
    SquadronDefender,
    SwarmReroll,
    apply,
    begin,
    declared_geometry,
    parse_decision,
    retarget,
)
from domain.rulesets.armada.data import DicePool, bundled_damage_deck
from domain.rulesets.armada.defence import starting_tokens

CAT = bundled_damage_deck()
FILLER = ("coolant_discharge",) * 20  # a persistent card: nothing to choose when dealt
DECK = D.DeckState(draw=FILLER)


def victory(**kw: Any) -> Attacker:
    base: dict[str, Any] = dict(
        id="vsd",
        side="empire",
        kind="ship",
        zone="front",
        size="medium",
        battery=DicePool(red=3, blue=3),
        anti_squadron=DicePool(blue=1),
    )
    return Attacker(**{**base, **kw})


def cr90(**kw: Any) -> ShipDefender:
    base: dict[str, Any] = dict(
        id="cr90",
        side="rebel",
        hull=4,
        shields={"front": 2, "right": 2, "rear": 1, "left": 2},
        tokens=(),
        speed=2,
        zone="front",
        size="small",
    )
    return ShipDefender(**{**base, **kw})


def tie(**kw: Any) -> Attacker:
    base: dict[str, Any] = dict(
        id="tie1",
        side="empire",
        kind="squadron",
        battery=DicePool(blue=1),
        anti_squadron=DicePool(blue=3),
        keywords=("swarm",),
    )
    return Attacker(**{**base, **kw})


def xwing(**kw: Any) -> SquadronDefender:
    base: dict[str, Any] = dict(id="x1", side="rebel", hull=5, keywords=("bomber", "escort"))
    return SquadronDefender(**{**base, **kw})


def xwing_attacker(**kw: Any) -> Attacker:
    base: dict[str, Any] = dict(
        id="x1",
        side="rebel",
        kind="squadron",
        battery=DicePool(red=1),
        anti_squadron=DicePool(blue=4),
        keywords=("bomber", "escort"),
    )
    return Attacker(**{**base, **kw})


def vsd_defender(**kw: Any) -> ShipDefender:
    base: dict[str, Any] = dict(
        id="vsd",
        side="empire",
        hull=8,
        shields={"front": 3, "right": 3, "rear": 1, "left": 3},
        speed=1,
        zone="left",
        size="medium",
    )
    return ShipDefender(**{**base, **kw})


CLOSE = Geometry(range="close", distance=1)
MEDIUM = Geometry(range="medium", distance=3)
LONG = Geometry(range="long", distance=5)
SQUAD = Geometry(distance=1)


def declare(
    attacker: Attacker, defender: Any, geometry: Geometry, faces: list[int], **kw: Any
) -> A.Outcome:
    return A.declare(attacker, defender, geometry, FixedDice(faces), deck=DECK, catalogue=CAT, **kw)


def step(out: A.Outcome, decision: Any, faces: list[int] | None = None, **kw: Any) -> A.Outcome:
    return A.decide(
        out.attack, decision, FixedDice(faces or []), deck=out.deck, catalogue=CAT, **kw
    )


def kinds(events: list[DomainEvent]) -> list[str]:
    return [type(e).__name__ for e in events]


def of(events: list[DomainEvent], cls: type[Any]) -> list[Any]:
    return [e for e in events if isinstance(e, cls)]


# --------------------------------------------------------------------------- the pool roll


def test_pool_roll_records_faces_and_exact_odds_swa_dice() -> None:
    """SWA-DICE: a custom-dice pool is a DiceRolled: pool text, face numbers, damage as the
    total, the exact chance of at least that much and the expected damage."""
    pool = [ARMADA_RED, ARMADA_RED, ARMADA_BLUE]

    def score(icons: Counter[str]) -> int:
        return icons["hit"] + icons["crit"]

    event = pool_roll(
        FixedDice([8, 1, 5]),
        pool=pool,
        score=score,
        side="empire",
        purpose="attack",
        rule="SWA-ATK 2",
        unit="damage",
    )
    dist = pool_distribution(pool, score)
    assert event.roll.expression == "2armada-red+armada-blue"
    assert event.roll.faces == [8, 1, 5]
    assert event.roll.total == 3 and event.value == "3" and event.outcome == "3 damage"
    assert event.comparison == "at_least" and event.compared_with == 3
    assert Fraction(event.p_success or "0") == sum(p for v, p in dist.items() if v >= 3)
    assert Fraction(event.p_outcome) == dist[3]
    # red: 6/8 damage a die (2 hit faces, 2 crit faces, 1 double hit); blue: 6/8
    assert Fraction(event.expected) == Fraction(6, 8) * 3
    assert event.success is None
    assert roll_icons(event.roll, [ARMADA_RED, ARMADA_BLUE]) == [("hit", "hit"), (), ("crit",)]


def test_pool_expression_round_trip_swa_dice() -> None:
    """SWA-DICE: the pool text names each die; a run is written with its count."""
    pool = (ARMADA_RED, ARMADA_BLUE, ARMADA_BLUE, ARMADA_BLACK, ARMADA_RED)
    text = pool_expression(pool)
    assert text == "armada-red+2armada-blue+armada-black+armada-red"
    assert parse_pool(text, [ARMADA_RED, ARMADA_BLUE, ARMADA_BLACK]) == pool
    with pytest.raises(DiceError):
        parse_pool("armada-green", [ARMADA_RED])
    with pytest.raises(DiceError):
        pool_expression([])
    coin = CustomDie("coin", (("heads",), ()))
    assert parse_pool(pool_expression([coin, coin]), [coin]) == (coin, coin)


def test_physical_faces_outside_a_die_are_refused_swa_dice() -> None:
    """SWA-DICE: physical faces are face numbers 1–8 of the die thrown."""
    with pytest.raises(DiceError):
        pool_roll(
            FixedDice([9]),
            pool=[ARMADA_RED],
            score=lambda c: c["hit"],
            side=None,
            purpose="attack",
            rule="SWA-ATK 2",
        )


# --------------------------------------------------------------------------- SWA-ATK 1


@pytest.mark.parametrize(
    ("attacker", "defender", "geometry", "rule"),
    [
        (victory(), cr90(side="empire"), CLOSE, "SWA-ATK 1"),  # friendly
        (victory(), cr90(), Geometry(in_arc=False, range="close"), "SWA-ATK 1"),
        (victory(), cr90(), Geometry(range=None), "SWA-ATK 1"),  # beyond long
        (victory(battery=DicePool(blue=2, black=1)), cr90(), LONG, "SWA-ATK 1"),  # reach
        (victory(battery=DicePool(black=2)), cr90(), MEDIUM, "SWA-ATK 1"),
        (victory(), cr90(), Geometry(range="close", line_of_sight=False), "SWA-ATK 1"),
        (victory(), cr90(destroyed=True), CLOSE, "SWA-ATK 1"),
        (victory(anti_squadron=DicePool()), xwing(), CLOSE, "SWA-ATK 1"),  # no armament
        (tie(), xwing(), Geometry(distance=2), "SWA-3.2"),
        (tie(engaged=True), cr90(), SQUAD, "SWA-3.3"),
        (tie(engaged_with_escort=True), xwing(keywords=()), SQUAD, "SWA-DATA"),
    ],
)
def test_declare_refusals_name_their_rule(
    attacker: Attacker, defender: Any, geometry: Geometry, rule: str
) -> None:
    """SWA-ATK 1: friendly, out of arc, out of range, no line of sight; SWA-3.2 squadrons at
    distance 1; SWA-3.3 engaged squadrons attack squadrons; SWA-DATA Escort."""
    dice = FixedDice([1] * 10)
    with pytest.raises(IllegalCommand) as info:
        A.declare(attacker, defender, geometry, dice, deck=DECK, catalogue=CAT)
    assert info.value.rule == rule
    assert dice.position == 0  # nothing was rolled


def test_escort_target_is_allowed_and_ships_attack_engaged_squadrons_swa_data() -> None:
    """SWA-DATA Escort: engaged with an Escort squadron, a squadron may still attack it; a ship
    may attack an engaged squadron (RRG)."""
    out = declare(tie(engaged_with_escort=True), xwing(), SQUAD, [1, 1, 1])
    assert of(out.events, AttackDeclared)
    out = declare(victory(), xwing(), Geometry(range="close", defender_engaged=True), [1])
    assert of(out.events, AttackDeclared)


def test_declared_event_records_the_measurements_swa_atk_1() -> None:
    """SWA-ATK 1: the declaration names both units, zones, range, distance and obstruction."""
    out = declare(victory(), cr90(zone="left"), Geometry(range="medium", distance=3), [1] * 6)
    declared = of(out.events, AttackDeclared)[0]
    assert (declared.attacker, declared.zone, declared.defender, declared.defending_zone) == (
        "vsd",
        "front",
        "cr90",
        "left",
    )
    assert (declared.range, declared.distance, declared.armament) == ("medium", 3, "battery")
    assert declared_geometry(declared).range == "medium"


# --------------------------------------------------------------------------- SWA-ATK 2


@pytest.mark.parametrize(
    ("geometry", "pool"),
    [(CLOSE, (2, 2, 2)), (MEDIUM, (2, 2, 0)), (LONG, (2, 0, 0))],
)
def test_only_the_colours_legal_at_the_range_are_rolled_swa_atk_2(
    geometry: Geometry, pool: tuple[int, int, int]
) -> None:
    """SWA-ATK 2: red at close–long, blue at close–medium, black at close only."""
    attacker = victory(battery=DicePool(red=2, blue=2, black=2))
    out = declare(attacker, cr90(), geometry, [1] * 6)
    gathered = of(out.events, AttackDiceGathered)[0]
    assert (gathered.red, gathered.blue, gathered.black) == pool
    rolled = of(out.events, AttackDiceRolled)[0]
    assert [d.colour for d in rolled.dice] == ["red"] * pool[0] + ["blue"] * pool[1] + [
        "black"
    ] * pool[2]


def test_battery_against_ships_anti_squadron_against_squadrons_swa_atk_2() -> None:
    """SWA-ATK 2: the battery armament against a ship, anti-squadron against a squadron."""
    out = declare(victory(), xwing(), CLOSE, [1])
    gathered = of(out.events, AttackDiceGathered)[0]
    assert (gathered.red, gathered.blue, gathered.black) == (0, 1, 0)
    assert of(out.events, AttackDeclared)[0].armament == "anti_squadron"


def test_obstruction_removes_a_die_of_the_attackers_choice_swa_atk_2() -> None:
    """SWA-ATK 2: an obstructed attack loses one die before the roll, chosen by the attacker
    when the pool has two colours; nothing is rolled until then."""
    obstructed = Geometry(range="medium", distance=3, obstructed=True)
    out = declare(victory(), cr90(), obstructed, [])
    assert out.attack.step == "roll" and A.actor(out.attack) == "empire"
    assert A.legal_decisions(out.attack, CAT) == [RemoveDie(colour="red"), RemoveDie(colour="blue")]
    assert not of(out.events, AttackDiceRolled)
    with pytest.raises(IllegalCommand) as info:
        step(out, RemoveDie(colour="black"))
    assert info.value.rule == "SWA-ATK 2"
    out = step(out, RemoveDie(colour="blue"), [1] * 5)
    removed = of(out.events, AttackDieRemoved)[0]
    assert (removed.colour, removed.rule) == ("blue", "SWA-ATK 2")
    assert [d.colour for d in out.attack.pool] == ["red"] * 3 + ["blue"] * 2


def test_obstruction_with_one_colour_removes_it_without_asking_swa_atk_2() -> None:
    """SWA-ATK 2: with every die one colour the removal needs no decision."""
    out = declare(victory(), cr90(), Geometry(range="long", obstructed=True), [3, 3])
    assert of(out.events, AttackDieRemoved)[0].colour == "red"
    assert len(out.attack.pool) == 2


def test_no_die_left_cancels_the_attack_swa_atk_2() -> None:
    """SWA-ATK 2: if no die is left to roll, the attack is cancelled."""
    attacker = victory(battery=DicePool(red=1))
    out = declare(attacker, cr90(), Geometry(range="long", obstructed=True), [])
    assert kinds(out.events)[-1] == "AttackEnded"
    assert of(out.events, AttackEnded)[0].cancelled
    assert out.attack.over and out.attack.cancelled
    assert not of(out.events, DiceRolled)
    assert A.legal_decisions(out.attack, CAT) == []
    with pytest.raises(IllegalCommand):
        step(out, EndAttack())


def test_the_roll_is_a_chance_event_with_exact_damage_odds_swa_atk_2() -> None:
    """SWA-ATK 2: the pool roll records the chance of at least this much damage and the
    expected damage, exactly from the faces (ship vs ship: crits count)."""
    out = declare(victory(battery=DicePool(red=1, blue=1)), cr90(), MEDIUM, [5, 5])
    roll = of(out.events, DiceRolled)[0]
    assert roll.roll.total == 2  # crit + crit
    # at least 2: both dice damage (5/8 * 6/8), or the red double hit and a blue accuracy
    # (1/8 * 2/8)
    assert Fraction(roll.p_success or "0") == Fraction(30, 64) + Fraction(2, 64)
    assert Fraction(roll.expected) == Fraction(6, 8) + Fraction(6, 8)
    assert roll.subject == "vsd" and roll.target == "cr90" and roll.roll.side == "empire"


# --------------------------------------------------------------------------- SWA-ATK 3


def test_concentrate_fire_dial_adds_a_die_of_a_colour_in_the_pool_swa_r3() -> None:
    """SWA-R3: the dial adds a die of a colour already in the pool (range does not limit it)."""
    attacker = victory(battery=DicePool(red=2), concentrate_fire_dial=True)
    out = declare(attacker, cr90(), LONG, [1, 1])
    assert out.attack.step == "modify"
    with pytest.raises(IllegalCommand) as info:
        step(out, ConcentrateFire(spend="dial", add="blue"), [1])
    assert info.value.rule == "SWA-R3"
    out = step(out, ConcentrateFire(spend="dial", add="red"), [8])
    assert [str(d) for d in out.attack.pool] == ["red:blank", "red:blank", "red:hit+hit"]
    assert kinds(out.events)[:3] == ["ConcentrateFireSpent", "DiceRolled", "AttackDieAdded"]
    with pytest.raises(IllegalCommand):  # once per round
        step(out, ConcentrateFire(spend="dial", add="red"), [8])


def test_concentrate_fire_token_rerolls_one_die_swa_r3() -> None:
    """SWA-R3: the token rerolls one die."""
    attacker = victory(battery=DicePool(red=2), concentrate_fire_token=True)
    out = declare(attacker, cr90(), LONG, [1, 3])
    out = step(out, ConcentrateFire(spend="token", reroll=0), [5])
    assert [str(d) for d in out.attack.pool] == ["red:crit", "red:hit"]
    assert out.attack.concentrate_fire == "token"


def test_concentrate_fire_both_adds_then_rerolls_the_added_die_swa_r3() -> None:
    """SWA-R3: dial and token together are one resolution; the reroll may take the added die
    after it is seen (RRG FAQ)."""
    attacker = victory(
        battery=DicePool(red=1), concentrate_fire_dial=True, concentrate_fire_token=True
    )
    out = declare(attacker, cr90(), LONG, [3])
    out = step(out, ConcentrateFire(spend="both", add="red"), [1])
    assert ConcentrateFireReroll(die=1) in A.legal_decisions(out.attack, CAT)
    out = step(out, ConcentrateFireReroll(die=1), [8])
    assert [str(d) for d in out.attack.pool] == ["red:hit", "red:hit+hit"]
    with pytest.raises(IllegalCommand):
        step(out, ConcentrateFireReroll(die=0), [8])


def test_concentrate_fire_needs_the_dial_or_token_swa_r3() -> None:
    """SWA-R3: a ship without the dial (or token) cannot spend it; squadrons never."""
    out = declare(victory(concentrate_fire_token=True), cr90(), LONG, [7, 7, 7])
    with pytest.raises(IllegalCommand) as info:
        step(out, ConcentrateFire(spend="dial", add="red"), [1])
    assert info.value.rule == "SWA-R3"


def test_accuracy_locks_a_defence_token_swa_atk_3() -> None:
    """SWA-ATK 3: an accuracy die is spent to choose a defence token, which cannot be spent in
    this attack."""
    defender = cr90(tokens=starting_tokens(["evade", "redirect"]))
    out = declare(victory(battery=DicePool(red=2)), defender, LONG, [7, 3])
    assert A.legal_decisions(out.attack, CAT) == [
        SpendAccuracy(die=0, token=0),
        SpendAccuracy(die=0, token=1),
        EndAttackEffects(),
    ]
    with pytest.raises(IllegalCommand) as info:
        step(out, SpendAccuracy(die=1, token=0))  # a hit, not an accuracy
    assert info.value.rule == "SWA-ATK 3"
    out = step(out, SpendAccuracy(die=0, token=0))
    assert out.attack.locked == (0,) and [str(d) for d in out.attack.pool] == ["red:hit"]
    # no accuracy left and nothing else to modify: the defence step begins on its own
    assert out.attack.step == "defend"
    assert SpendDefenceToken(token=0, dice=(0,)) not in A.legal_decisions(out.attack, CAT)
    with pytest.raises(IllegalCommand) as info:
        step(out, SpendDefenceToken(token=0, dice=(0,)))
    assert info.value.rule == "SWA-ATK 3"


def test_swarm_rerolls_against_an_engaged_squadron_swa_data() -> None:
    """SWA-DATA Swarm: attacking a squadron engaged with another squadron, reroll one die."""
    engaged = Geometry(distance=1, defender_engaged=True)
    out = declare(tie(), xwing(), engaged, [7, 7, 1])
    assert SwarmReroll(die=0) in A.legal_decisions(out.attack, CAT)
    out = step(out, SwarmReroll(die=0), [2])
    assert str(out.attack.pool[0]) == "blue:hit"
    assert out.attack.over  # one reroll only, and nothing else to decide
    # not engaged: no Swarm (the attack waits only for the accuracy against the brace)
    out = declare(tie(), xwing(tokens=starting_tokens(["brace"])), SQUAD, [7, 7, 1])
    assert out.attack.step == "modify"
    assert not any(isinstance(d, SwarmReroll) for d in A.legal_decisions(out.attack, CAT))
    with pytest.raises(IllegalCommand) as info:
        step(out, SwarmReroll(die=1), [2])
    assert info.value.rule == "SWA-DATA"


# --------------------------------------------------------------------------- SWA-ATK 4 and 5


def test_defender_decides_in_the_defence_step_swa_atk_4() -> None:
    """SWA-ATK 4: the defender spends tokens; the attacker cannot decide there."""
    defender = cr90(tokens=starting_tokens(["brace"]))
    out = declare(victory(battery=DicePool(red=1)), defender, LONG, [3])
    assert out.attack.step == "defend" and A.actor(out.attack) == "rebel"
    with pytest.raises(NotYourTurn):
        step(out, EndDefence(), side="empire")
    with pytest.raises(IllegalCommand) as info:
        step(out, EndAttackEffects())
    assert info.value.rule == "SWA-ATK 3"
    out = step(out, EndDefence(), side="rebel")
    assert out.attack.over


def test_ship_against_ship_counts_crits_and_deals_to_shields_then_cards_swa_atk_5() -> None:
    """SWA-ATK 5: hits and crits ship vs ship; the defending zone's shields first, then face-down
    cards, the first face up with the standard critical effect."""
    out = declare(victory(battery=DicePool(red=3)), cr90(), LONG, [8, 5, 3])
    total = of(out.events, DamageTotalled)[0]
    assert (total.hits, total.crits, total.counted, total.total) == (3, 1, 4, 4)
    assert total.critical
    suffered = of(out.events, DamageSuffered)[0]
    assert (suffered.zone, suffered.shields_lost, suffered.cards) == ("front", 2, 2)
    dealt = of(out.events, DamageCardDealt)
    assert [d.face_up for d in dealt] == [True, False]
    assert out.attack.defender.shields["front"] == 0
    assert out.deck.draw == FILLER[2:]
    assert out.attack.over


def test_no_critical_effect_without_a_crit_or_damage_card_swa_atk_5() -> None:
    """SWA-ATK 5: the standard critical effect needs a crit icon and a damage card dealt."""
    out = declare(victory(battery=DicePool(red=2)), cr90(), LONG, [8, 3])
    total = of(out.events, DamageTotalled)[0]
    assert not total.critical
    assert [d.face_up for d in of(out.events, DamageCardDealt)] == [False]
    out = declare(victory(battery=DicePool(red=1)), cr90(), LONG, [5])
    assert of(out.events, DamageTotalled)[0].critical
    assert not of(out.events, DamageCardDealt)  # absorbed by shields


def test_squadron_attacks_count_hits_only_swa_atk_5() -> None:
    """SWA-ATK 5: a squadron's attack (or an attack on a squadron) counts hits only."""
    out = declare(tie(keywords=()), cr90(), SQUAD, [5])  # TIE battery: 1 blue crit
    assert of(out.events, DamageTotalled)[0].total == 0
    out = declare(victory(), xwing(), CLOSE, [5])  # crit against a squadron: nothing
    total = of(out.events, DamageTotalled)[0]
    assert (total.crits, total.total, total.critical) == (1, 0, False)


def test_bomber_crits_count_and_trigger_the_critical_effect_swa_data() -> None:
    """SWA-DATA Bomber: against a ship each crit adds damage and a critical effect resolves."""
    shields = {"front": 3, "right": 3, "rear": 1, "left": 0}
    out = declare(xwing_attacker(), vsd_defender(shields=shields), SQUAD, [5])
    total = of(out.events, DamageTotalled)[0]
    assert (total.total, total.critical) == (1, True)
    assert [d.face_up for d in of(out.events, DamageCardDealt)] == [True]


def test_squadrons_lose_hull_and_are_destroyed_at_zero_swa_atk_5() -> None:
    """SWA-ATK 5: a squadron loses hull points; at none left it is destroyed."""
    out = declare(victory(anti_squadron=DicePool(blue=3)), xwing(hull=2), CLOSE, [1, 2, 3])
    suffered = of(out.events, DamageSuffered)[0]
    assert (suffered.kind, suffered.hull_lost, suffered.hull) == ("squadron", 2, 0)
    assert of(out.events, UnitDestroyed)[0].unit == "x1"
    assert out.attack.defender.destroyed
    assert out.attack.step == "additional"


# --------------------------------------------------------------------------- SWA-ATK 6


def test_additional_squadron_target_swa_atk_6() -> None:
    """SWA-ATK 6: a ship that attacked a squadron may declare another squadron in the same arc
    and range; each once per attack; steps 2–6 again; or end the attack."""
    out = declare(victory(), xwing(), CLOSE, [1])
    assert out.attack.step == "additional" and A.legal_decisions(out.attack, CAT) == [EndAttack()]
    with pytest.raises(IllegalCommand) as info:
        A.declare_additional(out.attack, xwing(), CLOSE, FixedDice([1]), deck=out.deck)
    assert info.value.rule == "SWA-ATK 6"
    again = A.declare_additional(
        out.attack, xwing(id="x2"), CLOSE, FixedDice([2]), deck=out.deck, catalogue=CAT
    )
    declared = of(again.events, AttackDeclared)[0]
    assert declared.additional and declared.defender == "x2"
    assert again.attack.targeted == ("x1", "x2")
    assert of(again.events, DamageSuffered)[0].hull_lost == 1
    done = step(again, EndAttack())
    assert done.attack.over and kinds(done.events) == ["AttackEnded"]
    # the additional target must be in range of the same zone's anti-squadron armament
    with pytest.raises(IllegalCommand) as info:
        A.declare_additional(again.attack, xwing(id="x3"), LONG, FixedDice([1]), deck=out.deck)
    assert info.value.rule == "SWA-ATK 1"


def test_no_additional_target_after_a_ship_or_by_a_squadron_swa_atk_6() -> None:
    """SWA-ATK 6: only a ship that attacked a squadron goes on to another squadron."""
    out = declare(victory(battery=DicePool(red=1)), cr90(), LONG, [1])
    assert out.attack.over
    with pytest.raises(IllegalCommand) as info:
        A.declare_additional(out.attack, xwing(), CLOSE, FixedDice([1]), deck=out.deck)
    assert info.value.rule == "SWA-ATK 6"
    out = declare(tie(keywords=()), xwing(), SQUAD, [1, 1, 1])
    assert out.attack.over


def test_decisions_after_the_attack_are_refused_swa_atk() -> None:
    """SWA-ATK: an attack that is over accepts nothing."""
    out = declare(victory(battery=DicePool(red=1)), cr90(), LONG, [1])
    with pytest.raises(IllegalCommand):
        step(out, EndDefence())


# --------------------------------------------------------------------------- folding and listing


def _random_attack(seed: int) -> tuple[list[DomainEvent], list[AttackState], list[Any]]:
    """A whole attack with random legal decisions; returns its events, the states after each
    call and the inputs of every declaration."""
    rng = random.Random(seed)
    dice = SeededDice(seed)
    _, deck = D.new_deck(CAT, dice)
    face_up = tuple(
        rng.sample(
            [
                "blinded_gunners",
                "damaged_munitions",
                "targeter_disruption",
                "point_defense_failure",
            ],
            rng.randint(0, 2),
        )
    )
    attacker = victory(
        battery=DicePool(red=rng.randint(0, 3), blue=rng.randint(1, 3), black=rng.randint(0, 2)),
        anti_squadron=DicePool(blue=rng.randint(1, 2)),
        concentrate_fire_dial=rng.random() < 0.5,
        concentrate_fire_token=rng.random() < 0.5,
        face_up=face_up,
    )
    tokens = starting_tokens(
        rng.choice(
            [
                ["evade", "evade", "redirect"],
                ["brace", "redirect", "redirect"],
                ["evade", "brace", "brace", "contain", "scatter"],
            ]
        )
    )
    if rng.random() < 0.5:
        defender: Any = cr90(
            tokens=tokens,
            speed=rng.randint(0, 3),
            zone=rng.choice(["front", "left", "right", "rear"]),
            dials=rng.randint(0, 2),
        )
    else:
        defender = xwing(tokens=tokens[:2] if rng.random() < 0.3 else ())
    geometry = Geometry(
        range=rng.choice(["close", "medium"]),
        distance=rng.randint(1, 4),
        obstructed=rng.random() < 0.3,
    )
    options = A.AttackOptions(evade=rng.choice(["rrg_1_6", "ltp_2015"]))
    out = A.declare(attacker, defender, geometry, dice, deck=deck, catalogue=CAT, options=options)
    events = list(out.events)
    states = [out.attack]
    inputs: list[Any] = [(attacker, defender, geometry, options)]
    extra = 0
    while not out.attack.over:
        legal = A.legal_decisions(out.attack, CAT)
        assert legal, out.attack
        if out.attack.step == "additional" and extra < 2 and rng.random() < 0.7:
            extra += 1
            target = xwing(id=f"extra{extra}", hull=rng.randint(1, 5))
            out = A.declare_additional(
                out.attack, target, CLOSE, dice, deck=out.deck, catalogue=CAT
            )
            inputs.append((target, CLOSE))
        else:
            out = A.decide(
                out.attack,
                rng.choice(legal),
                dice,
                deck=out.deck,
                catalogue=CAT,
                side=A.actor(out.attack),
            )
        events += out.events
        states.append(out.attack)
    return events, states, inputs


@pytest.mark.parametrize("seed", range(60))
def test_listed_decisions_are_legal_and_events_rebuild_the_state_swa_atk(seed: int) -> None:
    """SWA-ATK 1–6: every listed decision is accepted, each returned state waits for a real
    decision, and folding the events from ``begin`` rebuilds the final state."""
    events, states, inputs = _random_attack(seed)
    attacker, defender, geometry, options = inputs[0]
    rebuilt = begin(attacker, defender, geometry, options)
    extra = iter(inputs[1:])
    for event in events[1:]:
        if isinstance(event, AttackDeclared):
            target, geo = next(extra)
            assert declared_geometry(event).range == geo.range
            rebuilt = retarget(rebuilt, target, geo)
        else:
            rebuilt = apply(rebuilt, event)
    assert rebuilt == states[-1]
    for state in states[:-1]:
        assert A.actor(state) is not None


def test_every_event_registers_and_round_trips_swa_atk() -> None:
    """SWA-ATK: every event class has a versioned topic; payloads load back equal."""
    registry = EventRegistry(ATTACK_EVENTS)
    for seed in range(12):
        events, _, _ = _random_attack(seed)
        for event in events:
            if isinstance(event, DiceRolled):
                continue
            assert registry.load(event.TOPIC, event.payload()) == event
            assert describe(event)


def test_decisions_parse_from_json_swa_atk() -> None:
    """SWA-ATK: decisions are orders: they parse from their JSON form; bad ones are invalid."""
    assert parse_decision({"type": "spend_defence_token", "token": 1, "zone": "left"}) == (
        SpendDefenceToken(token=1, zone="left")
    )
    assert parse_decision({"type": "strip_shields", "zones": ["front"]}) == D.StripShields(
        zones=("front",)
    )
    with pytest.raises(InvalidCommand):
        parse_decision({"type": "concentrate_fire", "spend": "dial"})  # no colour to add
    with pytest.raises(InvalidCommand):
        parse_decision({"type": "fire_torpedoes"})


def test_pool_die_icons_must_match_its_face_swa_dice() -> None:
    """SWA-DICE: a recorded die's icons are those of its face."""
    assert PoolDie.of("black", 7).icons == ("hit", "crit")
    with pytest.raises(ValueError):
        PoolDie(colour="red", face=1, icons=("hit",))


def test_step_events_name_their_rule_swa_atk() -> None:
    """SWA-ATK 3/4/5: each step change names its rule."""
    defender = cr90(tokens=starting_tokens(["brace"]))
    out = declare(
        victory(battery=DicePool(red=1), concentrate_fire_token=True), defender, LONG, [3]
    )
    out = step(out, EndAttackEffects())
    out = step(out, EndDefence())
    steps = [(e.step, e.rule) for e in out.events if isinstance(e, AttackStepBegan)]
    assert steps == [("damage", "SWA-ATK 5")]
