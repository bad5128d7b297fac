"""Iron & Oak ship cards (IO-1.0.1.1: movement chart, crew factor, draft, hit locations with
their defence dice, ram, spar torpedo, gun sections) and fort cards (sections), validated; the
bundled values are provisional (IO-GAPS 13)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import (
    Field,
    model_validator,
)

from domain.dice import parse
from domain.rulesets.iron_oak.basics import (
    _ID,
    D8_FACES,
    Dice,
    Icon,
    Location,
    Side,
    _check_faces,
    _check_provisional_fields,
    _DataFile,
    _Model,
)


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
