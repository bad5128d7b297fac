"""Iron & Oak tables (IO-GAPS 1–12): Movement Opposition, Drift, current, Tow, Hazard, the
Standard Damage Chart (IO-6.2), the Critical Hit Table (IO-6.3), torpedo damage, Night Gunnery,
fire and smoke, repair, ram/spar, crew loss and the modifiers, validated. The seed gives some
values (its dice are pinned by the tests); the rest are provisional."""

from __future__ import annotations

from collections.abc import Iterable
from itertools import pairwise
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    Field,
    model_validator,
)

from domain.rulesets.iron_oak.basics import (
    D8_FACES,
    D10_FACES,
    TWO_D6_TOTALS,
    CriticalName,
    Dice,
    Location,
    _check_faces,
    _DataFile,
    _Model,
)


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
