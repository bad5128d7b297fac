"""Domain events, their stable topics, and the engine-level events shared by every ruleset.

A domain event is a frozen pydantic model with an explicit, versioned ``TOPIC`` such as
``"morze.UnitMoved/1"``. Stored games name events by topic, never by module path, so code can move
without breaking old logs. A changed payload shape gets the next version and an upcaster for the
old one (``domain.topics``): old facts keep their recorded form and are upcast when decoded.
``AUTOMATIC`` marks events the engine emits on its own (phase changes, end of turn) rather than
as the direct answer to an order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from functools import cache
from typing import Any, ClassVar, Literal, cast

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from domain.clock import TIME_PATTERN
from domain.errors import RecordError, validation_summary
from domain.topics import Upcaster, Upcasters, split_topic


class DomainEvent(BaseModel):
    """Base class of every event: a past-tense fact, frozen, no unknown fields."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    TOPIC: ClassVar[str] = ""
    AUTOMATIC: ClassVar[bool] = False
    RULE: ClassVar[str] = ""  # the rule that produces this kind of event, for explanations

    def rule_id(self) -> str:
        """The rule behind this event: its own ``rule`` field if it has one, else the class's."""
        own = getattr(self, "rule", None)
        return own if isinstance(own, str) and own else self.RULE

    def payload(self) -> dict[str, Any]:
        """The JSON form stored in the log."""
        return self.model_dump(mode="json")


class EventRegistry:
    """Maps stable topics to event classes (one registry per ruleset, plus the engine's), and
    older versions of a topic to the current one through declared upcasters."""

    def __init__(
        self,
        classes: Iterable[type[DomainEvent]] = (),
        upcasters: Mapping[str, Upcaster] | None = None,
    ) -> None:
        """``upcasters``: old topic (``"morze.UnitMoved/1"``) -> a pure function turning its
        payload into the next version's; one per version step of a changed event.

        Raises:
            ValueError: a class without a versioned topic, a topic or name taken twice, or an
                upcaster for no newer class.
        """
        self._by_topic: dict[str, type[DomainEvent]] = {}
        # the compiled validators, called directly: replay decodes every stored event
        self._validate: dict[str, Callable[[Any], DomainEvent]] = {}
        self._upcasters = Upcasters()
        for cls in classes:
            self.register(cls)
        for topic, upcaster in (upcasters or {}).items():
            self._upcasters.add(topic, upcaster)

    def register(self, cls: type[DomainEvent]) -> None:
        """Add ``cls``; its topic must be versioned (``x.Name/1``) and its name not taken by
        another class (an older version of an event is upcast, not registered)."""
        parts = split_topic(cls.TOPIC)
        if parts is None:
            raise ValueError(f"{cls.__name__} needs an explicit versioned TOPIC like 'x.Name/1'")
        if cls.TOPIC in self._by_topic and self._by_topic[cls.TOPIC] is not cls:
            raise ValueError(f"topic {cls.TOPIC!r} is already registered")
        name, version = parts
        if self._upcasters.current.get(name, version) != version:
            raise ValueError(
                f"{cls.TOPIC!r}: {name} is already registered at version "
                f"{self._upcasters.current[name]} (declare an upcaster for the older one)"
            )
        self._by_topic[cls.TOPIC] = cls
        self._validate[cls.TOPIC] = cls.__pydantic_validator__.validate_python
        self._upcasters.current[name] = version

    def merged(self, other: EventRegistry) -> EventRegistry:
        """A registry holding both sets of topics and upcasters."""
        merged = EventRegistry(self._by_topic.values())
        for cls in other._by_topic.values():
            merged.register(cls)
        for registry in (self, other):
            for (name, version), upcaster in registry._upcasters.steps.items():
                merged._upcasters.add(f"{name}/{version}", upcaster)
        return merged

    def topics(self) -> list[str]:
        return sorted(self._by_topic)

    def upcasts(self) -> list[str]:
        """The older topics this registry upcasts (``morze.UnitMoved/1``), sorted."""
        return sorted(f"{name}/{version}" for name, version in self._upcasters.steps)

    def current(self, topic: str, payload: Mapping[str, Any]) -> tuple[str, Mapping[str, Any]]:
        """A stored topic and payload in the current version's form (unchanged when current).

        Raises:
            UnknownTopicVersion: the topic is a version newer than the registered class.
            RecordError: an unknown topic, or an old one that cannot be upcast.
        """
        if topic in self._validate:
            return topic, payload
        return self._upcasters.upcast(topic, payload)

    def load(self, topic: str, payload: Mapping[str, Any]) -> DomainEvent:
        """Rebuild an event from its stored form, upcasting an older topic version first.

        Raises:
            UnknownTopicVersion: the topic is a version newer than the registered class.
            RecordError: unknown topic, an old topic that cannot be upcast, or a payload that
                does not fit the event.
        """
        validate = self._validate.get(topic)
        stored = topic
        if validate is None:
            topic, payload = self._upcasters.upcast(topic, payload)
            validate = self._validate[topic]
        try:
            return validate(payload)
        except ValidationError as exc:
            upcast = f" (upcast to {topic})" if topic != stored else ""
            raise RecordError(
                f"event {stored!r}{upcast} has an invalid payload: {validation_summary(exc)}"
            ) from exc


# --- engine-level events -------------------------------------------------------------------------


class CommandIssued(DomainEvent):
    """An order as given: who gave it, what it said, and any physical dice faces and cards
    drawn entered with it."""

    TOPIC: ClassVar[str] = "wake.CommandIssued/1"

    index: int
    side: str | None
    command: dict[str, Any]
    dice: list[int] | None = None
    #: When the order was given (``domain.clock``): games of record format 2 carry it, under
    #: the chain. Left out of the payload when absent, so format-1 payloads keep their digests.
    time: str | None = Field(default=None, pattern=TIME_PATTERN)
    #: The ids of the cards drawn at the table for this order, in drawing order (a physical game
    #: with named draws, ``DiceSpec.cards``). Left out of the payload when absent, so every
    #: payload written before it keeps its digest.
    cards: list[str] | None = None

    def payload(self) -> dict[str, Any]:
        body = self.model_dump(mode="json")
        if self.time is None:
            del body["time"]
        if self.cards is None:
            del body["cards"]
        return body


class ModifierRecord(BaseModel):
    """One modifier applied to a roll, with the rule that gives it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    value: int
    rule: str
    reason: str


class RollRecord(BaseModel):
    """One dice expression as thrown: faces in throw order, natural result, modifiers, total."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    side: str | None
    expression: str
    faces: list[int]
    natural: int
    modifiers: list[ModifierRecord] = Field(default_factory=list)
    floor: int | None = None
    total: int


class DiceRolled(DomainEvent):
    """A chance event: the roll (and the opposing roll, if any), the comparison and its exact odds.

    ``p_success`` is the exact probability, before the roll, that the roller's side gets the
    outcome it wants; ``p_outcome`` is the probability of the outcome that happened.
    ``value``/``expected`` give the numeric result and its expectation (1/0 for success/failure,
    or e.g. damage points), as fractions in text form, for luck accounting.
    """

    TOPIC: ClassVar[str] = "wake.DiceRolled/1"

    purpose: str
    rule: str
    subject: str | None = None
    target: str | None = None
    first_die: int
    roll: RollRecord
    opposed_by: RollRecord | None = None
    comparison: Literal["at_least", "greater_than", "table", "highest"]
    compared_with: int | None = None
    outcome: str
    success: bool | None
    p_success: str | None
    p_outcome: str
    value: str
    expected: str


class CardDrawn(DomainEvent):
    """A chance event: one card drawn by name from a deck (a game with named draws,
    ``DiceSpec.cards``), with the exact chance of drawing it from what the deck could give.

    ``card``/``name``: the card's id and display name; None for a card dealt face down without
    anyone looking at it (``p_outcome`` 1: nothing was drawn by name), or in a side's view of a
    card hidden from it. ``side``: whose card it is; ``hidden``: only that side (and the umpire)
    may see which card it is (a hand). ``p_outcome``: the exact chance as a fraction (None only
    in a view that may not know it); ``odds``: how it arises, in words (``"2 of 45 cards left in
    the damage deck"``). ``next_die``: the game's dice position after the draw (a seeded game
    draws a card with one die), None when no die was used."""

    TOPIC: ClassVar[str] = "wake.CardDrawn/1"
    AUTOMATIC: ClassVar[bool] = True

    deck: str
    card: str | None
    name: str | None = None
    side: str | None = None
    purpose: str
    rule: str
    hidden: bool = False
    p_outcome: str | None
    odds: str = ""
    next_die: int | None = None


class GameEnded(DomainEvent):
    """The game is over: who won (None for a draw), why, and the final victory points."""

    TOPIC: ClassVar[str] = "wake.GameEnded/1"
    AUTOMATIC: ClassVar[bool] = True

    winner: str | None
    reason: str
    rule: str
    vp: dict[str, int]


ENGINE_EVENTS = EventRegistry([CommandIssued, DiceRolled, CardDrawn, GameEnded])


def dice_end(event: DomainEvent) -> int | None:
    """Index of the next die after a chance event, or None if the event threw no dice."""
    cls = type(event)
    if cls is DiceRolled:
        roll = cast(DiceRolled, event)
        used = len(roll.roll.faces) + (len(roll.opposed_by.faces) if roll.opposed_by else 0)
        return roll.first_die + used
    # other chance events (a card shuffle, a card drawn by name) say where their dice ended
    if _says_next_die(cls):
        end = getattr(event, "next_die", None)
        return end if isinstance(end, int) else None
    return None


@cache
def _says_next_die(cls: type[DomainEvent]) -> bool:
    # asked per class: a failed attribute lookup on a pydantic model is slow, and replay asks
    # this of every event
    return "next_die" in cls.model_fields
