"""Plain read models: what any viewer needs to draw any ruleset, with no rules knowledge.

A ruleset turns its private state into a ``GameView``; the CLI tables and the Streamlit viewer draw
only from these models.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Detail = str | int | float | bool | None


class _View(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class UnitView(_View):
    """One unit (ship, squadron, fort section...) as a viewer draws it."""

    id: str
    side: str
    name: str
    kind: str
    status: str  # "active", "destroyed", "retired", "sunk", ...
    damage: int
    strength: int  # damage it can take (toughness, hull, hit value)
    position: tuple[float, float] | None = None  # continuous boards
    cell: tuple[int, int] | None = None  # grid boards
    zone: str | None = None  # zone boards
    heading: float | None = None  # degrees, if the ruleset has facing
    details: dict[str, Detail] = Field(default_factory=dict)


class SideView(_View):
    id: str
    name: str
    vp: int
    units_total: int
    units_active: int
    details: dict[str, Detail] = Field(default_factory=dict)


class CellView(_View):
    cell: tuple[int, int]
    label: str = ""
    details: dict[str, Detail] = Field(default_factory=dict)


class BoardView(_View):
    kind: Literal["continuous", "grid", "zones"]
    width: float
    height: float
    unit: str = "cm"
    cells: list[CellView] = Field(default_factory=list)
    zones: list[str] = Field(default_factory=list)
    seats: list[str] = Field(default_factory=list)


class ResultView(_View):
    winner: str | None
    reason: str
    rule: str
    vp: dict[str, int]


class GameView(_View):
    ruleset: str
    ruleset_name: str
    scenario: str
    turn: int
    phase: str
    active_side: str | None
    sides: list[SideView]
    units: list[UnitView]
    board: BoardView
    result: ResultView | None = None
    notes: list[str] = Field(default_factory=list)
