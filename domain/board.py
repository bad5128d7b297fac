"""Board geometry shared by all rulesets; no rules knowledge lives here.

Three shapes of board are supported:

* :class:`ContinuousBoard` — a flat table measured in real units (Morze w ogniu, Armada).
* :class:`GridBoard` — a rectangle of boxes addressed by (column, row) (Iron & Oak).
* :class:`ZoneBoard` — players seated in a circle, each with named zones (SHIPS & TACTICS).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from decimal import ROUND_FLOOR, Decimal

from pydantic import BaseModel, ConfigDict, Field, field_validator

Point = tuple[float, float]
Cell = tuple[int, int]

# Upper bound on shortening attempts in ContinuousBoard.step_toward.
_MAX_STEP_BACKS = 64


class ContinuousBoard(BaseModel):
    """A rectangular table with its origin (0, 0) in the bottom-left corner."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    width: float = Field(gt=0, allow_inf_nan=False)
    height: float = Field(gt=0, allow_inf_nan=False)
    unit: str = "cm"

    def contains(self, p: Point) -> bool:
        """True when ``p`` lies on the table; the edges count as on the table."""
        x, y = p
        return 0.0 <= x <= self.width and 0.0 <= y <= self.height

    def distance(self, a: Point, b: Point) -> float:
        """Euclidean distance between two centres (PL-4: range is measured centre to centre)."""
        return math.hypot(b[0] - a[0], b[1] - a[1])

    def clamp(self, p: Point) -> Point:
        """The nearest point on the table to ``p``."""
        x, y = p
        return (min(max(x, 0.0), self.width), min(max(y, 0.0), self.height))

    def step_toward(
        self,
        origin: Point,
        target: Point,
        max_distance: float,
        stop_short: float = 0.0,
        decimals: int = 2,
    ) -> Point:
        """Move straight from ``origin`` toward ``target`` (PL-2).

        The travel is ``min(max_distance, distance - stop_short)``, never negative and never
        past the target. The result is rounded to ``decimals`` places and kept on the table
        (PL-2: table edges). After rounding, ``distance(origin, result) <= max_distance`` is
        guaranteed: on overshoot the travel is shortened one unit of the last decimal at a
        time. A zero move, or one where no rounded point qualifies (an origin off the
        rounding grid with a tiny allowance), returns the origin unchanged.
        """
        if not self.contains(origin):
            raise ValueError(f"origin {origin} is off the board")
        if not math.isfinite(max_distance) or max_distance < 0:
            raise ValueError(f"max_distance must be finite and >= 0, got {max_distance}")
        if not math.isfinite(stop_short) or stop_short < 0:
            raise ValueError(f"stop_short must be finite and >= 0, got {stop_short}")
        if decimals < 0:
            raise ValueError(f"decimals must be >= 0, got {decimals}")

        gap = self.distance(origin, target)
        travel = max(0.0, min(max_distance, gap - stop_short))
        if travel == 0.0 or gap == 0.0:
            return origin
        ux = (target[0] - origin[0]) / gap
        uy = (target[1] - origin[1]) / gap
        quantum = 10.0**-decimals
        # Largest rounded coordinates that are still on the table.
        max_x = _floor_to(self.width, decimals)
        max_y = _floor_to(self.height, decimals)

        # Overshoot from rounding is under one quantum, so a few steps back suffice; the cap
        # only guards against quanta too small to change a huge float.
        for _ in range(_MAX_STEP_BACKS):
            if travel <= 0.0:
                break
            x = round(origin[0] + ux * travel, decimals)
            y = round(origin[1] + uy * travel, decimals)
            candidate = (min(max(x, 0.0), max_x), min(max(y, 0.0), max_y))
            if self.distance(origin, candidate) <= max_distance:
                return candidate
            travel -= quantum
        # Rounding the origin itself may already break the limit; staying put never does.
        candidate = (round(origin[0], decimals), round(origin[1], decimals))
        candidate = (min(max(candidate[0], 0.0), max_x), min(max(candidate[1], 0.0), max_y))
        if self.distance(origin, candidate) <= max_distance:
            return candidate
        return origin


def _floor_to(value: float, decimals: int) -> float:
    """``value`` rounded down to ``decimals`` places, computed exactly in decimal."""
    quantum = Decimal(1).scaleb(-decimals)
    return float(Decimal(repr(value)).quantize(quantum, rounding=ROUND_FLOOR))


# Offsets of the 8-neighbourhood, in the stable order used by GridBoard.neighbours.
_NEIGHBOUR_OFFSETS: tuple[Cell, ...] = tuple(
    (dc, dr) for dc in (-1, 0, 1) for dr in (-1, 0, 1) if (dc, dr) != (0, 0)
)


class GridBoard(BaseModel):
    """A rectangle of boxes; a cell is (column, row), both 0-based."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    columns: int = Field(gt=0)
    rows: int = Field(gt=0)

    def contains(self, c: Cell) -> bool:
        """True when ``c`` is a box of this board."""
        col, row = c
        return 0 <= col < self.columns and 0 <= row < self.rows

    def distance(self, a: Cell, b: Cell) -> int:
        """Chebyshev distance (IO-6.1: same box 0, adjacent 1, two away 2)."""
        return max(abs(a[0] - b[0]), abs(a[1] - b[1]))

    def neighbours(self, c: Cell) -> list[Cell]:
        """The up-to-8 boxes around ``c`` on the board, ordered by column then row offset."""
        col, row = c
        around = ((col + dc, row + dr) for dc, dr in _NEIGHBOUR_OFFSETS)
        return [n for n in around if self.contains(n)]

    def is_diagonal_step(self, a: Cell, b: Cell) -> bool:
        """True when ``b`` is diagonally adjacent to ``a``."""
        return abs(a[0] - b[0]) == 1 and abs(a[1] - b[1]) == 1

    def validate_path(self, path: Sequence[Cell], max_steps: int, max_diagonals: int) -> str | None:
        """Check a move; ``path`` starts with the current box.

        Every step must go to a neighbouring box on the board, there may be at most
        ``max_steps`` steps, and at most ``max_diagonals`` of them diagonal (IO-5.0: one
        diagonal per turn). Returns None when valid, else a short reason naming the step.
        """
        if not path:
            return "path is empty"
        start = tuple(path[0])
        if not self.contains(path[0]):
            return f"start box {start} is off the board"
        diagonals = 0
        for i in range(1, len(path)):
            a, b = path[i - 1], path[i]
            step = f"step {i} {tuple(a)}->{tuple(b)}"
            if i > max_steps:
                return f"{step} exceeds the maximum of {max_steps} steps"
            if not self.contains(b):
                return f"{step} leaves the board"
            if self.distance(a, b) != 1:
                return f"{step} is not to a neighbouring box"
            if self.is_diagonal_step(a, b):
                diagonals += 1
                if diagonals > max_diagonals:
                    return f"{step} exceeds the maximum of {max_diagonals} diagonal steps"
        return None

    def diagonal_squeeze(self, a: Cell, b: Cell, occupied_by_enemy: Callable[[Cell], bool]) -> bool:
        """True when the diagonal step a->b squeezes between two enemy-held boxes (IO-5.1.6).

        The two boxes flanking a diagonal step are (a.column, b.row) and (b.column, a.row);
        the step is forbidden only when both hold enemies. Orthogonal steps never squeeze.
        """
        if not self.is_diagonal_step(a, b):
            return False
        return occupied_by_enemy((a[0], b[1])) and occupied_by_enemy((b[0], a[1]))


class ZoneBoard(BaseModel):
    """Players in circular seating order, each with the same set of named zones."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    seats: list[str]
    zones: list[str]

    @field_validator("seats")
    @classmethod
    def _check_seats(cls, seats: list[str]) -> list[str]:
        if len(seats) < 2:
            raise ValueError("a zone board needs at least 2 seats")
        if len(set(seats)) != len(seats):
            raise ValueError("seats must be unique")
        return seats

    @field_validator("zones")
    @classmethod
    def _check_zones(cls, zones: list[str]) -> list[str]:
        if len(set(zones)) != len(zones):
            raise ValueError("zones must be unique")
        return zones

    def _index(self, seat: str) -> int:
        try:
            return self.seats.index(seat)
        except ValueError:
            raise ValueError(f"unknown seat {seat!r}") from None

    def neighbours(self, seat: str) -> tuple[str, str]:
        """(left, right) of ``seat``: the previous and next seats, wrapping around.

        With two players both neighbours are the other player.
        """
        i = self._index(seat)
        n = len(self.seats)
        return self.seats[(i - 1) % n], self.seats[(i + 1) % n]

    def line_targets(self, centre: str) -> list[str]:
        """Seats hit by a line weapon aimed at ``centre`` (ST-3.1: centre and both neighbours).

        Deduplicated, in seating order starting at the centre's left neighbour.
        """
        left, right = self.neighbours(centre)
        targets: list[str] = []
        for seat in (left, centre, right):
            if seat not in targets:
                targets.append(seat)
        return targets
