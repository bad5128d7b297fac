"""Plain read models: what any viewer needs to draw any ruleset, with no rules knowledge.

A ruleset turns its private state into a ``GameView``; the CLI tables and the Streamlit viewer draw
only from these models.

Geometry is data (design note 12): a unit may carry ``shapes`` (its base, hull zones with a label
such as their shields, firing-arc lines, a heading marker: polygons, polylines and circles in
board coordinates), the board may carry ``features`` (terrain, obstacles) and the game
``overlays`` (a line of sight, a range band, a maneuver's path). Every such field is optional
with an empty default, so a ruleset that has no geometry (a point on a table, a grid cell, a
zone) leaves them out and is drawn exactly as before.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

Detail = str | int | float | bool | None
Point = tuple[float, float]
ShapeStyle = Literal["base", "zone", "arc", "heading"]
"""How a viewer draws a unit's shape: ``base`` its body or base (lightly filled), ``zone`` a
labelled part of it (filled in the side's colour, the label written inside), ``arc`` a thin
line (firing-arc edges, guides), ``heading`` a solid marker showing where the unit faces."""


class _View(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class _Geometry(_View):
    """A polygon (``points``, the ring given once: the first point is not repeated), a polyline
    (``points`` with ``closed=False``) or a circle (``centre`` and ``radius``), in board
    coordinates (a continuous board's units, or cell / seat coordinates)."""

    points: list[Point] = Field(default_factory=list)
    closed: bool = True
    centre: Point | None = None
    radius: float | None = Field(default=None, gt=0, allow_inf_nan=False)

    @model_validator(mode="after")
    def _one_geometry(self) -> _Geometry:
        circle = self.centre is not None or self.radius is not None
        if circle:
            if self.centre is None or self.radius is None or self.points:
                raise ValueError("a circle needs a centre and a radius and no points")
            return self
        need = 3 if self.closed else 2
        if len(self.points) < need:
            kind = "polygon" if self.closed else "polyline"
            raise ValueError(f"a {kind} needs at least {need} points, got {len(self.points)}")
        return self

    @property
    def is_circle(self) -> bool:
        return self.centre is not None


class ShapeView(_Geometry):
    """One part of a unit's outline: ``part`` names it (``base``, ``front`` ...), ``label`` is a
    short text drawn inside it (a hull zone's shields), ``style`` says how to draw it."""

    part: str
    style: ShapeStyle = "base"
    label: str = ""


class FeatureView(_Geometry):
    """Something on the board that is not a unit: terrain, an obstacle."""

    id: str
    name: str = ""
    kind: str = ""  # e.g. "asteroid", "station", "shoal"
    label: str = ""
    details: dict[str, Detail] = Field(default_factory=dict)


class OverlayView(_Geometry):
    """A line or area drawn over the board for what is happening: ``kind`` is e.g.
    ``line_of_sight``, ``range`` or ``path``; ``units`` the ids it relates to. A polyline unless
    ``closed``."""

    kind: str
    closed: bool = False
    label: str = ""
    units: list[str] = Field(default_factory=list)
    details: dict[str, Detail] = Field(default_factory=dict)


class RingView(_View):
    """How far a unit reaches, drawn around it when the user selects it: ``kind`` is ``move``
    or ``range``; ``distance`` is in board units (cm, mm) on a continuous board, or in cells
    counted with 8-neighbour (Chebyshev) steps on a grid, where 0 is the unit's own cell.
    ``from_edge`` measures from the unit's outline (its base) rather than its centre.
    ``label`` says what the ring is ("gun range 30 cm", "Medium: 1 GB") and ``rule`` the rule
    it comes from. A ring is a guide, not a ruling: arcs, line of sight and terrain still
    apply, as the label may say."""

    kind: Literal["move", "range"]
    label: str
    distance: float = Field(ge=0, allow_inf_nan=False)
    from_edge: bool = False
    rule: str = ""


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
    # Where a unit that has no position, cell or zone is, in players' words ("in reserve, not
    # yet deployed", "off the map at the S edge, not yet entered"); empty when it is on the
    # board or its status says it all (``wake show`` writes the status then).
    off_board: str = ""
    heading: float | None = None  # degrees, if the ruleset has facing
    details: dict[str, Detail] = Field(default_factory=dict)
    shapes: list[ShapeView] = Field(default_factory=list)  # outline, zones, arcs (optional)
    # A unit drawn as a card on a table (a zone board seated in a ``ring``): the values printed
    # on its face after its name, in order (e.g. attack, hull); the viewer adds its damage.
    # Empty: drawn as a marker.
    tile: dict[str, Detail] = Field(default_factory=dict)
    rings: list[RingView] = Field(default_factory=list)  # move and range guides (optional)
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
    # How a zone board's seats are drawn: ``columns`` (a seat x zone grid) or ``ring`` (seated
    # round a table in ``seats`` order, the last beside the first; each seat a panel holding its
    # zones, units with a ``tile`` as cards, private units as face-down card backs with a count).
    seating: Literal["columns", "ring"] = "columns"
    features: list[FeatureView] = Field(default_factory=list)  # terrain, obstacles


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
    overlays: list[OverlayView] = Field(default_factory=list)  # sight lines, ranges, paths


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
