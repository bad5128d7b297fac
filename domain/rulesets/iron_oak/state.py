"""Iron & Oak game state: immutable models rebuilt by folding events (work in progress, issue 4).

Ships carry what the rules track per ship: hull hits, shield damage per hit location (0 to −4,
IO-6.2.1), crew damage, criticals with their occurrence count and marker value (IO-6.3), fire
level and smoke (IO-3.1.2, IO-6.2.3C), anchor/aground/fouled/towing markers (IO-4, IO-5.3,
IO-5.4, IO-5.6.4), the repair party (IO-3.1.1) and the Opposed marker (IO-5.1.3). Bow-on and
Stern-on are pair relations between two ships (IO-5.5, IO-5.6.5), not geometry.
"""

from __future__ import annotations

from typing import Literal, cast

from pydantic import BaseModel, ConfigDict, Field

from domain.rulesets.iron_oak.data import (
    Box,
    DataSet,
    FortCard,
    Location,
    Scenario,
    ShipCard,
    Side,
)

Cell = tuple[int, int]
Edge = Literal["N", "E", "S", "W"]
ShipStatus = Literal["active", "retiring", "captured", "sunk", "exited"]
PairKind = Literal["bow_on", "stern_on"]
# criticals that take the power away (IO-4.3.2, IO-6.3.2, IO-6.3.7)
UNPOWERED = frozenset({"boiler", "engine_stopped"})


class _State(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class CriticalState(_State):
    """One critical on a unit: how often it happened and its marker value (IO-6.3).

    ``level`` holds a marker's value where the critical has one: Armament −2/−4 (−1/−2 for
    limited guns, IO-6.3.1), Speed −1/−2 (IO-6.3.15); 0 otherwise.
    """

    name: str
    count: int = Field(default=1, ge=1)
    level: int = 0


class ShipState(_State):
    id: str  # the scenario's ship id
    card: str  # ship card id
    side: Side
    cell: Cell | None  # None: off the map
    edge: Edge | None = None  # the off-map edge, when ``cell`` is None
    hits: int = 0  # hull hits; sinks at the card's hit value (IO-6.2.3J)
    shields: dict[Location, int] = Field(default_factory=dict)  # 0..−4 per location (IO-6.2.1)
    crew_damage: int = 0  # IO-6.2.3G
    criticals: dict[str, CriticalState] = Field(default_factory=dict)
    fire: int = 0  # 0, or level 2..5 (IO-3.1.2, IO-6.3.9)
    smoke: Literal["none", "light", "heavy"] = "none"  # IO-6.2.3C
    anchored: bool = False  # IO-4.1
    aground: bool = False  # IO-4.3, IO-5.4.1
    fouled_with: tuple[str, ...] = ()  # ship ids, or "hulk" / "obstruction" / "heavy_obstruction"
    towing: str | None = None  # IO-5.3
    towed_by: str | None = None
    repair_party: bool = False  # IO-3.1.1
    opposed: bool = False  # carries an Opposed marker: −1 on its next move (IO-5.1.3)
    status: ShipStatus = "active"
    captured_by: Side | None = None  # IO-6.2.3I

    def shield(self, location: Location) -> int:
        return self.shields.get(location, 0)

    def critical_count(self, name: str) -> int:
        crit = self.criticals.get(name)
        return crit.count if crit else 0

    @property
    def powered(self) -> bool:
        """Has power: no Boiler or Engine-Stopped critical (IO-4.3.2)."""
        return not any(name in self.criticals for name in UNPOWERED)

    @property
    def afloat(self) -> bool:
        return self.status in ("active", "retiring", "captured")


class FortSectionState(_State):
    id: str  # "<fort id>.<section id>"
    fort: str  # the scenario's fort id
    section: str  # the fort card's section id
    side: Side
    cell: Cell
    hits: int = 0
    shields: dict[Location, int] = Field(default_factory=dict)
    crew_damage: int = 0
    criticals: dict[str, CriticalState] = Field(default_factory=dict)
    fire: int = 0
    destroyed: bool = False  # IO-6.3.11: a magazine destroys the section


class Pair(_State):
    """``ship`` is Bow-on (or Stern-on) to ``other`` (IO-5.5.1, IO-5.5.2, IO-5.6.5)."""

    ship: str
    other: str
    kind: PairKind


def _no_vp() -> dict[Side, int]:
    return {"CSA": 0, "USA": 0}


class IronOakState(_State):
    scenario: Scenario
    data: DataSet
    turn: int = 1
    phase: str = "status"
    active: Side | None = None
    ships: dict[str, ShipState]
    sections: dict[str, FortSectionState] = Field(default_factory=dict)
    markers: dict[str, tuple[str, ...]] = Field(default_factory=dict)  # "c,r" -> box markers
    pairs: tuple[Pair, ...] = ()
    vp: dict[Side, int] = Field(default_factory=_no_vp)

    # --- look-ups -----------------------------------------------------------------------

    def card(self, ship_id: str) -> ShipCard:
        return self.data.ships.get(self.ships[ship_id].card)

    def fort_card(self, fort_id: str) -> FortCard:
        setup = next(f for f in self.scenario.forts if f.id == fort_id)
        return self.data.forts.get(setup.card)

    def box(self, cell: Cell) -> Box:
        """The box with its current markers (hulks appear and mines go during play)."""
        box = self.scenario.box(cell)
        key = cell_key(cell)
        if key in self.markers:
            return box.model_copy(update={"markers": list(self.markers[key])})
        return box

    def relation(self, ship: str, other: str) -> PairKind | None:
        """How ``ship`` lies to ``other``: Bow-on, Stern-on or neither."""
        for pair in self.pairs:
            if pair.ship == ship and pair.other == other:
                return pair.kind
        return None

    def is_monitor(self, ship_id: str) -> bool:
        return "monitor" in self.card(ship_id).icons

    def ships_in(self, cell: Cell) -> list[ShipState]:
        return [s for s in self.ships.values() if s.cell == cell and s.afloat]


def cell_key(cell: Cell) -> str:
    return f"{cell[0]},{cell[1]}"


def initial_state(scenario: Scenario, data: DataSet) -> IronOakState:
    """The state before any event: ships placed with their starting criticals (IO-0), fort
    sections on their edge boxes, box markers from the scenario."""
    ships: dict[str, ShipState] = {}
    for setup in scenario.ships:
        on_map = isinstance(setup.at, tuple)
        ships[setup.id] = ShipState(
            id=setup.id,
            card=setup.card,
            side=setup.side,
            cell=setup.at if isinstance(setup.at, tuple) else None,
            edge=None if on_map else cast(Edge, str(setup.at).split(":", 1)[1]),
            criticals={name: CriticalState(name=name) for name in setup.criticals},
        )
    sections: dict[str, FortSectionState] = {}
    for fort in scenario.forts:
        for section in data.forts.get(fort.card).sections:
            sid = f"{fort.id}.{section.id}"
            sections[sid] = FortSectionState(
                id=sid, fort=fort.id, section=section.id, side=fort.side, cell=fort.cell
            )
    markers = {cell_key(b.cell): tuple(b.markers) for b in scenario.boxes if b.markers}
    return IronOakState(
        scenario=scenario, data=data, ships=ships, sections=sections, markers=markers
    )
