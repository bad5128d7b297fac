"""Iron & Oak game state: immutable models rebuilt by folding events (work in progress, issue 4).

Ships carry what the rules track per ship: hull hits, shield damage per hit location (0 to −4,
IO-6.2.1), crew damage, criticals with their occurrence count and marker value (IO-6.3), fire
level and smoke (IO-3.1.2, IO-6.2.3C), anchor/aground/fouled/towing markers (IO-4, IO-5.3,
IO-5.4, IO-5.6.4), the repair party (IO-3.1.1) and the Opposed marker (IO-5.1.3). Bow-on and
Stern-on are pair relations between two ships (IO-5.5), not geometry; a ram's aftermath adds a
Bow-on for gunnery only (IO-5.6.5, ``aftermath``). While a resolution waits for the target's
Collateral choice (IO-6.3.4) the state keeps the order and the state before it
(:class:`Resumable`) and what is awaited (:class:`AwaitedCollateral`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Literal, cast

from pydantic import BaseModel, ConfigDict, Field

from domain.dice import Modifier
from domain.events import DomainEvent
from domain.rulesets.iron_oak.basics import Location, Side
from domain.rulesets.iron_oak.data import DataSet
from domain.rulesets.iron_oak.markers import first_marker_level
from domain.rulesets.iron_oak.options import IronOakOptions
from domain.rulesets.iron_oak.scenario import Box, Scenario
from domain.rulesets.iron_oak.ship_cards import FortCard, ShipCard

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
    smoke: Literal["none", "light", "heavy"] = "none"  # IO-3.1: forts check smoke too
    repair_party: bool = False  # IO-3.1.1: "a unit" may place one, forts included
    destroyed: bool = False  # IO-6.3.11: a magazine destroys the section


class Pair(_State):
    """``ship`` is Bow-on (or Stern-on) to ``other`` (IO-5.5.1, IO-5.5.2, IO-5.6.5)."""

    ship: str
    other: str
    kind: PairKind


def _no_vp() -> dict[Side, int]:
    return {"CSA": 0, "USA": 0}


EffectUse = Literal["movement", "contact", "hazard", "gunnery", "strike", "drift_check"]


class CardEffect(_State):
    """A played action card's modifier that lasts for the current segment (IO-7.0, IO-3.3)."""

    card: str  # action card id
    unit: str  # the ship (or fort section) it helps or hinders
    use: EffectUse
    value: int
    section: int | None = None  # gunnery: the gun section it applies to (None: any)


class PendingMove(_State):
    """A revealed order waiting for the opponent's movement-card window (IO-3.3.1 C)."""

    ship: str
    order: str
    path: tuple[Cell, ...] = ()
    target: str | None = None
    attacks: tuple[str, ...] = ()  # "spar", "ram" (IO-5.6)
    kind: PairKind | None = None  # crossing the T: bow or stern (IO-5.5)
    attach: str | None = None  # IO-5.3: attach a tow at the start of the move
    drift: bool = False  # IO-4.0: the order was abandoned; the ship drifts
    exit: bool = False  # IO-5.1.5: leave the map


class FireOrder(_State):
    """One declared fire (IO-3.3.2 B): a ship's gun section (or a fort section) at a target."""

    firer: str
    section: int
    target: str
    plunging: bool = False  # IO-6.2.3D: a fort at Long range


class StatusChoice(_State):
    """A side's Status Phase choices (IO-3.1.1): parties withdrawn, repairs, new parties."""

    withdraw: tuple[str, ...] = ()
    repair: dict[str, str] = Field(default_factory=dict)
    place: tuple[str, ...] = ()


class SealedOrder(_State):
    """An order card put face down on a ship (IO-3.2): the commitment, later its content."""

    digest: str
    number: int = 0  # IO-9.3: the order card's number in alternating mode
    order: str | None = None  # revealed order


class AwaitedCollateral(_State):
    """A resolution stopped for the target's Collateral choice (IO-6.3.4): who chooses among
    which locations, and what is needed to go on (see ``turn_events.CollateralAwaited``)."""

    unit: str
    side: Side
    hit: str
    candidates: tuple[str, ...]
    faces: tuple[int, ...] = ()
    start: int = 0
    choices: tuple[str, ...] = ()
    emitted: int = 0


class IronOakState(_State):
    scenario: Scenario
    data: DataSet
    options: IronOakOptions = IronOakOptions()
    # the ruleset version the game was recorded with (options.VERSION for new games): fixes
    # made since keep an older game's behaviour so its record still verifies
    rules_version: tuple[int, int] = (1, 1)
    turn: int = 1
    phase: str = "setup"
    active: Side | None = None  # the side whose step it is (None: both sides / system step)
    ships: dict[str, ShipState]
    sections: dict[str, FortSectionState] = Field(default_factory=dict)
    markers: dict[str, tuple[str, ...]] = Field(default_factory=dict)  # "c,r" -> box markers
    pairs: tuple[Pair, ...] = ()
    vp: dict[Side, int] = Field(default_factory=_no_vp)
    # --- the turn (IO-3) ----------------------------------------------------------------
    salt_base: str = ""  # seeds the bot's order-card salts (domain.sealed)
    physical_dice: bool = False  # the game's dice (and cards) are physical
    named_cards: bool = False  # each card drawn is asked of the chance source by name
    orders: dict[str, SealedOrder] = Field(default_factory=dict)  # this player-turn's cards
    done: tuple[str, ...] = ()  # units that have acted in the current segment
    pending_move: PendingMove | None = None
    fire_orders: tuple[FireOrder, ...] = ()  # declared, waiting for the Misfire window
    effects: tuple[CardEffect, ...] = ()  # card modifiers for the current segment
    opposed_by: dict[str, str] = Field(default_factory=dict)  # marked ship -> the placer
    # IO-5.6.5 / IO-6.1: (attacker, target) pairs from the previous Action Phase
    rammed: tuple[tuple[str, str], ...] = ()
    # (ship, target, turn): IO-5.6.5 rammed/spar-attacked, IO-5.5 a failed T, in that turn
    ram_log: tuple[tuple[str, str, int], ...] = ()
    failed_t: tuple[tuple[str, str, int], ...] = ()
    drifted: tuple[str, ...] = ()  # IO-5.2: ships that drifted (with their group) this turn
    # IO-5.6.5: (attacker, target) after a ram/spar: Bow-on for gunnery (combat_relation)
    aftermath: tuple[tuple[str, str], ...] = ()
    level5: tuple[str, ...] = ()  # units whose fire stood at level 5 after their Status Phase
    # IO-5.5 / IO-5.6: each ship's box when its side's Order Phase began (side -> ship -> cell)
    order_cells: dict[Side, dict[str, Cell]] = Field(default_factory=dict)
    # IO-4.4, 1.0: ships that tried to unfoul since they were fouled (1.0 took that attempt to
    # mark the end of their first fouled Order Phase)
    first_fouled: tuple[str, ...] = ()
    # IO-4.4: ship -> the turn of its first Order Phase fouled with another movable ship, kept
    # while it stays fouled with a ship
    fouled_since: dict[str, int] = Field(default_factory=dict)
    gunfire: tuple[str, ...] = ()  # IO-6.2.4: units with a Gunfire marker (night)
    deck: tuple[str, ...] = ()  # the action deck, top first
    deck_known: bool = True  # False: physical cards, the deck order is not recorded
    hands: dict[Side, tuple[str, ...]] = Field(default_factory=dict)
    exchanged: dict[Side, tuple[str, ...]] = Field(default_factory=dict)  # IO-3.4 pile
    discards: tuple[str, ...] = ()
    cards_used: tuple[Side, ...] = ()  # sides that played an action card this turn
    # IO-9.3.1: the first player's Status choices, kept until both sides have chosen
    status_choices: dict[Side, StatusChoice] = Field(default_factory=dict)
    step: int = 0  # index into the turn's step list (sequence.steps)
    fire_declared: bool = False  # the gunnery segment waits for the opponent's Misfire window
    result: dict[str, str] | None = None
    # IO-6.3.4: an order whose resolution stopped for a Collateral choice, and the choice
    resuming: Resumable | None = None
    awaiting: AwaitedCollateral | None = None

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
        """How ``ship`` lies to ``other`` through a crossed T: Bow-on, Stern-on or neither."""
        for pair in self.pairs:
            if pair.ship == ship and pair.other == other:
                return pair.kind
        return None

    def combat_relation(self, ship: str, other: str) -> PairKind | None:
        """How ``ship`` lies to ``other`` for gunnery: as :meth:`relation`, except that a ram or
        spar attacker is Bow-on to its target until its next gunnery segment is over (IO-5.6.5
        「目標艦についてBow-onの戦闘修正を受ける」: the Bow-on *combat* modifiers, not a crossed
        T). Since 1.1 that aftermath is kept in ``aftermath``, apart from ``pairs``, and wins
        over a crossed-T relation between the same two ships while it lasts; 1.0 wrote it into
        ``pairs``."""
        if self.rules_version >= (1, 1) and (ship, other) in self.aftermath:
            return "bow_on"
        return self.relation(ship, other)

    def is_monitor(self, ship_id: str) -> bool:
        return "monitor" in self.card(ship_id).icons

    def ships_in(self, cell: Cell) -> list[ShipState]:
        return [s for s in self.ships.values() if s.cell == cell and s.afloat]

    def card_modifiers(
        self, unit: str, use: EffectUse, section: int | None = None
    ) -> list[Modifier]:
        """Modifiers from action cards played this segment on ``unit`` for ``use`` (IO-7.0)."""
        return [
            Modifier(e.value, "IO-7.0", f"{self.data.cards.get(e.card).name} card")
            for e in self.effects
            if e.unit == unit
            and e.use == use
            and (section is None or e.section is None or e.section == section)
        ]


class Resumable(_State):
    """An order whose resolution stopped for a decision (IO-6.3.4): the order as given
    (``command``, by ``side``) and ``base``, the state before it, to run it again from."""

    command: dict[str, Any]
    side: Side | None
    base: IronOakState


IronOakState.model_rebuild()


def cell_key(cell: Cell) -> str:
    return f"{cell[0]},{cell[1]}"


def initial_state(scenario: Scenario, data: DataSet) -> IronOakState:
    """The state before any event: ships placed with their starting criticals (IO-0), fort
    sections on their edge boxes, box markers from the scenario.

    A starting critical whose marker has a value takes its first value, as a 1st critical in
    play would set it: Armament −2, or −1 for a ship whose guns are all limited (IO-6.3.1,
    IO-6.2.3A); Speed −1 (IO-6.3.15) — :func:`markers.first_marker_level`.
    """
    ships: dict[str, ShipState] = {}
    for setup in scenario.ships:
        on_map = isinstance(setup.at, tuple)
        guns = data.ships.get(setup.card).guns
        ships[setup.id] = ShipState(
            id=setup.id,
            card=setup.card,
            side=setup.side,
            cell=setup.at if isinstance(setup.at, tuple) else None,
            edge=None if on_map else cast(Edge, str(setup.at).split(":", 1)[1]),
            criticals={
                name: CriticalState(name=name, level=first_marker_level(name, guns))
                for name in setup.criticals
            },
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


Fold = Callable[[IronOakState, DomainEvent], IronOakState]


def fold_all(state: IronOakState, events: Sequence[DomainEvent], fold: Fold) -> IronOakState:
    """``state`` with ``events`` applied in order (a scratch state inside ``decide``)."""
    for event in events:
        state = fold(state, event)
    return state
