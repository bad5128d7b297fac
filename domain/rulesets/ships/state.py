"""SHIPS & TACTICS state: players in seating order with decks, hands and VP; the battle's fleets
on the table (ships, aircraft, characters as units); the phase, segment and turn order; the
sealed fleets; the attack waiting for defence cards; the damage-source log (ST-5.1)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from domain.rulesets.ships.data import Box, DataSet, Scenario, Segment
from domain.rulesets.ships.fleet import Fleet
from domain.rulesets.ships.options import ShipsOptions

Phase = Literal["setup", "formation", "reveal", "minovsky", "launch", "turns", "over"]
UnitKind = Literal["ship", "aircraft", "character"]
Status = Literal["active", "sunk", "captured", "shot_down", "lost"]
AirState = Literal["aboard", "out", "returning"]


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Unit(_Model):
    """A card on the table this battle. ``on``: the carrier of an aircraft, the ship or aircraft
    a character is attached to. ``extra_cards``: cards counted into this one (ST-5.4)."""

    id: str
    owner: str
    card: str
    kind: UnitKind
    box: Box
    on: str | None = None
    extra_cards: tuple[str, ...] = ()
    damage: int = 0
    status: Status = "active"
    air: AirState | None = None
    hacked: bool = False


class Player(_Model):
    id: str
    name: str
    deck_id: str
    deck: tuple[str, ...] = ()  # top first; with physical cards the order is unknown
    hand: tuple[str, ...] = ()
    vp: int = 0
    out: bool = False  # dropped out (ST-5.5): keeps its VP, fights no more


class DamageEntry(_Model):
    """One hit in the damage-source log: who hurt which ship, how much, in which segment."""

    battle: int
    segment: Segment
    target: str
    by: str  # player
    source: str  # unit or "line"/"air"
    amount: int
    total: int


class Pending(_Model):
    """An attack declared and waiting for the target players' defence cards, in turn order."""

    player: str
    ship: str
    segment: Segment
    cards: tuple[str, ...]
    targets: tuple[str, ...]
    line: bool = False
    centre: str | None = None
    defenders: tuple[str, ...]
    defences: dict[str, tuple[str, ...]] = Field(default_factory=dict)


class ShipsState(_Model):
    scenario: Scenario
    data: DataSet
    options: ShipsOptions = ShipsOptions()
    seating: tuple[str, ...]
    players: dict[str, Player]
    battle: int = 0
    phase: Phase = "setup"
    segment: Segment | None = None
    order: tuple[str, ...] = ()  # this battle's turn order (ST-1.2)
    cursor: int = 0  # whose step it is in ``order``
    sealed: dict[str, str] = Field(default_factory=dict)  # player -> fleet commitment digest
    planned: dict[str, Fleet] = Field(default_factory=dict)  # face down, seen by its owner
    revealed: dict[str, Fleet] = Field(default_factory=dict)  # opened, not yet placed
    units: dict[str, Unit] = Field(default_factory=dict)
    acted: tuple[str, ...] = ()  # units that attacked, boarded or struck this turn
    pending: Pending | None = None
    minovsky: bool = False
    damage_log: tuple[DamageEntry, ...] = ()
    salt_base: str = ""
    physical: bool = False
    deck_known: bool = True
    named_cards: bool = False  # each card drawn is asked of the chance source by name
    finished: bool = False

    @property
    def active(self) -> str | None:
        if self.phase in ("setup", "over") or self.cursor >= len(self.order):
            return None
        return self.order[self.cursor]
