"""Morze w ogniu 2.0, a real version bump for the tests of issue 14 ("Across ruleset versions").

Registered in process as ``morze`` in place of 1.0 (``domain.ruleset.register``), it is what a
rules designer's next release would be, not a mock:

* **data**: the light cruiser's Hit number is 6 instead of 5 (PL-4b, PL-5 class table), in
  the class table this version ships (``class_table``), with 1.0's listed by its digest as an
  earlier shipped version (``shipped_data``), so a game played with the bundled 1.0 table gets
  2.0's under ``wake verify --rerun``;
* **an event changed shape**: ``morze.UnitMoved/2`` carries ``start`` and ``end`` points
  instead of ``from_x/from_y/to_x/to_y``, with an explicit upcaster from ``morze.UnitMoved/1``;
* it still **replays 1.0** (``meta.replays``): a 1.0 game keeps the class table embedded in its
  header, so its outcomes are 1.0's.

The rules themselves are 1.0's (``MorzeRuleset``): moves are decided and applied through the
1.0 code, translated to and from the new event shape.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict

from domain.data_versions import ShippedData, data_digest
from domain.dice import DiceSource
from domain.events import DomainEvent, EventRegistry
from domain.ruleset import RulesetMeta
from domain.rulesets.morze import MorzeRuleset
from domain.rulesets.morze.data import ClassTable, bundled_classes
from domain.rulesets.morze.events import (
    AttackDeclared,
    AttackResolved,
    DeclarationsEnded,
    InitiativeDetermined,
    MovementEnded,
    PhaseBegan,
    TurnEnded,
    UnitDestroyed,
    UnitMoved,
)
from domain.rulesets.morze.state import MorzeState

VERSION = "2.0"
#: What 2.0 changes in the class table (PL-5): a JSON merge patch over 1.0's.
CLASS_CHANGE = {"light_cruiser": {"hit": 6}}


class Point(BaseModel):
    """A point on the table (cm)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    x: float
    y: float


class UnitMoved2(DomainEvent):
    """PL-2: a unit moved in a straight line (2.0's shape: start and end points)."""

    TOPIC: ClassVar[str] = "morze.UnitMoved/2"
    RULE: ClassVar[str] = "PL-2"
    unit: str
    side: str
    start: Point
    end: Point
    distance: float
    speed: float


def unit_moved_1_to_2(payload: Mapping[str, Any]) -> dict[str, Any]:
    """The upcaster of ``morze.UnitMoved/1``: coordinates become two points."""
    return {
        "unit": payload["unit"],
        "side": payload["side"],
        "start": {"x": payload["from_x"], "y": payload["from_y"]},
        "end": {"x": payload["to_x"], "y": payload["to_y"]},
        "distance": payload["distance"],
        "speed": payload["speed"],
    }


EVENTS_2 = EventRegistry(
    [
        InitiativeDetermined,
        PhaseBegan,
        UnitMoved2,
        MovementEnded,
        AttackDeclared,
        DeclarationsEnded,
        AttackResolved,
        UnitDestroyed,
        TurnEnded,
    ],
    upcasters={"morze.UnitMoved/1": unit_moved_1_to_2},
)


def _to_2(event: DomainEvent) -> DomainEvent:
    if not isinstance(event, UnitMoved):
        return event
    return UnitMoved2(
        unit=event.unit,
        side=event.side,
        start=Point(x=event.from_x, y=event.from_y),
        end=Point(x=event.to_x, y=event.to_y),
        distance=event.distance,
        speed=event.speed,
    )


def _to_1(event: DomainEvent) -> DomainEvent:
    if not isinstance(event, UnitMoved2):
        return event
    return UnitMoved(
        unit=event.unit,
        side=event.side,
        from_x=event.start.x,
        from_y=event.start.y,
        to_x=event.end.x,
        to_y=event.end.y,
        distance=event.distance,
        speed=event.speed,
    )


class Morze2(MorzeRuleset):
    """Morze w ogniu 2.0: 1.0's rules, a changed class table, a new shape of UnitMoved."""

    meta: ClassVar[RulesetMeta] = MorzeRuleset.meta.model_copy(
        update={"version": VERSION, "replays": ["1.0"]}
    )
    events: ClassVar[EventRegistry] = EVENTS_2

    def class_table(self) -> ClassTable:
        table = bundled_classes().model_dump(mode="json")
        for name, change in CLASS_CHANGE.items():
            table["classes"][name] = {**table["classes"][name], **change}
        return ClassTable.model_validate(table)

    def shipped_data(self) -> ShippedData:
        """2.0's table, and 1.0's as the earlier version Wake shipped (known by its digest, as
        a release lists the tables it replaces): a game played with 1.0's table is re-run
        with 2.0's under ``wake verify --rerun``."""
        earlier = data_digest(bundled_classes().model_dump(mode="json"))
        return ShippedData(
            parts={"classes": self.class_table().model_dump(mode="json")},
            earlier={"classes": (earlier,)},
        )

    def decide(
        self, state: MorzeState, side: str | None, command: Any, dice: DiceSource
    ) -> list[DomainEvent]:
        return [_to_2(event) for event in super().decide(state, side, command, dice)]

    def evolve(self, state: MorzeState, event: DomainEvent) -> MorzeState:
        return super().evolve(state, _to_1(event))

    def describe(self, event: DomainEvent) -> str:
        return super().describe(_to_1(event))
