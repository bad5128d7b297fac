"""Towing (IO-5.3): a friendly powered ship attaches to one ship or barge in its box at the
start of its move, and the tow may be released at the start of the Order Phase."""

from __future__ import annotations

from domain.errors import IllegalCommand
from domain.events import DomainEvent
from domain.rulesets.iron_oak.events import (
    TowAttached,
    TowReleased,
)
from domain.rulesets.iron_oak.maneuvers import named_ship, on_map_cell, side_of
from domain.rulesets.iron_oak.state import IronOakState
from domain.words import possessive


def attach_tow(state: IronOakState, tower: str, towed: str) -> list[DomainEvent]:
    """IO-5.3: a friendly powered ship attaches to one ship in its GB.

    Raises:
        IllegalCommand: IO-5.3 (itself, not afloat on the map, another GB, an enemy, the tower
            unpowered, either ship already towing or towed).
    """
    if tower == towed:
        raise IllegalCommand(f"{tower} cannot tow itself", rule="IO-5.3")
    a, b = named_ship(state, tower, "IO-5.3"), named_ship(state, towed, "IO-5.3")
    here, there = on_map_cell(a, "IO-5.3"), on_map_cell(b, "IO-5.3")
    if here != there:
        raise IllegalCommand(f"{towed} is not in {possessive(tower)} GB {here}", rule="IO-5.3")
    if side_of(a) != side_of(b):
        raise IllegalCommand(f"{towed} is not friendly to {tower}", rule="IO-5.3")
    if not a.powered:
        raise IllegalCommand(f"{tower} has no power and cannot tow", rule="IO-5.3")
    for s in (a, b):
        if s.towing is not None or s.towed_by is not None:
            raise IllegalCommand(f"{s.id} is already in a tow", rule="IO-5.3")
    return [TowAttached(tower=tower, towed=towed)]


def release_tow(state: IronOakState, tower: str) -> list[DomainEvent]:
    """IO-5.3: release the tow (at the start of the Order Phase; the caller checks the phase).

    Raises:
        IllegalCommand: IO-5.3 (no such ship, not towing).
    """
    a = named_ship(state, tower, "IO-5.3")
    if a.towing is None:
        raise IllegalCommand(f"{tower} is not towing", rule="IO-5.3")
    return [TowReleased(tower=tower, towed=a.towing)]
