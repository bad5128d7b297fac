"""The bot inside attacks: which attack to declare, and every decision an attack or a face-up
damage card asks of a side (SWA-ATK, SWA-DEF, SWA-DMG).

* **Declaring**: every legal attack (:func:`.integration.declarations`) is scored by the exact
  expected damage of its pool at the measured range (crits counted where they count), with
  extra weight for damage past the defending zone's shields (it becomes damage cards) and for
  finishing a unit; an attack expected to do almost nothing is not made.
* **Attacking**: obstruction removes the weakest colour; Concentrate Fire adds the strongest
  legal colour and rerolls a blank; accuracies lock the defender's most useful ready token (Brace,
  then Redirect, Evade, Scatter); Swarm rerolls a blank.
* **Defending**: a token is spent when it saves damage: Scatter and Evade on the biggest die,
  Brace at 2+ damage, Redirect when the total passes the zone's shields, Contain against a
  critical; an exhausted token only when the ship or squadron would otherwise be destroyed.
* **Damage cards**: Redirect as much as fits the adjacent zone; the owner's choices keep the
  most useful token and shields, the opponent's do the most harm.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from pydantic import BaseModel

from domain.rulesets.armada import attack as pipeline
from domain.rulesets.armada import attack_state as atk
from domain.rulesets.armada import damage as dmg
from domain.rulesets.armada import integration
from domain.rulesets.armada.attack_events import COLOURS, DIE, Colour, PoolDie
from domain.rulesets.armada.attack_inputs import attacker_input, measure
from domain.rulesets.armada.commands import DeclareAttack
from domain.rulesets.armada.damage_dealing import hull_of
from domain.rulesets.armada.data import RangeBand
from domain.rulesets.armada.geometry import Zone
from domain.rulesets.armada.state import ArmadaState

MIN_EXPECTED = 0.45
"""Expected damage below which the bot does not bother to attack."""
TOKEN_VALUE = {"brace": 4, "redirect": 3, "evade": 2, "scatter": 5, "contain": 1, "salvo": 0}


@cache
def expected(colour: Colour, crits: bool) -> float:
    """Exact expected damage of one die of ``colour`` (SWA-DICE)."""
    die = DIE[colour]
    total = 0
    for face in range(1, die.sides + 1):
        icons = die.icons(face)
        total += icons.count("hit") + (icons.count("crit") if crits else 0)
    return total / die.sides


def _die_damage(die: PoolDie, crits: bool) -> int:
    return die.icons.count("hit") + (die.icons.count("crit") if crits else 0)


# --------------------------------------------------------------------------- declaring


def _score(state: ArmadaState, order: DeclareAttack) -> float:
    measured = measure(state, order.attacker, order.zone, order.defender, order.defending_zone)
    attacker = attacker_input(state, order.attacker, order.zone)
    band = "close" if attacker.kind == "squadron" else measured.geometry.range or "long"
    return _scored(
        state,
        attacker,
        order.defender,
        order.defending_zone,
        band,
        measured.geometry.obstructed,
    )


def _scored(
    state: ArmadaState,
    attacker: atk.Attacker,
    defender: str,
    defending_zone: Zone | None,
    band: RangeBand,
    obstructed: bool,
) -> float:
    """An attack's score from its measured range band and obstruction."""
    to_ship = defender in state.ships
    armament = attacker.battery if to_ship else attacker.anti_squadron
    pool = armament.at_range(band)
    crits = to_ship and (attacker.kind == "ship" or "bomber" in attacker.keywords)
    mean = _mean((pool.red, pool.blue, pool.black), crits, obstructed)
    if to_ship:
        ship = state.ships[defender]
        assert defending_zone is not None
        shields = ship.shields[defending_zone]
        left = state.card(ship.id).hull - len(ship.damage)
        through = max(0.0, mean - shields)
        return mean + 1.5 * through + (3.0 if through >= left else 0.0)
    squadron = state.squadrons[defender]
    return mean + (2.0 if mean >= squadron.hull else 0.0) + 0.2


@cache
def _mean(dice: tuple[int, int, int], crits: bool, obstructed: bool) -> float:
    """The expected damage of a pool of (red, blue, black) dice, less its weakest die when
    obstructed: remembered per pool (a bot scores the same few pools again and again)."""
    counts: dict[Colour, int] = {c: int(n) for c, n in zip(COLOURS, dice, strict=True)}
    if obstructed and any(counts.values()):
        weakest = min((c for c in COLOURS if counts[c]), key=lambda c: expected(c, crits))
        counts[weakest] -= 1
    return sum(n * expected(c, crits) for c, n in counts.items())


def _bound(
    state: ArmadaState, attacker: atk.Attacker, defender: str, defending_zone: Zone | None
) -> float:
    """No measurement can give the attack a higher score (:func:`_scored`): at close range
    every die of the armament counts (fewer at medium and long, SWA-ATK 2) and an obstruction
    only removes one; the score never falls as the expected damage grows (floating-point sums
    and products of non-negative numbers are monotone too). Costs no measurement."""
    return _scored(state, attacker, defender, defending_zone, "close", False)


def _ranked(state: ArmadaState, side: str) -> list[tuple[float, int, integration.Candidate]]:
    """Every candidate pair (:func:`.integration.candidates`, unmeasured) with its score's
    bound and its place in the declarations' order, highest bound first (then that order)."""
    ranked = [
        (_bound(state, c.attacker, c.defender, c.defending_zone), i, c)
        for i, c in enumerate(integration.candidates(state, side))
    ]
    ranked.sort(key=lambda t: (-t[0], t[1]))
    return ranked


def _measured_score(
    state: ArmadaState, found: integration.Candidate, geometry: atk.Geometry
) -> float:
    """:func:`_score` of a checked pair from the geometry its check measured (the same
    remembered measurement and attacker input :func:`_score` reads)."""
    attacker = found.attacker
    band = "close" if attacker.kind == "squadron" else geometry.range or "long"
    return _scored(state, attacker, found.defender, found.defending_zone, band, geometry.obstructed)


def best_attack(state: ArmadaState, side: str) -> DeclareAttack | None:
    """The bot's attack now, or None (nothing worth declaring): the legal attack of the
    highest score (the first declared on a tie), if it scores at least :data:`MIN_EXPECTED`.

    The pairs are checked and measured highest score bound first (:func:`_bound`), and only
    while one could still win: a pair whose bound is below :data:`MIN_EXPECTED`, or below the
    best score so far (equal to it and declared later), could not be chosen, nor could any
    after it. So the answer is that of scoring every legal attack, for a few measurements."""
    check = integration.target_check(state)
    best: tuple[float, int, integration.Candidate] | None = None
    for bound, i, found in _ranked(state, side):
        if bound < MIN_EXPECTED or (best is not None and (bound, -i) <= (best[0], -best[1])):
            break
        geometry = check(found)
        if geometry is None:
            continue
        score = _measured_score(state, found, geometry)
        if best is None or (score, -i) > (best[0], -best[1]):
            best = (score, i, found)
    if best is None or best[0] < MIN_EXPECTED:
        return None
    found = best[2]
    return DeclareAttack(
        attacker=found.unit,
        zone=found.zone,
        defender=found.defender,
        defending_zone=found.defending_zone,
    )


def worth_attacking(state: ArmadaState, side: str) -> bool:
    """Whether :func:`best_attack` would declare an attack (``best_attack(...) is not None``):
    some legal attack scores at least :data:`MIN_EXPECTED`. Stops at the first one, highest
    bound first and then nearest target first (:func:`.integration.nearest_first`), and
    measures no pair whose bound (:func:`_bound`) is below it (the bot's trial of a squadron
    attacking from where it stands)."""
    check = integration.target_check(state)
    # a pair whose bound is below MIN_EXPECTED cannot answer yes: left out before ordering
    ranked = [
        (bound, c)
        for c in integration.candidates(state, side)
        if (bound := _bound(state, c.attacker, c.defender, c.defending_zone)) >= MIN_EXPECTED
    ]
    gap = integration.nearest_key(state)
    ranked.sort(key=lambda t: (-t[0], gap(t[1])))  # stable: declared first among equals
    for _, found in ranked:
        geometry = check(found)
        if geometry is not None and _measured_score(state, found, geometry) >= MIN_EXPECTED:
            return True
    return False


# --------------------------------------------------------------------------- inside an attack


def _crits(attack: atk.AttackState) -> bool:
    return atk.counts_crits(attack.attacker, attack.defender)


def _blank_die(attack: atk.AttackState) -> int | None:
    crits = _crits(attack)
    worst = [
        (i, expected(d.colour, crits))
        for i, d in enumerate(attack.pool)
        if _die_damage(d, crits) == 0 and "accuracy" not in d.icons
    ]
    return max(worst, key=lambda t: (t[1], -t[0]))[0] if worst else None


def _attacker_choice(attack: atk.AttackState, legal: Sequence[BaseModel]) -> BaseModel:
    crits = _crits(attack)
    for option in legal:
        if isinstance(option, atk.RemoveDie):
            return min(
                (o for o in legal if isinstance(o, atk.RemoveDie)),
                key=lambda o: expected(o.colour, crits),
            )
    cf = [o for o in legal if isinstance(o, atk.ConcentrateFire)]
    if cf:
        adds = [o for o in cf if o.spend == "dial" and o.add is not None]
        if adds:
            return max(adds, key=lambda o: expected(o.add or "red", crits))
        blank = _blank_die(attack)
        tokens = [o for o in cf if o.spend == "token" and o.reroll == blank]
        if blank is not None and tokens:
            return tokens[0]
    blank = _blank_die(attack)
    for option in legal:
        if isinstance(option, atk.ConcentrateFireReroll | atk.SwarmReroll) and option.die == blank:
            return option
    accuracies = [o for o in legal if isinstance(o, atk.SpendAccuracy)]
    if accuracies and atk.pool_damage(attack)[2] > 0:
        held = attack.defender.tokens
        return max(accuracies, key=lambda o: TOKEN_VALUE.get(held[o.token].kind, 0))
    for option in legal:
        if isinstance(option, atk.EndAttackEffects | atk.EndAttack):
            return option
    return legal[0]


def _would_destroy(attack: atk.AttackState, damage: int) -> bool:
    defender = attack.defender
    if isinstance(defender, atk.SquadronDefender):
        return damage >= defender.hull
    shields = defender.shields[defender.zone]
    return damage - shields >= defender.hull - len(defender.cards)


def _defender_choice(attack: atk.AttackState, legal: Sequence[BaseModel]) -> BaseModel:
    _, _, damage = atk.pool_damage(attack)
    defender = attack.defender
    tokens = defender.tokens
    spends = [o for o in legal if isinstance(o, atk.SpendDefenceToken)]
    crits = _crits(attack)

    def ready(o: atk.SpendDefenceToken) -> bool:
        return tokens[o.token].state == "ready"

    def worth(o: atk.SpendDefenceToken) -> bool:
        return ready(o) or _would_destroy(attack, damage)

    by_kind: dict[str, list[atk.SpendDefenceToken]] = {}
    for o in spends:
        if worth(o):
            by_kind.setdefault(tokens[o.token].kind, []).append(o)
    if damage > 0 and "scatter" in by_kind:
        return by_kind["scatter"][0]
    if damage > 0 and "evade" in by_kind:
        best = max(
            (i for i in range(len(attack.pool))),
            key=lambda i: _die_damage(attack.pool[i], crits),
            default=None,
        )
        for o in by_kind["evade"]:
            if best is not None and best in o.dice:
                return o
    if damage >= 2 and "brace" in by_kind:
        return by_kind["brace"][0]
    if isinstance(defender, atk.ShipDefender) and "redirect" in by_kind:
        shields = defender.shields
        if damage > shields[defender.zone]:
            return max(by_kind["redirect"], key=lambda o: shields[o.zone or "front"])
    if "contain" in by_kind and any("crit" in d.icons for d in attack.pool):
        return by_kind["contain"][0]
    for option in legal:
        if isinstance(option, atk.EndDefence):
            return option
    return legal[0]


def _redirect(attack: atk.AttackState, legal: Sequence[BaseModel]) -> BaseModel:
    stage = attack.damage
    defender = attack.defender
    assert stage is not None and isinstance(defender, atk.ShipDefender)
    overflow = max(0, stage.total - defender.shields[defender.zone])
    amounts = [o for o in legal if isinstance(o, atk.RedirectDamage)]
    fitting = [o for o in amounts if o.amount <= max(overflow, 0)]
    return max(fitting or amounts[:1], key=lambda o: o.amount)


def damage_choice(hull: dmg.ShipHull, side: str, legal: Sequence[BaseModel]) -> BaseModel:
    """A face-up card's choice: the owner keeps what helps most, an opponent harms most."""
    own = side == hull.side
    if all(isinstance(o, dmg.DiscardDefenceToken) for o in legal):
        return min(
            legal,
            key=lambda o: (
                hull.tokens[o.token].state == "ready",  # type: ignore[attr-defined]
                TOKEN_VALUE.get(hull.tokens[o.token].kind, 0),  # type: ignore[attr-defined]
            ),
        )
    if all(isinstance(o, dmg.StripShields) for o in legal):
        return max(legal, key=lambda o: len(o.zones))  # type: ignore[attr-defined]
    if all(isinstance(o, dmg.SpeedOrDial) for o in legal):
        if not own:
            for o in legal:
                if isinstance(o, dmg.SpeedOrDial) and o.choice == "speed" and hull.speed > 1:
                    return o
            for o in legal:
                if isinstance(o, dmg.SpeedOrDial) and o.command == "repair":
                    return o
        return legal[0]
    return legal[0]


def in_attack(state: ArmadaState, side: str) -> BaseModel | None:
    """The bot's decision in the attack in progress (None: another side decides)."""
    attack = state.attack
    if attack is None or pipeline.actor(attack) != side:
        return None
    legal: list[BaseModel] = list(pipeline.legal_decisions(attack, state.data.damage))
    if attack.step == "additional":
        more = integration.additional_targets(state)
        if more:
            return more[0]
    if not legal:
        return None
    match attack.step:
        case "roll" | "modify" | "additional":
            return _attacker_choice(attack, legal)
        case "defend":
            return _defender_choice(attack, legal)
        case "damage":
            if legal and isinstance(legal[0], atk.RedirectDamage):
                return _redirect(attack, legal)
            defender = attack.defender
            assert isinstance(defender, atk.ShipDefender)
            return damage_choice(defender, side, legal)
    return legal[0]


def bot_command(state: ArmadaState, side: str) -> BaseModel | None:
    """The bot's order inside an attack, for a damage card waiting outside one, or an attack for
    the activating squadron; None: nothing of the pipeline's to do for ``side`` now (the ship's
    own attack step is chosen by :mod:`.bot` between its commands and its maneuver)."""
    if state.attack is not None:
        return in_attack(state, side)
    if state.dealings:
        if integration.dealing_chooser(state) != side:
            return None
        legal = integration.commands(state, side)
        pending = next(d for d in state.dealings if d.pending is not None)
        hull = hull_of(state, pending.ship)
        return damage_choice(hull, side, legal) if legal else None
    current = state.squadron_activation
    if (
        current is not None
        and state.squadrons[current.squadron].side == side
        and not current.attacked
        and (current.by_ship is not None or not current.moved)
    ):
        return best_attack(state, side)
    return None
