"""Armada geometry against hand-computed cases (SWA-HZ, SWA-RNG, SWA-ATK 1, SWA-OVL).

Coordinates are mm, origin bottom-left, headings clockwise from +y. The bundled measurements
(AlphArmada) give, in a ship's own frame (origin at the base centre, +y forward):

* Victory token 58.5 × 101.5: front edge y = 50.75; front arc lines from (0, 3.75) to
  (±29.25, 30.5); rear arc lines from (0, 3.75) to (±29.25, −27.25); front targeting point
  (0, 39.35).
* CR90 token 38.5 × 70.25 on a 43 × 71 base; tool 46.13 / 22.27 mm pieces, 15.25 mm wide, 22.5°
  a click, so the tool's notch point is (±29.125, 35.5).
"""

from __future__ import annotations

import math

import pytest
from shapely.geometry import LineString, Point, Polygon, box

from domain.rulesets.armada.arcs import (
    distance_band,
    distance_between,
    in_arc,
    part_in_arc,
    range_band,
    ship_attack_range,
    squadron_attack_range,
)
from domain.rulesets.armada.data import HullGeometry, resolve_data
from domain.rulesets.armada.geometry import (
    ADJACENT,
    ZONES,
    Disc,
    PlacedShip,
    Pose,
    adjacent,
    hull_template,
    place_obstacle,
    place_ship,
)
from domain.rulesets.armada.sight import ship_to_ship, trace

DATA = resolve_data()
GEO = DATA.geometry
BANDS = GEO.range_bands
R = GEO.squadron_base_radius


def ship(hull_id: str, x: float, y: float, heading: float = 0.0) -> PlacedShip:
    hull = DATA.ships.hull(hull_id)
    return place_ship(hull, GEO.base_sizes[hull.size], Pose(x, y, heading))


def close_to(a: tuple[float, float], b: tuple[float, float], tol: float = 1e-6) -> bool:
    return math.hypot(a[0] - b[0], a[1] - b[1]) <= tol


# --------------------------------------------------------------------------- poses, zones


def test_pose_normalises_and_places_exactly_at_right_angles() -> None:
    """Headings are degrees clockwise from +y, kept in [0, 360); quarter turns are exact."""
    assert Pose(0, 0, -90).heading == 270
    assert Pose(0, 0, 720).heading == 0
    east = Pose(100, 50, 90)
    assert east.to_world((0, 10)) == (110, 50)  # forward is +x
    assert east.to_world((10, 0)) == (100, 40)  # starboard is -y
    assert Pose(1.23456789, 2, 22.5).rounded() == Pose(1.234568, 2, 22.5)
    with pytest.raises(ValueError):
        Pose(math.nan, 0)


def test_victory_hull_zones_from_the_arc_lines() -> None:
    """SWA-HZ: the four arc lines split the token into front, left, right and rear zones."""
    t = hull_template(DATA.ships.hull("victory"), GEO.base_sizes["medium"])
    front = Polygon([(-29.25, 50.75), (29.25, 50.75), (29.25, 30.5), (0, 3.75), (-29.25, 30.5)])
    left = Polygon([(0, 3.75), (-29.25, 30.5), (-29.25, -27.25)])
    rear = Polygon(
        [(0, 3.75), (29.25, -27.25), (29.25, -50.75), (-29.25, -50.75), (-29.25, -27.25)]
    )
    assert t.zones["front"].equals(front)
    assert t.zones["left"].equals(left)
    assert t.zones["rear"].equals(rear)
    assert t.zones["right"].equals(Polygon([(0, 3.75), (29.25, 30.5), (29.25, -27.25)]))
    assert sum(z.area for z in t.zones.values()) == pytest.approx(58.5 * 101.5)
    assert t.base.equals(box(-31.5, -51, 31.5, 51))
    assert t.targeting["front"] == (0, 39.35)
    assert t.targeting["left"] == (-19.55, 50.75 - 51.5)


@pytest.mark.parametrize("hull_id", ["victory", "cr90", "nebulon_b"])
def test_every_hull_splits_into_four_zones(hull_id: str) -> None:
    """SWA-HZ: zones cover the token without overlap; zones sharing an arc line are adjacent,
    front/rear and left/right never share one; each targeting point lies in its zone."""
    hull = DATA.ships.hull(hull_id)
    t = hull_template(hull, GEO.base_sizes[hull.size])
    assert sum(z.area for z in t.zones.values()) == pytest.approx(t.token.area)
    for a in ZONES:
        for b in ZONES:
            if a == b:
                continue
            shared = t.zones[a].intersection(t.zones[b])
            assert shared.area == pytest.approx(0, abs=1e-9)
            # an arc line is 25+ mm long; measured lines that cross near the centreline leave
            # non-adjacent zones at most a stub of a shared edge there (Nebulon-B: 1.15 mm)
            assert (shared.length > 10.0) == adjacent(a, b), (a, b)
            assert adjacent(a, b) or shared.length < 2.0
        assert t.zones[a].covers(Point(t.targeting[a]))
    assert ADJACENT["left"] == {"front", "rear"}


def test_a_targeting_point_outside_its_zone_is_refused() -> None:
    """SWA-HZ: measured geometry that puts the front targeting point behind the front zone."""
    hull = DATA.ships.hull("victory")
    bad = HullGeometry.model_validate(
        {**hull.model_dump(), "targeting": {**hull.targeting.model_dump(), "front": 60}}
    )
    with pytest.raises(ValueError, match="front targeting point lies outside its zone"):
        hull_template(bad, GEO.base_sizes["medium"])


def test_placed_ship_turns_with_its_heading() -> None:
    """A Victory facing +x: its front targeting point is 39.35 mm ahead, its right zone south."""
    vsd = ship("victory", 100, 200, 90)
    assert close_to(vsd.targeting_point("front"), (139.35, 200))
    assert close_to(vsd.targeting_point("right"), (99.25, 200 - 19.55))
    assert vsd.base.bounds == pytest.approx((49, 168.5, 151, 231.5))
    assert vsd.zone("right").centroid.y < 200 < vsd.zone("left").centroid.y


# --------------------------------------------------------------------------- arcs and range


def test_a_point_exactly_on_an_arc_line_is_in_both_arcs() -> None:
    """SWA-HZ: arcs include their lines. The Victory at (400, 300) facing +y has its front-left
    line through (400, 303.75) and (370.75, 330.5); four times that step out lies (283, 410.75)."""
    vsd = ship("victory", 400, 300)
    on_line = Point(283, 410.75)
    assert in_arc(vsd, "front", on_line)
    assert in_arc(vsd, "left", on_line)
    assert not in_arc(vsd, "right", on_line)
    assert not in_arc(vsd, "rear", on_line)
    assert in_arc(vsd, "left", Point(282.9, 410.75))
    assert not in_arc(vsd, "front", Point(282.9, 410.75))
    assert in_arc(vsd, "front", Point(283.1, 410.75))
    assert not in_arc(vsd, "left", Point(283.1, 410.75))
    # arcs do not end at the ruler: 3 m out along the same line
    far = Point(400 - 29.25 * 100, 303.75 + 26.75 * 100)
    assert in_arc(vsd, "front", far) and in_arc(vsd, "left", far)
    # a squadron centred on the line is in both arcs; one touching it from outside is in arc
    assert in_arc(vsd, "front", Disc((283, 410.75), R))
    assert in_arc(vsd, "left", Disc((283, 410.75), R))


def test_band_edges_belong_to_the_nearer_band() -> None:
    """SWA-RNG: close ≤ 123.3 < medium ≤ 186.5 < long ≤ 304.8 < beyond; distance 1 ≤ 76.5 …
    5 ≤ 304.8 (AlphArmada's measurements)."""
    assert range_band(0, BANDS) == "close"
    assert range_band(123.3, BANDS) == "close"
    assert range_band(123.31, BANDS) == "medium"
    assert range_band(186.5, BANDS) == "medium"
    assert range_band(186.51, BANDS) == "long"
    assert range_band(304.8, BANDS) == "long"
    assert range_band(304.81, BANDS) == "beyond"
    edges = GEO.distance_bands
    assert [distance_band(d, edges) for d in (0, 76.5, 76.51, 124.5, 185.5, 245.5, 304.8)] == [
        1,
        1,
        2,
        2,
        3,
        4,
        5,
    ]
    assert distance_band(304.81, edges) is None


def test_attack_range_at_a_band_edge_is_the_nearer_band() -> None:
    """SWA-RNG: a Victory's front edge at y = 350.75 and a CR90 facing it whose front edge is
    123.3 mm away (centre y = 350.75 + 123.3 + 35.125): close range; 0.05 mm further: medium."""
    vsd = ship("victory", 400, 300)
    cr90 = ship("cr90", 400, 350.75 + 123.3 + 35.125, 180)
    measured = ship_attack_range(vsd, "front", cr90, "front", BANDS)
    assert measured is not None
    assert measured.distance == pytest.approx(123.3)
    assert measured.band == "close"
    assert not measured.through_other_zone
    further = ship("cr90", 400, 350.75 + 123.35 + 35.125, 180)
    measured = ship_attack_range(vsd, "front", further, "front", BANDS)
    assert measured is not None and measured.band == "medium"
    # a squadron whose base edge is exactly at the close edge, straight ahead
    squadron = Disc((400, 350.75 + 123.3 + R), R)
    sq = squadron_attack_range(vsd, "front", squadron, BANDS)
    assert sq is not None
    assert sq.distance == pytest.approx(123.3)
    assert sq.band == "close"
    assert distance_between(vsd.zone("front"), squadron) == pytest.approx(123.3)


def test_range_ignores_the_closer_part_outside_the_arc() -> None:
    """SWA-RNG: a target line x = 300, y 250..600, beside a Victory at (400, 300). Its closest
    point to the front zone lies in the left arc (70.75 mm away); the part in the front arc starts
    where the front-left line meets x = 300, at y = 303.75 + (100 / 29.25) · 26.75 ≈ 395.20299,
    so the range is measured from the zone's corner (370.75, 350.75): hypot(70.75, 44.45299)."""
    vsd = ship("victory", 400, 300)
    target = LineString([(300, 250), (300, 600)])
    part = part_in_arc(vsd, "front", target)
    lowest = min(y for _, y in part.coords)
    assert lowest == pytest.approx(303.75 + 100 / 29.25 * 26.75)
    distance = vsd.zone("front").distance(part)
    assert distance == pytest.approx(math.hypot(70.75, lowest - 350.75))
    assert distance == pytest.approx(83.5562, abs=1e-4)
    assert vsd.zone("front").distance(target) == pytest.approx(70.75)


def test_squadron_partly_in_arc_measures_only_that_part() -> None:
    """SWA-RNG: a squadron centred on the front-left line (283, 410.75) is half in the front
    arc; the front zone measures to that half, the whole disc is measured from its centre."""
    vsd = ship("victory", 400, 300)
    disc = Disc((283, 410.75), R)
    half = part_in_arc(vsd, "front", disc)
    assert half.area == pytest.approx(disc.polygon().area / 2, rel=1e-3)
    measured = squadron_attack_range(vsd, "front", disc, BANDS)
    assert measured is not None
    assert measured.distance > distance_between(vsd.zone("front"), disc)
    ahead = Disc((400, 500), R)  # wholly in the front arc: exact
    measured = squadron_attack_range(vsd, "front", ahead, BANDS)
    assert measured is not None and measured.distance == pytest.approx(500 - 350.75 - R)
    assert squadron_attack_range(vsd, "rear", ahead, BANDS) is None


def test_range_measured_through_another_zone_is_flagged() -> None:
    """RRG "Measuring Firing Arc and Range": a CR90 behind a Victory aiming at its front zone
    measures through the rear zone (no line of sight); aiming at the rear zone does not."""
    vsd = ship("victory", 400, 400)
    cr90 = ship("cr90", 400, 200)
    to_front = ship_attack_range(cr90, "front", vsd, "front", BANDS)
    assert to_front is not None and to_front.through_other_zone
    assert to_front.distance == pytest.approx(403.75 - 235.125)  # from the front zone's apex
    to_rear = ship_attack_range(cr90, "front", vsd, "rear", BANDS)
    assert to_rear is not None and not to_rear.through_other_zone
    assert to_rear.distance == pytest.approx(400 - 50.75 - 235.125)


# --------------------------------------------------------------------------- line of sight


def test_sight_grazing_a_non_defending_zone_is_not_blocked() -> None:
    """SWA-ATK 1: a line to the Victory's front targeting point T = (400, 339.35) through the
    front-left arc line's end E = (370.75, 330.5) only touches the left zone at E: not blocked.
    The same line from 5 mm lower enters the left zone first: blocked."""
    vsd = ship("victory", 400, 300)
    target = vsd.targeting_point("front")
    assert close_to(target, (400, 339.35))
    end = (370.75, 330.5)
    start = (end[0] - 4 * (target[0] - end[0]), end[1] - 4 * (target[1] - end[1]))
    grazing = trace(start, target, defender=vsd, defending_zone="front")
    assert grazing.clear and grazing.blocked_by == ()
    lower = trace((start[0], start[1] - 5), target, defender=vsd, defending_zone="front")
    assert not lower.clear and lower.blocked_by == ("left",)
    assert trace(start, target, defender=vsd, defending_zone="left").clear is False


def test_third_ship_obstructs_sight() -> None:
    """SWA-ATK 1: a Victory at (200, 200) and a CR90 at (200, 600) facing it; a Nebulon-B across
    the line at (200, 400) obstructs; moved to (300, 400) it does not."""
    vsd = ship("victory", 200, 200)
    cr90 = ship("cr90", 200, 600, 180)
    between = ship("nebulon_b", 200, 400, 90)
    sight = ship_to_ship(vsd, "front", cr90, "front", ships={"neb": between.base})
    assert sight.clear and sight.obstructed and sight.obstructed_by == ("neb",)
    aside = ship("nebulon_b", 300, 400, 90)
    assert not ship_to_ship(vsd, "front", cr90, "front", ships={"neb": aside.base}).obstructed
    assert sight.line.coords[0] == pytest.approx((200, 239.35))
    assert sight.line.coords[1] == pytest.approx((200, 600 - 35.125 + 7.5))


def test_obstacles_obstruct_unless_hidden_under_a_ship() -> None:
    """RRG "Line of Sight": an obstacle between the ships obstructs; one under the attacker's own
    token, crossed only there, does not."""
    vsd = ship("victory", 200, 200)
    cr90 = ship("cr90", 200, 600, 180)
    station = place_obstacle(DATA.obstacles.get("station"), Pose(200, 400))
    assert ship_to_ship(vsd, "front", cr90, "front", obstacles={"station": station}).obstructed
    under = box(190, 242, 210, 248)  # inside the Victory's token (front edge at y = 250.75)
    sight = ship_to_ship(vsd, "front", cr90, "front", obstacles={"debris": under})
    assert not sight.obstructed


# --------------------------------------------------------------------------- obstacles


def test_obstacle_placement() -> None:
    """SWA-OVL: obstacle outlines are placed by their origin, turned and optionally flipped."""
    station = DATA.obstacles.get("station")
    placed = place_obstacle(station, Pose(300, 300, 90))
    assert placed.area == pytest.approx(Polygon(station.outline).area)
    flipped = place_obstacle(station, Pose(300, 300), flipped=True)
    assert flipped.area == pytest.approx(placed.area)
    assert flipped.exterior.coords[0] == pytest.approx((300 + 27, 300 - 41))
