"""Armada ship geometry: poses, bases, tokens, hull zones, firing arcs, targeting points, discs.

Coordinates are millimetres on the play area with the origin in the bottom-left corner (as
:class:`domain.board.ContinuousBoard`). A ship's :class:`Pose` is the centre of its base (which is
also the centre of its token) and its heading in degrees **clockwise from +y** (0° faces the far
edge, 90° faces +x, like a compass). Each hull is first drawn in its own frame — origin at the
base centre, +y forward, +x to starboard (right) — and then placed with the pose.

From the token's four printed arc lines (SWA-HZ; measured values in ``ships.json``):

* each **firing arc** is the area between the two arc lines bordering its hull zone, extended
  outward without end (clipped at :data:`FAR`, far beyond any play area); it includes the lines;
* the **hull zones** split the token along those lines: front and rear are the parts of the token
  inside the front and rear arcs (where a measured token has the rear lines meeting the centreline
  slightly ahead of the front ones, the sliver in both goes to the front zone), left and right are
  the rest on either side of the centreline. Zones that share an arc line are adjacent.

Everything is built with shapely 2; nothing here knows the rules beyond the shapes. Predicates
treat anything within :data:`TOLERANCE` of a line as on it, so floating-point noise never decides
a rule question.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any, Literal

import numpy as np
import shapely
from shapely import affinity
from shapely.geometry import LineString, Point, Polygon, box

from domain.rulesets.armada.data import HullGeometry, ObstacleShape, Size

Coord = tuple[float, float]
Zone = Literal["front", "right", "rear", "left"]
ZONES: tuple[Zone, ...] = ("front", "right", "rear", "left")
ADJACENT: Mapping[Zone, frozenset[Zone]] = {
    "front": frozenset({"left", "right"}),
    "right": frozenset({"front", "rear"}),
    "rear": frozenset({"left", "right"}),
    "left": frozenset({"front", "rear"}),
}
"""Zones sharing an arc line (SWA-HZ): left and right never touch along a line."""

TOLERANCE = 1e-5
"""mm: closer than this counts as touching (on a line, at a band edge, not overlapping)."""
POSE_DECIMALS = 6
"""Poses computed here are rounded to 1e-6 mm, so they serialise stably."""
HEADING_DECIMALS = 9
FAR = 10_000.0
"""mm: firing arcs are drawn this far out (10 m, beyond any play area)."""
DISC_SEGMENTS = 32
"""Quarter-circle segments of a disc drawn as a polygon (chord error 0.0052 mm at r = 17 mm)."""


def adjacent(a: Zone, b: Zone) -> bool:
    """Whether two hull zones share an arc line (SWA-HZ)."""
    return b in ADJACENT[a]


# --------------------------------------------------------------------------- poses


def _cos_sin(degrees: float) -> tuple[float, float]:
    """cos and sin of an angle, exact at multiples of 90°."""
    quarter, rest = divmod(degrees % 360.0, 90.0)
    if rest == 0.0:
        return ((1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0))[int(quarter)]
    rad = math.radians(degrees)
    return math.cos(rad), math.sin(rad)


@dataclass(frozen=True)
class Pose:
    """Where a ship stands: base centre ``(x, y)`` in mm and ``heading`` in degrees clockwise
    from +y, kept in [0, 360)."""

    x: float
    y: float
    heading: float = 0.0

    def __post_init__(self) -> None:
        isfinite = math.isfinite
        if not (isfinite(self.x) and isfinite(self.y) and isfinite(self.heading)):
            raise ValueError(f"a pose needs finite numbers, got {self}")
        object.__setattr__(self, "heading", self.heading % 360.0)

    @property
    def position(self) -> Coord:
        return (self.x, self.y)

    def rounded(self) -> Pose:
        """The pose rounded to :data:`POSE_DECIMALS` (heading to 1e-9°), for stable JSON."""
        heading = round(self.heading, HEADING_DECIMALS) % 360.0
        return Pose(round(self.x, POSE_DECIMALS), round(self.y, POSE_DECIMALS), heading)

    def matrix(self) -> list[float]:
        """The shapely affine matrix ``[a, b, d, e, xoff, yoff]`` from the ship's frame."""
        return list(self._matrix)

    @cached_property
    def _matrix(self) -> tuple[float, float, float, float, float, float]:
        # once per pose: the bot places a pose's corners and points many times
        cos, sin = _cos_sin(self.heading)
        return (cos, sin, -sin, cos, self.x, self.y)

    def to_world(self, local: Coord) -> Coord:
        """A point of the ship's frame (+y forward, +x starboard) on the play area."""
        a, b, d, e, xoff, yoff = self._matrix
        lx, ly = local
        return (a * lx + b * ly + xoff, d * lx + e * ly + yoff)

    def place(self, geometry: Any) -> Any:
        """A shapely geometry of the ship's frame, moved onto the play area."""
        return affinity.affine_transform(geometry, self.matrix())


# --------------------------------------------------------------------------- discs


@dataclass(frozen=True)
class Disc:
    """A squadron base: a disc of ``radius`` mm around ``centre`` (SWA-HZ: 360° arc)."""

    centre: Coord
    radius: float

    def __post_init__(self) -> None:
        if not self.radius > 0:
            raise ValueError(f"a disc needs a positive radius, got {self.radius}")

    @cached_property
    def point(self) -> Any:
        return Point(self.centre)

    def polygon(self, quad_segs: int = DISC_SEGMENTS) -> Any:
        """The disc as a polygon inscribed in the circle (for drawing and clipping)."""
        return self.point.buffer(self.radius, quad_segs=quad_segs)


# --------------------------------------------------------------------------- hull templates


def _half_plane(p: Coord, q: Coord, toward: Coord) -> Any:
    """The side of the line through ``p`` and ``q`` that holds ``toward``, as a large square."""
    ux, uy = q[0] - p[0], q[1] - p[1]
    norm = math.hypot(ux, uy)
    ux, uy = ux / norm, uy / norm
    nx, ny = -uy, ux
    if (toward[0] - p[0]) * nx + (toward[1] - p[1]) * ny < 0:
        nx, ny = -nx, -ny
    a = (p[0] - FAR * ux, p[1] - FAR * uy)
    b = (p[0] + FAR * ux, p[1] + FAR * uy)
    return Polygon([a, b, (b[0] + FAR * nx, b[1] + FAR * ny), (a[0] + FAR * nx, a[1] + FAR * ny)])


def _single_polygon(geometry: Any, what: str) -> Any:
    """The one polygon of ``geometry``, ignoring slivers thinner than the tolerance."""
    parts = [g for g in shapely.get_parts(geometry) if g.geom_type == "Polygon"]
    parts = [g for g in parts if g.area > TOLERANCE]
    if len(parts) != 1:
        raise ValueError(f"{what} is not a single polygon ({len(parts)} parts)")
    return parts[0]


@dataclass(frozen=True)
class HullTemplate:
    """One hull's shapes in its own frame (origin at the base centre, +y forward)."""

    hull_id: str
    base: Any
    token: Any
    zones: Mapping[Zone, Any]
    arcs: Mapping[Zone, Any]
    targeting: Mapping[Zone, Coord]
    arc_lines: Mapping[str, Any]
    """The printed lines on the token: ``front_left``, ``front_right``, ``rear_left``,
    ``rear_right``, each from the centreline to the token edge."""


@lru_cache(maxsize=64)
def hull_template(hull: HullGeometry, base: Size) -> HullTemplate:
    """Build the zones, arcs and targeting points of ``hull`` on a base of ``base`` size.

    Raises:
        ValueError: the measured lines do not split the token into four zones, or a targeting
            point lies outside its zone.
    """
    w, half_len = hull.token.width / 2, hull.token.length / 2
    token = box(-w, -half_len, w, half_len)
    base_poly = box(-base.width / 2, -base.length / 2, base.width / 2, base.length / 2)

    def on_token(offset: float, from_front: float) -> Coord:
        return (offset, half_len - from_front)

    f_c = on_token(0.0, hull.front_arc.centre)
    f_l, f_r = on_token(-w, hull.front_arc.side), on_token(w, hull.front_arc.side)
    r_c = on_token(0.0, hull.rear_arc.centre)
    r_l, r_r = on_token(-w, hull.rear_arc.side), on_token(w, hull.rear_arc.side)
    ahead, behind = (0.0, FAR / 2), (0.0, -FAR / 2)

    arcs: dict[Zone, Any] = {
        "front": _half_plane(f_c, f_l, ahead).intersection(_half_plane(f_c, f_r, ahead)),
        "rear": _half_plane(r_c, r_l, behind).intersection(_half_plane(r_c, r_r, behind)),
        "left": _half_plane(f_c, f_l, behind).intersection(_half_plane(r_c, r_l, ahead)),
        "right": _half_plane(f_c, f_r, behind).intersection(_half_plane(r_c, r_r, ahead)),
    }
    front = _single_polygon(token.intersection(arcs["front"]), f"{hull.id}: front zone")
    rear = _single_polygon(
        token.intersection(arcs["rear"]).difference(front), f"{hull.id}: rear zone"
    )
    middle = token.difference(front).difference(rear)
    zones: dict[Zone, Any] = {
        "front": front,
        "right": _single_polygon(
            middle.intersection(box(0, -half_len, w, half_len)), f"{hull.id}: right zone"
        ),
        "rear": rear,
        "left": _single_polygon(
            middle.intersection(box(-w, -half_len, 0, half_len)), f"{hull.id}: left zone"
        ),
    }
    side_offset, side_from_front = hull.targeting.side
    targeting: dict[Zone, Coord] = {
        "front": on_token(0.0, hull.targeting.front),
        "right": on_token(side_offset, side_from_front),
        "rear": on_token(0.0, hull.targeting.rear),
        "left": on_token(-side_offset, side_from_front),
    }
    for zone in ZONES:
        if not zones[zone].covers(Point(targeting[zone])):
            raise ValueError(f"{hull.id}: the {zone} targeting point lies outside its zone")
    lines = {
        "front_left": LineString([f_c, f_l]),
        "front_right": LineString([f_c, f_r]),
        "rear_left": LineString([r_c, r_l]),
        "rear_right": LineString([r_c, r_r]),
    }
    return HullTemplate(hull.id, base_poly, token, zones, arcs, targeting, lines)


# --------------------------------------------------------------------------- placed ships


@dataclass(frozen=True)
class PlacedShip:
    """A hull at a pose: every shape on the play area (computed on first use)."""

    template: HullTemplate
    pose: Pose

    @cached_property
    def base(self) -> Any:
        """The plastic base (overlaps, the play-area edge, obstruction of others' attacks)."""
        return self.pose.place(self.template.base)

    @cached_property
    def token(self) -> Any:
        """The printed token (the four hull zones together)."""
        return self.pose.place(self.template.token)

    @cached_property
    def zones(self) -> Mapping[Zone, Any]:
        return {zone: self.pose.place(poly) for zone, poly in self.template.zones.items()}

    @cached_property
    def zone_interiors(self) -> Mapping[Zone, Any]:
        """Each zone shrunk by :data:`TOLERANCE`: a line crossing one really enters the zone."""
        return {zone: shrink(poly) for zone, poly in self.zones.items()}

    @cached_property
    def arcs(self) -> Mapping[Zone, Any]:
        """Firing arcs (prepared: they are tested against many targets)."""
        placed = {zone: self.pose.place(poly) for zone, poly in self.template.arcs.items()}
        for poly in placed.values():
            shapely.prepare(poly)
        return placed

    @cached_property
    def targeting_points(self) -> Mapping[Zone, Coord]:
        return {zone: self.pose.to_world(p) for zone, p in self.template.targeting.items()}

    @cached_property
    def arc_lines(self) -> Mapping[str, Any]:
        return {name: self.pose.place(line) for name, line in self.template.arc_lines.items()}

    def zone(self, zone: Zone) -> Any:
        return self.zones[zone]

    def arc(self, zone: Zone) -> Any:
        return self.arcs[zone]

    def targeting_point(self, zone: Zone) -> Coord:
        return self.targeting_points[zone]


def place_ship(hull: HullGeometry, base: Size, pose: Pose) -> PlacedShip:
    """``hull`` on a ``base``-sized base at ``pose``.

    Raises:
        ValueError: the hull's measured lines do not make four zones (see :func:`hull_template`).
    """
    return PlacedShip(hull_template(hull, base), pose)


# --------------------------------------------------------------------------- obstacles


def place_obstacle(shape: ObstacleShape, pose: Pose, flipped: bool = False) -> Any:
    """An obstacle token's outline on the play area: its origin at ``pose``'s position, turned
    clockwise by ``pose.heading``, mirrored left-to-right first when ``flipped`` (face down)."""
    outline = Polygon([(-x, y) if flipped else (x, y) for x, y in shape.outline])
    return pose.place(outline)


# --------------------------------------------------------------------------- shared predicates


_SHRUNK: dict[int, tuple[Any, Any, tuple[float, float, float, float]]] = {}
_SHRUNK_LIMIT = 4096


def shrink(polygon: Any) -> Any:
    """``polygon`` shrunk by :data:`TOLERANCE` (its interior, give or take floating noise).
    Remembered per polygon object (the same obstacle or base is tested again and again); the
    polygon is kept with its result, so an id is never reused while remembered."""
    return shrunk_with_bounds(polygon)[0]


def shrunk_with_bounds(polygon: Any) -> tuple[Any, tuple[float, float, float, float]]:
    """:func:`shrink`'s polygon and its bounding box ``(minx, miny, maxx, maxy)``, remembered
    together."""
    found = _SHRUNK.get(id(polygon))
    if found is not None and found[0] is polygon:
        return found[1], found[2]
    if len(_SHRUNK) >= _SHRUNK_LIMIT:
        _SHRUNK.clear()
    result = shapely.buffer(polygon, -TOLERANCE, join_style="mitre")
    bounds = tuple(float(v) for v in shapely.bounds(result))
    _SHRUNK[id(polygon)] = (polygon, result, bounds)  # type: ignore[assignment]
    return result, bounds  # type: ignore[return-value]


def crossed(line: Any, interiors: list[Any]) -> list[bool]:
    """For each shrunk polygon (see :func:`shrink`), whether ``line`` enters it: touching a
    boundary or running along it does not count. One vectorised shapely call."""
    if not interiors:
        return []
    hits = shapely.intersects(line, np.asarray(interiors, dtype=object))
    return [bool(hit) for hit in hits]
