"""Iron & Oak data: the basic types every data file uses (sides, edges, directions, hit
locations, criticals, dice text, grid cells) and the checks they share."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Annotated, Literal, get_args

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    model_validator,
)

from domain.dice import DiceError, parse


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
