"""Iron & Oak data: ship and fort cards, action cards, tables and scenarios, validated.

The rules digest gives the structure of the game's data (IO-1.0.1.1 ship card fields, IO-1.3.2
action cards, IO-6.2 damage chart, IO-6.3 criticals) and a few values (the hazard, repair, spar,
fouling and contact dice of IO-3.1.1, IO-5.4 and IO-5.6; the fire start roll of IO-6.3.9; the
crew-loss bands of IO-6.3.2/6.3.5). Everything else is IO-GAPS: no card values, tables or
action-card lists are public. The bundled files under ``data/`` therefore carry
``"provisional": true`` and a ``provisional_note``; each card lists its invented fields in
``provisional`` and the tables file lists its invented fields in ``provisional_fields``. Values the
seed gives are not provisional and the tests pin them.

A user's own file (from their copy of the game) replaces the bundled file of the same kind whole:
see :func:`resolve_data`. Scenarios (IO-1.1 5 × 5 grid, IO-GAPS 15) are checked against the card
sets in use by :func:`load_scenario`.

Dice text follows the seed (IO-1.6.1): ``d10d4`` rolls both dice and keeps the highest,
``d10+d8`` adds them; it is validated by :func:`domain.dice.parse` and stored in canonical form.
Grid cells are ``[column, row]`` counted from 0: column 0 is the W edge, row 0 the N edge.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from functools import cache, lru_cache
from importlib import resources
from itertools import pairwise
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar, get_args

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    model_validator,
)

from domain.dice import DiceError, parse
from domain.errors import ScenarioError

# --------------------------------------------------------------------------- basic types


def _check_dice(text: str) -> str:
    try:
        return str(parse(text))
    except DiceError as exc:  # a ValueError: pydantic reports it with the field's location
        raise ValueError(str(exc)) from None


Dice = Annotated[str, AfterValidator(_check_dice)]
"""Dice text such as ``d10d4`` (keep highest, IO-1.6.1) or ``d10+d8`` (sum, IO-1.6.1.C)."""

Location = Literal["B", "S", "A", "TF", "TR", "TS", "WL", "D"]
"""Hit locations (IO-6.2.2): bow, stern, amidships, turret front/rear/side, waterline, deck."""

Side = Literal["CSA", "USA"]
Icon = Literal["grapeshot", "monitor", "blockade", "low_freeboard", "tug"]
"""Ship card icons (IO-1.0.1.1 H; low freeboard IO-9.1; tugs IO-9.2)."""

Edge = Literal["N", "E", "S", "W"]
Direction = Literal["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
Marker = Literal["hulk", "obstruction", "heavy_obstruction", "mine"]

CriticalName = Literal[
    "armament",  # IO-6.3.1
    "boiler",  # IO-6.3.2
    "captain",  # IO-6.3.3
    "collateral",  # IO-6.3.4
    "crew",  # IO-6.3.5
    "engine_damaged",  # IO-6.3.6
    "engine_stopped",  # IO-6.3.7
    "explosion",  # IO-6.3.8
    "fire",  # IO-6.3.9
    "jam",  # IO-6.3.10
    "magazine",  # IO-6.3.11
    "ram",  # IO-6.3.12
    "rudder",  # IO-6.3.13
    "spar_torpedo",  # IO-6.3.14
    "speed",  # IO-6.3.15
    "smokestack",  # IO-6.3.16
    "steering",  # IO-6.3.17
]
CRITICAL_NAMES: frozenset[str] = frozenset(get_args(CriticalName))
REPAIRABLE_CRITICALS: frozenset[str] = frozenset(
    {"armament", "engine_damaged", "engine_stopped", "jam", "rudder", "steering"}
)
"""Criticals the seed marks repairable (IO-6.3; repair procedure IO-3.1.1)."""

D8_FACES = frozenset(range(1, 9))
D10_FACES = frozenset(range(1, 11))
TWO_D6_TOTALS = frozenset(range(2, 13))

_ID = r"^[a-z0-9_]+$"


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


def _ranges(faces: Iterable[int]) -> str:
    return ", ".join(str(f) for f in sorted(faces))


def _check_faces(what: str, keys: Iterable[int], expected: frozenset[int]) -> None:
    """Every face in ``expected`` exactly once, nothing else."""
    seen: list[int] = list(keys)
    missing = expected - set(seen)
    extra = set(seen) - expected
    doubled = {f for f in seen if seen.count(f) > 1}
    problems = []
    if missing:
        problems.append(f"missing {_ranges(missing)}")
    if extra:
        problems.append(f"unexpected {_ranges(extra)}")
    if doubled:
        problems.append(f"repeated {_ranges(doubled)}")
    if problems:
        lo, hi = min(expected), max(expected)
        raise ValueError(f"{what} must cover {lo}..{hi} exactly once: {'; '.join(problems)}")


class _DataFile(_Model):
    """Top-level labels shared by every data file."""

    source: str = ""
    provisional: bool = False  # True: values are invented placeholders (IO-GAPS)
    provisional_note: str = ""

    @model_validator(mode="after")
    def _note_when_provisional(self) -> _DataFile:
        if self.provisional and not self.provisional_note.strip():
            raise ValueError("provisional: a provisional file needs a provisional_note")
        return self


def _check_provisional_fields(model: type[BaseModel], names: Sequence[str], what: str) -> None:
    unknown = [n for n in names if n not in model.model_fields]
    if unknown:
        raise ValueError(f"{what} provisional lists unknown field(s) {unknown}")


# --------------------------------------------------------------------------- ship cards


class MovementBand(_Model):
    """A Movement Chart row (IO-1.0.1.1 D): from this many hull hits, roll these dice."""

    hits_from: int = Field(ge=0)
    dice: Dice


class CrewFactor(_Model):
    """Crew factor ``light/heavy – full`` (IO-1.0.1.1 E, IO-6.2.3G)."""

    light: int = Field(ge=1)
    heavy: int = Field(ge=1)
    full: int = Field(ge=1)

    @model_validator(mode="after")
    def _ordered(self) -> CrewFactor:
        if not self.light < self.heavy < self.full:
            raise ValueError(
                f"crew factor needs light < heavy < full, got {self.light}/{self.heavy}-{self.full}"
            )
        return self


class HitLocation(_Model):
    """d8 faces -> location with its defence dice (IO-1.0.1.1 G, IO-6.2).

    ``plunging`` is the "*" mark: under plunging fire the location becomes D (IO-6.2.2). A D
    location with no faces holds the deck defence used only by plunging fire.
    """

    faces: list[Annotated[int, Field(ge=1, le=8)]]
    code: Location
    defence: Dice
    armoured: bool
    plunging: bool = False


class GunSection(_Model):
    """A gun section (IO-1.0.1.1 K): its dice and the Bow-on / Stern-on modifiers ("X": no fire)."""

    name: str
    dice: Dice
    bow: int | Literal["X"] = 0
    stern: int | Literal["X"] = 0

    @property
    def limited(self) -> bool:
        """Limited guns: the section's highest die is a d4 or d6 (IO-6.2.3A, IO-6.3.1)."""
        return max(die.sides for die in parse(self.dice).dice) in (4, 6)


class ShipCard(_Model):
    """One ship data card (IO-1.0.1.1 fields A–K)."""

    id: str = Field(pattern=_ID)
    name: str
    side: Side
    vp: int = Field(ge=0)  # IO-6.2.3I: awarded when sunk or captured
    movement: list[MovementBand]
    crew: CrewFactor
    quality: Literal["elite", "regular", "green"] = "regular"  # IO-3.1.1
    draft: int = Field(ge=0)  # IO-5.4.1
    hit_value: int = Field(ge=1)  # IO-6.2.3J: sinks when hits reach it
    locations: list[HitLocation]
    icons: list[Icon] = Field(default_factory=list)
    ram: Dice | None = None  # IO-5.6.3
    spar: Dice | None = None  # IO-5.6.2
    spar_reattack: bool = False  # IO-1.0.1.1 J: only USS Spuyten Duyvil
    guns: list[GunSection] = Field(min_length=1)
    provisional: list[str] = Field(default_factory=list)

    @model_validator(mode="after")
    def _consistent(self) -> ShipCard:
        rows = [band.hits_from for band in self.movement]
        if len(rows) != 3 or rows[0] != 0 or not rows[0] < rows[1] < rows[2]:
            raise ValueError(
                f"movement: the Movement Chart needs exactly 3 rows starting at 0 hits with "
                f"strictly increasing hits_from (IO-3.5.1), got {rows}"
            )
        if self.hit_value <= rows[2]:
            raise ValueError(
                f"hit_value {self.hit_value} must exceed the last movement row ({rows[2]} hits)"
            )
        _check_faces("locations: hit locations' d8 faces", self._all_faces(), D8_FACES)
        codes = [loc.code for loc in self.locations]
        if len(codes) != len(set(codes)):
            raise ValueError(f"locations: a location code is listed twice in {codes}")
        for loc in self.locations:
            if not loc.faces and loc.code != "D":
                raise ValueError(f"locations: {loc.code} has no d8 faces (only D may have none)")
        if any(loc.plunging for loc in self.locations) and "D" not in codes:
            raise ValueError("locations: a plunging (*) location needs a D location (IO-6.2.2)")
        if self.spar_reattack and self.spar is None:
            raise ValueError("spar_reattack needs a spar torpedo")
        _check_provisional_fields(ShipCard, self.provisional, f"ship {self.id!r}:")
        return self

    def _all_faces(self) -> list[int]:
        return [face for loc in self.locations for face in loc.faces]

    @property
    def light_damage_at(self) -> int:
        """Hits at which the ship is lightly damaged: the 2nd Movement Chart row (IO-3.5.1)."""
        return self.movement[1].hits_from

    @property
    def heavy_damage_at(self) -> int:
        """Hits at which the ship is heavily damaged: the 3rd Movement Chart row (IO-3.5.1)."""
        return self.movement[2].hits_from

    def movement_dice(self, hits: int) -> str:
        """The Movement Chart dice for a ship with ``hits`` hull hits (IO-5.1.1)."""
        if hits < 0:
            raise ValueError(f"hits cannot be negative, got {hits}")
        return [band.dice for band in self.movement if band.hits_from <= hits][-1]

    def location_for(self, face: int) -> HitLocation:
        """The location hit on yellow-d8 ``face`` (IO-6.2)."""
        for loc in self.locations:
            if face in loc.faces:
                return loc
        raise ValueError(f"a d8 cannot show face {face!r}")

    def location(self, code: Location) -> HitLocation | None:
        """The location with this code, if the card has it."""
        return next((loc for loc in self.locations if loc.code == code), None)


class ShipCards(_DataFile):
    ships: list[ShipCard] = Field(min_length=1)

    @model_validator(mode="after")
    def _unique(self) -> ShipCards:
        ids = [s.id for s in self.ships]
        doubled = sorted({i for i in ids if ids.count(i) > 1})
        if doubled:
            raise ValueError(f"ships: id(s) {doubled} used twice")
        return self

    def get(self, ship_id: str) -> ShipCard:
        for ship in self.ships:
            if ship.id == ship_id:
                return ship
        raise KeyError(ship_id)

    @property
    def ids(self) -> frozenset[str]:
        return frozenset(s.id for s in self.ships)


# --------------------------------------------------------------------------- fort cards


class FortSection(_Model):
    """A fort section: fires and is fired at on its own (IO-6.0, IO-6.2)."""

    id: str = Field(pattern=_ID)
    name: str
    guns: list[GunSection] = Field(min_length=1)
    defence: Dice
    hits: int = Field(ge=1)  # destroyed when hits reach this
    crew: int = Field(ge=1)


class FortCard(_Model):
    id: str = Field(pattern=_ID)
    name: str
    side: Side
    sections: list[FortSection] = Field(min_length=1)
    provisional: list[str] = Field(default_factory=list)

    @model_validator(mode="after")
    def _consistent(self) -> FortCard:
        ids = [s.id for s in self.sections]
        if len(ids) != len(set(ids)):
            raise ValueError(f"sections: fort {self.id!r} repeats a section id in {ids}")
        _check_provisional_fields(FortCard, self.provisional, f"fort {self.id!r}:")
        return self


class FortCards(_DataFile):
    forts: list[FortCard] = Field(min_length=1)

    @model_validator(mode="after")
    def _unique(self) -> FortCards:
        ids = [f.id for f in self.forts]
        doubled = sorted({i for i in ids if ids.count(i) > 1})
        if doubled:
            raise ValueError(f"forts: id(s) {doubled} used twice")
        return self

    def get(self, fort_id: str) -> FortCard:
        for fort in self.forts:
            if fort.id == fort_id:
                return fort
        raise KeyError(fort_id)

    @property
    def ids(self) -> frozenset[str]:
        return frozenset(f.id for f in self.forts)


# --------------------------------------------------------------------------- action cards


class ActionCard(_Model):
    """An Action card (IO-1.3.2): check die, type, day/night symbol; play windows IO-3.3.1/3.3.2."""

    id: str = Field(pattern=_ID)
    name: str
    check_die: Dice
    alt_die: Dice | None = None  # IO-1.3.2: some cards name a different die for some uses
    kind: Literal["movement", "gunnery"]
    time: Literal["day", "night", "any"]
    window: Literal["own", "opponent"]  # IO-3.3.1 B/C, IO-3.3.2 C/D
    count: int = Field(ge=1)  # copies in the deck
    effect: str
    # What the engine does when the card is played (the text above is for people): a modifier
    # of ``value`` to one ship's movement roll, contact roll (T, ram, spar), hazard checks or
    # one gun section's CR this segment; ``misfire`` cancels one declared fire (IO-3.3.2D);
    # ``strike`` captures the target if the fire leaves it heavily damaged (IO-6.2.3I);
    # ``drift_check`` makes an enemy ship pass a check die roll or drift; ``repair_shield``
    # removes ``value`` points of shield damage from one location of a friendly ship.
    use: Literal[
        "movement",
        "contact",
        "hazard",
        "gunnery",
        "misfire",
        "strike",
        "drift_check",
        "repair_shield",
    ]
    value: int = 0
    provisional: list[str] = Field(default_factory=list)

    @model_validator(mode="after")
    def _labels(self) -> ActionCard:
        _check_provisional_fields(ActionCard, self.provisional, f"card {self.id!r}:")
        return self


class ActionDeck(_DataFile):
    cards: list[ActionCard] = Field(min_length=1)

    @model_validator(mode="after")
    def _required(self) -> ActionDeck:
        ids = [c.id for c in self.cards]
        doubled = sorted({i for i in ids if ids.count(i) > 1})
        if doubled:
            raise ValueError(f"cards: id(s) {doubled} used twice")
        by_id = {c.id: c for c in self.cards}
        misfire = by_id.get("misfire")
        if misfire is None or (misfire.kind, misfire.window, misfire.use) != (
            "gunnery",
            "opponent",
            "misfire",
        ):
            raise ValueError(
                "cards: the deck needs a 'misfire' card of kind gunnery played in the opponent's "
                "window (IO-3.3.2D)"
            )
        if "strike" not in by_id or by_id["strike"].use != "strike":
            raise ValueError("cards: the deck needs a 'strike' card (IO-6.2.3I)")
        return self

    def get(self, card_id: str) -> ActionCard:
        for card in self.cards:
            if card.id == card_id:
                return card
        raise KeyError(card_id)

    @property
    def size(self) -> int:
        return sum(c.count for c in self.cards)


# --------------------------------------------------------------------------- tables


class Opposed(_Model):
    """An opposed roll (IO-1.6.1.A/B): ``roll`` must beat ``against`` strictly."""

    roll: Dice
    against: Dice


class MovementOpposition(_Model):
    """Movement Opposition table (IO-5.1.1): the opponent's dice per maneuver (IO-GAPS 2).

    It has no Crossing-the-T or ram entry: there both ships roll their own Movement Chart dice
    (IO-5.5 「両艦は移動ダイスを振る」, IO-5.6.1 「両艦はそれぞれのマヌーバーダイスを使う」).
    The tables of 1.0, embedded in its game headers, had ``cross_t`` and ``ram`` entries that
    nothing read; they are accepted and dropped.
    """

    maneuver_0: Dice
    maneuver_1: Dice
    maneuver_2: Dice
    enter: Dice
    exit: Dice

    @model_validator(mode="before")
    @classmethod
    def _drop_unused(cls, data: Any) -> Any:
        if isinstance(data, dict):
            return {k: v for k, v in data.items() if k not in ("cross_t", "ram")}
        return data


class DriftRow(_Model):
    low: int = Field(ge=1, le=10)
    high: int = Field(ge=1, le=10)
    effect: Literal["stay", "drift_1", "drift_2"]  # GBs moved with the current


class DriftTable(_Model):
    """Drift table, rolled on a d10 (IO-5.2, IO-GAPS 3)."""

    rows: list[DriftRow]

    @model_validator(mode="after")
    def _complete(self) -> DriftTable:
        _check_faces("drift.rows d10 faces", _band_faces(self.rows), D10_FACES)
        return self

    def effect(self, face: int) -> str:
        for row in self.rows:
            if row.low <= face <= row.high:
                return row.effect
        raise ValueError(f"a d10 cannot show face {face!r}")


def _band_faces(rows: Iterable[DriftRow | FireChangeRow | FireStartRow]) -> list[int]:
    out: list[int] = []
    for row in rows:
        if row.low > row.high:
            raise ValueError(f"a row runs from {row.low} down to {row.high}")
        out.extend(range(row.low, row.high + 1))
    return out


class CurrentModifiers(_Model):
    """Current modifiers to movement (IO-5.1.2, IO-GAPS 3)."""

    moderate_with: int = Field(ge=0)
    rapid_with: int = Field(ge=0)
    moderate_against: int = Field(le=0)
    rapid_against: int = Field(le=0)


class TowRow(_Model):
    diff_min: int | None = None  # None: no lower bound
    diff_max: int | None = None  # None: no upper bound
    modifier: int


class TowTable(_Model):
    """Tow table (IO-5.3): tower's hit value minus the towed ship's -> movement modifier."""

    rows: list[TowRow] = Field(min_length=1)

    @model_validator(mode="after")
    def _contiguous(self) -> TowTable:
        rows = self.rows
        if rows[0].diff_min is not None or rows[-1].diff_max is not None:
            raise ValueError("tow.rows must start with no diff_min and end with no diff_max")
        for prev, row in pairwise(rows):
            if prev.diff_max is None or row.diff_min != prev.diff_max + 1:
                raise ValueError(
                    f"tow.rows must be contiguous: a row ending at {prev.diff_max} is followed "
                    f"by one starting at {row.diff_min}"
                )
        for row in rows:
            lo, hi = row.diff_min, row.diff_max
            if lo is not None and hi is not None and lo > hi:
                raise ValueError(f"tow.rows: diff_min {row.diff_min} > diff_max {row.diff_max}")
        return self

    def modifier(self, diff: int) -> int:
        for row in self.rows:
            lo = row.diff_min if row.diff_min is not None else diff
            hi = row.diff_max if row.diff_max is not None else diff
            if lo <= diff <= hi:
                return row.modifier
        raise AssertionError("unreachable: rows cover every integer")


class ShallowsCheck(_Model):
    """IO-5.4.1: the ship's dice by how far its draft exceeds the depth, against ``against``."""

    over_1: Dice
    over_2: Dice
    over_3_plus: Dice
    against: Dice

    def dice_for(self, excess: int) -> str:
        if excess < 1:
            raise ValueError(f"no shallows hazard when the draft exceeds the depth by {excess}")
        return {1: self.over_1, 2: self.over_2}.get(excess, self.over_3_plus)


class HulkCheck(_Model):
    """IO-5.4.2: hulk or obstruction check."""

    roll: Dice
    against: Dice
    heavy_obstruction: int
    per_extra_hulk: int


class HazardTable(_Model):
    """Hazard table (IO-5.4; the seed gives all these dice)."""

    shallows: ShallowsCheck
    hulk: HulkCheck
    mine: Opposed  # IO-5.4.3, one check per mine


ChartCondition = Literal["no_shield_damage", "wood_damaged", "armour_damaged", "wood", "armour"]
"""What a Standard Damage Chart row asks of the location hit (IO-6.2): no shield damage; wood
(木部) with any shield damage; armour (装甲部) at ``armour_damaged_at`` or worse; and, for charts
converted from ruleset 1.0's format, any wood or any armour location."""


class ChartRow(_Model):
    """A condition row of a damage chart band: a location that meets ``when`` takes ``hits``."""

    when: ChartCondition
    hits: int = Field(ge=0)


class ChartLine(_Model):
    """The last line of a damage chart band: the shield step (≤ 0) and its hits."""

    shield_step: int = Field(le=0)
    hits: int = Field(ge=0)


class DamageBand(_Model):
    """One band of the Standard Damage Chart as the seed lays it out (IO-6.2): condition rows,
    first match first, then the last line with the shield step. How the last line combines with
    the rows is the ``shield_line`` option (IO-6.2 [AMBIG]): ``otherwise`` — only when no row
    applies; ``always`` — its shield step in every case, the hits from the rows.

    Ruleset 1.0's format (hits for wood/armour, damaged/undamaged, and one shield step per band)
    still loads, for the charts embedded in 1.0 records: each nonzero cell becomes a row (damaged
    before undamaged) and the step a last line without hits, which under ``always`` (1.0's
    reading) gives exactly 1.0's results.
    """

    rows: list[ChartRow] = Field(default_factory=list)
    last_line: ChartLine

    @model_validator(mode="before")
    @classmethod
    def _from_1_0(cls, data: Any) -> Any:
        if not isinstance(data, dict) or "shield_step" not in data:
            return data
        cells = ("wood_damaged", "wood_undamaged", "armour_damaged", "armour_undamaged")
        unknown = set(data) - {*cells, "shield_step"}
        if unknown:
            raise ValueError(f"unknown field(s) {sorted(unknown)} in a 1.0 damage chart band")
        rows = [
            {"when": cell.removesuffix("_undamaged"), "hits": data.get(cell, 0)}
            for cell in cells
            if data.get(cell, 0)
        ]
        return {"rows": rows, "last_line": {"shield_step": data["shield_step"], "hits": 0}}


class DamageChart(_Model):
    """Standard Damage Chart (IO-6.2, IO-GAPS 6).

    Bands: ``no_effect`` CR ≤ DR; ``over`` DR < CR < 2·DR; ``double`` 2·DR ≤ CR < 3·DR;
    ``critical`` CR ≥ 3·DR (also roll on the Critical Hit Table). Each band is a
    :class:`DamageBand`. Wood counts as damaged at any shield damage, armour at
    ``armour_damaged_at`` or worse.
    """

    no_effect: DamageBand
    over: DamageBand
    double: DamageBand
    critical: DamageBand
    armour_damaged_at: int = Field(le=-1)
    shield_floor: int = Field(le=-1)  # IO-6.2.1: shield damage goes no lower
    wl_extra_hit: int = Field(ge=0)

    @model_validator(mode="after")
    def _no_effect(self) -> DamageChart:
        band = self.no_effect
        if any(row.hits for row in band.rows) or band.last_line != ChartLine(shield_step=0, hits=0):
            raise ValueError("damage_chart.no_effect: CR ≤ DR has no effect (IO-6.2)")
        return self

    def band(self, cr: int, dr: int) -> str:
        """The band name for combat result ``cr`` against defence result ``dr`` (both ≥ 1)."""
        cr, dr = max(1, cr), max(1, dr)
        if cr <= dr:
            return "no_effect"
        if cr < 2 * dr:
            return "over"
        if cr < 3 * dr:
            return "double"
        return "critical"

    def meets(self, when: ChartCondition, *, armoured: bool, shield: int) -> bool:
        """Whether a location (armoured or wood, with shield damage ``shield`` ≤ 0) meets a
        row's condition."""
        if when == "no_shield_damage":
            return shield == 0
        if when == "wood_damaged":
            return not armoured and shield < 0
        if when == "armour_damaged":
            return armoured and shield <= self.armour_damaged_at
        return armoured == (when == "armour")

    def row_for(self, band: str, *, armoured: bool, shield: int) -> ChartRow | None:
        """The first row of ``band`` the location meets; None when none does."""
        rows: list[ChartRow] = getattr(self, band).rows
        return next((r for r in rows if self.meets(r.when, armoured=armoured, shield=shield)), None)


class CriticalTable(_Model):
    """Critical Hit Table (IO-6.3, IO-GAPS 7): a 2d6 total per column -> critical."""

    dice: Dice
    ship: dict[int, CriticalName]
    wl_bow_on: dict[int, CriticalName]
    wl_stern_on: dict[int, CriticalName]
    wl_other: dict[int, CriticalName]

    @model_validator(mode="after")
    def _complete(self) -> CriticalTable:
        for column in ("ship", "wl_bow_on", "wl_stern_on", "wl_other"):
            _check_faces(
                f"critical_table.{column} 2d6 totals", getattr(self, column), TWO_D6_TOTALS
            )
        return self

    def column_for(self, location: Location, relation: Literal["bow_on", "stern_on", None]) -> str:
        """IO-6.3: WL hits use the column for the target's relation to the firer."""
        if location != "WL":
            return "ship"
        return {"bow_on": "wl_bow_on", "stern_on": "wl_stern_on"}.get(relation or "", "wl_other")


class TorpedoTable(_Model):
    """Torpedo damage table (IO-5.4.3, IO-5.6.2, IO-GAPS 8): d8 face -> hits."""

    mine: dict[int, Annotated[int, Field(ge=0)]]
    spar_torp: dict[int, Annotated[int, Field(ge=0)]]
    ship_spar: dict[int, Annotated[int, Field(ge=0)]]

    @model_validator(mode="after")
    def _complete(self) -> TorpedoTable:
        for column in ("mine", "spar_torp", "ship_spar"):
            _check_faces(f"torpedo.{column} d8 faces", getattr(self, column), D8_FACES)
        return self


class NightGunnery(_Model):
    """Night Gunnery Chart (IO-6.2.4, IO-GAPS 9): modifier by range; "N/A" means no fire."""

    short: int | Literal["N/A"]
    medium: int | Literal["N/A"]
    long: int | Literal["N/A"]


class FireChangeRow(_Model):
    low: int = Field(ge=1, le=10)
    high: int = Field(ge=1, le=10)
    to: int = Field(ge=0, le=5)  # new fire level; 0 = the fire is out


class FireStartRow(_Model):
    low: int = Field(ge=1, le=10)
    high: int = Field(ge=1, le=10)
    level: int = Field(ge=2, le=5)


class FireLevel(_Model):
    change: list[FireChangeRow]  # d10, rolled in the Status Phase (IO-3.1.2)
    hits: int = Field(ge=0)
    gunnery: int = Field(le=0)
    movement: int = Field(le=0)

    @model_validator(mode="after")
    def _complete(self) -> FireLevel:
        _check_faces("fire level change d10 faces", _band_faces(self.change), D10_FACES)
        return self


class FireTable(_Model):
    """Fire (IO-3.1.2, IO-6.3.9): start level, level change, hits and modifiers per level 2..5."""

    change_die: Dice
    start: list[FireStartRow]  # IO-6.3.9: the d10 of a Fire critical
    levels: dict[int, FireLevel]

    @model_validator(mode="after")
    def _complete(self) -> FireTable:
        _check_faces("fire.start d10 faces", _band_faces(self.start), D10_FACES)
        _check_faces("fire.levels", self.levels, frozenset(range(2, 6)))
        return self

    def start_level(self, face: int) -> int:
        for row in self.start:
            if row.low <= face <= row.high:
                return row.level
        raise ValueError(f"a d10 cannot show face {face!r}")


class SmokeTable(_Model):
    """Smoke (IO-3.1 c, IO-6.2.3C): placed on an unmodified 8+; removal roll; gunnery penalty."""

    trigger_min: int = Field(ge=1)  # unmodified gun die showing this or more places smoke
    removal_die: Dice
    removal_target: int = Field(ge=1)  # removed when the removal die shows this or more
    light: int = Field(le=0)
    heavy: int = Field(le=0)


class RepairCheck(_Model):
    """IO-3.1.1: the repair party's roll (quality modifiers in :class:`Modifiers`)."""

    roll: Dice
    against: Dice


class RamSparTable(_Model):
    """Ram and spar procedure dice (IO-5.6.1–5.6.4; all given by the seed)."""

    immobile_target_contact: Dice  # IO-5.6.1: anchored, aground or fouled target's dice
    immobile_target_modifier: int  # IO-5.6.1: −5
    spar: Opposed  # IO-5.6.2: detonation
    ram_check: Opposed  # IO-5.6.3: Ram critical check
    fouling_after_ram: Opposed  # IO-5.6.4
    fouling_spar_only: Opposed  # IO-5.6.4


class CrewLossBand(_Model):
    crew_from: int = Field(ge=0)
    dice: Dice


class CrewLossTable(_Model):
    """Crew loss dice by crew factor (IO-6.3.2 boiler, IO-6.3.5 crew; the bands differ [AMBIG])."""

    boiler: list[CrewLossBand]
    crew: list[CrewLossBand]

    @model_validator(mode="after")
    def _ordered(self) -> CrewLossTable:
        for name in ("boiler", "crew"):
            starts = [band.crew_from for band in getattr(self, name)]
            if not starts or starts[0] != 0 or starts != sorted(set(starts)):
                raise ValueError(
                    f"crew_loss.{name}: bands must start at 0 and increase, got {starts}"
                )
        return self

    def dice_for(self, kind: Literal["boiler", "crew"], crew_factor: int) -> str:
        bands: list[CrewLossBand] = getattr(self, kind)
        return [b.dice for b in bands if b.crew_from <= crew_factor][-1]


class Modifiers(_Model):
    """Named modifiers (IO-GAPS 12). Seed values: captain, repair_party, crew_light_movement,
    elite_repair, green_repair, crossing_t, opposed, bow_on_ram_spar, bow_on_other_maneuver,
    heavy_damage_draft. ``bow_on``/``stern_on`` apply to fire at a Bow-on/Stern-on target; the
    target's own penalties are the bow/stern values on its gun sections."""

    bow_on: int
    stern_on: int
    captain: int  # IO-6.3.3 gunnery and movement
    fouled_non_monitor: int  # IO-6.2.3B
    aground_firer: int  # IO-6.2.3E
    aground_target: int  # IO-6.2.3E (firing at an aground ship)
    repair_party: int  # IO-3.1.1 gunnery
    crew_light_movement: int  # IO-6.2.3G
    elite_repair: int  # IO-3.1.1
    green_repair: int  # IO-3.1.1
    crossing_t: int  # IO-5.5
    opposed: int  # IO-5.1.3
    bow_on_ram_spar: int  # IO-5.5.1
    bow_on_other_maneuver: int  # IO-5.5.1
    heavy_damage_draft: int  # IO-6.2.3F


class Tables(_DataFile):
    """Every table the rules reference (IO-GAPS 2–12), plus the seed's procedure dice."""

    provisional_fields: list[str] = Field(default_factory=list)  # dotted paths, e.g. "tow"
    movement_opposition: MovementOpposition
    drift: DriftTable
    current: CurrentModifiers
    tow: TowTable
    hazard: HazardTable
    repair: RepairCheck
    ram_spar: RamSparTable
    damage_chart: DamageChart
    critical_table: CriticalTable
    torpedo: TorpedoTable
    night_gunnery: NightGunnery
    fire: FireTable
    smoke: SmokeTable
    crew_loss: CrewLossTable
    modifiers: Modifiers
    initial_hand: int = Field(ge=1)  # IO-3.4

    @model_validator(mode="after")
    def _labels(self) -> Tables:
        for path in self.provisional_fields:
            node: Any = self
            for part in path.split("."):
                if isinstance(node, BaseModel) and part in type(node).model_fields:
                    node = getattr(node, part)
                elif isinstance(node, dict) and part.isdigit() and int(part) in node:
                    node = node[int(part)]
                else:
                    raise ValueError(f"provisional_fields: {path!r} names no table field")
        return self


# --------------------------------------------------------------------------- scenarios

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


# --------------------------------------------------------------------------- loading

_M = TypeVar("_M", bound=BaseModel)


class DataSet(_Model):
    """The card sets and tables one game uses (each bundled or the user's own, whole)."""

    ships: ShipCards
    forts: FortCards
    cards: ActionDeck
    tables: Tables


def _describe(exc: ValidationError, data: Any) -> str:
    """Readable pydantic errors: ``ships[virginia].guns[1].dice: ...`` (list items by id)."""
    lines: list[str] = []
    for err in exc.errors():
        path, node = "", data
        for key in err["loc"]:
            if isinstance(key, int) and isinstance(node, list) and 0 <= key < len(node):
                item = node[key]
                label = item.get("id") if isinstance(item, Mapping) else None
                path += f"[{label}]" if isinstance(label, str) else f"[{key}]"
                node = item
            elif isinstance(key, int):
                path += f"[{key}]"
                node = None
            else:
                path += f".{key}" if path else str(key)
                node = node.get(key) if isinstance(node, Mapping) else None
        msg = str(err["msg"]).removeprefix("Value error, ")
        lines.append(f"{path}: {msg}" if path else msg)
    return "; ".join(lines)


def _load(model: type[_M], part: str, data: Any) -> _M:
    if not isinstance(data, Mapping):
        raise ScenarioError(f"invalid Iron & Oak {part} file: expected a JSON object")
    try:
        return model.model_validate(dict(data))
    except ValidationError as exc:
        name = data.get("id") if part == "scenario" else None
        what = f"{part} {name!r}" if isinstance(name, str) else f"{part} file"
        raise ScenarioError(f"invalid Iron & Oak {what}: {_describe(exc, data)}") from exc


def load_ships(data: Any) -> ShipCards:
    """Validate a ships file (the user's own replaces the bundled one whole).

    Raises:
        ScenarioError: the message names the file part and field.
    """
    return _load(ShipCards, "ships", data)


def load_forts(data: Any) -> FortCards:
    """Validate a forts file. Raises ScenarioError."""
    return _load(FortCards, "forts", data)


def load_cards(data: Any) -> ActionDeck:
    """Validate an action-cards file. Raises ScenarioError."""
    return _load(ActionDeck, "cards", data)


def load_tables(data: Any) -> Tables:
    """Validate a tables file. Raises ScenarioError."""
    return _load(Tables, "tables", data)


def read_json(path: str | Path) -> Any:
    """Read a user's JSON data file.

    Raises:
        ScenarioError: the file cannot be read or is not JSON.
    """
    try:
        return json.loads(Path(path).read_text("utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ScenarioError(f"cannot read Iron & Oak data file {str(path)!r}: {exc}") from exc


def _bundled_json(name: str) -> Any:
    text = resources.files("domain.rulesets.iron_oak").joinpath(f"data/{name}").read_text("utf-8")
    return json.loads(text)


@lru_cache(maxsize=1)
def bundled_ships() -> ShipCards:
    """The ship cards shipped with Wake (provisional, IO-GAPS 13)."""
    return load_ships(_bundled_json("ships.json"))


@lru_cache(maxsize=1)
def bundled_forts() -> FortCards:
    """The fort cards shipped with Wake (provisional, IO-GAPS 13)."""
    return load_forts(_bundled_json("forts.json"))


@lru_cache(maxsize=1)
def bundled_cards() -> ActionDeck:
    """The action cards shipped with Wake (provisional, IO-GAPS 14)."""
    return load_cards(_bundled_json("action_cards.json"))


@lru_cache(maxsize=1)
def bundled_tables() -> Tables:
    """The tables shipped with Wake (seed values where given, provisional elsewhere)."""
    return load_tables(_bundled_json("tables.json"))


def resolve_data(
    ships: Any = None, forts: Any = None, cards: Any = None, tables: Any = None
) -> DataSet:
    """The data for a game: each part given replaces the bundled part whole.

    Raises:
        ScenarioError: a given part is invalid.
    """
    return DataSet(
        ships=bundled_ships() if ships is None else load_ships(ships),
        forts=bundled_forts() if forts is None else load_forts(forts),
        cards=bundled_cards() if cards is None else load_cards(cards),
        tables=bundled_tables() if tables is None else load_tables(tables),
    )


def load_scenario(data: Any, dataset: DataSet | None = None) -> Scenario:
    """Validate a scenario and check its ship and fort cards exist in ``dataset``.

    Raises:
        ScenarioError: the message names the field.
    """
    scenario = _load(Scenario, "scenario", data)
    ds = dataset if dataset is not None else resolve_data()
    where = f"invalid Iron & Oak scenario {scenario.id!r}"
    for ship in scenario.ships:
        if ship.card not in ds.ships.ids:
            raise ScenarioError(f"{where}: ships[{ship.id}].card: unknown ship card {ship.card!r}")
        if ds.ships.get(ship.card).side != ship.side:
            raise ScenarioError(
                f"{where}: ships[{ship.id}].side: {ship.side} but card {ship.card!r} is "
                f"{ds.ships.get(ship.card).side}"
            )
    for fort in scenario.forts:
        if fort.card not in ds.forts.ids:
            raise ScenarioError(f"{where}: forts[{fort.id}].card: unknown fort card {fort.card!r}")
        if ds.forts.get(fort.card).side != fort.side:
            raise ScenarioError(
                f"{where}: forts[{fort.id}].side: {fort.side} but card {fort.card!r} is "
                f"{ds.forts.get(fort.card).side}"
            )
    return scenario


BUNDLED_SCENARIOS = ("hampton_roads", "mobile_bay_gauntlet", "wassaw_sound")


@cache
def bundled_scenario(scenario_id: str) -> Scenario:
    """A scenario shipped with Wake, checked against the bundled cards.

    Raises:
        ScenarioError: no such bundled scenario, or its file is invalid.
    """
    if scenario_id not in BUNDLED_SCENARIOS:
        raise ScenarioError(f"no bundled Iron & Oak scenario {scenario_id!r}")
    scenario = load_scenario(_bundled_json(f"scenarios/{scenario_id}.json"))
    if scenario.id != scenario_id:
        raise ScenarioError(f"scenario file {scenario_id}.json has id {scenario.id!r}")
    return scenario
