"""The maneuver tool (SWA-2.3, SWA-MOV).

The tool is a chain (dimensions in ``geometry.json``, community measurements): its guides sit in
the notch at the front of one side of the base, so the tool's centreline starts level with the
base's front edge, ``base width / 2 + tool width / 2`` to that side of the ship's centreline. A
``first_segment`` piece runs straight ahead to joint 1; each joint turns the rest of the tool by
its clicks (``click_degrees`` each; positive clicks turn to starboard, clockwise, negative to
port) and a ``part_segment`` piece leads to that speed's guide; from there a ``first_segment``
piece leads to the next joint. At speed *s* the ship is placed with the same notch on guide *s*,
its front edge square to the tool there: so it ends on the same side of the tool it started on,
facing the direction of the tool's last piece.

A course is a list of clicks, one per joint up to the speed. The ship card's speed chart gives
the most clicks allowed at each joint (SWA-2.3a); a Navigate dial may raise one joint by one click
(SWA-R3), and damage cards may lower them: callers pass the maxima they allow
(:func:`yaw_limits`, :func:`raise_joint`). Speed 0 is an empty course: the ship stays put but has
still executed a maneuver (SWA-MOV).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import product
from typing import Any, Literal

import shapely
from shapely.geometry import LineString, Polygon

from domain.rulesets.armada.data import MAX_YAW, ManeuverTool, ShipCard, Size
from domain.rulesets.armada.geometry import Coord, Pose, shrink

Side = Literal["left", "right"]


class CourseError(ValueError):
    """A course the speed chart (or the tool) does not allow; the message names the joint."""


def yaw_limits(card: ShipCard, speed: int) -> tuple[int, ...]:
    """The most clicks allowed at each joint at ``speed`` by the card's speed chart (SWA-2.3a).

    Raises:
        CourseError: the speed is not on the card's chart.
    """
    if speed == 0:
        return ()
    if speed not in card.speed_chart:
        raise CourseError(
            f"{card.name} has no speed {speed} (its speed chart runs 0..{card.max_speed})"
        )
    return tuple(card.speed_chart[speed])


def raise_joint(limits: Sequence[int], joint: int) -> tuple[int, ...]:
    """``limits`` with one more click at ``joint`` (1-based): a Navigate dial (SWA-R3).

    Raises:
        CourseError: no such joint, or it already allows the most clicks ("II" cannot be raised).
    """
    if not 1 <= joint <= len(limits):
        raise CourseError(f"joint {joint} is not used at speed {len(limits)}")
    if limits[joint - 1] >= MAX_YAW:
        raise CourseError(f"joint {joint} already allows {MAX_YAW} clicks and cannot be raised")
    return tuple(v + 1 if i == joint - 1 else v for i, v in enumerate(limits))


def check_course(clicks: Sequence[int], limits: Sequence[int]) -> tuple[int, ...]:
    """The clicks, checked against the maxima: one entry per joint, each within ± its limit.

    Raises:
        CourseError: the wrong number of joints, or too many clicks at a joint.
    """
    course = tuple(clicks)
    if len(course) != len(limits):
        raise CourseError(
            f"speed {len(limits)} needs clicks for {len(limits)} joint(s), got {len(course)}"
        )
    for joint, (click, limit) in enumerate(zip(course, limits, strict=True), start=1):
        if not isinstance(click, int) or abs(click) > limit:
            raise CourseError(
                f"joint {joint} allows at most {limit} click(s) either way, got {click}"
            )
    return course


def courses(limits: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """Every course within ``limits``, joint 1 varying slowest."""
    return product(*(range(-limit, limit + 1) for limit in limits))


def _unit(angle_deg: float) -> Coord:
    rad = math.radians(angle_deg)
    return (math.sin(rad), math.cos(rad))


@dataclass(frozen=True)
class Maneuver:
    """An executed course: the ``final`` pose (rounded), the tool's ``centreline`` from the base
    to the last guide used, its ``footprint`` polygon and each speed's guide point."""

    start: Pose
    clicks: tuple[int, ...]
    side: Side
    final: Pose
    centreline: Any
    footprint: Any
    guides: tuple[Coord, ...]

    @property
    def speed(self) -> int:
        return len(self.clicks)

    def overlaps_tool(self, final_base: Any) -> bool:
        """Whether the ship's base at its final position overlaps the part of the tool it used
        (touching it does not count). Such a course is taken with the tool on the other side
        (SWA-2.3b); a ship slowed by overlapping another ship may overlap the tool (RRG)."""
        if self.footprint.is_empty:
            return False
        return bool(shapely.intersects(shrink(self.footprint), final_base))


def execute(
    start: Pose,
    base: Size,
    tool: ManeuverTool,
    clicks: Sequence[int],
    side: Side,
    limits: Sequence[int] | None = None,
) -> Maneuver:
    """Move a ship on a ``base``-sized base from ``start`` along ``clicks`` with the tool on its
    ``side`` (SWA-2.3b). With ``limits`` the clicks are checked first (:func:`check_course`).

    Raises:
        CourseError: the course breaks ``limits`` or needs more joints than the tool has.
    """
    course = check_course(clicks, limits) if limits is not None else tuple(clicks)
    if len(course) > tool.joints:
        raise CourseError(f"the tool has {tool.joints} joints; speed {len(course)} is too fast")
    if side not in ("left", "right"):
        raise CourseError(f"the tool goes on the left or right side, not {side!r}")
    if not course:
        return Maneuver(start, (), side, start.rounded(), LineString(), Polygon(), ())
    final, points, guides = _walk(start, base, tool, course, side)
    line = start.place(LineString(points))
    footprint = line.buffer(tool.width / 2, cap_style="flat", join_style="mitre")
    return Maneuver(
        start,
        course,
        side,
        final,
        line,
        footprint,
        tuple(start.to_world(g) for g in guides),
    )


def final_pose(
    start: Pose, base: Size, tool: ManeuverTool, clicks: Sequence[int], side: Side
) -> Pose:
    """``execute(start, base, tool, clicks, side).final`` without the tool's shapes (the same
    arithmetic, :func:`_walk`): the final pose is all a step-down or a course search reads.

    Raises:
        CourseError: as :func:`execute` (without ``limits``).
    """
    course = tuple(clicks)
    if len(course) > tool.joints:
        raise CourseError(f"the tool has {tool.joints} joints; speed {len(course)} is too fast")
    if side not in ("left", "right"):
        raise CourseError(f"the tool goes on the left or right side, not {side!r}")
    if not course:
        return start.rounded()
    return _walk(start, base, tool, course, side)[0]


def _walk(
    start: Pose, base: Size, tool: ManeuverTool, course: tuple[int, ...], side: Side
) -> tuple[Pose, list[Coord], list[Coord]]:
    """The tool laid along a non-empty ``course``: the final pose (rounded), the centreline's
    points and each speed's guide point, in the ship's starting frame."""
    sign = 1.0 if side == "right" else -1.0
    anchor = (sign * (base.width + tool.width) / 2, base.length / 2)  # notch, ship frame
    x, y = anchor
    heading = 0.0
    points: list[Coord] = [anchor]
    guides: list[Coord] = []
    for click in course:
        ux, uy = _unit(heading)
        x, y = x + tool.first_segment * ux, y + tool.first_segment * uy
        points.append((x, y))  # a joint
        heading += click * tool.click_degrees
        ux, uy = _unit(heading)
        x, y = x + tool.part_segment * ux, y + tool.part_segment * uy
        points.append((x, y))  # this speed's guide
        guides.append((x, y))
    # the notch on the last guide, the ship turned to the last piece's direction
    turned = Pose(0.0, 0.0, heading).to_world(anchor)
    centre = (x - turned[0], y - turned[1])
    wx, wy = start.to_world(centre)
    return Pose(wx, wy, start.heading + heading).rounded(), points, guides
