"""SHIPS & TACTICS events, with stable topics ``ships.<Name>/1``.

Hidden information: ``DeckShuffled`` (the order: nobody sees it), ``CardsDrawn`` (only the drawing
player sees the cards) are redacted per viewer by the ruleset; a fleet is a sealed digest
(``FleetCommitted``) until ``FleetRevealed``. Chance events carry their exact odds
(``p_outcome``) and say where the game's dice continue (``next_die``).
"""

from __future__ import annotations

from typing import ClassVar

from pydantic import Field

from domain.events import DomainEvent, EventRegistry
from domain.rulesets.ships.data import Segment
from domain.rulesets.ships.fleet import Fleet
from domain.rulesets.ships.state import Unit


class BattleStarted(DomainEvent):
    TOPIC: ClassVar[str] = "ships.BattleStarted/1"
    RULE: ClassVar[str] = "ST-4.3"
    AUTOMATIC: ClassVar[bool] = True
    battle: int


class DeckShuffled(DomainEvent):
    """ST-1.1: a player's deck shuffled with the game's dice (Fisher–Yates: every order 1/n!).
    ``deck``: the list before the shuffle (public: the deck list); ``faces``: hidden."""

    TOPIC: ClassVar[str] = "ships.DeckShuffled/1"
    RULE: ClassVar[str] = "ST-1.1"
    AUTOMATIC: ClassVar[bool] = True
    player: str
    deck: list[str]
    faces: list[int] = Field(default_factory=list)
    known: bool = True  # False: physical cards, order unknown
    p_outcome: str | None = None
    odds: str = ""
    next_die: int | None = None


class CardsDrawn(DomainEvent):
    """Cards from the top of a player's deck to the hand: the deal (ST-1.2), the refill to the
    hand size (ST-4.3), two at a time until a ship card shows (ST-1.7). Only the player sees
    which cards; ``empty``: the deck ran out (ST-5.5)."""

    TOPIC: ClassVar[str] = "ships.CardsDrawn/1"
    AUTOMATIC: ClassVar[bool] = True
    player: str
    cards: list[str]
    rule: str
    empty: bool = False


class TurnOrderDrawn(DomainEvent):
    """ST-1.2: order cards drawn: each order of the n players has probability 1/n!."""

    TOPIC: ClassVar[str] = "ships.TurnOrderDrawn/1"
    RULE: ClassVar[str] = "ST-1.2"
    AUTOMATIC: ClassVar[bool] = True
    battle: int
    order: list[str]
    faces: list[int] = Field(default_factory=list)
    p_outcome: str
    odds: str = ""
    next_die: int | None = None


class PlayerDroppedOut(DomainEvent):
    """ST-5.5: deck empty and no ship card to place: out of later battles, VP kept."""

    TOPIC: ClassVar[str] = "ships.PlayerDroppedOut/1"
    RULE: ClassVar[str] = "ST-5.5"
    AUTOMATIC: ClassVar[bool] = True
    player: str
    vp: int


class FleetCommitted(DomainEvent):
    """ST-1.3: a fleet placed face down: its sealed commitment, and, when the player gave it,
    the fleet itself (hidden from the other players until the reveal)."""

    TOPIC: ClassVar[str] = "ships.FleetCommitted/1"
    RULE: ClassVar[str] = "ST-1.3"
    player: str
    digest: str
    fleet: Fleet | None = None


class FleetRevealed(DomainEvent):
    """ST-1.9: a fleet turned face up; the salt opens the commitment."""

    TOPIC: ClassVar[str] = "ships.FleetRevealed/1"
    RULE: ClassVar[str] = "ST-1.9"
    player: str
    fleet: Fleet
    salt: str


class FleetCorrected(DomainEvent):
    """ST-1.9 / ST-1.3: a fleet sealed as a digest alone opened its seal but breaks ``rule``
    (``reason``), so it could not be revealed; it is shown (public from now on) and the player
    places a fleet face down again (the ``FleetCommitted`` that follows): a correction."""

    TOPIC: ClassVar[str] = "ships.FleetCorrected/1"
    player: str
    fleet: Fleet
    salt: str
    reason: str
    rule: str


class FleetsPlaced(DomainEvent):
    """ST-1.9: every fleet on the table at once (cards leave the hands); ``combined`` lists
    ship cards counted into another (ST-5.4)."""

    TOPIC: ClassVar[str] = "ships.FleetsPlaced/1"
    RULE: ClassVar[str] = "ST-1.9"
    AUTOMATIC: ClassVar[bool] = True
    units: list[Unit]
    combined: list[str] = Field(default_factory=list)


class SegmentStarted(DomainEvent):
    """ST-2.2: the next segment of the Combat Phase."""

    TOPIC: ClassVar[str] = "ships.SegmentStarted/1"
    RULE: ClassVar[str] = "ST-2.2"
    AUTOMATIC: ClassVar[bool] = True
    segment: Segment


class MinovskyAnswered(DomainEvent):
    """ST-5.3: a player's answer when asked at a segment's start."""

    TOPIC: ClassVar[str] = "ships.MinovskyAnswered/1"
    RULE: ClassVar[str] = "ST-5.3"
    player: str
    dispersed: bool
    card: str | None = None


class AircraftLaunched(DomainEvent):
    """ST-3.3.1: aircraft put out, pilots moved."""

    TOPIC: ClassVar[str] = "ships.AircraftLaunched/1"
    RULE: ClassVar[str] = "ST-3.3.1"
    player: str
    aircraft: list[str]
    pilots: dict[str, str] = Field(default_factory=dict)


class AttackDeclared(DomainEvent):
    """An attack declared; its cards leave the hand; target players may answer with defence."""

    TOPIC: ClassVar[str] = "ships.AttackDeclared/1"
    player: str
    ship: str
    segment: Segment
    cards: list[str]
    targets: list[str]
    defenders: list[str]
    line: bool = False
    centre: str | None = None
    rule: str


class DefencePlayed(DomainEvent):
    TOPIC: ClassVar[str] = "ships.DefencePlayed/1"
    RULE: ClassVar[str] = "ST-2.3"
    player: str
    cards: list[str]


class HitResolved(DomainEvent):
    """One target's share of an attack (provisional combat engine, ST-GAPS): the ship's guns,
    the attack cards, the ones cancelled by defence cards, the saturation bonus, armour, the
    damage, and whether it sank: the VP go to the player who gave the last blow (ST-5.1)."""

    TOPIC: ClassVar[str] = "ships.HitResolved/1"
    player: str
    source: str  # the firing ship, or the striking aircraft joined by "+"
    target: str
    owner: str
    segment: Segment
    guns: int
    cards: list[str]
    values: list[int]
    cancelled: list[str]
    saturation: int
    armour: int
    damage: int
    total: int
    hull: int
    sunk: bool
    vp: int = 0
    earlier_hitters: list[str] = Field(default_factory=list)
    ship: str | None = None  # the firing ship (None: aircraft)
    provisional: bool = True
    rule: str


class DogfightResolved(DomainEvent):
    """ST-3.3.6: an air battle over one player, both sides' losses applied together
    (provisional: each side's dogfight total shoots down the other's weakest aircraft)."""

    TOPIC: ClassVar[str] = "ships.DogfightResolved/1"
    RULE: ClassVar[str] = "ST-3.3.6"
    attacker: str
    defender: str
    attack_strength: int
    defence_strength: int
    attackers_lost: list[str]
    defenders_lost: list[str]
    provisional: bool = True


class AirStrikeFlown(DomainEvent):
    """ST-3.3.2/3.3.5: the active player's groups, each aimed at a ship of another player;
    aircraft kept back stay out for air defence (ST-3.3.3)."""

    TOPIC: ClassVar[str] = "ships.AirStrikeFlown/1"
    RULE: ClassVar[str] = "ST-3.3.2"
    player: str
    groups: dict[str, list[str]]  # target ship -> aircraft


class AircraftReturned(DomainEvent):
    """ST-3.3.7: aircraft sent back to their ships, recovered just before boarding."""

    TOPIC: ClassVar[str] = "ships.AircraftReturned/1"
    RULE: ClassVar[str] = "ST-3.3.7"
    player: str
    aircraft: list[str]


class AircraftRecovered(DomainEvent):
    """ST-3.3.7: returning aircraft land; those whose ship is gone are lost."""

    TOPIC: ClassVar[str] = "ships.AircraftRecovered/1"
    RULE: ClassVar[str] = "ST-3.3.7"
    AUTOMATIC: ClassVar[bool] = True
    recovered: list[str]
    lost: list[str]


class BoardingResolved(DomainEvent):
    """ST-3.5 (provisional resolution): boarding total against the target's own defence; only
    the targeted ship's characters defend it (no blocking by other ships)."""

    TOPIC: ClassVar[str] = "ships.BoardingResolved/1"
    RULE: ClassVar[str] = "ST-3.5"
    player: str
    ship: str
    target: str
    owner: str
    attack: int
    defence: int
    margin: int
    captured: bool
    vp: int = 0
    provisional: bool = True


class ShipsHacked(DomainEvent):
    TOPIC: ClassVar[str] = "ships.ShipsHacked/1"
    RULE: ClassVar[str] = "ST-5.2"
    player: str
    card: str
    targets: list[str]


class TurnEnded(DomainEvent):
    TOPIC: ClassVar[str] = "ships.TurnEnded/1"
    RULE: ClassVar[str] = "ST-2.2"
    player: str
    segment: Segment


class BattleScored(DomainEvent):
    """ST-4.1/4.2: the Combat Phase ends with boarding; surviving ships become their owner's VP
    and every card leaves the table."""

    TOPIC: ClassVar[str] = "ships.BattleScored/1"
    RULE: ClassVar[str] = "ST-4.2"
    AUTOMATIC: ClassVar[bool] = True
    battle: int
    survivors: dict[str, list[str]]
    vp: dict[str, int]


SHIPS_EVENTS = EventRegistry(
    [
        BattleStarted,
        DeckShuffled,
        CardsDrawn,
        TurnOrderDrawn,
        PlayerDroppedOut,
        FleetCommitted,
        FleetRevealed,
        FleetCorrected,
        FleetsPlaced,
        SegmentStarted,
        MinovskyAnswered,
        AircraftLaunched,
        AttackDeclared,
        DefencePlayed,
        HitResolved,
        DogfightResolved,
        AirStrikeFlown,
        AircraftReturned,
        AircraftRecovered,
        BoardingResolved,
        ShipsHacked,
        TurnEnded,
        BattleScored,
    ]
)


class StepStarted(DomainEvent):
    """Whose step it is now: a player's place in the turn order within a phase (fleet
    formation ST-1.3, reveal ST-1.9, the Minovsky question ST-5.3, aircraft launch ST-3.3.1, a
    segment turn ST-2.2), or ``setup`` before the next battle (the player is then None)."""

    TOPIC: ClassVar[str] = "ships.StepStarted/1"
    AUTOMATIC: ClassVar[bool] = True
    phase: str
    player: str | None
    cursor: int
    rule: str


SHIPS_EVENTS.register(StepStarted)
