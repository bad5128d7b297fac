"""Armada geometry against hand-computed cases (SWA-HZ, SWA-RNG, SWA-ATK 1, SWA-2.3, SWA-MOV,
SWA-OVL).

Coordinates are mm, origin bottom-left, headings clockwise from +y. The bundled measurements
(AlphArmada) give, in a ship's own frame (origin at the base centre, +y forward):

* Victory token 58.5 × 101.5: front edge y = 50.75; front arc lines from (0, 3.75) to
  (±29.25, 30.5); rear arc lines from (0, 3.75) to (±29.25, −27.25); front targeting point
  (0, 39.35).
* CR90 token 38.5 × 70.25 on a 43 × 71 base; tool 46.13 / 22.27 mm pieces, 15.25 mm wide, 22.5°
  a click, so the tool's notch point is (±29.125, 35.5).
"""

from __future__ import annotations

import cmath
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
from domain.rulesets.armada.maneuver import (
    CourseError,
    Side,
    check_course,
    courses,
    execute,
    raise_joint,
    yaw_limits,
)
from domain.rulesets.armada.overlap import (
    bases_overlap,
    closest,
    discs_overlap,
    outside_play_area,
    ships_overlapped,
    squadron_overlaps,
    squadrons_overlapped,
    step_down,
)
from domain.rulesets.armada.sight import ship_to_ship, trace

DATA = resolve_data()
GEO = DATA.geometry
BANDS = GEO.range_bands
TOOL = GEO.maneuver_tool
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


# --------------------------------------------------------------------------- maneuver tool


def test_straight_maneuvers_move_whole_tool_lengths() -> None:
    """SWA-MOV: straight, each speed moves one first piece and one part piece: 68.4 mm."""
    cr90_base = GEO.base_sizes["small"]
    for speed in range(1, 5):
        moved = execute(Pose(400, 100), cr90_base, TOOL, [0] * speed, "right")
        assert (moved.final.x, moved.final.heading) == (400, 0)
        assert moved.final.y == pytest.approx(100 + 68.4 * speed, abs=1e-6)
        assert moved.centreline.length == pytest.approx(68.4 * speed)
    still = execute(Pose(400, 100, 30), cr90_base, TOOL, [], "left")
    assert still.final == Pose(400, 100, 30) and still.speed == 0


def test_hand_computed_turns() -> None:
    """SWA-MOV, by hand. CR90 at the origin, speed 1.
    One click right, tool on the left: notch (−29.125, 35.5) → joint (−29.125, 81.63) → guide
    (−29.125 + 22.27 sin 22.5°, 81.63 + 22.27 cos 22.5°) = (−20.60264, 102.20480); the notch in
    the turned ship is (−29.125 cos 22.5° + 35.5 sin 22.5°, 29.125 sin 22.5° + 35.5 cos 22.5°)
    = (−13.32275, 43.94336); centre = guide − notch = (−7.27989, 58.26144), heading 22.5°.
    Two clicks right, tool on the right: guide (29.125 + 15.74725, 81.63 + 15.74725), notch
    turned ((29.125 + 35.5) cos 45°, (35.5 − 29.125) cos 45°) = (45.69676, 4.50781): centre
    (−0.82451, 92.86944), heading 45°."""
    base = GEO.base_sizes["small"]
    one = execute(Pose(0, 0), base, TOOL, [1], "left")
    assert (one.final.x, one.final.y) == pytest.approx((-7.27989, 58.26144), abs=1e-4)
    assert one.final.heading == 22.5
    assert one.guides[0] == pytest.approx((-20.60264, 102.20480), abs=1e-4)
    two = execute(Pose(0, 0), base, TOOL, [2], "right")
    assert (two.final.x, two.final.y) == pytest.approx((-0.82451, 92.86944), abs=1e-4)
    assert two.final.heading == 45


def _by_complex_numbers(start: Pose, clicks: tuple[int, ...], side: Side) -> Pose:
    """The same tool followed with complex numbers: +y is i, a click turns −22.5° (clockwise)."""
    sign = 1 if side == "right" else -1
    anchor = complex(sign * (43 + 15.25) / 2, 71 / 2)
    z, d = anchor, 1j
    for click in clicks:
        z += 46.13 * d
        d *= cmath.exp(-1j * math.radians(22.5 * click))
        z += 22.27 * d
    centre = z - anchor * (d / 1j)
    turn = cmath.exp(-1j * math.radians(start.heading))
    world = complex(start.x, start.y) + centre * turn
    heading = start.heading - math.degrees(cmath.phase(d / 1j))
    return Pose(world.real, world.imag, heading)


@pytest.mark.parametrize("speed", [1, 2, 3, 4])
@pytest.mark.parametrize("side", ["left", "right"])
def test_every_cr90_course(speed: int, side: Side) -> None:
    """SWA-2.3 / SWA-MOV: every course the CR90's speed chart allows (1:[II] 2:[I,II] 3:[–,I,II]
    4:[–,I,I,II]), from a turned start: the final pose matches an independent computation, the
    ship ends with its notch on the last guide, and the tool keeps to the chart's length."""
    card = DATA.ships.get("cr90_a")
    limits = yaw_limits(card, speed)
    start = Pose(457.2, 300, 30)
    all_courses = list(courses(limits))
    assert len(all_courses) == math.prod(2 * v + 1 for v in limits)
    base = GEO.base_sizes["small"]
    for course in all_courses:
        moved = execute(start, base, TOOL, course, side, limits)
        expected = _by_complex_numbers(start, course, side)
        assert (moved.final.x, moved.final.y) == pytest.approx((expected.x, expected.y), abs=1e-5)
        assert moved.final.heading == pytest.approx(expected.heading % 360, abs=1e-9)
        notch = (29.125 if side == "right" else -29.125, 35.5)
        assert close_to(moved.final.to_world(notch), moved.guides[-1], 1e-5)
        assert moved.centreline.length == pytest.approx(68.4 * speed)


def test_course_checks() -> None:
    """SWA-2.3a: clicks per joint within the chart; SWA-R3: Navigate raises one joint by one,
    never past II; a speed off the chart is refused."""
    card = DATA.ships.get("cr90_a")
    assert yaw_limits(card, 3) == (0, 1, 2)
    assert yaw_limits(card, 0) == ()
    assert check_course([0, -1, 2], (0, 1, 2)) == (0, -1, 2)
    with pytest.raises(CourseError, match="joint 1 allows at most 0"):
        check_course([1, 0, 0], (0, 1, 2))
    with pytest.raises(CourseError, match="speed 3 needs clicks for 3"):
        check_course([0, 0], (0, 1, 2))
    assert raise_joint((0, 1, 2), 1) == (1, 1, 2)
    assert check_course([1, 0, 0], raise_joint((0, 1, 2), 1)) == (1, 0, 0)
    with pytest.raises(CourseError, match="cannot be raised"):
        raise_joint((0, 1, 2), 3)
    with pytest.raises(CourseError, match="no speed 3"):
        yaw_limits(DATA.ships.get("victory_i"), 3)
    with pytest.raises(CourseError, match="joint 2 allows at most 1"):
        execute(Pose(0, 0), GEO.base_sizes["medium"], TOOL, [0, 2], "left", (0, 1))


def test_the_ship_may_not_end_on_the_tool() -> None:
    """SWA-2.3b: turning to starboard at the last joint with the tool to port swings the base over
    the tool; with the tool to starboard it does not."""
    base = GEO.base_sizes["small"]
    hull = DATA.ships.hull("cr90")
    cases: tuple[tuple[Side, bool], ...] = (("left", True), ("right", False))
    for side, overlaps in cases:
        moved = execute(Pose(400, 400), base, TOOL, [0, 2], side)
        final = place_ship(hull, base, moved.final)
        assert moved.overlaps_tool(final.base) is overlaps
    straight = execute(Pose(400, 400), base, TOOL, [0, 0], "left")
    assert not straight.overlaps_tool(place_ship(hull, base, straight.final).base)


# --------------------------------------------------------------------------- overlaps


def test_ship_and_squadron_overlaps() -> None:
    """SWA-OVL: touching is not overlapping. Two Victories side by side 63 mm apart touch; 62.9
    mm apart they overlap. A squadron touching a base does not overlap it; 0.1 mm in, it does."""
    a = ship("victory", 400, 400)
    assert not bases_overlap(a.base, ship("victory", 463, 400).base)
    assert bases_overlap(a.base, ship("victory", 462.9, 400).base)
    others = {"touching": ship("victory", 463, 400).base, "over": ship("victory", 337.1, 400).base}
    assert ships_overlapped(a.base, others) == ("over",)
    touching = Disc((400 + 31.5 + R, 400), R)
    inside = Disc((400 + 31.4 + R, 400), R)
    assert not squadron_overlaps(a.base, touching)
    assert squadron_overlaps(a.base, inside)
    assert squadrons_overlapped(a.base, {"t": touching, "i": inside}) == ("i",)
    assert not discs_overlap(Disc((0, 0), R), Disc((34, 0), R))
    assert discs_overlap(Disc((0, 0), R), Disc((33.9, 0), R))


def test_outside_the_play_area() -> None:
    """SWA-OVL / RRG "Play Area": any part of a base outside the 914.4 mm square is destroyed;
    touching the edge is inside."""
    area = GEO.play_area
    assert not outside_play_area(ship("victory", 31.5, 51).base, area)
    assert outside_play_area(ship("victory", 31.4, 51).base, area)
    assert outside_play_area(ship("victory", 914.4 - 31.5, 914.4 - 50.9).base, area)
    assert not outside_play_area(Disc((R, 914.4 - R), R), area)
    assert outside_play_area(Disc((R - 0.1, 400), R), area)
    assert outside_play_area(Disc((400, 914.4 - R + 0.1), R), area)


def test_step_down_until_the_ship_fits() -> None:
    """SWA-OVL: a CR90 at (400, 200) at speed 3 straight would end with its base at y 369.7–440.7
    (speed 2: 301.3–372.3), over a Victory lying across at (400, 340) (base y 308.5–371.5); at
    speed 1 (base 232.9–303.9) it fits. The Victory is the closest overlapped ship."""
    base = GEO.base_sizes["small"]
    hull = DATA.ships.hull("cr90")
    blocker = ship("victory", 400, 340, 90)
    start = Pose(400, 200)
    clicks = (0, 0, 0)

    def pose_at(speed: int) -> Pose:
        return execute(start, base, TOOL, clicks[:speed], "right").final

    def overlaps(pose: Pose) -> bool:
        return bases_overlap(place_ship(hull, base, pose).base, blocker.base)

    result = step_down(3, pose_at, overlaps)
    assert (result.speed, result.overlapped_at) == (1, (3, 2))
    assert result.pose == Pose(400, 268.4)
    assert closest(place_ship(hull, base, result.pose).base, {"vsd": blocker.base}) == "vsd"
    jammed = ship("victory", 400, 340)  # lengthwise, base y 289–391: every speed overlaps
    stuck = step_down(
        3, pose_at, lambda p: bases_overlap(place_ship(hull, base, p).base, jammed.base)
    )
    assert (stuck.speed, stuck.pose, stuck.overlapped_at) == (0, start, (3, 2, 1))
    free = step_down(3, pose_at, lambda p: False)
    assert (free.speed, free.overlapped) == (3, False)


def test_obstacle_placement() -> None:
    """SWA-OVL: obstacle outlines are placed by their origin, turned and optionally flipped."""
    station = DATA.obstacles.get("station")
    placed = place_obstacle(station, Pose(300, 300, 90))
    assert placed.area == pytest.approx(Polygon(station.outline).area)
    flipped = place_obstacle(station, Pose(300, 300), flipped=True)
    assert flipped.area == pytest.approx(placed.area)
    assert flipped.exterior.coords[0] == pytest.approx((300 + 27, 300 - 41))
