"""Events of the Armada attack pipeline and the damage deck (topics ``armada.<Name>/1``).

The pipeline (:mod:`.attack`) and the damage module (:mod:`.damage`) emit these; each is a fact
the game state folds in. The dice themselves are engine ``wake.DiceRolled/1`` events written by
:func:`domain.chance.pool_roll` (pool text, face numbers, exact odds), each followed by one of
these that says what became of the attack pool. :data:`ATTACK_EVENTS` lists every class, for the
ruleset's registry; :func:`describe` gives one log line.

Hidden information (SWA-DMG): a face-down damage card's id, the cards of a destroyed ship and the
faces of a deck shuffle (which fix the deck order) are seen by the umpire only;
:func:`.damage.redact` hides them from the sides.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from domain.dice import ARMADA_BLACK, ARMADA_BLUE, ARMADA_RED, CustomDie
from domain.events import DomainEvent
from domain.rulesets.armada.data import RangeBand
from domain.rulesets.armada.defence import TokenKind, TokenState
from domain.rulesets.armada.geometry import Zone
from domain.words import possessive

Colour = Literal["red", "blue", "black"]
COLOURS: tuple[Colour, ...] = ("red", "blue", "black")
DIE: dict[Colour, CustomDie] = {"red": ARMADA_RED, "blue": ARMADA_BLUE, "black": ARMADA_BLACK}
"""The custom die of each colour (SWA-DICE)."""

Step = Literal["roll", "modify", "defend", "damage", "additional", "ended"]
STEP_RULES: dict[Step, str] = {
    "roll": "SWA-ATK 2",
    "modify": "SWA-ATK 3",
    "defend": "SWA-ATK 4",
    "damage": "SWA-ATK 5",
    "additional": "SWA-ATK 6",
    "ended": "SWA-ATK",
}
UnitKind = Literal["ship", "squadron"]
CommandName = Literal["navigate", "squadron", "repair", "concentrate_fire"]
CommandSpend = Literal["dial", "token", "both"]


class PoolDie(BaseModel):
    """One die in the attack pool: its colour, the face number (1–8) it shows and that face's
    icons (SWA-DICE). Build it with :meth:`of`; the icons must match the face."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    colour: Colour
    face: int = Field(ge=1, le=8)
    icons: tuple[str, ...]

    @model_validator(mode="after")
    def _icons_match(self) -> PoolDie:
        if DIE[self.colour].icons(self.face) != self.icons:
            raise ValueError(f"a {self.colour} die's face {self.face} does not show {self.icons}")
        return self

    @classmethod
    def of(cls, colour: Colour, face: int) -> PoolDie:
        return cls(colour=colour, face=face, icons=DIE[colour].icons(face))

    def __str__(self) -> str:
        return f"{self.colour}:{'+'.join(self.icons) or 'blank'}"


def _dice(dice: list[PoolDie]) -> str:
    """Dice as players see them, by colour in throw order: ``red: blank, hit+hit; blue: hit``
    (issue 21 item 8)."""
    groups: dict[str, list[str]] = {}
    for die in dice:
        groups.setdefault(die.colour, []).append("+".join(die.icons) or "blank")
    return "; ".join(f"{colour}: {', '.join(faces)}" for colour, faces in groups.items()) or "none"


# --------------------------------------------------------------------------- the attack


class AttackDeclared(DomainEvent):
    """SWA-ATK 1: the attacker (ship hull ``zone``, or a squadron) declares the defender (and
    the defending hull zone of a ship). ``armament``: battery against ships, anti-squadron
    against squadrons. The measurements are the caller's: ``range`` band, ``distance`` band,
    ``obstructed``; ``engaged``: the defending squadron is engaged with another squadron
    (Swarm). ``additional``: a further squadron target of the same attack (SWA-ATK 6)."""

    TOPIC: ClassVar[str] = "armada.AttackDeclared/1"
    RULE: ClassVar[str] = "SWA-ATK 1"
    attacker: str
    attacker_side: str
    attacker_kind: UnitKind
    zone: Zone | None = None
    defender: str
    defender_kind: UnitKind
    defending_zone: Zone | None = None
    armament: Literal["battery", "anti_squadron"]
    range: RangeBand
    distance: int | None = None
    obstructed: bool = False
    engaged: bool = False
    additional: bool = False


class AttackDiceGathered(DomainEvent):
    """SWA-ATK 2: the dice of the armament legal at the range (red close–long, blue
    close–medium, black close). ``removals``: rules that still take a die out before the roll
    (SWA-ATK 2 obstruction, SWA-DMG Damaged Munitions / Point-Defense Failure)."""

    TOPIC: ClassVar[str] = "armada.AttackDiceGathered/1"
    RULE: ClassVar[str] = "SWA-ATK 2"
    AUTOMATIC: ClassVar[bool] = True
    red: int = 0
    blue: int = 0
    black: int = 0
    removals: list[str] = Field(default_factory=list)


class AttackDieRemoved(DomainEvent):
    """SWA-ATK 2: one die of ``colour`` leaves the gathered pool before the roll (``rule``:
    SWA-ATK 2 for an obstructed attack, SWA-DMG for a damage card); the attacker's choice, or
    forced when every die is of one colour."""

    TOPIC: ClassVar[str] = "armada.AttackDieRemoved/1"
    RULE: ClassVar[str] = "SWA-ATK 2"
    colour: Colour
    rule: str = "SWA-ATK 2"
    reason: str = ""


class AttackDiceRolled(DomainEvent):
    """SWA-ATK 2: the pool as rolled (after the engine's ``DiceRolled``), in throw order."""

    TOPIC: ClassVar[str] = "armada.AttackDiceRolled/1"
    RULE: ClassVar[str] = "SWA-ATK 2"
    AUTOMATIC: ClassVar[bool] = True
    dice: list[PoolDie]


class AttackStepBegan(DomainEvent):
    """The attack moves to ``step`` (SWA-ATK 3 resolve attack effects, 4 spend defence tokens,
    5 resolve damage, 6 additional squadron target)."""

    TOPIC: ClassVar[str] = "armada.AttackStepBegan/1"
    RULE: ClassVar[str] = "SWA-ATK"
    AUTOMATIC: ClassVar[bool] = True
    step: Step
    rule: str = "SWA-ATK"


class ConcentrateFireSpent(DomainEvent):
    """SWA-R3: the attacking ship resolves Concentrate Fire with its ``dial`` (add a die of a
    colour in the pool), ``token`` (reroll one die) or ``both`` (one resolution). The game marks
    the dial and/or token spent and the command resolved this round."""

    TOPIC: ClassVar[str] = "armada.ConcentrateFireSpent/1"
    RULE: ClassVar[str] = "SWA-R3"
    ship: str
    spend: CommandSpend


class AttackDieAdded(DomainEvent):
    """A die added to the pool and rolled (SWA-R3 Concentrate Fire dial; after the engine's
    ``DiceRolled`` for it). The range limit on colours does not apply to added dice."""

    TOPIC: ClassVar[str] = "armada.AttackDieAdded/1"
    RULE: ClassVar[str] = "SWA-R3"
    AUTOMATIC: ClassVar[bool] = True
    die: PoolDie
    rule: str = "SWA-R3"


class AttackDiceRerolled(DomainEvent):
    """Dice rerolled (after the engine's ``DiceRolled`` for them): pool indices ``indices``
    showed ``before`` and now show ``after``. ``rule``: SWA-R3 (Concentrate Fire token),
    SWA-DATA (Swarm), SWA-DEF (Evade)."""

    TOPIC: ClassVar[str] = "armada.AttackDiceRerolled/1"
    RULE: ClassVar[str] = "SWA-ATK 3"
    AUTOMATIC: ClassVar[bool] = True
    indices: list[int]
    before: list[PoolDie]
    after: list[PoolDie]
    rule: str
    reason: str = ""


class AttackDiceCancelled(DomainEvent):
    """SWA-DEF: dice at pool ``indices`` (as numbered before this event) are removed from the
    pool: by an Evade (one or two dice) or a Scatter (all)."""

    TOPIC: ClassVar[str] = "armada.AttackDiceCancelled/1"
    RULE: ClassVar[str] = "SWA-DEF"
    AUTOMATIC: ClassVar[bool] = True
    indices: list[int]
    dice: list[PoolDie]
    rule: str = "SWA-DEF"


class AccuracySpent(DomainEvent):
    """SWA-ATK 3: the die at ``die`` (an accuracy) is spent, leaving the pool, to choose the
    defender's defence token ``token``, which cannot be spent during this attack."""

    TOPIC: ClassVar[str] = "armada.AccuracySpent/1"
    RULE: ClassVar[str] = "SWA-ATK 3"
    die: int
    token: int
    kind: TokenKind


class DefenceTokenSpent(DomainEvent):
    """SWA-DEF: the defender spends its token ``token`` (``kind``), which becomes ``state``.
    ``zone``: a Redirect's chosen adjacent zone; ``dice``: the pool indices an Evade cancels or
    rerolls (two with the size-class bonus, after which the token is discarded)."""

    TOPIC: ClassVar[str] = "armada.DefenceTokenSpent/1"
    RULE: ClassVar[str] = "SWA-DEF"
    unit: str
    token: int
    kind: TokenKind
    state: TokenState
    zone: Zone | None = None
    dice: list[int] = Field(default_factory=list)
    effect: str = ""


class DamageTotalled(DomainEvent):
    """SWA-ATK 5: the damage total. ``hits`` and ``crits`` are the icons in the pool;
    ``counted`` the damage they make (crits count when attacker and defender are ships, or for
    a Bomber against a ship); ``braced`` halves it rounding up (``total``). ``critical``: the
    standard critical effect is resolved (the first damage card face up); ``blocked`` names
    what prevented one (``contain``, a damage card effect). ``redirect_zone``/``redirect_max``:
    the Redirect's zone and the most damage its shields may take."""

    TOPIC: ClassVar[str] = "armada.DamageTotalled/1"
    RULE: ClassVar[str] = "SWA-ATK 5"
    AUTOMATIC: ClassVar[bool] = True
    hits: int
    crits: int
    counted: int
    braced: bool = False
    total: int
    critical: bool = False
    blocked: str | None = None
    redirect_zone: Zone | None = None
    redirect_max: int = 0


class DamageRedirected(DomainEvent):
    """SWA-DEF Redirect: ``amount`` of the damage is suffered on ``zone``'s shields (now
    ``shields``) before the rest goes to the defending zone."""

    TOPIC: ClassVar[str] = "armada.DamageRedirected/1"
    RULE: ClassVar[str] = "SWA-DEF"
    ship: str
    zone: Zone
    amount: int = Field(ge=0)
    shields: int = Field(ge=0)


class AttackEnded(DomainEvent):
    """The attack is over (``cancelled``: no legal die was left to roll, SWA-ATK 2)."""

    TOPIC: ClassVar[str] = "armada.AttackEnded/1"
    RULE: ClassVar[str] = "SWA-ATK"
    AUTOMATIC: ClassVar[bool] = True
    attacker: str
    cancelled: bool = False
    rule: str = "SWA-ATK"


# --------------------------------------------------------------------------- damage


class DamageSuffered(DomainEvent):
    """Where damage went. A ship: ``shields_lost`` from ``zone``'s shields (now ``shields``),
    then ``cards`` damage cards are due, the first face up when ``face_up_first`` (SWA-ATK 5,
    SWA-DMG). A squadron: ``hull_lost`` hull points, ``hull`` left. ``zone`` None with only
    ``cards``: cards dealt straight to the ship (Structural Damage, an overlap). ``opponent``:
    the side that makes an opponent's choice on a face-up card (Comm Noise, Shield Failure)."""

    TOPIC: ClassVar[str] = "armada.DamageSuffered/1"
    RULE: ClassVar[str] = "SWA-ATK 5"
    AUTOMATIC: ClassVar[bool] = True
    unit: str
    kind: UnitKind = "ship"
    zone: Zone | None = None
    shields_lost: int = Field(default=0, ge=0)
    shields: int | None = None
    cards: int = Field(default=0, ge=0)
    face_up_first: bool = False
    hull_lost: int = Field(default=0, ge=0)
    hull: int | None = None
    opponent: str | None = None
    rule: str = "SWA-ATK 5"


class DamageDeckShuffled(DomainEvent):
    """SWA-DMG: the damage deck is shuffled with the game's dice (Fisher–Yates,
    :func:`domain.cards.shuffle`): ``cards`` in their order before, ``faces`` drawn; ``reason``
    ``setup`` (the whole deck) or ``reshuffle`` (the discard pile, when the deck ran out).
    Hidden: the faces fix the order; the sides do not see them."""

    TOPIC: ClassVar[str] = "armada.DamageDeckShuffled/1"
    RULE: ClassVar[str] = "SWA-DMG"
    AUTOMATIC: ClassVar[bool] = True
    cards: list[str]
    faces: list[int] = Field(default_factory=list)
    reason: Literal["setup", "reshuffle"] = "setup"
    next_die: int | None = None


class DamageCardDealt(DomainEvent):
    """SWA-DMG: the top card of the damage deck goes to ``ship``, face up or face down.
    ``effect``: a face-up card's effect key (what acts now or while it stays face up). Hidden:
    a face-down card's id."""

    TOPIC: ClassVar[str] = "armada.DamageCardDealt/1"
    RULE: ClassVar[str] = "SWA-DMG"
    AUTOMATIC: ClassVar[bool] = True
    ship: str
    card: str
    face_up: bool = False
    effect: str | None = None


class DamageCardFlipped(DomainEvent):
    """SWA-DMG: one of ``ship``'s damage cards turns face down (``face_up`` False: its effect
    has acted) or face up."""

    TOPIC: ClassVar[str] = "armada.DamageCardFlipped/1"
    RULE: ClassVar[str] = "SWA-DMG"
    AUTOMATIC: ClassVar[bool] = True
    ship: str
    card: str
    face_up: bool = False


class DefenceTokenDiscarded(DomainEvent):
    """SWA-DMG (Injured Crew): the owner discards defence token ``token`` (``kind``)."""

    TOPIC: ClassVar[str] = "armada.DefenceTokenDiscarded/1"
    RULE: ClassVar[str] = "SWA-DMG"
    unit: str
    token: int
    kind: TokenKind
    card: str = ""


class ShieldsLost(DomainEvent):
    """SWA-DMG: ``zone`` of ``ship`` loses ``amount`` shields (now ``shields``) to a face-up
    card's effect (Projector Misaligned, Shield Failure)."""

    TOPIC: ClassVar[str] = "armada.ShieldsLost/1"
    RULE: ClassVar[str] = "SWA-DMG"
    ship: str
    zone: Zone
    amount: int = Field(ge=0)
    shields: int = Field(ge=0)
    card: str = ""


class CommNoiseResolved(DomainEvent):
    """SWA-DMG (Comm Noise): the opponent lowers the ship's speed by 1 (``speed`` is the new
    speed), sets ``command`` on its top command dial, or does neither. The game replaces the top
    dial (a new sealed dial) when ``command`` is set."""

    TOPIC: ClassVar[str] = "armada.CommNoiseResolved/1"
    RULE: ClassVar[str] = "SWA-DMG"
    ship: str
    choice: Literal["speed", "dial", "none"]
    speed: int | None = None
    command: CommandName | None = None
    card: str = ""


class UnitDestroyed(DomainEvent):
    """A unit is destroyed: a ship with damage cards ≥ its hull, a squadron with no hull left
    (SWA-DMG, SWA-ATK 5), or a unit whose base left the play area (SWA-OVL, SWA-3.1; ``reason``
    says which). ``cards``: a ship's damage cards, which go to the discard pile."""

    TOPIC: ClassVar[str] = "armada.UnitDestroyed/1"
    RULE: ClassVar[str] = "SWA-DMG"
    AUTOMATIC: ClassVar[bool] = True
    unit: str
    kind: UnitKind
    cards: list[str] = Field(default_factory=list)
    reason: str = ""
    rule: str = "SWA-DMG"


ATTACK_EVENTS: tuple[type[DomainEvent], ...] = (
    AttackDeclared,
    AttackDiceGathered,
    AttackDieRemoved,
    AttackDiceRolled,
    AttackStepBegan,
    ConcentrateFireSpent,
    AttackDieAdded,
    AttackDiceRerolled,
    AttackDiceCancelled,
    AccuracySpent,
    DefenceTokenSpent,
    DamageTotalled,
    DamageRedirected,
    AttackEnded,
    DamageSuffered,
    DamageDeckShuffled,
    DamageCardDealt,
    DamageCardFlipped,
    DefenceTokenDiscarded,
    ShieldsLost,
    CommNoiseResolved,
    UnitDestroyed,
)
"""Every event class of this module, for the ruleset's ``EventRegistry``."""


def describe(event: DomainEvent) -> str | None:
    """One log line for an event of this module (None for any other event)."""
    match event:
        case AttackDeclared():
            source = event.attacker  # its hull zone is the arc named below
            target = (
                f"{event.defender} {event.defending_zone}"
                if event.defending_zone
                else event.defender
            )
            extra = "additional target: " if event.additional else ""
            arc = f" from its {event.zone} arc" if event.zone else ""
            measured = f", distance {event.distance}" if event.distance else ""
            sight = "obstructed" if event.obstructed else "not obstructed"
            return (
                f"{extra}{source} attacks {target}{arc} at {event.range} range{measured}"
                f" ({sight})"
            )
        case AttackDiceGathered():
            pool = f"{event.red} red, {event.blue} blue, {event.black} black"
            return f"gathers {pool}" + (
                f"; to remove: {', '.join(event.removals)}" if event.removals else ""
            )
        case AttackDieRemoved():
            return f"removes a {event.colour} die [{event.rule}] {event.reason}".rstrip()
        case AttackDiceRolled():
            return f"rolls {_dice(event.dice)}"
        case AttackStepBegan():
            return f"attack step: {event.step} [{STEP_RULES[event.step]}]"
        case ConcentrateFireSpent():
            return f"{event.ship} spends its Concentrate Fire {event.spend}"
        case AttackDieAdded():
            return f"adds {event.die} [{event.rule}]"
        case AttackDiceRerolled():
            return f"rerolls {_dice(event.before)} -> {_dice(event.after)} [{event.rule}]"
        case AttackDiceCancelled():
            return f"cancels {_dice(event.dice)} [{event.rule}]"
        case AccuracySpent():
            return f"spends an accuracy to lock {event.kind} token #{event.token}"
        case DefenceTokenSpent():
            what = f" ({event.effect})" if event.effect else ""
            return f"{event.unit} spends {event.kind} #{event.token}{what}, now {event.state}"
        case DamageTotalled():
            brace = " braced" if event.braced else ""
            crit = " with the standard critical effect" if event.critical else ""
            return f"damage {event.counted}{brace} = {event.total}{crit}"
        case DamageRedirected():
            return f"{event.ship} redirects {event.amount} to its {event.zone} shields"
        case AttackEnded():
            return (
                f"{possessive(event.attacker)} attack "
                f"{'is cancelled' if event.cancelled else 'ends'}"
            )
        case DamageSuffered():
            if event.kind == "squadron":
                return f"{event.unit} loses {event.hull_lost} hull ({event.hull} left)"
            where = f"{event.zone} shields -{event.shields_lost}, " if event.zone else ""
            return f"{event.unit}: {where}{event.cards} damage card(s) due"
        case DamageDeckShuffled():
            return f"damage deck shuffled ({event.reason}, {len(event.cards)} cards)"
        case DamageCardDealt():
            face = f"face up: {event.card}" if event.face_up else "face down"
            return f"{event.ship} is dealt a damage card {face}"
        case DamageCardFlipped():
            return (
                f"{possessive(event.ship)} {event.card} turns face "
                f"{'up' if event.face_up else 'down'}"
            )
        case DefenceTokenDiscarded():
            return f"{event.unit} discards its {event.kind} token #{event.token}"
        case ShieldsLost():
            return f"{possessive(event.ship)} {event.zone} zone loses {event.amount} shield(s)"
        case CommNoiseResolved():
            if event.choice == "speed":
                return f"Comm Noise: {possessive(event.ship)} speed drops to {event.speed}"
            if event.choice == "dial":
                return f"Comm Noise: {possessive(event.ship)} top dial becomes {event.command}"
            return f"Comm Noise: no effect on {event.ship}"
        case UnitDestroyed():
            return f"{event.unit} is destroyed"
    return None
