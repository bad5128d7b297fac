"""Armada defence tokens (SWA-DEF): states, the one-of-each-type and speed-0 rules, accuracy
locks (SWA-ATK 3), and every token's effect inside an attack: Brace, Redirect, Evade (both
readings: ``rrg_1_6`` and ``ltp_2015``), Contain, Scatter.

Dice faces: red 1–2 blank, 3–4 hit, 5–6 crit, 7 accuracy, 8 hit+hit; blue 1–4 hit, 5–6 crit,
7–8 accuracy; black 1–2 blank, 3–6 hit, 7–8 hit+crit.
"""

from __future__ import annotations

from typing import Any

import pytest

from domain.dice import FixedDice
from domain.errors import IllegalCommand, InvalidCommand
from domain.events import DiceRolled, DomainEvent
from domain.rulesets.armada import attack as A
from domain.rulesets.armada import damage as D
from domain.rulesets.armada.attack_events import (
    AttackDiceCancelled,
    AttackDiceRerolled,
    DamageCardDealt,
    DamageRedirected,
    DamageSuffered,
    DamageTotalled,
    DefenceTokenSpent,
)
from domain.rulesets.armada.attack_state import (
    Attacker,
    AttackOptions,
    EndDefence,
    Geometry,
    RedirectDamage,
    ShipDefender,
    SpendDefenceToken,
    SquadronDefender,
)
from domain.rulesets.armada.data import DicePool, bundled_damage_deck
from domain.rulesets.armada.defence import (
    DefenceToken,
    EvadeEffect,
    braced,
    check_spend,
    evade_effect,
    readied,
    starting_tokens,
    state_after_spending,
)

CAT = bundled_damage_deck()
DECK = D.DeckState(draw=("coolant_discharge",) * 20)
LONG = Geometry(range="long", distance=5)
MEDIUM = Geometry(range="medium", distance=3)
CLOSE = Geometry(range="close", distance=1)


def attacker(size: str = "medium", **kw: Any) -> Attacker:
    base: dict[str, Any] = dict(
        id="vsd",
        side="empire",
        kind="ship",
        zone="front",
        size=size,
        battery=DicePool(red=3, blue=3, black=2),
        anti_squadron=DicePool(blue=1),
    )
    return Attacker(**{**base, **kw})


def ship(kinds: list[str], **kw: Any) -> ShipDefender:
    base: dict[str, Any] = dict(
        id="neb",
        side="rebel",
        hull=5,
        shields={"front": 3, "right": 1, "rear": 2, "left": 1},
        tokens=starting_tokens(kinds),
        speed=2,
        zone="front",
        size="small",
    )
    return ShipDefender(**{**base, **kw})


def declare(
    defender: Any, geometry: Geometry, faces: list[int], atk: Attacker | None = None, **kw: Any
) -> A.Outcome:
    return A.declare(
        atk or attacker(battery=DicePool(red=len(faces))),
        defender,
        geometry,
        FixedDice(faces),
        deck=DECK,
        catalogue=CAT,
        **kw,
    )


def spend(out: A.Outcome, decision: Any, faces: list[int] | None = None) -> A.Outcome:
    return A.decide(
        out.attack,
        decision,
        FixedDice(faces or []),
        deck=out.deck,
        catalogue=CAT,
        side=A.actor(out.attack),
    )


def of(events: list[DomainEvent], cls: type[Any]) -> list[Any]:
    return [e for e in events if isinstance(e, cls)]


# --------------------------------------------------------------------------- tokens on their own


def test_tokens_go_ready_exhausted_discarded_swa_def() -> None:
    """SWA-DEF: spending a ready token exhausts it, an exhausted one is discarded; SWA-4
    readies exhausted tokens, not discarded ones."""
    token = DefenceToken(kind="brace")
    assert state_after_spending(token) == "exhausted"
    assert state_after_spending(DefenceToken(kind="brace", state="exhausted")) == "discarded"
    with pytest.raises(ValueError):
        state_after_spending(DefenceToken(kind="brace", state="discarded"))
    assert readied(DefenceToken(kind="evade", state="exhausted")).state == "ready"
    assert readied(DefenceToken(kind="evade", state="discarded")).state == "discarded"
    assert [t.state for t in starting_tokens(["brace", "redirect"])] == ["ready", "ready"]


@pytest.mark.parametrize(("total", "after"), [(0, 0), (1, 1), (2, 1), (3, 2), (5, 3), (8, 4)])
def test_brace_halves_rounding_up_swa_def(total: int, after: int) -> None:
    """SWA-DEF Brace: the total is halved, rounding up."""
    assert braced(total) == after


@pytest.mark.parametrize(
    ("reading", "band", "distance", "sizes", "effect"),
    [
        ("rrg_1_6", "long", 5, ("medium", "small"), EvadeEffect("cancel", True)),
        ("rrg_1_6", "long", 4, ("small", "small"), EvadeEffect("cancel", False)),
        ("rrg_1_6", "medium", 3, ("small", "medium"), EvadeEffect("reroll", False)),
        ("rrg_1_6", "close", 1, ("large", "small"), EvadeEffect("reroll", True)),
        ("rrg_1_6", "close", 1, (None, None), EvadeEffect("reroll", False)),  # squadrons
        ("ltp_2015", "long", 5, ("medium", "small"), EvadeEffect("cancel", False)),
        ("ltp_2015", "medium", 3, ("medium", "small"), EvadeEffect("reroll", False)),
        ("ltp_2015", "close", 2, ("medium", "small"), None),
        ("ltp_2015", "medium", 1, (None, None), None),  # distance 1
    ],
)
def test_evade_by_range_reading_and_size_class_swa_def(
    reading: Any, band: Any, distance: int, sizes: tuple[Any, Any], effect: EvadeEffect | None
) -> None:
    """SWA-DEF Evade: RRG 1.6 cancels at long, rerolls at medium/close and at distance 1–2, and
    against a larger ship affects one more die; the 2015 text has no effect at close range or
    distance 1 and no size bonus."""
    got = evade_effect(
        reading=reading,
        attack_range=band,
        distance=distance,
        attacker_size=sizes[0],
        defender_size=sizes[1],
    )
    assert got == effect


def test_check_spend_refusals_swa_def() -> None:
    """SWA-DEF: no tokens at speed 0, none discarded, one of each type, not a locked one
    (SWA-ATK 3), no Redirect/Contain for a squadron, no Salvo; exhausted ones under Faulty
    Countermeasures (SWA-DMG)."""
    tokens = (
        DefenceToken(kind="brace"),
        DefenceToken(kind="redirect", state="exhausted"),
        DefenceToken(kind="evade", state="discarded"),
        DefenceToken(kind="salvo"),
    )

    def rule(index: int, **kw: Any) -> str | None:
        args: dict[str, Any] = dict(spent=(), locked=(), speed=2, ship=True)
        try:
            check_spend(tokens, index, **{**args, **kw})
        except IllegalCommand as exc:
            return exc.rule
        return None

    assert rule(0) is None and rule(1) is None
    assert rule(0, speed=0) == "SWA-DEF"
    assert rule(2) == "SWA-DEF"
    assert rule(0, spent=("brace",)) == "SWA-DEF"
    assert rule(0, locked=(0,)) == "SWA-ATK 3"
    assert rule(1, ship=False) == "SWA-DEF"
    assert rule(3) == "SWA-DEF"
    assert rule(1, may_spend_exhausted=False) == "SWA-DMG"
    assert rule(0, speed=None, ship=False) is None  # a squadron has no speed dial
    with pytest.raises(InvalidCommand):
        check_spend(tokens, 9, spent=(), locked=(), speed=2, ship=True)


# --------------------------------------------------------------------------- in an attack


def test_brace_halves_the_damage_total_swa_def() -> None:
    """SWA-DEF Brace: 5 damage becomes 3."""
    out = declare(ship(["brace"]), LONG, [8, 8, 3])
    out = spend(out, SpendDefenceToken(token=0))
    spent = of(out.events, DefenceTokenSpent)[0]
    assert (spent.kind, spent.state) == ("brace", "exhausted")
    total = of(out.events, DamageTotalled)[0]
    assert (total.counted, total.braced, total.total) == (5, True, 3)


def test_redirect_moves_damage_to_an_adjacent_zone_swa_def() -> None:
    """SWA-DEF Redirect: after totalling, up to the chosen adjacent zone's shields take damage
    first; the rest goes to the defending zone."""
    defender = ship(["redirect"], shields={"front": 1, "right": 2, "rear": 2, "left": 1})
    out = declare(defender, LONG, [8, 3])  # 3 damage
    assert {
        d.zone for d in A.legal_decisions(out.attack, CAT) if isinstance(d, SpendDefenceToken)
    } == {"left", "right"}
    with pytest.raises(IllegalCommand) as info:
        spend(out, SpendDefenceToken(token=0, zone="rear"))  # not adjacent to the front
    assert info.value.rule == "SWA-DEF"
    out = spend(out, SpendDefenceToken(token=0, zone="right"))
    assert out.attack.step == "damage" and A.actor(out.attack) == "rebel"
    assert A.legal_decisions(out.attack, CAT) == [RedirectDamage(amount=a) for a in range(3)]
    with pytest.raises(IllegalCommand):
        spend(out, RedirectDamage(amount=3))
    out = spend(out, RedirectDamage(amount=2))
    redirected = of(out.events, DamageRedirected)[0]
    assert (redirected.zone, redirected.amount, redirected.shields) == ("right", 2, 0)
    suffered = of(out.events, DamageSuffered)[0]
    assert (suffered.zone, suffered.shields_lost, suffered.cards) == ("front", 1, 0)
    assert out.attack.defender.shields == {"front": 0, "right": 0, "rear": 2, "left": 1}


def test_redirect_to_a_zone_without_shields_needs_no_amount_swa_def() -> None:
    """SWA-DEF: a token may be spent without effect (RRG FAQ): Redirect to an empty zone."""
    defender = ship(["redirect"], shields={"front": 1, "right": 0, "rear": 2, "left": 1})
    out = declare(defender, LONG, [3, 3])
    out = spend(out, SpendDefenceToken(token=0, zone="right"))
    assert out.attack.over and not of(out.events, DamageRedirected)
    assert of(out.events, DamageSuffered)[0].cards == 1


def test_evade_cancels_a_die_at_long_range_swa_def() -> None:
    """SWA-DEF Evade (rrg_1_6): at long range one die of the defender's choice is cancelled;
    against a larger ship a second one too, and then the token is discarded."""
    out = declare(ship(["evade"]), LONG, [8, 3, 1])
    out = spend(out, SpendDefenceToken(token=0, dice=(0,)))
    assert of(out.events, AttackDiceCancelled)[0].indices == [0]
    assert of(out.events, DamageTotalled)[0].total == 1
    assert out.attack.defender.tokens[0].state == "exhausted"
    out = declare(ship(["evade"]), LONG, [8, 3, 1])
    with pytest.raises(IllegalCommand):
        spend(out, SpendDefenceToken(token=0, dice=(0, 0)))
    out = spend(out, SpendDefenceToken(token=0, dice=(0, 1)))
    assert of(out.events, DefenceTokenSpent)[0].state == "discarded"
    assert of(out.events, DamageTotalled)[0].total == 0


def test_evade_size_bonus_only_against_a_larger_ship_swa_def() -> None:
    """SWA-DEF Evade (rrg_1_6): two dice only against a ship of a larger size class."""
    out = declare(ship(["evade"]), LONG, [8, 3, 1], atk=attacker("small", battery=DicePool(red=3)))
    with pytest.raises(IllegalCommand) as info:
        spend(out, SpendDefenceToken(token=0, dice=(0, 1)))
    assert info.value.rule == "SWA-DEF"


def test_evade_rerolls_at_medium_and_close_range_swa_def() -> None:
    """SWA-DEF Evade (rrg_1_6): at medium and close range the chosen die is rerolled."""
    out = declare(ship(["evade"]), MEDIUM, [8, 3])
    out = spend(out, SpendDefenceToken(token=0, dice=(0,)), [1])
    rerolled = of(out.events, AttackDiceRerolled)[0]
    assert (rerolled.rule, rerolled.reason, rerolled.indices) == ("SWA-DEF", "evade", [0])
    assert str(rerolled.after[0]) == "red:blank"
    assert of(out.events, DiceRolled)[0].purpose == "reroll"
    assert of(out.events, DamageTotalled)[0].total == 1
    out = declare(ship(["evade"]), CLOSE, [8, 3])
    out = spend(out, SpendDefenceToken(token=0, dice=(1,)), [8])
    assert of(out.events, DamageTotalled)[0].total == 4


def test_evade_2015_reading_does_nothing_at_close_range_swa_def() -> None:
    """SWA-DEF Evade (ltp_2015): no effect at close range, so it cannot be spent there; at
    medium range it rerolls, with no size-class bonus."""
    ltp = AttackOptions(evade="ltp_2015")
    out = declare(ship(["evade", "brace"]), CLOSE, [8, 3], options=ltp)
    assert all(
        d.token != 0 for d in A.legal_decisions(out.attack, CAT) if isinstance(d, SpendDefenceToken)
    )
    with pytest.raises(IllegalCommand) as info:
        spend(out, SpendDefenceToken(token=0, dice=(0,)))
    assert info.value.rule == "SWA-DEF"
    out = declare(ship(["evade"]), MEDIUM, [8, 3], options=ltp)
    with pytest.raises(IllegalCommand):
        spend(out, SpendDefenceToken(token=0, dice=(0, 1)))
    out = spend(out, SpendDefenceToken(token=0, dice=(0,)), [3])
    assert of(out.events, DamageTotalled)[0].total == 2


def test_contain_blocks_the_standard_critical_effect_swa_def() -> None:
    """SWA-DEF Contain: the attacker cannot resolve the standard critical effect."""
    defender = ship(["contain"], shields={"front": 0, "right": 1, "rear": 2, "left": 1})
    out = declare(defender, LONG, [5, 3])
    out = spend(out, SpendDefenceToken(token=0))
    total = of(out.events, DamageTotalled)[0]
    assert (total.critical, total.blocked) == (False, "contain")
    assert [d.face_up for d in of(out.events, DamageCardDealt)] == [False, False]


def test_scatter_cancels_every_die_swa_def() -> None:
    """SWA-DEF Scatter: every attack die is cancelled."""
    out = declare(ship(["scatter"]), LONG, [8, 5, 3])
    out = spend(out, SpendDefenceToken(token=0))
    assert of(out.events, AttackDiceCancelled)[0].indices == [0, 1, 2]
    assert of(out.events, DamageTotalled)[0].total == 0


def test_one_token_of_each_type_per_attack_swa_def() -> None:
    """SWA-DEF: at most one token of each type per attack, even with two of a kind."""
    out = declare(ship(["brace", "brace", "redirect"]), LONG, [8, 8])
    out = spend(out, SpendDefenceToken(token=0))
    assert all(
        d.token == 2 for d in A.legal_decisions(out.attack, CAT) if isinstance(d, SpendDefenceToken)
    )
    with pytest.raises(IllegalCommand) as info:
        spend(out, SpendDefenceToken(token=1))
    assert info.value.rule == "SWA-DEF"


def test_an_exhausted_token_is_discarded_when_spent_swa_def() -> None:
    """SWA-DEF: spending an exhausted token discards it."""
    defender = ship([], tokens=(DefenceToken(kind="brace", state="exhausted"),))
    out = declare(defender, LONG, [8])
    out = spend(out, SpendDefenceToken(token=0))
    assert out.attack.defender.tokens[0].state == "discarded"


def test_no_tokens_at_speed_zero_swa_def() -> None:
    """SWA-DEF: a ship at speed 0 cannot spend defence tokens: the step passes by itself."""
    out = declare(ship(["brace", "evade"], speed=0), LONG, [8])
    assert out.attack.over
    assert of(out.events, DamageTotalled)[0].total == 2


def test_squadron_tokens_brace_but_never_redirect_swa_def() -> None:
    """SWA-DEF: a unique squadron spends its tokens; Redirect and Contain need a ship."""
    squadron = SquadronDefender(
        id="luke", side="rebel", hull=5, tokens=starting_tokens(["brace", "redirect"])
    )
    out = declare(squadron, CLOSE, [1, 2, 3], atk=attacker(anti_squadron=DicePool(blue=3)))
    assert A.legal_decisions(out.attack, CAT) == [SpendDefenceToken(token=0), EndDefence()]
    with pytest.raises(IllegalCommand) as info:
        spend(out, SpendDefenceToken(token=1, zone="left"))
    assert info.value.rule == "SWA-DEF"
    out = spend(out, SpendDefenceToken(token=0))
    assert out.attack.defender.tokens[0].state == "exhausted"
    assert of(out.events, DamageSuffered)[0].hull_lost == 2


def test_token_choices_are_checked_swa_def() -> None:
    """SWA-DEF: an Evade names its dice, a Redirect its zone; other tokens take neither."""
    out = declare(ship(["evade", "brace", "redirect"]), LONG, [8, 3])
    with pytest.raises(IllegalCommand):
        spend(out, SpendDefenceToken(token=0))  # Evade without a die
    with pytest.raises(InvalidCommand):
        spend(out, SpendDefenceToken(token=0, dice=(7,)))
    with pytest.raises(InvalidCommand):
        spend(out, SpendDefenceToken(token=1, zone="left"))
    with pytest.raises(InvalidCommand):
        spend(out, SpendDefenceToken(token=1, dice=(0,)))
    with pytest.raises(IllegalCommand):
        spend(out, SpendDefenceToken(token=2))  # Redirect without a zone
    with pytest.raises(InvalidCommand):
        spend(out, SpendDefenceToken(token=5))
