"""Iron & Oak turn events: phases, sealed orders, cards, anchoring, entering and leaving the map,
and a resolution stopped for the target's Collateral choice (IO-6.3.4).

Topics ``iron_oak.<Name>/1``. Resolution events (gunnery, hazards, criticals, ram...) live in
:mod:`domain.rulesets.iron_oak.events`; these record the sequence of play (IO-3) around them.
Events that carry hidden information (the cards dealt or drawn, order cards before they are
revealed) are redacted for the other side by the ruleset.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Literal

from pydantic import Field

from domain.events import DomainEvent, EventRegistry
from domain.rulesets.iron_oak.basics import Edge, Side

Cell = tuple[int, int]


class StepBegan(DomainEvent):
    """A step of the turn starts (IO-3): ``phase`` of ``side`` (None: both sides or a system
    step). ``step`` indexes the turn's step list."""

    TOPIC: ClassVar[str] = "iron_oak.StepBegan/1"
    RULE: ClassVar[str] = "IO-3.0"
    AUTOMATIC: ClassVar[bool] = True
    turn: int
    step: int
    phase: str
    side: Side | None


class CardsDealt(DomainEvent):
    """The action deck is shuffled with the game's dice and the initial hands dealt (IO-3.4).

    ``faces``: the Fisher–Yates draws (empty when the cards were dealt physically and the deck
    order is unknown). Hidden: each side sees only its own hand.
    """

    TOPIC: ClassVar[str] = "iron_oak.CardsDealt/1"
    RULE: ClassVar[str] = "IO-3.4"
    AUTOMATIC: ClassVar[bool] = True
    faces: list[int] = Field(default_factory=list)
    deck: list[str] = Field(default_factory=list)  # the deck before the shuffle
    hands: dict[Side, list[str]]
    known: bool = True  # False: physical cards; later draws name their card
    next_die: int | None = None  # the game's dice position after the shuffle's draws


class StatusChosen(DomainEvent):
    """IO-9.3.1 (alternating play): the first player's Status choices, resolved together
    with the second player's (both sides' level-5 fires first)."""

    TOPIC: ClassVar[str] = "iron_oak.StatusChosen/1"
    RULE: ClassVar[str] = "IO-9.3.1"
    side: Side
    withdraw: list[str] = Field(default_factory=list)
    repair: dict[str, str] = Field(default_factory=dict)
    place: list[str] = Field(default_factory=list)


class RepairParty(DomainEvent):
    """IO-3.1.1: a repair party is placed on, or withdrawn from, a unit."""

    TOPIC: ClassVar[str] = "iron_oak.RepairParty/1"
    RULE: ClassVar[str] = "IO-3.1.1"
    unit: str
    placed: bool


class StatusChecked(DomainEvent):
    """The end of a side's Status Phase (IO-3.1): the units whose fire stands at level 5 (an
    Explosion if it has not dropped by the next friendly Status Phase, IO-3.1.2)."""

    TOPIC: ClassVar[str] = "iron_oak.StatusChecked/1"
    RULE: ClassVar[str] = "IO-3.1"
    AUTOMATIC: ClassVar[bool] = True
    side: Side
    level5: list[str] = Field(default_factory=list)


class OrdersAssigned(DomainEvent):
    """IO-3.2: order cards put face down on every ship under command: a sealed commitment per
    ship (``domain.sealed``), opened when the ship's order is revealed. ``numbers``: the order
    cards' numbers in alternating mode (IO-9.3.2)."""

    TOPIC: ClassVar[str] = "iron_oak.OrdersAssigned/1"
    RULE: ClassVar[str] = "IO-3.2"
    side: Side
    seals: dict[str, str]
    numbers: dict[str, int] = Field(default_factory=dict)
    released_tows: list[str] = Field(default_factory=list)  # IO-5.3: released at the start


class OrderRevealed(DomainEvent):
    """IO-3.3.1 A: the ship's order card is turned face up and its destination, path or target
    stated; the salt proves it is the card sealed in the Order Phase."""

    TOPIC: ClassVar[str] = "iron_oak.OrderRevealed/1"
    RULE: ClassVar[str] = "IO-3.3.1"
    ship: str
    order: str
    salt: str
    path: list[Cell] = Field(default_factory=list)
    target: str | None = None
    attacks: list[str] = Field(default_factory=list)
    kind: Literal["bow_on", "stern_on"] | None = None
    attach: str | None = None
    exit: bool = False
    drift: bool = False  # IO-4.0: the order cannot be carried out; the ship drifts instead


class OrderCompleted(DomainEvent):
    """IO-3.3.1 D: the ship's order has been carried out (successfully or not)."""

    TOPIC: ClassVar[str] = "iron_oak.OrderCompleted/1"
    RULE: ClassVar[str] = "IO-3.3.1"
    AUTOMATIC: ClassVar[bool] = True
    ship: str


class EscapeAttempted(DomainEvent):
    """IO-5.1.4 / IO-5.5.3: a ship under a crossed T (either ship of the pair) takes Maneuver 0
    to escape: its Movement Chart dice against the Maneuver 0 opposition dice."""

    TOPIC: ClassVar[str] = "iron_oak.EscapeAttempted/1"
    RULE: ClassVar[str] = "IO-5.5.3"
    AUTOMATIC: ClassVar[bool] = True
    ship: str
    success: bool


class CardPlayed(DomainEvent):
    """IO-7.0, IO-3.3: an action card is played from a hand (it goes to the discards)."""

    TOPIC: ClassVar[str] = "iron_oak.CardPlayed/1"
    RULE: ClassVar[str] = "IO-7.0"
    side: Side
    card: str
    unit: str  # the unit it acts on
    use: str
    value: int = 0
    section: int | None = None
    location: str | None = None
    window: Literal["own", "opponent"]


class ShipAnchored(DomainEvent):
    """IO-4.1 (anchored) / IO-4.2 (anchor weighed)."""

    TOPIC: ClassVar[str] = "iron_oak.ShipAnchored/1"
    RULE: ClassVar[str] = "IO-4.1"
    ship: str
    anchored: bool


class OpposingManeuver(DomainEvent):
    """IO-5.1.3: ``ship`` puts an Opposed marker on ``target`` (−1 on its next move)."""

    TOPIC: ClassVar[str] = "iron_oak.OpposingManeuver/1"
    RULE: ClassVar[str] = "IO-5.1.3"
    ship: str
    target: str


class MapEdgeCrossed(DomainEvent):
    """IO-5.1.5: a ship enters the map (stopping in the first GB) or leaves it."""

    TOPIC: ClassVar[str] = "iron_oak.MapEdgeCrossed/1"
    RULE: ClassVar[str] = "IO-5.1.5"
    ship: str
    entering: bool
    cell: Cell
    edge: Edge
    success: bool


class ShieldRepaired(DomainEvent):
    """A card removes shield damage from one location (IO-7.0)."""

    TOPIC: ClassVar[str] = "iron_oak.ShieldRepaired/1"
    RULE: ClassVar[str] = "IO-7.0"
    AUTOMATIC: ClassVar[bool] = True
    unit: str
    location: str
    shield_after: int


class DriftCheck(DomainEvent):
    """A card's check (IO-7.0): failed means the ship drifts instead of carrying out its order."""

    TOPIC: ClassVar[str] = "iron_oak.DriftCheck/1"
    RULE: ClassVar[str] = "IO-7.0"
    AUTOMATIC: ClassVar[bool] = True
    ship: str
    passed: bool


class FireDeclared(DomainEvent):
    """IO-3.3.2 B: which gun section of which unit fires at which target."""

    TOPIC: ClassVar[str] = "iron_oak.FireDeclared/1"
    RULE: ClassVar[str] = "IO-3.3.2"
    side: Side
    fires: list[dict[str, str | int | bool]]


class FireCancelled(DomainEvent):
    """IO-3.3.2 D: a Misfire card stops one declared fire."""

    TOPIC: ClassVar[str] = "iron_oak.FireCancelled/1"
    RULE: ClassVar[str] = "IO-3.3.2"
    AUTOMATIC: ClassVar[bool] = True
    firer: str
    section: int


class ShipCaptured(DomainEvent):
    """IO-6.2.3I: the ship strikes its colours (a "Strike!" card) and is captured."""

    TOPIC: ClassVar[str] = "iron_oak.ShipCaptured/1"
    RULE: ClassVar[str] = "IO-6.2.3I"
    AUTOMATIC: ClassVar[bool] = True
    ship: str
    by: Side


class CardExchanged(DomainEvent):
    """IO-3.4: one card discarded face down to the exchange pile and one drawn (hidden)."""

    TOPIC: ClassVar[str] = "iron_oak.CardExchanged/1"
    RULE: ClassVar[str] = "IO-3.4"
    side: Side
    discarded: str
    drawn: str | None  # None: the deck is empty


class GunfireMarkers(DomainEvent):
    """IO-6.2.4: Gunfire markers placed on units that fired at night, or removed (IO-3.3.2 A)."""

    TOPIC: ClassVar[str] = "iron_oak.GunfireMarkers/1"
    RULE: ClassVar[str] = "IO-6.2.4"
    AUTOMATIC: ClassVar[bool] = True
    units: list[str]
    placed: bool


class ResolutionCheckpoint(DomainEvent):
    """The first event of an order whose resolution stops for a player's decision (IO-6.3.4):
    the state before the order is kept, so that the order (``command``, given by ``side``) can
    be run again, with the same dice and the decisions made so far, when the decision comes."""

    TOPIC: ClassVar[str] = "iron_oak.ResolutionCheckpoint/1"
    RULE: ClassVar[str] = "IO-6.3.4"
    AUTOMATIC: ClassVar[bool] = True
    command: dict[str, Any]
    side: Side | None


class CollateralAwaited(DomainEvent):
    """IO-6.3.4: a Collateral critical on ``unit`` (``critical`` is what was rolled: Collateral,
    or a Jam, Smokestack or Spar Torpedo that becomes one) after a hit on ``hit``, and the
    target's ``side`` chooses among ``candidates`` (their shield damage now in ``shields``)
    where the extra −1 goes. The resolution stops here.

    To go on later: ``faces`` are the dice drawn since the order's resolution began (from die
    ``start``; some belong to rolls not yet recorded), ``choices`` the Collateral locations
    chosen before in this resolution, ``emitted`` how many of its events are already recorded.
    ``next_die`` is where the game's dice continue."""

    TOPIC: ClassVar[str] = "iron_oak.CollateralAwaited/1"
    RULE: ClassVar[str] = "IO-6.3.4"
    AUTOMATIC: ClassVar[bool] = True
    unit: str
    side: Side
    critical: str
    hit: str
    candidates: list[str]
    shields: dict[str, int] = Field(default_factory=dict)
    faces: list[int] = Field(default_factory=list)
    start: int = 0
    choices: list[str] = Field(default_factory=list)
    emitted: int = 0
    next_die: int | None = None


class CollateralChosen(DomainEvent):
    """IO-6.3.4: the target's ``side`` chooses ``location`` for ``unit``'s Collateral damage;
    the stopped resolution goes on. ``final``: it runs to its end (no other choice stops it)."""

    TOPIC: ClassVar[str] = "iron_oak.CollateralChosen/1"
    RULE: ClassVar[str] = "IO-6.3.4"
    unit: str
    side: Side
    location: str
    final: bool = True


def paused(events: Sequence[DomainEvent]) -> bool:
    """The resolution these events record stopped for a Collateral choice (IO-6.3.4)."""
    return bool(events) and isinstance(events[-1], CollateralAwaited)


TURN_EVENTS = EventRegistry(
    [
        StepBegan,
        CardsDealt,
        RepairParty,
        StatusChecked,
        StatusChosen,
        OrderCompleted,
        EscapeAttempted,
        OrdersAssigned,
        OrderRevealed,
        CardPlayed,
        ShipAnchored,
        OpposingManeuver,
        MapEdgeCrossed,
        ShieldRepaired,
        DriftCheck,
        FireDeclared,
        FireCancelled,
        ShipCaptured,
        CardExchanged,
        GunfireMarkers,
        ResolutionCheckpoint,
        CollateralAwaited,
        CollateralChosen,
    ]
)
