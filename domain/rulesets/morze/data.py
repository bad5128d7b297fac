"""Morze w ogniu data: unit classes (PL-2, PL-5), scenarios and ruleset options, validated.

The bundled class table lives in ``data/classes.json``. Stats the rules do not give (merchant ships
and torpedo boats, unit values) are marked provisional there. A scenario may carry its own full
``classes`` table, which replaces the bundled one; the resolved table is embedded in every game.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import lru_cache
from importlib import resources
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from domain.errors import ScenarioError, validation_summary


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class UnitClass(_Model):
    """One row of the class tables: speed (PL-2) and combat stats (PL-5)."""

    name: str
    name_pl: str = ""
    speed_class: str
    speed: float = Field(ge=0)  # cm per turn
    range: float = Field(ge=0)  # cm, centre to centre; 0 = cannot attack
    hit: int = Field(ge=1, le=11)  # d10 target number to hit ("4+")
    defence: int = Field(ge=1, le=11)  # d10 target number to avoid damage
    toughness: int = Field(ge=1)  # destroyed when damage reaches this
    value: int = Field(ge=0)  # victory points to the enemy when destroyed
    provisional: list[str] = Field(default_factory=list)


class ClassTable(_Model):
    source: str = ""
    provisional_note: str = ""
    classes: dict[str, UnitClass]


class Table(_Model):
    width: float = Field(gt=0)
    height: float = Field(gt=0)


class SideSetup(_Model):
    id: str = Field(pattern=r"^[A-Za-z0-9_-]+$")
    name: str


class UnitSetup(_Model):
    id: str = Field(pattern=r"^[A-Za-z0-9_.-]+$")
    side: str
    unit_class: str = Field(alias="class")
    name: str = ""
    x: float
    y: float

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)


class Victory(_Model):
    """Scenario victory conditions (PL-7 gives none; these are Wake's documented defaults)."""

    annihilation: bool = True  # a side with no units left loses at once
    turn_limit: int | None = Field(default=None, ge=1)  # after this turn, higher VP wins


class Scenario(_Model):
    id: str
    title: str
    description: str = ""
    table: Table
    sides: list[SideSetup]
    units: list[UnitSetup]
    victory: Victory = Victory()
    classes: ClassTable | None = None

    @model_validator(mode="after")
    def _consistent(self) -> Scenario:
        side_ids = [s.id for s in self.sides]
        if len(side_ids) != 2 or len(set(side_ids)) != 2:
            raise ValueError("Morze w ogniu is played by exactly two sides with distinct ids")
        seen: set[str] = set()
        table = self.classes.classes if self.classes else {}
        for unit in self.units:
            if unit.id in seen:
                raise ValueError(f"unit id {unit.id!r} is used twice")
            seen.add(unit.id)
            if unit.side not in side_ids:
                raise ValueError(f"unit {unit.id!r} belongs to unknown side {unit.side!r}")
            if table and unit.unit_class not in table:
                raise ValueError(f"unit {unit.id!r} has unknown class {unit.unit_class!r}")
            if not (0 <= unit.x <= self.table.width and 0 <= unit.y <= self.table.height):
                raise ValueError(f"unit {unit.id!r} starts off the table")
        for sid in side_ids:
            if not any(u.side == sid for u in self.units):
                raise ValueError(f"side {sid!r} has no units")
        return self


class Options(_Model):
    """Ruleset options for readings the rules leave open."""

    initiative_tie: Literal["reroll", "keep_previous"] = "reroll"  # PL-1 tie [GAP]
    partial_moves: bool = True  # PL-2: "up to" the class speed [GAP]
    attacks_per_unit: int = Field(default=1, ge=1)  # PL-3: one attack a turn, implied [GAP]


@lru_cache(maxsize=1)
def bundled_classes() -> ClassTable:
    """The class table shipped with Wake (some fields provisional)."""
    text = resources.files("domain.rulesets.morze").joinpath("data/classes.json").read_text("utf-8")
    return ClassTable.model_validate(json.loads(text))


def load_class_table(data: Mapping[str, Any]) -> ClassTable:
    """Validate a user's class table.

    Raises:
        ScenarioError: the table does not fit the schema.
    """
    try:
        return ClassTable.model_validate(data)
    except ValidationError as exc:
        raise ScenarioError(f"invalid class table: {validation_summary(exc)}") from exc


def resolve_scenario(data: Mapping[str, Any], classes: ClassTable | None = None) -> Scenario:
    """Validate a scenario and embed the class table it uses (its own, else ``classes``, else
    the bundled table).

    Raises:
        ScenarioError: the scenario is invalid (the message names the field).
    """
    raw = dict(data)
    if raw.get("classes") is None:
        raw["classes"] = (classes or bundled_classes()).model_dump(mode="json")
    try:
        return Scenario.model_validate(raw)
    except ValidationError as exc:
        raise ScenarioError(f"invalid Morze scenario: {validation_summary(exc)}") from exc


def resolve_options(data: Mapping[str, Any]) -> Options:
    """Validate options, filling defaults.

    Raises:
        ScenarioError: unknown option or bad value.
    """
    try:
        return Options.model_validate(dict(data))
    except ValidationError as exc:
        raise ScenarioError(f"invalid Morze options: {validation_summary(exc)}") from exc
