"""An Armada attack as data: its inputs, the decisions inside it, its state and how events
change it (SWA-ATK 1–6; the pipeline that decides is :mod:`.attack`).

* Inputs, built by the caller from its game state: :class:`Attacker` (a ship's hull zone or a
  squadron), :class:`ShipDefender` / :class:`SquadronDefender`, the measured :class:`Geometry`
  and the :class:`AttackOptions` (the Evade reading).
* Decisions, each an order one side gives inside the attack (a pydantic model with a ``type``;
  :func:`parse_decision` reads the JSON form): :class:`RemoveDie`, :class:`ConcentrateFire`,
  :class:`ConcentrateFireReroll`, :class:`SwarmReroll`, :class:`SpendAccuracy`,
  :class:`EndAttackEffects`, :class:`SpendDefenceToken`, :class:`EndDefence`,
  :class:`RedirectDamage`, :class:`EndAttack`, and the face-up damage cards' choices of
  :mod:`.damage`.
* :class:`AttackState`: one attack in progress. Every state is rebuilt from events:
  :func:`begin` at the first ``AttackDeclared``, :func:`retarget` at an additional one (SWA-ATK 6),
  :func:`apply` for every other event (``DiceRolled`` and deck shuffles leave it unchanged).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, model_validator

from domain.errors import InvalidCommand
from domain.events import DomainEvent
from domain.frozen import changed
from domain.rulesets.armada import damage as dmg
from domain.rulesets.armada.attack_events import (
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
    CommandSpend,
    ConcentrateFireSpent,
    DamageRedirected,
    DamageSuffered,
    DamageTotalled,
    DefenceTokenSpent,
    PoolDie,
    Step,
    UnitDestroyed,
    UnitKind,
)
from domain.rulesets.armada.data import (
    DamageDeck,
    DicePool,
    RangeBand,
    SizeClass,
    SquadronKeyword,
)
from domain.rulesets.armada.defence import DefenceToken, EvadeReading, TokenKind, token_in
from domain.rulesets.armada.geometry import Zone

Armament = Literal["battery", "anti_squadron"]


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


# --------------------------------------------------------------------------- inputs


class AttackOptions(_Model):
    """Readings of the rules for attacks (SWA-DEF [AMBIG]): ``evade`` ``rrg_1_6`` (default) or
    ``ltp_2015`` (:mod:`.defence`)."""

    evade: EvadeReading = "rrg_1_6"


class Attacker(_Model):
    """The attacking ship hull zone or squadron, as the caller's game state has it.

    A ship gives its attacking ``zone``, ``size``, the zone's ``battery`` and its
    ``anti_squadron`` armament, whether a Concentrate Fire dial / token can be spent now (not
    yet resolved this round, SWA-R3), the ids of its face-up damage cards and how many of its
    attacks this round targeted a ship (Coolant Discharge). A squadron gives its battery and
    anti-squadron armament, keywords (Swarm, Bomber, Escort), whether it is ``engaged`` (it must
    attack a squadron, SWA-3.3) and whether one of the squadrons engaging it has Escort.
    """

    id: str
    side: str
    kind: UnitKind
    zone: Zone | None = None
    size: SizeClass | None = None
    battery: DicePool = Field(default_factory=DicePool)
    anti_squadron: DicePool = Field(default_factory=DicePool)
    keywords: tuple[SquadronKeyword, ...] = ()
    concentrate_fire_dial: bool = False
    concentrate_fire_token: bool = False
    face_up: tuple[str, ...] = ()
    ship_attacks_this_round: int = Field(default=0, ge=0)
    engaged: bool = False
    engaged_with_escort: bool = False

    @model_validator(mode="after")
    def _kind(self) -> Attacker:
        if self.kind == "ship" and (self.zone is None or self.size is None):
            raise ValueError("a ship attacks from a hull zone and has a size class")
        if self.kind == "squadron" and (
            self.zone is not None
            or self.concentrate_fire_dial
            or self.concentrate_fire_token
            or self.face_up
        ):
            raise ValueError("a squadron has no hull zone, command dials or damage cards")
        return self


class ShipDefender(dmg.ShipHull):
    """The defending ship (its shields, tokens, damage cards, speed, dials: :class:`ShipHull`),
    its defending hull ``zone`` and its size class."""

    kind: Literal["ship"] = "ship"
    zone: Zone
    size: SizeClass


class SquadronDefender(_Model):
    """The defending squadron: its hull points left, defence tokens (unique squadrons only) and
    keywords."""

    kind: Literal["squadron"] = "squadron"
    id: str
    side: str
    hull: int = Field(ge=0)
    tokens: tuple[DefenceToken, ...] = ()
    keywords: tuple[SquadronKeyword, ...] = ()
    destroyed: bool = False


Defender = Annotated[ShipDefender | SquadronDefender, Field(discriminator="kind")]


class Geometry(_Model):
    """What the caller measured (SWA-ATK 1, SWA-RNG): the defender (its defending zone) is
    ``in_arc`` of the attacking zone; the ``range`` band to it (None: beyond long range); the
    ``distance`` band (None: beyond 5; a squadron attacks at distance 1); ``line_of_sight``
    (False: traced through another of the defender's zones); ``obstructed``;
    ``defender_engaged``: a defending squadron engaged with a squadron other than the attacker
    (Swarm). A squadron's attack is at close range."""

    in_arc: bool = True
    range: RangeBand | None = "close"
    distance: int | None = Field(default=None, ge=1, le=5)
    line_of_sight: bool = True
    obstructed: bool = False
    defender_engaged: bool = False


# --------------------------------------------------------------------------- decisions


class AttackDecision(_Model):
    """Base of the decisions made inside an attack."""


class RemoveDie(AttackDecision):
    """SWA-ATK 2: the attacker removes one die of ``colour`` before rolling (obstruction,
    Damaged Munitions, Point-Defense Failure)."""

    type: Literal["remove_die"] = "remove_die"
    colour: Colour


class ConcentrateFire(AttackDecision):
    """SWA-R3: resolve Concentrate Fire by spending the ``dial`` (``add`` a die of a colour
    already in the pool), the ``token`` (``reroll`` the die at that index now, or later with
    :class:`ConcentrateFireReroll`) or ``both`` (add now; reroll later, the added die included)."""

    type: Literal["concentrate_fire"] = "concentrate_fire"
    spend: CommandSpend
    add: Colour | None = None
    reroll: int | None = Field(default=None, ge=0)

    @model_validator(mode="after")
    def _fields(self) -> ConcentrateFire:
        if (self.spend in ("dial", "both")) != (self.add is not None):
            raise ValueError("add: name the added die's colour exactly when the dial is spent")
        if self.reroll is not None and self.spend != "token":
            raise ValueError("reroll: only a token alone rerolls at once")
        return self


class ConcentrateFireReroll(AttackDecision):
    """SWA-R3: the Concentrate Fire token's reroll of the die at index ``die``."""

    type: Literal["concentrate_fire_reroll"] = "concentrate_fire_reroll"
    die: int = Field(ge=0)


class SwarmReroll(AttackDecision):
    """Swarm (SWA-DATA): reroll the die at index ``die``."""

    type: Literal["swarm_reroll"] = "swarm_reroll"
    die: int = Field(ge=0)


class SpendAccuracy(AttackDecision):
    """SWA-ATK 3: spend the accuracy die at index ``die`` to lock defence token ``token``."""

    type: Literal["spend_accuracy"] = "spend_accuracy"
    die: int = Field(ge=0)
    token: int = Field(ge=0)


class EndAttackEffects(AttackDecision):
    """SWA-ATK 3: the attacker is done modifying dice."""

    type: Literal["end_attack_effects"] = "end_attack_effects"


class SpendDefenceToken(AttackDecision):
    """SWA-DEF: spend defence token ``token`` (index on the defender). Redirect names its
    adjacent ``zone``; Evade the ``dice`` it cancels or rerolls (one, or two with the
    size-class bonus)."""

    type: Literal["spend_defence_token"] = "spend_defence_token"
    token: int = Field(ge=0)
    zone: Zone | None = None
    dice: tuple[int, ...] = Field(default=(), max_length=2)


class EndDefence(AttackDecision):
    """SWA-ATK 4: the defender is done spending defence tokens."""

    type: Literal["end_defence"] = "end_defence"


class RedirectDamage(AttackDecision):
    """SWA-DEF Redirect: ``amount`` of the total to the chosen adjacent zone's shields."""

    type: Literal["redirect_damage"] = "redirect_damage"
    amount: int = Field(ge=0)


class EndAttack(AttackDecision):
    """SWA-ATK 6: no additional squadron target; the attack ends."""

    type: Literal["end_attack"] = "end_attack"


Decision = Annotated[
    RemoveDie
    | ConcentrateFire
    | ConcentrateFireReroll
    | SwarmReroll
    | SpendAccuracy
    | EndAttackEffects
    | SpendDefenceToken
    | EndDefence
    | RedirectDamage
    | EndAttack
    | dmg.DiscardDefenceToken
    | dmg.LoseShieldsZone
    | dmg.SpeedOrDial
    | dmg.StripShields,
    Field(discriminator="type"),
]
_DECISION: TypeAdapter[Decision] = TypeAdapter(Decision)


def parse_decision(data: Any) -> Decision:
    """A decision from its JSON form.

    Raises:
        InvalidCommand: it does not fit any decision.
    """
    try:
        return _DECISION.validate_python(data)
    except ValidationError as exc:
        raise InvalidCommand(f"not an attack decision: {exc.errors()[0]['msg']}") from exc


# --------------------------------------------------------------------------- state


class DamageStage(_Model):
    """SWA-ATK 5 so far: the total, the Redirect still open (``redirect_max`` > 0 and no
    ``redirected`` yet), and whether the damage has been applied."""

    total: int
    critical: bool = False
    redirect_zone: Zone | None = None
    redirect_max: int = 0
    redirected: int | None = None
    applied: bool = False


class AttackState(_Model):
    """One attack in progress (one defender at a time; ``targeted`` lists every squadron this
    attack has targeted, SWA-ATK 6)."""

    attacker: Attacker
    defender: Defender
    geometry: Geometry
    options: AttackOptions = Field(default_factory=AttackOptions)
    step: Step = "roll"
    armament: Armament
    gathered: DicePool | None = None
    removals: tuple[str, ...] = ()
    pool: tuple[PoolDie, ...] = ()
    locked: tuple[int, ...] = ()
    spent: tuple[TokenKind, ...] = ()
    brace: bool = False
    contain: bool = False
    redirect: Zone | None = None
    concentrate_fire: CommandSpend | None = None
    concentrate_fire_reroll: bool = False
    swarm_used: bool = False
    damage: DamageStage | None = None
    dealing: dmg.Dealing | None = None
    targeted: tuple[str, ...] = ()
    cancelled: bool = False

    @property
    def over(self) -> bool:
        return self.step == "ended"


@dataclass(frozen=True)
class Outcome:
    """What a declaration or decision did: its events, the attack and the damage deck after."""

    events: list[DomainEvent]
    attack: AttackState
    deck: dmg.DeckState


def is_ship(defender: ShipDefender | SquadronDefender) -> bool:
    return isinstance(defender, ShipDefender)


def _armament_for(attacker: Attacker, defender: ShipDefender | SquadronDefender) -> Armament:
    return "battery" if is_ship(defender) else "anti_squadron"


def attack_range(attacker: Attacker, geometry: Geometry) -> RangeBand | None:
    return "close" if attacker.kind == "squadron" else geometry.range


def begin(
    attacker: Attacker,
    defender: ShipDefender | SquadronDefender,
    geometry: Geometry,
    options: AttackOptions | None = None,
) -> AttackState:
    """The attack right after its ``AttackDeclared`` (no checks: :func:`declare` makes them)."""
    return AttackState(
        attacker=attacker,
        defender=defender,
        geometry=geometry,
        options=options or AttackOptions(),
        armament=_armament_for(attacker, defender),
        targeted=(defender.id,) if not is_ship(defender) else (),
    )


def retarget(attack: AttackState, defender: SquadronDefender, geometry: Geometry) -> AttackState:
    """The attack right after an additional ``AttackDeclared`` (SWA-ATK 6): a new defender and
    steps 2–6 again; Concentrate Fire stays resolved for the round."""
    return AttackState(
        attacker=attack.attacker,
        defender=defender,
        geometry=geometry,
        options=attack.options,
        armament="anti_squadron",
        concentrate_fire=attack.concentrate_fire,
        targeted=(*attack.targeted, defender.id),
    )


def declared_geometry(event: AttackDeclared) -> Geometry:
    """The measurements an ``AttackDeclared`` records, for :func:`begin` / :func:`retarget`."""
    return Geometry(
        range=event.range,
        distance=event.distance,
        obstructed=event.obstructed,
        defender_engaged=event.engaged,
    )


def attacker_effects(attack: AttackState | Attacker, catalogue: DamageDeck) -> tuple[str, ...]:
    """Effect keys of the attacker's face-up damage cards."""
    attacker = attack.attacker if isinstance(attack, AttackState) else attack
    return tuple(dmg.effect_of(catalogue, card) for card in attacker.face_up)


def counts_crits(attacker: Attacker, defender: ShipDefender | SquadronDefender) -> bool:
    """Crit icons add damage when attacker and defender are ships, or for a Bomber squadron
    attacking a ship (SWA-ATK 5, SWA-DATA)."""
    return is_ship(defender) and (attacker.kind == "ship" or "bomber" in attacker.keywords)


def pool_damage(attack: AttackState) -> tuple[int, int, int]:
    """(hits, crits, damage they count for) of the pool now."""
    icons: Counter[str] = Counter(icon for die in attack.pool for icon in die.icons)
    counted = icons["hit"] + (
        icons["crit"] if counts_crits(attack.attacker, attack.defender) else 0
    )
    return icons["hit"], icons["crit"], counted


def _minus(pool: DicePool, colour: Colour) -> DicePool:
    return changed(pool, **{colour: getattr(pool, colour) - 1})


# --------------------------------------------------------------------------- folding


def _without(pool: tuple[PoolDie, ...], indices: Iterable[int]) -> tuple[PoolDie, ...]:
    gone = set(indices)
    return tuple(d for i, d in enumerate(pool) if i not in gone)


def _apply_defender(attack: AttackState, event: DomainEvent) -> AttackState:
    defender = attack.defender
    if isinstance(defender, ShipDefender):
        new_ship = dmg.apply_ship(defender, event)
        return attack if new_ship is defender else changed(attack, defender=new_ship)
    match event:
        case DefenceTokenSpent() if event.unit == defender.id:
            tokens = list(defender.tokens)
            tokens[event.token] = token_in(event.kind, event.state)
            return changed(attack, defender=changed(defender, tokens=tuple(tokens)))
        case DamageSuffered() if event.unit == defender.id and event.hull is not None:
            return changed(attack, defender=changed(defender, hull=event.hull))
        case UnitDestroyed() if event.unit == defender.id:
            return changed(attack, defender=changed(defender, destroyed=True))
    return attack


def apply(attack: AttackState, event: DomainEvent) -> AttackState:
    """Fold one event into the attack (``AttackDeclared`` is :func:`begin`/:func:`retarget`'s;
    events of other units, dice rolls and deck shuffles leave it unchanged). Never raises."""
    if isinstance(event, dmg.SHIP_EVENTS):  # the defender and what is owed change by no other
        attack = _apply_defender(attack, event)
        dealing = dmg.apply_dealing(attack.dealing, event)
        if dealing is not attack.dealing:
            attack = changed(attack, dealing=dealing)
    match event:
        case AttackDiceGathered():
            gathered = DicePool(red=event.red, blue=event.blue, black=event.black)
            return changed(attack, gathered=gathered, removals=tuple(event.removals))
        case AttackDieRemoved() if attack.gathered is not None:
            return changed(
                attack,
                gathered=_minus(attack.gathered, event.colour),
                removals=attack.removals[1:],
            )
        case AttackDiceRolled():
            return changed(attack, pool=tuple(event.dice))
        case AttackStepBegan():
            return changed(attack, step=event.step)
        case ConcentrateFireSpent():
            return changed(
                attack,
                concentrate_fire=event.spend,
                concentrate_fire_reroll=event.spend in ("token", "both"),
            )
        case AttackDieAdded():
            return changed(attack, pool=(*attack.pool, event.die))
        case AttackDiceRerolled():
            pool = list(attack.pool)
            for i, die in zip(event.indices, event.after, strict=False):
                if 0 <= i < len(pool):
                    pool[i] = die
            attack = changed(attack, pool=tuple(pool))
            if event.reason == "concentrate_fire":
                return changed(attack, concentrate_fire_reroll=False)
            if event.reason == "swarm":
                return changed(attack, swarm_used=True)
            return attack
        case AttackDiceCancelled():
            return changed(attack, pool=_without(attack.pool, event.indices))
        case AccuracySpent():
            return changed(
                attack,
                pool=_without(attack.pool, [event.die]),
                locked=(*attack.locked, event.token),
            )
        case DefenceTokenSpent() if event.unit == attack.defender.id:
            return changed(
                attack,
                spent=(*attack.spent, event.kind),
                brace=attack.brace or event.kind == "brace",
                contain=attack.contain or event.kind == "contain",
                redirect=event.zone if event.kind == "redirect" else attack.redirect,
            )
        case DamageTotalled():
            stage = DamageStage(
                total=event.total,
                critical=event.critical,
                redirect_zone=event.redirect_zone,
                redirect_max=event.redirect_max,
            )
            return changed(attack, damage=stage)
        case DamageRedirected() if attack.damage is not None:
            return changed(attack, damage=changed(attack.damage, redirected=event.amount))
        case DamageSuffered() if event.unit == attack.defender.id and attack.damage is not None:
            if event.rule == "SWA-ATK 5":
                return changed(attack, damage=changed(attack.damage, applied=True))
        case AttackEnded():
            return changed(attack, step="ended", cancelled=event.cancelled)
    return attack


def fold(
    attack: AttackState, deck: dmg.DeckState, events: Iterable[DomainEvent]
) -> tuple[AttackState, dmg.DeckState]:
    for event in events:
        attack = apply(attack, event)
        deck = dmg.apply_deck(deck, event)
    return attack, deck
