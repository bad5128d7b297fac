"""Morze w ogniu events (past-tense facts) with stable topics ``morze.<Name>/<version>``."""

from __future__ import annotations

from typing import ClassVar

from domain.events import DomainEvent, EventRegistry


class InitiativeDetermined(DomainEvent):
    """PL-1: ``side`` holds initiative this turn and so moves and declares second."""

    TOPIC: ClassVar[str] = "morze.InitiativeDetermined/1"
    RULE: ClassVar[str] = "PL-1"
    AUTOMATIC: ClassVar[bool] = True
    turn: int
    side: str
    rolls: dict[str, int]
    reason: str  # "higher roll" or how a tie was settled


class PhaseBegan(DomainEvent):
    """A new phase of the turn starts; ``side`` is to act (None for a system step)."""

    TOPIC: ClassVar[str] = "morze.PhaseBegan/1"
    RULE: ClassVar[str] = "PL-3"
    AUTOMATIC: ClassVar[bool] = True
    turn: int
    phase: str
    side: str | None


class UnitMoved(DomainEvent):
    """PL-2: a unit moved in a straight line."""

    TOPIC: ClassVar[str] = "morze.UnitMoved/1"
    RULE: ClassVar[str] = "PL-2"
    unit: str
    side: str
    from_x: float
    from_y: float
    to_x: float
    to_y: float
    distance: float
    speed: float


class MovementEnded(DomainEvent):
    """PL-2: ``side`` finished moving."""

    TOPIC: ClassVar[str] = "morze.MovementEnded/1"
    RULE: ClassVar[str] = "PL-2"
    side: str


class AttackDeclared(DomainEvent):
    """PL-3/PL-4a: an attack is declared at a target in range."""

    TOPIC: ClassVar[str] = "morze.AttackDeclared/1"
    RULE: ClassVar[str] = "PL-3"
    attacker: str
    target: str
    side: str
    distance: float
    range: float


class DeclarationsEnded(DomainEvent):
    """PL-3: ``side`` finished declaring."""

    TOPIC: ClassVar[str] = "morze.DeclarationsEnded/1"
    RULE: ClassVar[str] = "PL-3"
    side: str


class AttackResolved(DomainEvent):
    """PL-4: the outcome of one attack's hit / defence / damage chain."""

    TOPIC: ClassVar[str] = "morze.AttackResolved/1"
    RULE: ClassVar[str] = "PL-4"
    AUTOMATIC: ClassVar[bool] = True
    attacker: str
    target: str
    hit: bool
    defended: bool | None
    damage: int
    critical: bool


class UnitDestroyed(DomainEvent):
    """PL-5/PL-6: accumulated damage reached toughness; the unit is removed, VP awarded."""

    TOPIC: ClassVar[str] = "morze.UnitDestroyed/1"
    RULE: ClassVar[str] = "PL-5"
    AUTOMATIC: ClassVar[bool] = True
    unit: str
    side: str
    damage: int
    toughness: int
    vp_to: str
    vp: int


class TurnEnded(DomainEvent):
    """PL-7: the turn is over; the next starts with an initiative roll."""

    TOPIC: ClassVar[str] = "morze.TurnEnded/1"
    RULE: ClassVar[str] = "PL-7"
    AUTOMATIC: ClassVar[bool] = True
    turn: int


MORZE_EVENTS = EventRegistry(
    [
        InitiativeDetermined,
        PhaseBegan,
        UnitMoved,
        MovementEnded,
        AttackDeclared,
        DeclarationsEnded,
        AttackResolved,
        UnitDestroyed,
        TurnEnded,
    ]
)
