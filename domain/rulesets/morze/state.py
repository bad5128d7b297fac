"""Morze w ogniu game state: immutable, rebuilt by folding events."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from domain.rulesets.morze.data import Options, Scenario, UnitClass

Phase = Literal["initiative", "movement", "declaration", "resolution", "over"]


class _State(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Unit(_State):
    id: str
    side: str
    name: str
    unit_class: str
    x: float
    y: float
    damage: int = 0
    destroyed: bool = False  # removed from the game (PL-6)
    moved: bool = False  # moved this turn
    attacks: int = 0  # attacks declared this turn


class Declared(_State):
    attacker: str
    target: str


class MorzeState(_State):
    scenario: Scenario
    options: Options
    turn: int = 1
    phase: Phase = "initiative"
    initiative: str | None = None  # side holding initiative this turn (moves second)
    previous_initiative: str | None = None
    active: str | None = None  # side to act in movement/declaration
    units: dict[str, Unit]
    declared: tuple[Declared, ...] = ()
    vp: dict[str, int]
    winner: str | None = None

    @property
    def side_ids(self) -> tuple[str, str]:
        a, b = (s.id for s in self.scenario.sides)
        return a, b

    def other(self, side: str) -> str:
        a, b = self.side_ids
        return b if side == a else a

    def unit_class(self, unit: Unit) -> UnitClass:
        assert self.scenario.classes is not None
        return self.scenario.classes.classes[unit.unit_class]

    def alive(self, side: str | None = None) -> list[Unit]:
        return [
            u for u in self.units.values() if not u.destroyed and (side is None or u.side == side)
        ]
