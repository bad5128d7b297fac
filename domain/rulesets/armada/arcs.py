"""Firing arcs, attack range and the ruler's bands (SWA-HZ, SWA-RNG, SWA-ATK 1).

* A target is **in arc** when any part of it lies between the attacking zone's extended arc lines,
  the lines included (SWA-HZ).
* Attack range is measured from the closest point of the attacking hull zone to the closest point
  of the defender's part **inside that arc** — a defending hull zone or a squadron's base —
  ignoring any closer part outside the arc (SWA-RNG). Measuring through one of the defender's
  other hull zones leaves the attacker without line of sight (RRG "Measuring Firing Arc and
  Range"); :class:`AttackRange` reports it.
* A band's dividing line belongs to the nearer band (SWA-RNG): a distance equal to a band's edge
  (within :data:`~.geometry.TOLERANCE`) is in that band.

Targets are shapely geometries (a hull-zone polygon, a point) or :class:`~.geometry.Disc` for
squadrons, whose distances are computed exactly from the centre where the whole disc is in arc.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import shapely
from shapely.geometry import LineString

from domain.rulesets.armada.data import RangeBands
from domain.rulesets.armada.geometry import (
    TOLERANCE,
    ZONES,
    Disc,
    PlacedShip,
    Zone,
    crossed,
)

RangeName = Literal["close", "medium", "long", "beyond"]
Target = Any
"""A shapely geometry or a :class:`Disc`."""


def range_band(distance: float, bands: RangeBands) -> RangeName:
    """The range band of ``distance`` mm; an edge belongs to the nearer band (SWA-RNG).
    ``beyond`` is past the ruler: extreme range."""
    edges: tuple[tuple[RangeName, float], ...] = (
        ("close", bands.close),
        ("medium", bands.medium),
        ("long", bands.long),
    )
    for name, edge in edges:
        if distance <= edge + TOLERANCE:
            return name
    return "beyond"


def distance_band(distance: float, edges: Sequence[float]) -> int | None:
    """The distance band 1–5 of ``distance`` mm, or None beyond 5; an edge belongs to the nearer
    band (SWA-RNG)."""
    for band, edge in enumerate(edges, start=1):
        if distance <= edge + TOLERANCE:
            return band
    return None


def distance_between(a: Target, b: Target) -> float:
    """Closest point to closest point (RRG: non-attack range and distance); discs exactly."""
    if isinstance(a, Disc) and isinstance(b, Disc):
        gap = math.dist(a.centre, b.centre) - a.radius - b.radius
        return max(0.0, gap)
    shrink = 0.0
    if isinstance(a, Disc):
        a, shrink = a.point, shrink + a.radius
    if isinstance(b, Disc):
        b, shrink = b.point, shrink + b.radius
    return max(0.0, float(shapely.distance(a, b)) - shrink)


def in_arc(attacker: PlacedShip, zone: Zone, target: Target) -> bool:
    """Whether any part of ``target`` lies in the firing arc of ``attacker``'s ``zone``, the arc
    lines included (SWA-HZ)."""
    arc = attacker.arc(zone)
    if isinstance(target, Disc):
        return float(shapely.distance(arc, target.point)) <= target.radius + TOLERANCE
    return bool(shapely.dwithin(arc, target, TOLERANCE))


def _disc_inside(arc: Any, disc: Disc) -> bool:
    return bool(arc.covers(disc.point)) and (
        float(shapely.distance(arc.exterior, disc.point)) >= disc.radius
    )


def part_in_arc(attacker: PlacedShip, zone: Zone, target: Target) -> Any:
    """The part of ``target`` inside the arc (SWA-RNG: only this part counts for range); empty
    when the target is out of arc, a point or line when it only touches an arc line."""
    arc = attacker.arc(zone)
    if isinstance(target, Disc):
        if _disc_inside(arc, target):
            return target.polygon()
        target = target.polygon()
    part = arc.intersection(target)
    if part.is_empty and shapely.dwithin(arc, target, TOLERANCE):
        # touching the line within the tolerance: the target's point nearest the arc
        return shapely.get_point(shapely.shortest_line(target, arc), 0)
    return part


@dataclass(frozen=True)
class AttackRange:
    """A measured attack: ``line`` runs from the attacking zone's closest point to the closest
    point of the defender's part in arc; ``through_other_zone`` is True when it crosses one of
    the defender's other hull zones, which leaves the attacker without line of sight."""

    distance: float
    band: RangeName
    line: Any
    through_other_zone: bool = False


def _closest(zone_poly: Any, target: Any) -> Any:
    return shapely.shortest_line(zone_poly, target)


def squadron_attack_range(
    attacker: PlacedShip, zone: Zone, squadron: Disc, bands: RangeBands
) -> AttackRange | None:
    """Range from ``attacker``'s ``zone`` to a squadron, measuring only to the part of its base
    inside the arc (SWA-RNG); None when it is out of arc."""
    if not in_arc(attacker, zone, squadron):
        return None
    zone_poly = attacker.zone(zone)
    if _disc_inside(attacker.arc(zone), squadron):
        to_centre = _closest(zone_poly, squadron.point)
        (ax, ay), (cx, cy) = to_centre.coords
        gap = float(to_centre.length)
        distance = max(0.0, gap - squadron.radius)
        if gap > 0:
            t = distance / gap
            line = LineString([(ax, ay), (ax + (cx - ax) * t, ay + (cy - ay) * t)])
        else:
            line = LineString([(ax, ay), (ax, ay)])
        return AttackRange(distance, range_band(distance, bands), line)
    line = _closest(zone_poly, part_in_arc(attacker, zone, squadron))
    distance = float(line.length)
    return AttackRange(distance, range_band(distance, bands), line)


def ship_attack_range(
    attacker: PlacedShip,
    zone: Zone,
    defender: PlacedShip,
    defending_zone: Zone,
    bands: RangeBands,
) -> AttackRange | None:
    """Range from ``attacker``'s ``zone`` to ``defender``'s ``defending_zone``, measuring only
    to the part of that zone inside the arc (SWA-RNG); None when the zone is out of arc. The
    result says whether the measurement crosses another of the defender's zones."""
    target = defender.zone(defending_zone)
    if not in_arc(attacker, zone, target):
        return None
    line = _closest(attacker.zone(zone), part_in_arc(attacker, zone, target))
    distance = float(line.length)
    others = [z for z in ZONES if z != defending_zone]
    through = any(crossed(line, [defender.zone_interiors[z] for z in others]))
    return AttackRange(distance, range_band(distance, bands), line, through)
