"""Star Wars: Armada scenarios: the two fleets, where they start, obstacles and the round count.

A scenario file names two sides (seating order; ``first_player`` holds initiative for the whole
game, RRG "Initiative"), each side's ships and squadrons by card id, and the obstacles. A unit
with ``x``/``y`` starts there (fixed positions, like the learning scenario); a unit without them
is deployed by orders during setup (SWA-SETUP): then ``deployment`` names each side's edge.
``no_attacks_in_rounds`` lists rounds whose attack steps are skipped (SWA-2.2: round 1 of the
learning scenario). Files carry ``provisional``/``provisional_note`` like the data files.

:func:`resolve_scenario` validates a scenario against the game's data (bundled or the user's own
parts) and returns the resolved form a game header embeds: ``{"id", "title", "scenario",
"data"}``. Lengths are millimetres, headings degrees clockwise from +y (see :mod:`.geometry`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from domain.errors import ScenarioError
from domain.rulesets.armada.data import ArmadaData, Faction, resolve_data
from domain.rulesets.armada.geometry import TOLERANCE, Disc, Pose, place_ship
from domain.rulesets.armada.overlap import (
    bases_overlap,
    outside_play_area,
    squadron_overlaps,
)
from domain.words import possessive

Edge = Literal["bottom", "top", "left", "right"]
DATA_PARTS = ("ships", "squadrons", "geometry", "damage", "obstacles")
_ID = r"^[a-z0-9_]+$"


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class SideSetup(_Model):
    id: str = Field(pattern=_ID)
    name: str
    faction: Faction


class ShipSetup(_Model):
    """A ship of the scenario: placed at ``x``, ``y``, ``heading`` with its speed dial at
    ``speed``, or (no ``x``/``y``) deployed during setup."""

    id: str = Field(pattern=_ID)
    side: str
    card: str
    name: str = ""
    x: float | None = Field(default=None, allow_inf_nan=False)
    y: float | None = Field(default=None, allow_inf_nan=False)
    heading: float = Field(default=0.0, allow_inf_nan=False)
    speed: int | None = Field(default=None, ge=0)

    @property
    def placed(self) -> bool:
        return self.x is not None and self.y is not None


class SquadronSetup(_Model):
    """A squadron of the scenario, placed at ``x``, ``y`` or deployed during setup."""

    id: str = Field(pattern=_ID)
    side: str
    card: str
    name: str = ""
    x: float | None = Field(default=None, allow_inf_nan=False)
    y: float | None = Field(default=None, allow_inf_nan=False)

    @property
    def placed(self) -> bool:
        return self.x is not None and self.y is not None


class ObstacleSetup(_Model):
    """An obstacle token of the data file's ``shape`` at ``x``, ``y``, turned by ``heading``,
    mirrored when ``flipped``."""

    id: str = Field(pattern=_ID)
    shape: str
    x: float = Field(allow_inf_nan=False)
    y: float = Field(allow_inf_nan=False)
    heading: float = Field(default=0.0, allow_inf_nan=False)
    flipped: bool = False


class Scenario(_Model):
    id: str = Field(pattern=_ID)
    title: str = ""
    description: str = ""
    provisional: bool = False
    provisional_note: str = ""
    sides: list[SideSetup] = Field(min_length=2, max_length=2)
    first_player: str
    rounds: int = Field(default=6, ge=1)
    no_attacks_in_rounds: list[int] = Field(default_factory=list)
    deployment: dict[str, Edge] = Field(default_factory=dict)
    ships: list[ShipSetup] = Field(min_length=2)
    squadrons: list[SquadronSetup] = Field(default_factory=list)
    obstacles: list[ObstacleSetup] = Field(default_factory=list)

    @model_validator(mode="after")
    def _consistent(self) -> Scenario:
        side_ids = [s.id for s in self.sides]
        if len(set(side_ids)) != 2:
            raise ValueError(f"sides: two different side ids, got {side_ids}")
        if self.first_player not in side_ids:
            raise ValueError(f"first_player: {self.first_player!r} is not a side {side_ids}")
        if self.provisional and not self.provisional_note.strip():
            raise ValueError("provisional_note: a provisional scenario says what is provisional")
        units = [u.id for u in self.ships] + [u.id for u in self.squadrons]
        doubled = sorted({u for u in units if units.count(u) > 1})
        if doubled:
            raise ValueError(f"ships/squadrons: unit id(s) {doubled} used twice")
        everything: list[ShipSetup | SquadronSetup] = [*self.ships, *self.squadrons]
        for unit in everything:
            if unit.side not in side_ids:
                raise ValueError(f"[{unit.id}].side: {unit.side!r} is not a side {side_ids}")
            if (unit.x is None) != (unit.y is None):
                raise ValueError(f"[{unit.id}]: give both x and y, or neither (deployed)")
        for side in side_ids:
            if not any(s.side == side for s in self.ships):
                raise ValueError(f"ships: side {side!r} has no ship (SWA-5)")
        unplaced = {u.side for u in everything if not u.placed}
        missing = sorted(unplaced - set(self.deployment))
        if missing:
            raise ValueError(f"deployment: side(s) {missing} deploy units but have no edge")
        extra = sorted(set(self.deployment) - set(side_ids))
        if extra:
            raise ValueError(f"deployment: {extra} are not sides")
        bad_rounds = [r for r in self.no_attacks_in_rounds if not 1 <= r <= self.rounds]
        if bad_rounds:
            raise ValueError(f"no_attacks_in_rounds: {bad_rounds} are not rounds of the game")
        obstacle_ids = [o.id for o in self.obstacles]
        if len(set(obstacle_ids)) != len(obstacle_ids):
            raise ValueError("obstacles: an obstacle id is used twice")
        return self

    def side(self, side_id: str) -> SideSetup:
        return next(s for s in self.sides if s.id == side_id)

    def other(self, side_id: str) -> str:
        return next(s.id for s in self.sides if s.id != side_id)

    @property
    def second_player(self) -> str:
        return self.other(self.first_player)

    @property
    def side_ids(self) -> tuple[str, str]:
        return (self.sides[0].id, self.sides[1].id)


def check_against_data(scenario: Scenario, data: ArmadaData) -> None:
    """Cards, obstacle shapes, factions, starting speeds and fixed positions fit the data.

    Raises:
        ScenarioError: naming the unit and the problem.
    """
    area = data.geometry.play_area
    factions = {s.id: s.faction for s in scenario.sides}
    bases: dict[str, Any] = {}
    for ship in scenario.ships:
        try:
            card = data.ships.get(ship.card)
        except KeyError:
            raise ScenarioError(f"ships[{ship.id}].card: unknown ship card {ship.card!r}") from None
        if card.faction != factions[ship.side]:
            raise ScenarioError(
                f"ships[{ship.id}]: a {card.faction} ship in the {factions[ship.side]} fleet"
            )
        if ship.speed is not None and ship.speed not in card.speed_chart:
            raise ScenarioError(
                f"ships[{ship.id}].speed: {ship.speed} is not on {possessive(card.name)} "
                "speed chart "
                f"(1..{card.max_speed}, SWA-SETUP)"
            )
        if ship.placed:
            if ship.speed is None:
                raise ScenarioError(f"ships[{ship.id}].speed: a placed ship needs its speed")
            assert ship.x is not None and ship.y is not None
            hull = data.ships.hull(card.hull_geometry)
            pose = Pose(ship.x, ship.y, ship.heading)
            placed = place_ship(hull, data.geometry.base_sizes[card.size], pose)
            if outside_play_area(placed.base, area):
                raise ScenarioError(f"ships[{ship.id}]: its base is outside the play area")
            for other, base in bases.items():
                if bases_overlap(placed.base, base):
                    raise ScenarioError(f"ships[{ship.id}]: its base overlaps {other}")
            bases[ship.id] = placed.base
    radius = data.geometry.squadron_base_radius
    discs: dict[str, Disc] = {}
    for squadron in scenario.squadrons:
        try:
            sq_card = data.squadrons.get(squadron.card)
        except KeyError:
            raise ScenarioError(
                f"squadrons[{squadron.id}].card: unknown squadron card {squadron.card!r}"
            ) from None
        if sq_card.faction != factions[squadron.side]:
            raise ScenarioError(
                f"squadrons[{squadron.id}]: a {sq_card.faction} squadron in the "
                f"{factions[squadron.side]} fleet"
            )
        if squadron.x is None or squadron.y is None:
            continue
        disc = Disc((squadron.x, squadron.y), radius)
        if outside_play_area(disc, area):
            raise ScenarioError(f"squadrons[{squadron.id}]: its base is outside the play area")
        for other, other_disc in discs.items():
            gap = math.dist(disc.centre, other_disc.centre) - 2 * radius
            if gap < -TOLERANCE:  # as overlap.discs_overlap, without shapely
                raise ScenarioError(f"squadrons[{squadron.id}]: its base overlaps {other}")
        for other, base in bases.items():
            if squadron_overlaps(base, disc):
                raise ScenarioError(f"squadrons[{squadron.id}]: its base overlaps {other}")
        discs[squadron.id] = disc
    for obstacle in scenario.obstacles:
        try:
            data.obstacles.get(obstacle.shape)
        except KeyError:
            raise ScenarioError(
                f"obstacles[{obstacle.id}].shape: unknown obstacle {obstacle.shape!r}"
            ) from None


def load_scenario(data: Any) -> Scenario:
    """Validate a scenario file's own fields.

    Raises:
        ScenarioError: naming the field.
    """
    if not isinstance(data, Mapping):
        raise ScenarioError("an Armada scenario is a JSON object")
    try:
        return Scenario.model_validate(dict(data))
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or 'scenario'}: "
            f"{str(err['msg']).removeprefix('Value error, ')}"
            for err in exc.errors()
        )
        raise ScenarioError(f"invalid Armada scenario: {problems}") from exc


def load_resolved(data: Mapping[str, Any]) -> tuple[Scenario, ArmadaData]:
    """The scenario and data of any of :func:`resolve_scenario`'s input forms, validated and
    checked against each other.

    Raises:
        ScenarioError: an invalid scenario or data part, or one that does not fit the data.
    """
    if "scenario" in data and "data" in data:
        parts = data["data"]
        dataset = resolve_data(**{k: parts.get(k) for k in DATA_PARTS})
        raw = data["scenario"]
    elif "scenario" in data:
        unknown = set(data) - {"scenario", *DATA_PARTS}
        if unknown:
            raise ScenarioError(f"unknown Armada scenario key(s): {sorted(unknown)}")
        dataset = resolve_data(**{k: data.get(k) for k in DATA_PARTS})
        raw = data["scenario"]
    else:
        dataset = resolve_data()
        raw = data
    scenario = load_scenario(raw)
    check_against_data(scenario, dataset)
    return scenario, dataset


def resolve_scenario(data: Mapping[str, Any]) -> dict[str, Any]:
    """A bare scenario (bundled data), ``{"scenario": {...}, "ships": ..., ...}`` where each data
    part given replaces the bundled one whole, or an already resolved scenario; returned
    resolved (``{"id", "title", "scenario", "data"}``) so a game never depends on files.

    Raises:
        ScenarioError: an invalid scenario or data part, or one that does not fit the data.
    """
    scenario, dataset = load_resolved(data)
    return {
        "id": scenario.id,
        "title": scenario.title,
        "scenario": scenario.model_dump(mode="json"),
        "data": dataset.model_dump(mode="json"),
    }
