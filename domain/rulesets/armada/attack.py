"""The Armada attack pipeline (SWA-ATK 1–6): pure functions that run an attack step by step.

The caller (the ruleset) measures the geometry and describes the units
(:mod:`.attack_state`); this module checks and resolves, and returns events:

1. **Declare** (:func:`declare`): the attacker names the defender (and the defending hull zone
   of a ship). Refused with the rule ID: a friendly target, out of arc, beyond the armament's
   attack range, no line of sight (SWA-ATK 1); a squadron beyond distance 1 (SWA-3.2), an engaged
   squadron attacking a ship (SWA-3.3), Escort (SWA-DATA); the attacker's face-up damage cards
   (SWA-DMG).
2. **Roll**: the armament for the target type (battery against ships, anti-squadron against
   squadrons) gives the dice legal at the range (red close–long, blue close–medium, black close,
   SWA-ATK 2). An obstructed attack, and Damaged Munitions / Point-Defense Failure, each remove
   one die before the roll: the attacker's choice (:class:`RemoveDie`), automatic when every die
   left is one colour. No die left: the attack is cancelled. The pool is rolled with
   :func:`domain.chance.pool_roll` (red, then blue, then black): a ``DiceRolled`` with the exact
   chance of at least this much damage and the expected damage, then ``AttackDiceRolled``.
3. **Resolve attack effects** (the attacker, any order): :class:`ConcentrateFire` (dial: add a
   die of a colour in the pool; token: reroll one; both together as one resolution, the reroll
   then chosen after the added die is seen, :class:`ConcentrateFireReroll`), :class:`SwarmReroll`
   (a Swarm squadron attacking a squadron engaged with another squadron), :class:`SpendAccuracy`
   (an accuracy die locks one defence token), :class:`EndAttackEffects`.
4. **Spend defence tokens** (the defender): :class:`SpendDefenceToken` (Brace, Redirect with its
   adjacent zone, Evade with its dice, Contain, Scatter; :mod:`.defence`), :class:`EndDefence`.
5. **Resolve damage**: the standard critical effect (resolved whenever allowed), the total
   (hits, plus crits ship against ship or for a Bomber against a ship; Brace halves rounding
   up), the defender's :class:`RedirectDamage` amount, then shields and damage cards
   (:mod:`.damage`, whose face-up cards may ask a player to choose) or a squadron's hull.
6. **Additional squadron target** (a ship that attacked a squadron):
   :func:`declare_additional` (each squadron once per attack) or :class:`EndAttack`.

A step in which nothing can be chosen (no accuracy, no Concentrate Fire, no token the defender
may spend, nothing to redirect, one colour to remove) passes on its own; so every state returned
waits for a real decision by :func:`actor`, or is over. :func:`legal_decisions` lists the
distinct decisions (equivalent dice or tokens once); :func:`decide` checks one against the state
and refuses with :class:`~domain.errors.IllegalCommand` (rule ID) without changing anything.
The damage deck is the caller's: pass it in, take the new one from the :class:`Outcome` (or fold
the events with :func:`.damage.apply_deck`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from pydantic import BaseModel

from domain.chance import pool_roll
from domain.dice import DiceSource
from domain.errors import IllegalCommand, InvalidCommand, NotYourTurn
from domain.events import DiceRolled, DomainEvent
from domain.rulesets.armada import damage as dmg
from domain.rulesets.armada.attack_events import (
    COLOURS,
    DIE,
    AccuracySpent,
    AttackDeclared,
    AttackDiceCancelled,
    AttackDiceGathered,
    AttackDiceRerolled,
    AttackDiceRolled,
    AttackDieAdded,
    AttackDieRemoved,
    AttackEnded,
    AttackStepBegan,
    Colour,
    ConcentrateFireSpent,
    DamageRedirected,
    DamageSuffered,
    DamageTotalled,
    DefenceTokenSpent,
    PoolDie,
    Step,
    UnitDestroyed,
)
from domain.rulesets.armada.attack_state import (
    AttackDecision,
    Attacker,
    AttackOptions,
    AttackState,
    ConcentrateFire,
    ConcentrateFireReroll,
    Decision,
    EndAttack,
    EndAttackEffects,
    EndDefence,
    Geometry,
    Outcome,
    RedirectDamage,
    RemoveDie,
    ShipDefender,
    SpendAccuracy,
    SpendDefenceToken,
    SquadronDefender,
    SwarmReroll,
    attack_range,
    attacker_effects,
    begin,
    counts_crits,
    fold,
    is_ship,
    pool_damage,
    retarget,
)
from domain.rulesets.armada.data import RANGE_BANDS, DamageDeck, DicePool, bundled_damage_deck
from domain.rulesets.armada.defence import (
    DefenceToken,
    braced,
    check_spend,
    evade_effect,
    state_after_spending,
)
from domain.rulesets.armada.geometry import ADJACENT, Zone
from domain.words import possessive

# --------------------------------------------------------------------------- effects and dice


def _defender_effects(attack: AttackState, catalogue: DamageDeck) -> tuple[str, ...]:
    defender = attack.defender
    return dmg.face_up_effects(defender, catalogue) if isinstance(defender, ShipDefender) else ()


def _scorer(attack: AttackState) -> Callable[[Counter[str]], int]:
    crits = counts_crits(attack.attacker, attack.defender)

    def score(icons: Counter[str]) -> int:
        return icons["hit"] + (icons["crit"] if crits else 0)

    return score


def _roll(
    attack: AttackState, colours: Sequence[Colour], dice: DiceSource, purpose: str, rule: str
) -> tuple[DiceRolled, list[PoolDie]]:
    event = pool_roll(
        dice,
        pool=[DIE[c] for c in colours],
        score=_scorer(attack),
        score_key=("armada damage", counts_crits(attack.attacker, attack.defender)),
        side=attack.attacker.side,
        purpose=purpose,
        rule=rule,
        subject=attack.attacker.id,
        target_unit=attack.defender.id,
        unit="damage",
    )
    faces = event.roll.faces
    return event, [PoolDie.of(c, f) for c, f in zip(colours, faces, strict=True)]


def _gathered_colours(pool: DicePool) -> list[Colour]:
    return [c for c in COLOURS if getattr(pool, c) > 0]


def _unique_dice(pool: Sequence[PoolDie], where: Iterable[int] | None = None) -> list[int]:
    """Indices of the first die of each (colour, icons): equivalent dice listed once."""
    seen: set[tuple[str, tuple[str, ...]]] = set()
    out: list[int] = []
    for i in range(len(pool)) if where is None else where:
        key = (pool[i].colour, pool[i].icons)
        if key not in seen:
            seen.add(key)
            out.append(i)
    return out


def _die(attack: AttackState, index: int, rule: str) -> PoolDie:
    if not 0 <= index < len(attack.pool):
        raise InvalidCommand(f"the attack pool has no die #{index}", rule=rule)
    return attack.pool[index]


# --------------------------------------------------------------------------- what may be chosen


def _lockable(attack: AttackState) -> list[int]:
    tokens = attack.defender.tokens
    seen: set[tuple[str, str]] = set()
    out: list[int] = []
    for i, token in enumerate(tokens):
        key = (token.kind, token.state)
        if token.state != "discarded" and i not in attack.locked and key not in seen:
            seen.add(key)
            out.append(i)
    return out


def _modifications(attack: AttackState, catalogue: DamageDeck) -> list[AttackDecision]:
    out: list[AttackDecision] = []
    attacker = attack.attacker
    unique = _unique_dice(attack.pool)
    present = sorted({d.colour for d in attack.pool}, key=COLOURS.index)
    if attacker.kind == "ship" and attack.concentrate_fire is None and attack.pool:
        if attacker.concentrate_fire_dial:
            out += [ConcentrateFire(spend="dial", add=c) for c in present]
        if attacker.concentrate_fire_token:
            out += [ConcentrateFire(spend="token", reroll=i) for i in unique]
        if attacker.concentrate_fire_dial and attacker.concentrate_fire_token:
            out += [ConcentrateFire(spend="both", add=c) for c in present]
    if attack.concentrate_fire_reroll:
        out += [ConcentrateFireReroll(die=i) for i in unique]
    if _swarm_allowed(attack):
        out += [SwarmReroll(die=i) for i in unique]
    if dmg.may_spend_accuracy(attacker_effects(attack, catalogue)):
        accuracies = [i for i, d in enumerate(attack.pool) if "accuracy" in d.icons]
        for i in _unique_dice(attack.pool, accuracies):
            out += [SpendAccuracy(die=i, token=t) for t in _lockable(attack)]
    return out


def _swarm_allowed(attack: AttackState) -> bool:
    return (
        attack.attacker.kind == "squadron"
        and "swarm" in attack.attacker.keywords
        and not is_ship(attack.defender)
        and attack.geometry.defender_engaged
        and not attack.swarm_used
    )


def _spend_refusal(
    attack: AttackState, index: int, catalogue: DamageDeck
) -> tuple[DefenceToken, str | None, str | None]:
    """The token, and why it may not be spent (message, rule) or (None, None)."""
    defender = attack.defender
    ship = isinstance(defender, ShipDefender)
    try:
        token = check_spend(
            defender.tokens,
            index,
            spent=attack.spent,
            locked=attack.locked,
            speed=defender.speed if isinstance(defender, ShipDefender) else None,
            ship=ship,
        )
    except IllegalCommand as exc:
        if not 0 <= index < len(defender.tokens):
            raise
        return defender.tokens[index], exc.message, exc.rule
    if isinstance(defender, ShipDefender):
        why = dmg.token_refusal(
            _defender_effects(attack, catalogue), token, defender.shields[defender.zone]
        )
        if why:
            return token, why, dmg.RULE
    if token.kind == "evade" and _evade(attack) is None:
        return token, "Evade has no effect at close range or distance 1 (ltp_2015)", "SWA-DEF"
    return token, None, None


def _evade(attack: AttackState) -> Any:
    attacker, defender = attack.attacker, attack.defender
    band = attack_range(attacker, attack.geometry) or "long"
    distance = 1 if attacker.kind == "squadron" else attack.geometry.distance
    return evade_effect(
        reading=attack.options.evade,
        attack_range=band,
        distance=distance,
        attacker_size=attacker.size if attacker.kind == "ship" else None,
        defender_size=defender.size if isinstance(defender, ShipDefender) else None,
    )


def _token_spends(attack: AttackState, catalogue: DamageDeck) -> list[AttackDecision]:
    out: list[AttackDecision] = []
    seen: set[tuple[str, str, bool]] = set()
    defender = attack.defender
    for i, token in enumerate(defender.tokens):
        key = (token.kind, token.state, i in attack.locked)
        if key in seen:
            continue
        seen.add(key)
        _, why, _ = _spend_refusal(attack, i, catalogue)
        if why:
            continue
        if token.kind == "redirect" and isinstance(defender, ShipDefender):
            out += [_spend(token=i, zone=z) for z in _adjacent(defender.zone)]
        elif token.kind == "evade":
            effect = _evade(attack)
            unique = _unique_dice(attack.pool)
            out += [_spend(token=i, dice=(d,)) for d in unique]
            if effect is not None and effect.extra:
                pairs: set[tuple[tuple[str, tuple[str, ...]], ...]] = set()
                for a in range(len(attack.pool)):
                    for b in range(a + 1, len(attack.pool)):
                        pair = tuple(
                            sorted(
                                (
                                    (attack.pool[a].colour, attack.pool[a].icons),
                                    (attack.pool[b].colour, attack.pool[b].icons),
                                )
                            )
                        )
                        if pair not in pairs:
                            pairs.add(pair)
                            out.append(_spend(token=i, dice=(a, b)))
        elif token.kind in ("brace", "contain", "scatter"):
            out.append(_spend(token=i))
    return out


_SPENDS: dict[tuple[tuple[str, Any], ...], SpendDefenceToken] = {}


def _spend(**given: Any) -> SpendDefenceToken:
    """``SpendDefenceToken(**given)``, one shared (frozen) model per distinct order given the
    same way (the same fields set): the legal defence orders are listed at every defence step,
    and there are a few hundred distinct ones in all."""
    key = tuple(sorted(given.items()))
    found = _SPENDS.get(key)
    if found is None:
        if len(_SPENDS) >= 4096:
            _SPENDS.clear()
        found = _SPENDS[key] = SpendDefenceToken(**given)
    return found


def _adjacent(zone: Zone) -> list[Zone]:
    return sorted(ADJACENT[zone], key=("front", "right", "rear", "left").index)


def _redirect_open(attack: AttackState) -> bool:
    stage = attack.damage
    return stage is not None and stage.redirect_max > 0 and stage.redirected is None


def actor(attack: AttackState) -> str | None:
    """The side whose decision the attack waits for (None: it is over)."""
    attacker, defender = attack.attacker, attack.defender
    match attack.step:
        case "roll" | "modify" | "additional":
            return attacker.side
        case "defend":
            return defender.side
        case "damage":
            if _redirect_open(attack):
                return defender.side
            if isinstance(defender, ShipDefender):
                return dmg.chooser(defender, attack.dealing)
    return None


def legal_decisions(attack: AttackState, catalogue: DamageDeck | None = None) -> list[Any]:
    """The distinct decisions the attack accepts now (equivalent dice and tokens listed once;
    empty when it is over). Every one is accepted by :func:`decide`."""
    catalogue = catalogue or _bundled()
    match attack.step:
        case "roll":
            if attack.removals and attack.gathered is not None:
                return [RemoveDie(colour=c) for c in _gathered_colours(attack.gathered)]
        case "modify":
            return [*_modifications(attack, catalogue), EndAttackEffects()]
        case "defend":
            return [*_token_spends(attack, catalogue), EndDefence()]
        case "damage":
            if _redirect_open(attack) and attack.damage is not None:
                return [RedirectDamage(amount=a) for a in range(attack.damage.redirect_max + 1)]
            if isinstance(attack.defender, ShipDefender):
                return list(dmg.legal_choices(attack.defender, attack.dealing))
        case "additional":
            return [EndAttack()]
    return []


def _bundled() -> DamageDeck:
    return bundled_damage_deck()


# --------------------------------------------------------------------------- declaring


def _refuse_target(
    attacker: Attacker,
    defender: ShipDefender | SquadronDefender,
    geometry: Geometry,
    catalogue: DamageDeck,
) -> None:
    if attacker.side == defender.side:
        raise IllegalCommand(
            f"{attacker.id} cannot attack the friendly unit {defender.id}", rule="SWA-ATK 1"
        )
    if defender.destroyed:
        raise IllegalCommand(f"{defender.id} is destroyed", rule="SWA-ATK 1")
    armament = attacker.battery if is_ship(defender) else attacker.anti_squadron
    if armament.total == 0:
        what = "battery" if is_ship(defender) else "anti-squadron"
        raise IllegalCommand(f"{attacker.id} has no {what} armament", rule="SWA-ATK 1")
    if attacker.kind == "squadron":
        if geometry.distance != 1:
            raise IllegalCommand(
                f"a squadron attacks at distance 1; {defender.id} is at distance "
                f"{geometry.distance or 'beyond 5'}",
                rule="SWA-3.2",
            )
        if attacker.engaged and is_ship(defender):
            raise IllegalCommand(
                f"{attacker.id} is engaged and must attack a squadron, not a ship", rule="SWA-3.3"
            )
        if (
            attacker.engaged_with_escort
            and isinstance(defender, SquadronDefender)
            and "escort" not in defender.keywords
        ):
            raise IllegalCommand(
                f"{attacker.id} is engaged with an Escort squadron and cannot attack "
                f"{defender.id}, which lacks Escort",
                rule="SWA-DATA",
            )
    else:
        if not geometry.in_arc:
            raise IllegalCommand(
                f"{defender.id} is not inside {possessive(attacker.id)} {attacker.zone} firing arc",
                rule="SWA-ATK 1",
            )
        reach = armament.max_range
        if geometry.range is None or reach is None:
            raise IllegalCommand(f"{defender.id} is beyond long range", rule="SWA-ATK 1")
        if RANGE_BANDS.index(geometry.range) > RANGE_BANDS.index(reach):
            raise IllegalCommand(
                f"{defender.id} is at {geometry.range} range, beyond the {reach}-range reach of "
                f"{possessive(attacker.id)} {armament} armament",
                rule="SWA-ATK 1",
            )
    if not geometry.line_of_sight:
        raise IllegalCommand(
            f"no line of sight from {attacker.id} to {defender.id}: it is traced through "
            "another of the defender's hull zones",
            rule="SWA-ATK 1",
        )
    band = attack_range(attacker, geometry) or "long"
    why = dmg.declare_refusal(
        attacker_effects(attacker, catalogue),
        target_is_ship=is_ship(defender),
        attack_range=band,
        obstructed=geometry.obstructed,
        ship_attacks_this_round=attacker.ship_attacks_this_round,
    )
    if why:
        raise IllegalCommand(why, rule=dmg.RULE)


def check_target(
    attacker: Attacker,
    defender: ShipDefender | SquadronDefender,
    geometry: Geometry,
    catalogue: DamageDeck | None = None,
) -> None:
    """The checks :func:`declare` makes, without declaring (for listing legal attacks).

    Raises:
        IllegalCommand: as :func:`declare`.
    """
    _refuse_target(attacker, defender, geometry, catalogue or _bundled())


def _declared(attack: AttackState, additional: bool) -> AttackDeclared:
    attacker, defender, geometry = attack.attacker, attack.defender, attack.geometry
    return AttackDeclared(
        attacker=attacker.id,
        attacker_side=attacker.side,
        attacker_kind=attacker.kind,
        zone=attacker.zone,
        defender=defender.id,
        defender_kind=defender.kind,
        defending_zone=defender.zone if isinstance(defender, ShipDefender) else None,
        armament=attack.armament,
        range=attack_range(attacker, geometry) or "long",
        distance=1 if attacker.kind == "squadron" else geometry.distance,
        obstructed=geometry.obstructed,
        engaged=geometry.defender_engaged,
        additional=additional,
    )


def _gather(attack: AttackState, catalogue: DamageDeck) -> AttackDiceGathered:
    armament = (
        attack.attacker.battery if attack.armament == "battery" else (attack.attacker.anti_squadron)
    )
    pool = armament.at_range(attack_range(attack.attacker, attack.geometry) or "long")
    removals = ["obstructed"] if attack.geometry.obstructed else []
    removals += dmg.removals_before_roll(
        attacker_effects(attack, catalogue), target_is_ship=is_ship(attack.defender)
    )
    return AttackDiceGathered(red=pool.red, blue=pool.blue, black=pool.black, removals=removals)


def declare(
    attacker: Attacker,
    defender: ShipDefender | SquadronDefender,
    geometry: Geometry,
    dice: DiceSource,
    *,
    deck: dmg.DeckState,
    catalogue: DamageDeck | None = None,
    options: AttackOptions | None = None,
) -> Outcome:
    """SWA-ATK 1: declare the attack, gather and roll, and go on until a player must decide.

    Raises:
        IllegalCommand: the target may not be attacked (rule SWA-ATK 1, SWA-3.2, SWA-3.3,
            SWA-DATA or SWA-DMG); nothing happened.
    """
    catalogue = catalogue or _bundled()
    _refuse_target(attacker, defender, geometry, catalogue)
    attack = begin(attacker, defender, geometry, options)
    declared = _declared(attack, additional=False)
    gathered = _gather(attack, catalogue)
    attack, deck = fold(attack, deck, [declared, gathered])
    return _advance([declared, gathered], attack, deck, dice, catalogue)


def declare_additional(
    attack: AttackState,
    defender: SquadronDefender,
    geometry: Geometry,
    dice: DiceSource,
    *,
    deck: dmg.DeckState,
    catalogue: DamageDeck | None = None,
) -> Outcome:
    """SWA-ATK 6: a ship that attacked a squadron declares another enemy squadron inside the
    same zone's arc and at attack range, with line of sight; steps 2–6 run again.

    Raises:
        IllegalCommand: not at step 6, a ship, or a squadron this attack already targeted (rule
            SWA-ATK 6), or the checks of :func:`declare`.
    """
    catalogue = catalogue or _bundled()
    if attack.step != "additional":
        raise IllegalCommand(
            "an additional squadron target is declared after a squadron suffered the attack's "
            "damage",
            rule="SWA-ATK 6",
        )
    if not isinstance(defender, SquadronDefender):
        raise IllegalCommand("an additional target must be a squadron", rule="SWA-ATK 6")
    if defender.id in attack.targeted:
        raise IllegalCommand(f"{defender.id} was already targeted by this attack", rule="SWA-ATK 6")
    attacker = attack.attacker
    _refuse_target(attacker, defender, geometry, catalogue)
    attack = retarget(attack, defender, geometry)
    declared = _declared(attack, additional=True)
    gathered = _gather(attack, catalogue)
    attack, deck = fold(attack, deck, [declared, gathered])
    return _advance([declared, gathered], attack, deck, dice, catalogue)


# --------------------------------------------------------------------------- running on


def _step(step: Step) -> AttackStepBegan:
    rules = {"modify": "SWA-ATK 3", "defend": "SWA-ATK 4", "damage": "SWA-ATK 5"}
    return AttackStepBegan(step=step, rule=rules.get(step, "SWA-ATK 6"))


def _removal(reason: str) -> tuple[str, str]:
    return (
        ("SWA-ATK 2", "the attack is obstructed")
        if reason == "obstructed"
        else (
            dmg.RULE,
            reason,
        )
    )


def _total(attack: AttackState, catalogue: DamageDeck) -> DamageTotalled:
    attacker, defender = attack.attacker, attack.defender
    hits, crits, counted = pool_damage(attack)
    total = braced(counted) if attack.brace else counted
    critical, blocked = False, None
    may_crit = is_ship(defender) and (attacker.kind == "ship" or "bomber" in attacker.keywords)
    if may_crit and crits > 0:
        if attack.contain:
            blocked = "contain"
        elif not dmg.may_resolve_critical(attacker_effects(attack, catalogue)):
            blocked = "no_critical_effects"
        else:
            critical = True
    redirect_max = 0
    if attack.redirect is not None and isinstance(defender, ShipDefender):
        redirect_max = min(total, defender.shields[attack.redirect])
    return DamageTotalled(
        hits=hits,
        crits=crits,
        counted=counted,
        braced=attack.brace,
        total=total,
        critical=critical,
        blocked=blocked,
        redirect_zone=attack.redirect,
        redirect_max=redirect_max,
    )


def _apply_damage(
    attack: AttackState, deck: dmg.DeckState, dice: DiceSource, catalogue: DamageDeck
) -> list[DomainEvent]:
    stage = attack.damage
    assert stage is not None
    defender = attack.defender
    remaining = stage.total - (stage.redirected or 0)
    if isinstance(defender, ShipDefender):
        dealt = dmg.suffer_damage(
            defender,
            defender.zone,
            remaining,
            face_up_first=stage.critical,
            opponent=attack.attacker.side,
            deck=deck,
            dice=dice,
            catalogue=catalogue,
            rule="SWA-ATK 5",
        )
        return dealt.events
    lost = min(remaining, defender.hull)
    events: list[DomainEvent] = [
        DamageSuffered(
            unit=defender.id,
            kind="squadron",
            hull_lost=lost,
            hull=defender.hull - lost,
            rule="SWA-ATK 5",
        )
    ]
    if defender.hull - lost == 0:
        events.append(UnitDestroyed(unit=defender.id, kind="squadron", rule="SWA-ATK 5"))
    return events


def _advance(
    events: list[DomainEvent],
    attack: AttackState,
    deck: dmg.DeckState,
    dice: DiceSource,
    catalogue: DamageDeck,
) -> Outcome:
    """Run every step that needs no decision, until one does or the attack is over."""
    while True:
        new: list[DomainEvent]
        step = attack.step
        if step == "roll":
            gathered = attack.gathered or DicePool()
            colours = _gathered_colours(gathered)
            if not colours:
                new = [AttackEnded(attacker=attack.attacker.id, cancelled=True, rule="SWA-ATK 2")]
            elif attack.removals:
                if len(colours) > 1:
                    break
                rule, reason = _removal(attack.removals[0])
                new = [AttackDieRemoved(colour=colours[0], rule=rule, reason=reason)]
            else:
                order: list[Colour] = [c for c in COLOURS for _ in range(getattr(gathered, c))]
                rolled, pool = _roll(attack, order, dice, "attack", "SWA-ATK 2")
                new = [rolled, AttackDiceRolled(dice=pool), _step("modify")]
        elif step == "modify":
            if _modifications(attack, catalogue):
                break
            new = [_step("defend")]
        elif step == "defend":
            if _token_spends(attack, catalogue):
                break
            new = [_step("damage")]
        elif step == "damage":
            if attack.damage is None:
                new = [_total(attack, catalogue)]
            elif _redirect_open(attack):
                break
            elif not attack.damage.applied:
                new = _apply_damage(attack, deck, dice, catalogue)
            elif attack.dealing is not None and isinstance(attack.defender, ShipDefender):
                dealt = dmg.continue_dealing(
                    attack.defender, attack.dealing, deck=deck, dice=dice, catalogue=catalogue
                )
                new = dealt.events
                if not new:
                    break
            elif attack.attacker.kind == "ship" and not is_ship(attack.defender):
                new = [_step("additional")]
            else:
                new = [AttackEnded(attacker=attack.attacker.id)]
        else:
            break
        attack, deck = fold(attack, deck, new)
        events.extend(new)
    return Outcome(events, attack, deck)


# --------------------------------------------------------------------------- deciding


def _expect(attack: AttackState, step: Step, what: str) -> None:
    if attack.step != step:
        rules = {
            "roll": "SWA-ATK 2",
            "modify": "SWA-ATK 3",
            "defend": "SWA-ATK 4",
            "damage": "SWA-ATK 5",
            "additional": "SWA-ATK 6",
        }
        raise IllegalCommand(
            f"{what} belongs to another step of the attack (now: {attack.step})",
            rule=rules.get(step, "SWA-ATK"),
        )


def _remove_die(attack: AttackState, decision: RemoveDie) -> list[DomainEvent]:
    _expect(attack, "roll", "removing a die")
    if not attack.removals or attack.gathered is None:
        raise IllegalCommand("no die is to be removed before this roll", rule="SWA-ATK 2")
    if getattr(attack.gathered, decision.colour) == 0:
        raise IllegalCommand(f"the pool holds no {decision.colour} die", rule="SWA-ATK 2")
    rule, reason = _removal(attack.removals[0])
    return [AttackDieRemoved(colour=decision.colour, rule=rule, reason=reason)]


def _concentrate_fire(
    attack: AttackState, decision: ConcentrateFire, dice: DiceSource
) -> list[DomainEvent]:
    _expect(attack, "modify", "Concentrate Fire")
    attacker = attack.attacker
    if attacker.kind != "ship":
        raise IllegalCommand("only a ship resolves Concentrate Fire", rule="SWA-R3")
    if attack.concentrate_fire is not None:
        raise IllegalCommand("Concentrate Fire was already resolved this round", rule="SWA-R3")
    if decision.spend in ("dial", "both") and not attacker.concentrate_fire_dial:
        raise IllegalCommand(f"{attacker.id} has no Concentrate Fire dial to spend", rule="SWA-R3")
    if decision.spend in ("token", "both") and not attacker.concentrate_fire_token:
        raise IllegalCommand(f"{attacker.id} has no Concentrate Fire token to spend", rule="SWA-R3")
    events: list[DomainEvent] = [ConcentrateFireSpent(ship=attacker.id, spend=decision.spend)]
    if decision.add is not None:
        if all(d.colour != decision.add for d in attack.pool):
            raise IllegalCommand(
                f"the added die must be of a colour already in the pool, not {decision.add}",
                rule="SWA-R3",
            )
        rolled, (die,) = _roll(attack, [decision.add], dice, "add die", "SWA-R3")
        events += [rolled, AttackDieAdded(die=die, rule="SWA-R3")]
    if decision.reroll is not None:
        events += _reroll(attack, [decision.reroll], dice, "SWA-R3", "concentrate_fire")
    return events


def _reroll(
    attack: AttackState, indices: Sequence[int], dice: DiceSource, rule: str, reason: str
) -> list[DomainEvent]:
    before = [_die(attack, i, rule) for i in indices]
    rolled, after = _roll(attack, [d.colour for d in before], dice, "reroll", rule)
    return [
        rolled,
        AttackDiceRerolled(
            indices=list(indices), before=before, after=after, rule=rule, reason=reason
        ),
    ]


def _cf_reroll(
    attack: AttackState, decision: ConcentrateFireReroll, dice: DiceSource
) -> list[DomainEvent]:
    _expect(attack, "modify", "the Concentrate Fire reroll")
    if not attack.concentrate_fire_reroll:
        raise IllegalCommand("no Concentrate Fire token reroll is open", rule="SWA-R3")
    return _reroll(attack, [decision.die], dice, "SWA-R3", "concentrate_fire")


def _swarm(attack: AttackState, decision: SwarmReroll, dice: DiceSource) -> list[DomainEvent]:
    _expect(attack, "modify", "a Swarm reroll")
    if not _swarm_allowed(attack):
        raise IllegalCommand(
            "Swarm rerolls one die once, for a Swarm squadron attacking a squadron engaged "
            "with another squadron",
            rule="SWA-DATA",
        )
    return _reroll(attack, [decision.die], dice, "SWA-DATA", "swarm")


def _accuracy(
    attack: AttackState, decision: SpendAccuracy, catalogue: DamageDeck
) -> list[DomainEvent]:
    _expect(attack, "modify", "spending an accuracy")
    if not dmg.may_spend_accuracy(attacker_effects(attack, catalogue)):
        raise IllegalCommand(
            "Blinded Gunners: the attacker cannot spend accuracy icons", rule=dmg.RULE
        )
    die = _die(attack, decision.die, "SWA-ATK 3")
    if "accuracy" not in die.icons:
        raise IllegalCommand(f"die #{decision.die} ({die}) shows no accuracy", rule="SWA-ATK 3")
    tokens = attack.defender.tokens
    if not 0 <= decision.token < len(tokens):
        raise InvalidCommand(
            f"the defender has no defence token #{decision.token}", rule="SWA-ATK 3"
        )
    token = tokens[decision.token]
    if token.state == "discarded" or decision.token in attack.locked:
        raise IllegalCommand(
            f"defence token #{decision.token} ({token.kind}) is discarded or already chosen",
            rule="SWA-ATK 3",
        )
    return [AccuracySpent(die=decision.die, token=decision.token, kind=token.kind)]


def _spend_token(
    attack: AttackState, decision: SpendDefenceToken, dice: DiceSource, catalogue: DamageDeck
) -> list[DomainEvent]:
    _expect(attack, "defend", "spending a defence token")
    token, why, rule = _spend_refusal(attack, decision.token, catalogue)
    if why:
        raise IllegalCommand(why, rule=rule)
    defender = attack.defender
    state = state_after_spending(token)
    effect_text: str = token.kind
    events: list[DomainEvent] = []
    if token.kind == "redirect":
        assert isinstance(defender, ShipDefender)
        if decision.zone is None or decision.zone not in ADJACENT[defender.zone]:
            raise IllegalCommand(
                f"Redirect names a hull zone adjacent to the {defender.zone} zone "
                f"({', '.join(_adjacent(defender.zone))})",
                rule="SWA-DEF",
            )
        effect_text = f"redirect to {decision.zone}"
    elif decision.zone is not None:
        raise InvalidCommand(f"a {token.kind} token takes no zone", rule="SWA-DEF")
    if token.kind != "evade" and decision.dice:
        raise InvalidCommand(f"a {token.kind} token takes no dice", rule="SWA-DEF")
    if token.kind == "evade":
        effect = _evade(attack)
        assert effect is not None
        chosen = list(decision.dice)
        most = 2 if effect.extra else 1
        if attack.pool and not 1 <= len(chosen) <= most:
            raise IllegalCommand(
                f"Evade {effect.action}s {'one or two dice' if most == 2 else 'one die'}",
                rule="SWA-DEF",
            )
        if len(set(chosen)) != len(chosen):
            raise IllegalCommand("Evade names two different dice", rule="SWA-DEF")
        for i in chosen:
            _die(attack, i, "SWA-DEF")
        if len(chosen) == 2:
            state = "discarded"
        effect_text = f"evade: {effect.action} {len(chosen)} die/dice"
        events.append(
            DefenceTokenSpent(
                unit=defender.id,
                token=decision.token,
                kind=token.kind,
                state=state,
                dice=chosen,
                effect=effect_text,
            )
        )
        if chosen and effect.action == "cancel":
            events.append(
                AttackDiceCancelled(indices=chosen, dice=[attack.pool[i] for i in chosen])
            )
        elif chosen:
            events += _reroll(attack, chosen, dice, "SWA-DEF", "evade")
        return events
    events.append(
        DefenceTokenSpent(
            unit=defender.id,
            token=decision.token,
            kind=token.kind,
            state=state,
            zone=decision.zone,
            effect=effect_text,
        )
    )
    if token.kind == "scatter" and attack.pool:
        events.append(
            AttackDiceCancelled(indices=list(range(len(attack.pool))), dice=list(attack.pool))
        )
    return events


def _redirect(attack: AttackState, decision: RedirectDamage) -> list[DomainEvent]:
    _expect(attack, "damage", "redirecting damage")
    stage = attack.damage
    defender = attack.defender
    if not _redirect_open(attack) or stage is None or stage.redirect_zone is None:
        raise IllegalCommand("no Redirect is open", rule="SWA-DEF")
    assert isinstance(defender, ShipDefender)
    if decision.amount > stage.redirect_max:
        raise IllegalCommand(
            f"at most {stage.redirect_max} damage can go to the {stage.redirect_zone} shields "
            "(the total, and the shields left there)",
            rule="SWA-DEF",
        )
    zone = stage.redirect_zone
    return [
        DamageRedirected(
            ship=defender.id,
            zone=zone,
            amount=decision.amount,
            shields=defender.shields[zone] - decision.amount,
        )
    ]


def decide(
    attack: AttackState,
    decision: Decision | BaseModel,
    dice: DiceSource,
    *,
    deck: dmg.DeckState,
    catalogue: DamageDeck | None = None,
    side: str | None = None,
) -> Outcome:
    """Check one decision against the attack, resolve it and go on until the next decision.

    ``side`` (when given) must be the :func:`actor`.

    Raises:
        NotYourTurn: another side is to decide.
        IllegalCommand: the rules forbid it now (rule SWA-ATK n, SWA-DEF, SWA-R3, SWA-DMG,
            SWA-DATA); nothing happened.
        InvalidCommand: it names a die or token that does not exist.
    """
    catalogue = catalogue or _bundled()
    if attack.over:
        raise IllegalCommand("the attack is over", rule="SWA-ATK")
    who = actor(attack)
    if side is not None and side != who:
        raise NotYourTurn(f"{who} decides now in this attack, not {side}", rule="SWA-ATK")
    events: list[DomainEvent]
    match decision:
        case RemoveDie():
            events = _remove_die(attack, decision)
        case ConcentrateFire():
            events = _concentrate_fire(attack, decision, dice)
        case ConcentrateFireReroll():
            events = _cf_reroll(attack, decision, dice)
        case SwarmReroll():
            events = _swarm(attack, decision, dice)
        case SpendAccuracy():
            events = _accuracy(attack, decision, catalogue)
        case EndAttackEffects():
            _expect(attack, "modify", "ending the attack effects")
            events = [_step("defend")]
        case SpendDefenceToken():
            events = _spend_token(attack, decision, dice, catalogue)
        case EndDefence():
            _expect(attack, "defend", "ending the defence")
            events = [_step("damage")]
        case RedirectDamage():
            events = _redirect(attack, decision)
        case EndAttack():
            _expect(attack, "additional", "ending the attack")
            events = [AttackEnded(attacker=attack.attacker.id)]
        case (
            dmg.DiscardDefenceToken()
            | dmg.LoseShieldsZone()
            | dmg.SpeedOrDial()
            | dmg.StripShields()
        ):
            _expect(attack, "damage", "a damage card's choice")
            defender = attack.defender
            if not isinstance(defender, ShipDefender):
                raise IllegalCommand("no damage card waits for a choice", rule=dmg.RULE)
            dealt = dmg.resolve_choice(
                defender, attack.dealing, decision, deck=deck, dice=dice, catalogue=catalogue
            )
            events = dealt.events
        case _:
            raise InvalidCommand(f"not an attack decision: {decision!r}")
    attack, deck = fold(attack, deck, events)
    return _advance(list(events), attack, deck, dice, catalogue)
