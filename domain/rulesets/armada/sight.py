"""Line of sight (SWA-ATK 1; RRG "Line of Sight", "Obstructed").

Sight is traced from the attacking hull zone's targeting point, or a squadron's base centre, to
the defending hull zone's targeting point or squadron's base centre.

* **Blocked:** the line enters one of the defender's hull zones other than the defending one.
  The attacker has no line of sight and must choose another target. A line that only grazes such
  a zone — touches its corner or runs along its arc line — does not enter it (Wake's reading;
  nothing closer than :data:`~.geometry.TOLERANCE` counts). The attacker's own zones never block.
* **Obstructed:** the line crosses an obstacle token, or the base of a ship that is neither the
  attacker nor the defender; the attacker then removes one die (SWA-ATK 2). Squadrons never
  obstruct. Only the line's visible part counts: the part over the attacker's and the defender's
  own tokens is ignored, so an obstacle hidden under either ship does not obstruct (RRG).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from shapely.geometry import LineString

from domain.rulesets.armada.geometry import (
    ZONES,
    Coord,
    PlacedShip,
    Zone,
    crossed,
    shrunk_with_bounds,
)


@dataclass(frozen=True)
class Sight:
    """A traced line of sight and what it crosses."""

    line: Any
    blocked_by: tuple[Zone, ...] = ()
    obstructed_by: tuple[str, ...] = ()

    @property
    def clear(self) -> bool:
        """True when the attacker has line of sight (no non-defending zone in the way)."""
        return not self.blocked_by

    @property
    def obstructed(self) -> bool:
        return bool(self.obstructed_by)


def trace(
    start: Coord,
    end: Coord,
    *,
    defender: PlacedShip | None = None,
    defending_zone: Zone | None = None,
    obstacles: Mapping[str, Any] | None = None,
    ships: Mapping[str, Any] | None = None,
    hidden: Sequence[Any] = (),
) -> Sight:
    """Trace sight from ``start`` to ``end``.

    ``defender`` and ``defending_zone`` name the defending ship and zone (leave both out for a
    squadron defender). ``obstacles`` are obstacle polygons and ``ships`` the bases of ships other
    than the attacker and defender, each by id. ``hidden`` are shapes the line may pass under
    without being obstructed there (the attacking and defending ships' tokens).

    Raises:
        ValueError: only one of ``defender`` and ``defending_zone`` is given.
    """
    if (defender is None) != (defending_zone is None):
        raise ValueError("give both the defender and its defending zone, or neither")
    line = LineString([start, end])
    blocked: tuple[Zone, ...] = ()
    if defender is not None:
        others = [z for z in ZONES if z != defending_zone]
        hits = crossed(line, [defender.zone_interiors[z] for z in others])
        blocked = tuple(z for z, hit in zip(others, hits, strict=True) if hit)
    names, shapes = _candidates(start, end, obstacles, ships)
    obstructed: tuple[str, ...] = ()
    if shapes:  # without a shape near the line, nothing to cut or cross
        visible = line
        for shape in hidden:
            visible = visible.difference(shape)
        if not visible.is_empty:
            hits = crossed(visible, shapes)
            obstructed = tuple(n for n, hit in zip(names, hits, strict=True) if hit)
    return Sight(line, blocked, obstructed)


def obstructed_between(
    start: Coord,
    end: Coord,
    *,
    obstacles: Mapping[str, Any] | None = None,
    ships: Mapping[str, Any] | None = None,
) -> bool:
    """``trace(start, end, obstacles=..., ships=...).obstructed`` (no defender, nothing
    hidden), without building the line when no shape lies near it."""
    _, shapes = _candidates(start, end, obstacles, ships)
    return bool(shapes) and any(crossed(LineString([start, end]), shapes))


def _candidates(
    start: Coord,
    end: Coord,
    obstacles: Mapping[str, Any] | None,
    ships: Mapping[str, Any] | None,
) -> tuple[list[str], list[Any]]:
    """The shrunk obstacles, then the shrunk ship bases, each group by name, that the segment
    from ``start`` to ``end`` may cross: a shape whose bounding box is apart from the
    segment's cannot meet it (nor any part of it), so it is left out before shapely's test."""
    x0, x1 = (start[0], end[0]) if start[0] <= end[0] else (end[0], start[0])
    y0, y1 = (start[1], end[1]) if start[1] <= end[1] else (end[1], start[1])
    names: list[str] = []
    shapes: list[Any] = []
    for group in (obstacles or {}, ships or {}):
        for name in sorted(group):
            shape, (minx, miny, maxx, maxy) = shrunk_with_bounds(group[name])
            if maxx < x0 or minx > x1 or maxy < y0 or miny > y1:
                continue
            names.append(name)
            shapes.append(shape)
    return names, shapes


def ship_to_ship(
    attacker: PlacedShip,
    zone: Zone,
    defender: PlacedShip,
    defending_zone: Zone,
    *,
    obstacles: Mapping[str, Any] | None = None,
    ships: Mapping[str, Any] | None = None,
) -> Sight:
    """Sight between two targeting points (SWA-ATK 1); ``ships`` are the other ships' bases."""
    return trace(
        attacker.targeting_point(zone),
        defender.targeting_point(defending_zone),
        defender=defender,
        defending_zone=defending_zone,
        obstacles=obstacles,
        ships=ships,
        hidden=(attacker.token, defender.token),
    )
