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
    # Hidden information (a card in hand, a face-down fleet): only its own side and the umpire
    # may see what it is; ``redact_view`` turns it into an anonymous placeholder for the others.
    private: bool = False


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


HIDDEN_KIND = "hidden"


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


def sides_label(names: list[str]) -> str:
    """How a game's sides read in one line: "A v B" for two, "A, B, C (3 players)" for more."""
    if len(names) <= 2:
        return " v ".join(names)
    return f"{', '.join(names)} ({len(names)} players)"


def redact_view(view: GameView, viewer: str | None) -> GameView:
    """The view as ``viewer`` may see it: ``None`` (the umpire) sees everything; a side sees its
    own private units, and every other side's private units only as anonymous placeholders that
    keep their side and zone (how many cards a player holds is public, which ones is not).
    Works for any number of sides."""
    if viewer is None or not any(u.private for u in view.units):
        return view
    units: list[UnitView] = []
    hidden: dict[str, int] = {}
    for unit in view.units:
        if not unit.private or unit.side == viewer:
            units.append(unit)
            continue
        n = hidden[unit.side] = hidden.get(unit.side, 0) + 1
        units.append(
            UnitView(
                id=f"{unit.side}-hidden-{n}",
                side=unit.side,
                name="hidden",
                kind=HIDDEN_KIND,
                status=unit.status,
                damage=0,
                strength=0,
                zone=unit.zone,
                details={"seat": unit.details["seat"]} if "seat" in unit.details else {},
                private=True,
            )
        )
    return view.model_copy(update={"units": units})
