"""Armada geometry as plain read-model shapes, for the generic viewer (design note 12).

Everything is built from :mod:`.geometry` with shapely and rounded to :data:`DECIMALS` (0.1 mm),
so a read model stays small and JSON-stable:

* :func:`ship_shapes`: a ship's base outline (``base``), its four hull zones (``zone``, each
  labelled with that zone's shields now), its four printed arc lines drawn out to close range
  (``arc``, so the firing arcs show) and a small triangle ahead of the base (``heading``). A
  destroyed ship keeps only its base outline.
* :func:`squadron_shapes`: a squadron's base as a circle of the data's radius.
* :func:`obstacle_features`: the scenario's obstacle tokens as board features.
* :func:`sight_overlay`, :func:`range_overlay`, :func:`path_overlay`: overlays for an attack's
  line of sight and range band and a maneuver's path, built from the geometry layer's own
  results (``sight.Sight``, a ``PlacedShip``'s zone and arc, ``maneuver.Maneuver``), for
  ``view.overlays`` to return while the state has an attack or a maneuver to show.

Shapes of a ship depend only on its hull, base, pose and shields; they are cached, because the
viewer builds a read model after every event of a game.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from shapely import affinity
from shapely.geometry import Polygon

from domain.read_model import Detail, FeatureView, OverlayView, Point, ShapeStyle, ShapeView
from domain.rulesets.armada.data import HullGeometry, ObstacleSet, ObstacleShape, Size
from domain.rulesets.armada.geometry import (
    ZONES,
    PlacedShip,
    Pose,
    Zone,
    place_obstacle,
    place_ship,
)
from domain.rulesets.armada.maneuver import Maneuver
from domain.rulesets.armada.scenario import ObstacleSetup
from domain.rulesets.armada.sight import Sight

DECIMALS = 1
"""Coordinates in a read model are rounded to 0.1 mm."""
HEADING_GAP = 1.5
"""mm between the base's front edge and the heading marker."""
HEADING_HALF_WIDTH = 0.2
HEADING_DEPTH = 0.25
"""The heading marker's half-width and depth, as fractions of the base's width."""


def _pt(x: float, y: float) -> Point:
    return (round(float(x), DECIMALS), round(float(y), DECIMALS))


def _coords(coords: Iterable[Any]) -> list[Point]:
    """Rounded points, consecutive duplicates (after rounding) dropped."""
    out: list[Point] = []
    for x, y, *_ in coords:
        p = _pt(x, y)
        if not out or out[-1] != p:
            out.append(p)
    return out


def ring(polygon: Any) -> list[Point]:
    """A shapely polygon's exterior ring, rounded, the closing point not repeated."""
    points = _coords(polygon.exterior.coords)
    if len(points) > 1 and points[0] == points[-1]:
        points.pop()
    return points


def line(linestring: Any) -> list[Point]:
    """A shapely line's points, rounded."""
    return _coords(linestring.coords)


# --------------------------------------------------------------------------- ships


@lru_cache(maxsize=4096)
def _outline(
    hull: HullGeometry, base: Size, pose: Pose, reach: float
) -> tuple[tuple[str, ShapeStyle, tuple[Point, ...], bool], ...]:
    """(part, style, points, closed) of every shape of a ship at ``pose``, zones in ``ZONES``
    order right after the base."""
    placed = place_ship(hull, base, pose)
    parts: list[tuple[str, ShapeStyle, tuple[Point, ...], bool]] = [
        ("base", "base", tuple(ring(placed.base)), True)
    ]
    parts += [(zone, "zone", tuple(ring(placed.zones[zone])), True) for zone in ZONES]
    for name, local in placed.template.arc_lines.items():
        # the printed line runs from the centreline to the token's edge: extend it by `reach`
        start = local.coords[0]
        factor = (local.length + reach) / local.length
        far = affinity.scale(local, xfact=factor, yfact=factor, origin=start)
        parts.append((f"arc {name}", "arc", tuple(line(pose.place(far))), False))
    front = base.length / 2 + HEADING_GAP
    half, depth = base.width * HEADING_HALF_WIDTH, base.width * HEADING_DEPTH
    marker = Polygon([(-half, front), (half, front), (0.0, front + depth)])
    parts.append(("heading", "heading", tuple(ring(pose.place(marker))), True))
    return tuple(parts)


@lru_cache(maxsize=8192)
def _ship_shapes(
    hull: HullGeometry,
    base: Size,
    pose: Pose,
    reach: float,
    shields: tuple[int, ...] | None,
) -> tuple[ShapeView, ...]:
    outline = _outline(hull, base, pose, reach)
    if shields is None:  # destroyed: the base only
        part, style, points, closed = outline[0]
        return (ShapeView(part=part, style=style, points=list(points), closed=closed),)
    labels: dict[str, str] = {z: str(n) for z, n in zip(ZONES, shields, strict=True)}
    return tuple(
        ShapeView(
            part=part,
            style=style,
            points=list(points),
            closed=closed,
            label=labels.get(part, "") if style == "zone" else "",
        )
        for part, style, points, closed in outline
    )


def ship_shapes(
    hull: HullGeometry,
    base: Size,
    pose: Pose,
    shields: dict[Zone, int],
    *,
    reach: float,
    destroyed: bool = False,
) -> list[ShapeView]:
    """A ship's shapes at ``pose``: base, the four hull zones labelled with ``shields``, the
    arc lines drawn ``reach`` mm beyond the token, the heading marker. A destroyed ship: its
    base only."""
    key = None if destroyed else tuple(shields[z] for z in ZONES)
    return list(_ship_shapes(hull, base, pose, reach, key))


def squadron_shapes(centre: tuple[float, float], radius: float) -> list[ShapeView]:
    """A squadron's base: a circle (SWA-HZ: it has a 360° arc, so no zones)."""
    return [ShapeView(part="base", style="base", centre=_pt(*centre), radius=radius)]


# --------------------------------------------------------------------------- obstacles


_OBSTACLES: dict[tuple[Any, ...], tuple[Point, ...]] = {}
_OBSTACLES_MAX = 1024


def _obstacle_ring(shape: ObstacleShape, setup: ObstacleSetup) -> tuple[Point, ...]:
    """The placed outline, cached by everything it depends on (obstacles never move)."""
    key = (tuple(shape.outline), setup.x, setup.y, setup.heading, setup.flipped)
    found = _OBSTACLES.get(key)
    if found is None:
        if len(_OBSTACLES) >= _OBSTACLES_MAX:
            _OBSTACLES.clear()
        pose = Pose(setup.x, setup.y, setup.heading)
        found = _OBSTACLES[key] = tuple(ring(place_obstacle(shape, pose, setup.flipped)))
    return found


def obstacle_features(setups: Iterable[ObstacleSetup], shapes: ObstacleSet) -> list[FeatureView]:
    """The obstacle tokens on the play area, each labelled with its kind (SWA-OVL)."""
    features = []
    for setup in setups:
        shape = shapes.get(setup.shape)
        points = _obstacle_ring(shape, setup)
        features.append(
            FeatureView(
                id=setup.id,
                name=shape.name,
                kind=shape.kind,
                label=shape.kind,
                points=list(points),
                details={"shape": shape.id, "flipped": setup.flipped},
            )
        )
    return features


# --------------------------------------------------------------------------- overlays


def sight_overlay(
    sight: Sight, attacker: str, defender: str, *, band: str | None = None
) -> OverlayView:
    """An attack's line of sight (SWA-ATK 1), labelled with the range band and what blocks or
    obstructs it."""
    notes = [band or "out of range"]
    if sight.blocked_by:
        notes.append(f"blocked by {', '.join(sight.blocked_by)}")
    if sight.obstructed_by:
        notes.append(f"obstructed by {', '.join(sight.obstructed_by)}")
    details: dict[str, Detail] = {
        "range": band,
        "blocked_by": ", ".join(sight.blocked_by) or None,
        "obstructed_by": ", ".join(sight.obstructed_by) or None,
    }
    return OverlayView(
        kind="line_of_sight",
        points=line(sight.line),
        label="; ".join(notes),
        units=[attacker, defender],
        details=details,
    )


def range_overlay(
    placed: PlacedShip, zone: Zone, reach: float, band: str, unit: str
) -> OverlayView:
    """The area within ``reach`` mm of a hull zone inside its firing arc: a range band (SWA-RNG)
    as a closed outline, e.g. ``reach`` = the close band's edge for ``band`` "close"."""
    area = placed.arc(zone).intersection(placed.zone(zone).buffer(reach, quad_segs=8))
    if area.geom_type != "Polygon":  # a multi-part area cannot happen for a convex arc
        area = area.convex_hull
    return OverlayView(
        kind="range",
        points=ring(area),
        closed=True,
        label=f"{zone} arc, {band}",
        units=[unit],
        details={"zone": zone, "band": band, "reach_mm": reach},
    )


def path_overlay(maneuver: Maneuver, unit: str) -> OverlayView | None:
    """The maneuver tool's centreline from the base to the last guide used (SWA-2.3); None for
    speed 0 (the ship did not move)."""
    if maneuver.centreline.is_empty:
        return None
    clicks = " ".join(f"{c:+d}" for c in maneuver.clicks)
    return OverlayView(
        kind="path",
        points=line(maneuver.centreline),
        label=f"speed {maneuver.speed} ({clicks})",
        units=[unit],
        details={"speed": maneuver.speed, "clicks": clicks, "tool": maneuver.side},
    )
