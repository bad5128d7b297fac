"""Star Wars: Armada data: ship and squadron cards, table geometry, damage deck and obstacles.

Five JSON files under ``data/`` hold everything the rules read from printed components:

* ``ships.json`` — the core-set ship cards (SWA-DATA) and, per hull, the token geometry that the
  firing arcs and targeting points are drawn from (SWA-HZ);
* ``squadrons.json`` — the TIE Fighter and X-wing squadron cards (SWA-DATA);
* ``geometry.json`` — play area (SWA-SETUP), base sizes (SWA-HZ), squadron base, range and
  distance bands (SWA-RNG) and the maneuver tool (SWA-MOV);
* ``damage_deck.json`` — the 52 damage cards (SWA-DMG), each with a paraphrase of its effect and
  a machine-readable ``effect`` key the rules dispatch on;
* ``obstacles.json`` — asteroid, debris and station outlines (SWA-OVL).

Some values are printed on the cards (official); others — token geometry, band edges, tool
dimensions, obstacle outlines, updated points — are **community measurements**. Every file says
which is which: ``official`` lists field names whose values are printed, ``community`` maps field
names to the named source of the measured values, ``provisional`` marks a file holding any such
values and ``provisional_note`` explains. A user's own file replaces the bundled file of the same
kind whole (:func:`resolve_data`); files are validated with messages naming the field.

Dice are counted per colour (SWA-DICE: red, blue, black); a zone's attack range follows from its
colours (SWA-ATK 2). Lengths are millimetres.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from itertools import pairwise
from pathlib import Path
from typing import Any, ClassVar, Literal, TypeVar, get_args

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator
from shapely.geometry import Polygon

from domain import datafiles
from domain.board import ContinuousBoard
from domain.datafiles import describe_errors, load_model
from domain.dice import ARMADA_BLACK, ARMADA_BLUE, ARMADA_RED, CustomDie
from domain.errors import ScenarioError

SizeClass = Literal["small", "medium", "large"]
Faction = Literal["empire", "rebel"]
DefenseToken = Literal["brace", "redirect", "evade", "contain", "scatter", "salvo"]
SquadronKeyword = Literal["swarm", "bomber", "escort"]
RangeBand = Literal["close", "medium", "long"]
ObstacleKind = Literal["asteroid", "debris", "station"]
DamageTrait = Literal["ship", "crew"]

SIZE_CLASSES: tuple[SizeClass, ...] = get_args(SizeClass)
RANGE_BANDS: tuple[RangeBand, ...] = get_args(RangeBand)
MAX_YAW = 2
"""The highest yaw a joint can show: "II" (SWA-2.3a)."""
TOOL_JOINTS = 4
"""Joints on the core-set maneuver tool, so the highest speed it can measure (SWA-MOV)."""

_ID = r"^[a-z0-9_]+$"


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class _DataFile(_Model):
    """Labels every data file carries: where its values come from and which are measured."""

    ITEMS: ClassVar[tuple[type[BaseModel], ...]] = ()  # models whose field names may be labelled

    source: str = Field(min_length=1)
    provisional: bool = False  # True: some values are community measurements, not printed ones
    provisional_note: str = ""
    official: list[str] = Field(default_factory=list)  # fields printed on the components
    community: dict[str, str] = Field(default_factory=dict)  # field -> named measured source

    @model_validator(mode="after")
    def _labels(self) -> _DataFile:
        if self.provisional and not self.provisional_note.strip():
            raise ValueError("provisional_note: a provisional file needs a provisional_note")
        if self.provisional and not self.community:
            raise ValueError("community: a provisional file names its measured values' source")
        known = set(type(self).model_fields)
        for model in self.ITEMS:
            known |= set(model.model_fields)
        for label, names in (("official", self.official), ("community", list(self.community))):
            unknown = sorted(set(names) - known)
            if unknown:
                raise ValueError(f"{label}: {unknown} name no field of this file")
        both = sorted(set(self.official) & set(self.community))
        if both:
            raise ValueError(f"official/community: {both} cannot be both printed and measured")
        return self


def _unique(what: str, ids: list[str]) -> None:
    doubled = sorted({i for i in ids if ids.count(i) > 1})
    if doubled:
        raise ValueError(f"{what}: id(s) {doubled} used twice")


# --------------------------------------------------------------------------- dice


_AT_RANGE: dict[tuple[int, int, int, str], DicePool] = {}
"""``DicePool.at_range``'s pools by dice and band (a few dozen in all)."""


class DicePool(_Model):
    """Dice of each colour in an armament (SWA-DICE; SWA-ATK 2)."""

    red: int = Field(default=0, ge=0)
    blue: int = Field(default=0, ge=0)
    black: int = Field(default=0, ge=0)

    @property
    def total(self) -> int:
        return self.red + self.blue + self.black

    @property
    def max_range(self) -> RangeBand | None:
        """Long with any red, medium with any blue, close with only black, None with no dice
        (RRG "Attack Range", SWA-ATK 2)."""
        if self.red:
            return "long"
        if self.blue:
            return "medium"
        return "close" if self.black else None

    def at_range(self, band: RangeBand) -> DicePool:
        """The dice legal at ``band``: red at close–long, blue at close–medium, black at close
        only (SWA-ATK 2). One pool per dice and band (a frozen model, so shared)."""
        key = (self.red, self.blue, self.black, band)
        found = _AT_RANGE.get(key)
        if found is None:
            found = _AT_RANGE[key] = DicePool(
                red=self.red,
                blue=self.blue if band in ("close", "medium") else 0,
                black=self.black if band == "close" else 0,
            )
        return found

    def dice(self) -> tuple[CustomDie, ...]:
        """The custom dice of :mod:`domain.dice`, red first, then blue, then black."""
        return (ARMADA_RED,) * self.red + (ARMADA_BLUE,) * self.blue + (ARMADA_BLACK,) * self.black

    def __str__(self) -> str:
        parts = [f"{n}{c}" for n, c in ((self.red, "R"), (self.blue, "U"), (self.black, "K")) if n]
        return "".join(parts) or "-"


# --------------------------------------------------------------------------- geometry table


class Size(_Model):
    """A rectangle: ``width`` across the ship, ``length`` along it (mm)."""

    width: float = Field(gt=0, allow_inf_nan=False)
    length: float = Field(gt=0, allow_inf_nan=False)


class PlayArea(_Model):
    width: float = Field(gt=0, allow_inf_nan=False)
    height: float = Field(gt=0, allow_inf_nan=False)


class RangeBands(_Model):
    """Outer edge of each band on the range side of the ruler (SWA-RNG)."""

    close: float = Field(gt=0, allow_inf_nan=False)
    medium: float = Field(gt=0, allow_inf_nan=False)
    long: float = Field(gt=0, allow_inf_nan=False)

    @model_validator(mode="after")
    def _increasing(self) -> RangeBands:
        if not self.close < self.medium < self.long:
            raise ValueError(
                f"range bands must increase: close {self.close} < medium {self.medium} "
                f"< long {self.long}"
            )
        return self


class ManeuverTool(_Model):
    """The maneuver tool as a chain (SWA-MOV): from the guides at the base, a ``first_segment``
    straight piece to joint 1, then per speed a ``part_segment`` piece to that speed's guide and
    (if the tool goes on) another ``first_segment`` piece to the next joint. ``width`` is the
    tool's width; each click turns a joint by ``click_degrees``."""

    first_segment: float = Field(gt=0, allow_inf_nan=False)
    part_segment: float = Field(gt=0, allow_inf_nan=False)
    width: float = Field(gt=0, allow_inf_nan=False)
    click_degrees: float = Field(gt=0, lt=90, allow_inf_nan=False)
    joints: int = Field(default=TOOL_JOINTS, ge=1)


class GeometryTable(_DataFile):
    """Table geometry: play area, bases, ruler and maneuver tool."""

    play_area: PlayArea
    base_sizes: dict[SizeClass, Size]
    squadron_base_radius: float = Field(gt=0, allow_inf_nan=False)
    ruler_length: float = Field(gt=0, allow_inf_nan=False)
    range_bands: RangeBands
    distance_bands: list[float] = Field(min_length=5, max_length=5)
    maneuver_tool: ManeuverTool

    @model_validator(mode="after")
    def _consistent(self) -> GeometryTable:
        missing = [size for size in SIZE_CLASSES if size not in self.base_sizes]
        if missing:
            raise ValueError(f"base_sizes: missing size class(es) {missing}")
        edges = self.distance_bands
        if any(e <= 0 for e in edges) or any(b <= a for a, b in pairwise(edges)):
            raise ValueError(f"distance_bands must be positive and increase, got {edges}")
        outer = (("range_bands.long", self.range_bands.long), ("distance_bands[5]", edges[-1]))
        for what, edge in outer:
            if edge > self.ruler_length:
                raise ValueError(f"{what}: {edge} lies beyond the ruler ({self.ruler_length} mm)")
        return self

    def board(self) -> ContinuousBoard:
        """The play area as a :class:`domain.board.ContinuousBoard` in millimetres."""
        return ContinuousBoard(width=self.play_area.width, height=self.play_area.height, unit="mm")


# --------------------------------------------------------------------------- ships


class ArcEnd(_Model):
    """Where one end's pair of printed arc lines lies on the token, in mm from the token's front
    edge: both lines meet the centreline at ``centre`` and the long edges at ``side`` (SWA-HZ)."""

    centre: float = Field(ge=0, allow_inf_nan=False)
    side: float = Field(ge=0, allow_inf_nan=False)


class TargetingPoints(_Model):
    """Yellow targeting points (SWA-ATK 1), in mm from the token's front edge; ``side`` is
    ``[offset from the centreline, distance from the front]`` for the right zone, mirrored left."""

    front: float = Field(ge=0, allow_inf_nan=False)
    rear: float = Field(ge=0, allow_inf_nan=False)
    side: tuple[float, float]


class HullGeometry(_Model):
    """The printed token of one hull: its size, the four arc lines and the targeting points."""

    id: str = Field(pattern=_ID)
    name: str
    size: SizeClass
    token: Size
    front_arc: ArcEnd
    rear_arc: ArcEnd
    targeting: TargetingPoints

    @model_validator(mode="after")
    def _on_token(self) -> HullGeometry:
        length, half = self.token.length, self.token.width / 2
        front, rear = self.front_arc, self.rear_arc
        for what, value in (
            ("front_arc.centre", front.centre),
            ("front_arc.side", front.side),
            ("rear_arc.centre", rear.centre),
            ("rear_arc.side", rear.side),
            ("targeting.front", self.targeting.front),
            ("targeting.rear", self.targeting.rear),
            ("targeting.side", self.targeting.side[1]),
        ):
            if value > length:
                raise ValueError(f"{what}: {value} mm lies behind the token ({length} mm long)")
        if not front.side < front.centre:
            raise ValueError(
                "front_arc: the front lines must open forward (side "
                f"{front.side} < centre {front.centre} mm from the front)"
            )
        if not rear.centre < rear.side:
            raise ValueError(
                "rear_arc: the rear lines must open backward (centre "
                f"{rear.centre} < side {rear.side} mm from the front)"
            )
        if not 0 < self.targeting.side[0] < half:
            raise ValueError(
                f"targeting.side: offset {self.targeting.side[0]} must lie inside the token "
                f"(0 < offset < {half})"
            )
        return self


class Battery(_Model):
    """Battery armament per hull zone (SWA-DATA; the card prints one value for both sides)."""

    front: DicePool
    left: DicePool
    right: DicePool
    rear: DicePool


class Shields(_Model):
    """Maximum shields per hull zone (SWA-DATA)."""

    front: int = Field(ge=0)
    left: int = Field(ge=0)
    right: int = Field(ge=0)
    rear: int = Field(ge=0)


class ShipCard(_Model):
    """One ship card (SWA-DATA). ``speed_chart`` maps each speed to the yaw allowed at each of its
    joints, joint 1 first (SWA-2.3a: 0 is "–", 1 is "I", 2 is "II"); speed 0 is always legal."""

    id: str = Field(pattern=_ID)
    name: str
    faction: Faction
    size: SizeClass
    hull: int = Field(ge=1)
    command: int = Field(ge=1)
    squadron: int = Field(ge=0)
    engineering: int = Field(ge=0)
    anti_squadron: DicePool
    battery: Battery
    shields: Shields
    defense_tokens: list[DefenseToken]
    speed_chart: dict[int, list[int]]
    points_printed: int = Field(ge=0)
    points_updated: int = Field(ge=0)
    hull_geometry: str = Field(pattern=_ID)
    note: str = ""

    @model_validator(mode="after")
    def _speed_chart(self) -> ShipCard:
        speeds = sorted(self.speed_chart)
        if not speeds or speeds != list(range(1, len(speeds) + 1)):
            raise ValueError(f"speed_chart: speeds must run 1, 2, ... without gaps, got {speeds}")
        if speeds[-1] > TOOL_JOINTS:
            raise ValueError(
                f"speed_chart: speed {speeds[-1]} needs more joints than the tool's {TOOL_JOINTS}"
            )
        for speed, yaws in self.speed_chart.items():
            if len(yaws) != speed:
                raise ValueError(
                    f"speed_chart.{speed}: speed {speed} has {speed} joint(s), "
                    f"got {len(yaws)} yaw value(s)"
                )
            if any(not 0 <= yaw <= MAX_YAW for yaw in yaws):
                raise ValueError(f"speed_chart.{speed}: yaw values run 0..{MAX_YAW}, got {yaws}")
        return self

    @property
    def max_speed(self) -> int:
        return max(self.speed_chart)


class ShipCards(_DataFile):
    """``ships.json``: hull geometries and the ship cards that use them."""

    ITEMS: ClassVar[tuple[type[BaseModel], ...]] = (ShipCard, HullGeometry)

    hulls: list[HullGeometry] = Field(min_length=1)
    ships: list[ShipCard] = Field(min_length=1)

    @model_validator(mode="after")
    def _references(self) -> ShipCards:
        _unique("hulls", [h.id for h in self.hulls])
        _unique("ships", [s.id for s in self.ships])
        hulls = {h.id: h for h in self.hulls}
        for ship in self.ships:
            hull = hulls.get(ship.hull_geometry)
            if hull is None:
                raise ValueError(
                    f"ships[{ship.id}].hull_geometry: unknown hull {ship.hull_geometry!r}"
                )
            if hull.size != ship.size:
                raise ValueError(
                    f"ships[{ship.id}].size: {ship.size} but hull {hull.id!r} is {hull.size}"
                )
        return self

    def get(self, ship_id: str) -> ShipCard:
        for ship in self.ships:
            if ship.id == ship_id:
                return ship
        raise KeyError(ship_id)

    def hull(self, hull_id: str) -> HullGeometry:
        for hull in self.hulls:
            if hull.id == hull_id:
                return hull
        raise KeyError(hull_id)


# --------------------------------------------------------------------------- squadrons


class SquadronCard(_Model):
    """One squadron card (SWA-DATA; keywords RRG: Swarm, Bomber, Escort)."""

    id: str = Field(pattern=_ID)
    name: str
    faction: Faction
    unique: bool = False
    hull: int = Field(ge=1)
    speed: int = Field(ge=0, le=5)
    anti_squadron: DicePool
    battery: DicePool
    keywords: list[SquadronKeyword] = Field(default_factory=list)
    defense_tokens: list[DefenseToken] = Field(default_factory=list)
    points_printed: int = Field(ge=0)
    points_updated: int = Field(ge=0)
    note: str = ""


class SquadronCards(_DataFile):
    """``squadrons.json``."""

    ITEMS: ClassVar[tuple[type[BaseModel], ...]] = (SquadronCard,)

    squadrons: list[SquadronCard] = Field(min_length=1)

    @model_validator(mode="after")
    def _ids(self) -> SquadronCards:
        _unique("squadrons", [s.id for s in self.squadrons])
        return self

    def get(self, squadron_id: str) -> SquadronCard:
        for squadron in self.squadrons:
            if squadron.id == squadron_id:
                return squadron
        raise KeyError(squadron_id)


# --------------------------------------------------------------------------- damage deck


class DamageCard(_Model):
    """One damage card (SWA-DMG). ``text`` is Wake's paraphrase, not the printed wording;
    ``effect`` is the key the rules dispatch on. ``timing``: ``when_dealt`` cards act once when
    dealt face up, ``persistent`` ones act while face up; ``flips_facedown``: the card turns face
    down after acting."""

    id: str = Field(pattern=_ID)
    name: str
    trait: DamageTrait
    count: int = Field(ge=1)
    timing: Literal["when_dealt", "persistent"]
    flips_facedown: bool
    effect: str = Field(pattern=_ID)
    text: str = Field(min_length=1)


class DamageDeck(_DataFile):
    """``damage_deck.json``: one entry per distinct card, ``count`` copies of each."""

    ITEMS: ClassVar[tuple[type[BaseModel], ...]] = (DamageCard,)

    cards: list[DamageCard] = Field(min_length=1)

    @model_validator(mode="after")
    def _distinct(self) -> DamageDeck:
        _unique("cards", [c.id for c in self.cards])
        effects = [c.effect for c in self.cards]
        doubled = sorted({e for e in effects if effects.count(e) > 1})
        if doubled:
            raise ValueError(f"cards: effect key(s) {doubled} used by more than one card")
        return self

    @property
    def size(self) -> int:
        return sum(c.count for c in self.cards)

    def get(self, card_id: str) -> DamageCard:
        for card in self.cards:
            if card.id == card_id:
                return card
        raise KeyError(card_id)

    def card_ids(self) -> tuple[str, ...]:
        """The whole deck, one id per physical card, in file order (shuffle before use)."""
        return tuple(card.id for card in self.cards for _ in range(card.count))


# --------------------------------------------------------------------------- obstacles


class ObstacleShape(_Model):
    """An obstacle token's outline in mm around its own origin (SWA-OVL)."""

    id: str = Field(pattern=_ID)
    name: str
    kind: ObstacleKind
    outline: list[tuple[float, float]] = Field(min_length=3)

    @model_validator(mode="after")
    def _simple(self) -> ObstacleShape:
        polygon = Polygon(self.outline)
        if not polygon.is_valid or polygon.area <= 0:
            raise ValueError(f"outline: obstacle {self.id!r} is not a simple polygon with area")
        return self


class ObstacleSet(_DataFile):
    """``obstacles.json``: the core set's asteroid fields, debris fields and station."""

    ITEMS: ClassVar[tuple[type[BaseModel], ...]] = (ObstacleShape,)

    obstacles: list[ObstacleShape] = Field(min_length=1)

    @model_validator(mode="after")
    def _ids(self) -> ObstacleSet:
        _unique("obstacles", [o.id for o in self.obstacles])
        return self

    def get(self, obstacle_id: str) -> ObstacleShape:
        for obstacle in self.obstacles:
            if obstacle.id == obstacle_id:
                return obstacle
        raise KeyError(obstacle_id)


# --------------------------------------------------------------------------- loading


MEMO_LIMIT = 20_000
"""Entries an :class:`ArmadaData` memo holds before it starts again (a game uses hundreds)."""
MEMO_DATA = 32
"""Data objects (games' data) whose memos are kept at once."""
_MISSING = object()
_T = TypeVar("_T")
_MEMOS: dict[int, tuple[Any, dict[Any, Any]]] = {}


class ArmadaData(_Model):
    """The data one game uses (each part bundled or the user's own, whole), cross-checked."""

    ships: ShipCards
    squadrons: SquadronCards
    geometry: GeometryTable
    damage: DamageDeck
    obstacles: ObstacleSet

    def memo(self, key: Any, make: Callable[[], _T]) -> _T:
        """``make()``'s result, kept per ``key`` for this data: shapes that depend only on the
        data and a pose (placed ships, obstacle outlines) are computed once per game, not once
        per measurement. Kept outside the model (equality and dumps never see it) and bounded:
        :data:`MEMO_LIMIT` entries per data, :data:`MEMO_DATA` data objects."""
        entry = _MEMOS.get(id(self))
        if entry is None or entry[0] is not self:
            if len(_MEMOS) >= MEMO_DATA:
                _MEMOS.clear()
            entry = _MEMOS[id(self)] = (self, {})
        memo = entry[1]
        found = memo.get(key, _MISSING)
        if found is _MISSING:
            if len(memo) >= MEMO_LIMIT:
                memo.clear()
            found = memo[key] = make()
        return found  # type: ignore[no-any-return]

    @model_validator(mode="after")
    def _tokens_fit_bases(self) -> ArmadaData:
        for hull in self.ships.hulls:
            base = self.geometry.base_sizes[hull.size]
            if hull.token.width > base.width or hull.token.length > base.length:
                raise ValueError(
                    f"ships.hulls[{hull.id}].token: {hull.token.width}×{hull.token.length} mm does "
                    f"not fit the {hull.size} base {base.width}×{base.length} mm"
                )
        return self


_M = TypeVar("_M", bound=BaseModel)


def _load(model: type[_M], part: str, data: Any) -> _M:
    return load_model(model, data, f"Armada {part} file")


def load_ships(data: Any) -> ShipCards:
    """Validate a ships file. Raises ScenarioError naming the field."""
    return _load(ShipCards, "ships", data)


def load_squadrons(data: Any) -> SquadronCards:
    """Validate a squadrons file. Raises ScenarioError naming the field."""
    return _load(SquadronCards, "squadrons", data)


def load_geometry(data: Any) -> GeometryTable:
    """Validate a geometry file. Raises ScenarioError naming the field."""
    return _load(GeometryTable, "geometry", data)


def load_damage_deck(data: Any) -> DamageDeck:
    """Validate a damage-deck file. Raises ScenarioError naming the field."""
    return _load(DamageDeck, "damage deck", data)


def load_obstacles(data: Any) -> ObstacleSet:
    """Validate an obstacles file. Raises ScenarioError naming the field."""
    return _load(ObstacleSet, "obstacles", data)


def read_json(path: str | Path) -> Any:
    """Read a user's JSON data file.

    Raises:
        ScenarioError: the file cannot be read or is not JSON.
    """
    return datafiles.read_json(path, "Armada data file")


def bundled_json(name: str) -> Any:
    """A bundled data file (``ships.json`` ...) as plain JSON."""
    return datafiles.bundled_json("domain.rulesets.armada", name)


@lru_cache(maxsize=1)
def bundled_ships() -> ShipCards:
    """The core-set ship cards and hull geometry shipped with Wake (geometry provisional)."""
    return load_ships(bundled_json("ships.json"))


@lru_cache(maxsize=1)
def bundled_squadrons() -> SquadronCards:
    """The core-set squadron cards shipped with Wake."""
    return load_squadrons(bundled_json("squadrons.json"))


@lru_cache(maxsize=1)
def bundled_geometry() -> GeometryTable:
    """The table geometry shipped with Wake (band edges and tool provisional)."""
    return load_geometry(bundled_json("geometry.json"))


@lru_cache(maxsize=1)
def bundled_damage_deck() -> DamageDeck:
    """The 52-card damage deck shipped with Wake (texts paraphrased)."""
    return load_damage_deck(bundled_json("damage_deck.json"))


@lru_cache(maxsize=1)
def bundled_obstacles() -> ObstacleSet:
    """The core-set obstacle outlines shipped with Wake (provisional)."""
    return load_obstacles(bundled_json("obstacles.json"))


def resolve_data(
    ships: Any = None,
    squadrons: Any = None,
    geometry: Any = None,
    damage: Any = None,
    obstacles: Any = None,
) -> ArmadaData:
    """The data for a game: each part given replaces the bundled part whole.

    Raises:
        ScenarioError: a part is invalid, or the parts do not fit together (a token larger than
            its base).
    """
    parts = {
        "ships": bundled_ships() if ships is None else load_ships(ships),
        "squadrons": bundled_squadrons() if squadrons is None else load_squadrons(squadrons),
        "geometry": bundled_geometry() if geometry is None else load_geometry(geometry),
        "damage": bundled_damage_deck() if damage is None else load_damage_deck(damage),
        "obstacles": bundled_obstacles() if obstacles is None else load_obstacles(obstacles),
    }
    try:
        return ArmadaData.model_validate(parts)
    except ValidationError as exc:
        raise ScenarioError(f"invalid Armada data: {describe_errors(exc, None)}") from exc
