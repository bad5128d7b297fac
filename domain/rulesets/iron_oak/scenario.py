"""Iron & Oak scenarios (IO-1.1 the 5 × 5 grid; IO-GAPS 15): grid depths, banks, current,
markers, forts, ships with their entry, the exit, the turn limit, night and victory."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import (
    Field,
    model_validator,
)

from domain.rulesets.iron_oak.basics import (
    _ID,
    CriticalName,
    Direction,
    Edge,
    Marker,
    Side,
    _check_provisional_fields,
    _DataFile,
    _Model,
)

Cell = tuple[int, int]
OffMap = Annotated[str, Field(pattern=r"^offmap:[NESW]$")]


class Current(_Model):
    direction: Direction  # the direction the water flows towards
    strength: Literal["moderate", "rapid"]


class Box(_Model):
    """A grid box (GB) that differs from the scenario defaults (IO-1.1, IO-5.4)."""

    cell: Cell
    depth: int = Field(ge=0)
    bank: bool = False  # IO-5.2: drifting onto a bank grounds the ship
    current: Current | None = None
    markers: list[Marker] = Field(default_factory=list)


class FortSetup(_Model):
    id: str = Field(pattern=_ID)
    card: str
    side: Side
    cell: Cell
    edge: Edge  # the map edge the fort sits on, beside ``cell`` (IO-6.1)


class ShipSetup(_Model):
    id: str = Field(pattern=_ID)
    card: str
    side: Side
    at: Cell | OffMap
    criticals: list[CriticalName] = Field(default_factory=list)  # starting criticals (IO-0)


class Victory(_Model):
    """Victory (IO-3.5, IO-GAPS 15): sink/capture VP come from the ship cards (IO-6.2.3I)."""

    sink_and_capture: Literal["card"] = "card"
    exit_vp: dict[str, int] = Field(default_factory=dict)  # ship setup id -> VP for exiting
    winner_by: Literal["vp"] = "vp"


class Grid(_Model):
    columns: int = Field(default=5, ge=1)
    rows: int = Field(default=5, ge=1)


class Scenario(_DataFile):
    """A scenario on the 5 × 5 grid (IO-1.1, IO-GAPS 15)."""

    id: str = Field(pattern=_ID)
    title: str
    description: str = ""
    turn_limit: int = Field(ge=1)
    first_player: Side = "USA"  # IO-3.0: whose player-turn comes first
    night: bool = False  # IO-6.2.4
    grid: Grid = Grid()
    default_depth: int = Field(ge=0)
    current: Current | None = None  # default current for boxes that name none
    boxes: list[Box] = Field(default_factory=list)
    entry: dict[Side, Edge]
    exit: dict[Side, Edge]
    forts: list[FortSetup] = Field(default_factory=list)
    ships: list[ShipSetup] = Field(min_length=1)
    victory: Victory = Victory()
    provisional_fields: list[str] = Field(default_factory=list)

    @model_validator(mode="after")
    def _consistent(self) -> Scenario:
        cells = [b.cell for b in self.boxes]
        for i, cell in enumerate(cells):
            self._inside(f"boxes[{i}].cell", cell)
            if cells.count(cell) > 1:
                raise ValueError(f"boxes[{i}].cell: {list(cell)} is listed twice")
        if set(self.entry) != {"CSA", "USA"} or set(self.exit) != {"CSA", "USA"}:
            raise ValueError("entry and exit need an edge for both CSA and USA")
        ids = [f.id for f in self.forts] + [s.id for s in self.ships]
        doubled = sorted({i for i in ids if ids.count(i) > 1})
        if doubled:
            raise ValueError(f"unit id(s) {doubled} used twice")
        for fort in self.forts:
            self._inside(f"forts[{fort.id}].cell", fort.cell)
            if not self._on_edge(fort.cell, fort.edge):
                raise ValueError(
                    f"forts[{fort.id}].cell: {list(fort.cell)} is not on the {fort.edge} map "
                    f"edge (forts sit on the map edge, IO-0, IO-6.1)"
                )
        for ship in self.ships:
            if isinstance(ship.at, tuple):
                self._inside(f"ships[{ship.id}].at", ship.at)
                if self.box(ship.at).bank:
                    raise ValueError(f"ships[{ship.id}].at: {list(ship.at)} is a bank")
        for ship_id in self.victory.exit_vp:
            if ship_id not in {s.id for s in self.ships}:
                raise ValueError(f"victory.exit_vp: unknown ship {ship_id!r}")
        _check_provisional_fields(Scenario, self.provisional_fields, f"scenario {self.id!r}:")
        return self

    def _inside(self, where: str, cell: Cell) -> None:
        c, r = cell
        if not (0 <= c < self.grid.columns and 0 <= r < self.grid.rows):
            raise ValueError(
                f"{where}: {list(cell)} is outside the {self.grid.columns}×{self.grid.rows} grid"
            )

    def _on_edge(self, cell: Cell, edge: Edge) -> bool:
        c, r = cell
        return {
            "N": r == 0,
            "S": r == self.grid.rows - 1,
            "W": c == 0,
            "E": c == self.grid.columns - 1,
        }[edge]

    def box(self, cell: Cell) -> Box:
        """The box at ``cell``, with the scenario defaults where it is not listed."""
        for box in self.boxes:
            if box.cell == cell:
                if box.current is None and self.current is not None:
                    return box.model_copy(update={"current": self.current})
                return box
        return Box(cell=cell, depth=self.default_depth, current=self.current)
