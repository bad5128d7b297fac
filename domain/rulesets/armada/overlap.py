"""Overlaps, the play-area edge and the speed step-down (SWA-OVL, SWA-3.1).

Bases overlap when their interiors share area; touching does not count (nothing closer than
:data:`~.geometry.TOLERANCE`). A ship whose final position would overlap another ship retries at
speed − 1, − 2 … down to 0, keeping the clicks of the joints it still uses (:func:`step_down`);
the rules layer then deals a face-down damage card to it and to the closest ship it overlapped
(:func:`closest`). A ship or squadron with any part of its base outside the play area is
destroyed (:func:`outside_play_area`). :func:`room_touching` is where a displaced squadron's
centre may still go touching the ship that overlapped it (SWA-OVL's placement priority).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import shapely
from shapely.geometry import box

from domain.rulesets.armada.data import PlayArea
from domain.rulesets.armada.geometry import TOLERANCE, Disc, Pose, shrink


def bases_overlap(a: Any, b: Any) -> bool:
    """Whether two ship bases overlap (SWA-OVL); touching is not overlapping."""
    return bool(shapely.intersects(shrink(a), b))


def ships_overlapped(base: Any, others: Mapping[str, Any]) -> tuple[str, ...]:
    """Ids of the ship bases in ``others`` that ``base`` overlaps, sorted (one vectorised call)."""
    names = sorted(others)
    if not names:
        return ()
    hits = shapely.intersects(shrink(base), np.asarray([others[n] for n in names], dtype=object))
    return tuple(n for n, hit in zip(names, hits, strict=True) if hit)


# Bounding-box rejects: a distance is at least the gap between bounding boxes, so a pair whose
# boxes lie clearly (by REJECT_MARGIN, far above any rounding) further apart than the test's
# threshold gives the same "no" as the shapely call it skips.
REJECT_MARGIN = 1e-3
"""mm of slack before a bounding-box reject (rounding errs by ~1e-13 mm at table scale)."""
_BOUNDS: dict[int, tuple[Any, tuple[float, float, float, float]]] = {}


def bounds(shape: Any) -> tuple[float, float, float, float]:
    """``shape.bounds``, remembered per shape object (bases are built once per pose and tested
    again and again); the shape is kept with its bounds, so an id is never reused meanwhile."""
    found = _BOUNDS.get(id(shape))
    if found is not None and found[0] is shape:
        return found[1]
    if len(_BOUNDS) >= 4096:
        _BOUNDS.clear()
    box_ = tuple(shape.bounds)
    _BOUNDS[id(shape)] = (shape, box_)
    return box_


def _box_gap(box_: tuple[float, float, float, float], x: float, y: float) -> float:
    """The larger axis gap from ``(x, y)`` to a bounding box (0 inside): a lower bound of the
    distance to anything inside the box."""
    minx, miny, maxx, maxy = box_
    return max(minx - x, x - maxx, miny - y, y - maxy, 0.0)


def squadron_overlaps(base: Any, squadron: Disc) -> bool:
    """Whether a ship base overlaps a squadron's disc (SWA-OVL): exact, from the disc's centre."""
    threshold = squadron.radius - TOLERANCE
    x, y = squadron.centre
    if _box_gap(bounds(base), x, y) > threshold + REJECT_MARGIN:
        return False
    return float(shapely.distance(base, squadron.point)) < threshold


def squadrons_overlapped(base: Any, squadrons: Mapping[str, Disc]) -> tuple[str, ...]:
    """Ids of the squadrons a ship's base overlaps, sorted: after a ship's move the opponent
    places them touching it (SWA-OVL)."""
    names = sorted(squadrons)
    if not names:
        return ()
    centres = shapely.points(np.asarray([squadrons[n].centre for n in names], dtype=float))
    gaps = shapely.distance(base, centres)
    return tuple(
        n for n, gap in zip(names, gaps, strict=True) if gap < squadrons[n].radius - TOLERANCE
    )


def discs_overlap(a: Disc, b: Disc) -> bool:
    """Whether two squadron bases overlap (SWA-3.1: a squadron may not end on another)."""
    threshold = a.radius + b.radius - TOLERANCE
    (ax, ay), (bx, by) = a.centre, b.centre
    if max(abs(ax - bx), abs(ay - by)) > threshold + REJECT_MARGIN:
        return False
    gap = float(shapely.distance(a.point, b.point))
    return gap < threshold


def outside_play_area(shape: Any, area: PlayArea) -> bool:
    """Whether any part of a base (polygon) or squadron (:class:`Disc`) lies outside the play
    area (SWA-OVL: it is destroyed). Touching the edge is inside."""
    if isinstance(shape, Disc):
        (x, y), r = shape.centre, shape.radius
        return (
            x - r < -TOLERANCE
            or y - r < -TOLERANCE
            or x + r > area.width + TOLERANCE
            or y + r > area.height + TOLERANCE
        )
    table = box(-TOLERANCE, -TOLERANCE, area.width + TOLERANCE, area.height + TOLERANCE)
    return not bool(table.covers(shape))


ROOM_MARGIN = 0.1
"""mm: room beside a ship narrower than this (the polygons approximating circles err by less)
does not count as room (SWA-OVL placement priority)."""


def room_touching(
    ship: Any,
    radius: float,
    gap: float,
    area: PlayArea,
    bases: Sequence[Any],
    discs: Sequence[Disc],
) -> Any:
    """Where the centre of a squadron of ``radius`` may go touching the ship base ``ship``
    (``gap / 2`` mm from it) without overlapping the other ship ``bases`` or squadron
    ``discs`` and inside the play area: a (possibly empty) shapely line geometry. SWA-OVL:
    displaced squadrons go touching the ship as long as there is room (:data:`ROOM_MARGIN`).

    Each buffered shape is built once per base object or disc (:func:`_buffered`), and only
    the shapes that can reach the ring are united and cut from it (:func:`_reaching`)."""
    ring = _buffered(ship, radius + gap / 2).exterior
    blocked = [_buffered(b, radius + ROOM_MARGIN) for b in bases]
    blocked += [_buffered(d, d.radius + radius + ROOM_MARGIN) for d in discs]
    inside = box(
        radius + ROOM_MARGIN,
        radius + ROOM_MARGIN,
        area.width - radius - ROOM_MARGIN,
        area.height - radius - ROOM_MARGIN,
    )
    free = ring.intersection(inside)
    if blocked and not free.is_empty:
        # shapes apart from the ring's free part take nothing from it: the cut by them alone
        # gives ``free`` back, the same coordinates in the same order (checked in
        # tests/test_armada_caches.py), so it is left out
        near = _reaching(free.bounds, blocked)
        if near:
            free = free.difference(shapely.union_all(near))
    return free


_BUFFERED: dict[tuple[Any, float], tuple[Any, Any]] = {}
"""Buffered shapes by (base id or disc centre, distance): (the base or disc, its buffer)."""


def _buffered(shape: Any, distance: float) -> Any:
    """``shape.buffer(distance, quad_segs=32)`` (a :class:`Disc`: its centre's), remembered:
    per base object (held with the answer, so its id is not reused meanwhile) or per disc
    (its centre and radius)."""
    disc = isinstance(shape, Disc)
    key = (shape.centre if disc else id(shape), distance)
    found = _BUFFERED.get(key)
    if found is not None and (disc or found[0] is shape):
        return found[1]
    made = (shape.point if disc else shape).buffer(distance, quad_segs=32)
    if len(_BUFFERED) >= 4096:
        _BUFFERED.clear()
    _BUFFERED[key] = (shape, made)
    return made


def _reaching(box_: tuple[float, float, float, float], shapes: Sequence[Any]) -> list[Any]:
    """The ``shapes`` (in their order) whose bounding boxes touch ``box_`` or, in turn, a kept
    shape's box. Every shape left out is then apart (by its box) from the box and from every
    shape kept: uniting it with them adds no vertex to their outlines, and cutting it from a
    geometry inside ``box_`` takes nothing away, so the cut is the one with every shape."""
    boxes = [bounds(s) for s in shapes]
    kept = [False] * len(shapes)
    reach = [box_]
    while reach:
        minx, miny, maxx, maxy = reach.pop()
        for i, (a, b, c, d) in enumerate(boxes):
            if not kept[i] and a <= maxx and c >= minx and b <= maxy and d >= miny:
                kept[i] = True
                reach.append(boxes[i])
    return [s for s, k in zip(shapes, kept, strict=True) if k]


def closest(base: Any, others: Mapping[str, Any]) -> str | None:
    """The id of the ship base in ``others`` closest to ``base`` (ties: the first id in order);
    None when there is none. SWA-OVL: the closest overlapped ship takes a damage card too."""
    names = sorted(others)
    if not names:
        return None
    gaps = shapely.distance(base, np.asarray([others[n] for n in names], dtype=object))
    return names[int(np.argmin(gaps))]


@dataclass(frozen=True)
class StepDown:
    """The outcome of the step-down: the ``speed`` and ``pose`` the ship finished at, and the
    speeds tried first that overlapped another ship (empty when the full move fitted)."""

    speed: int
    pose: Pose
    overlapped_at: tuple[int, ...]

    @property
    def overlapped(self) -> bool:
        return bool(self.overlapped_at)


def step_down(
    speed: int, pose_at: Callable[[int], Pose], overlaps: Callable[[Pose], bool]
) -> StepDown:
    """Try the move at ``speed``, then speed − 1 … 1, keeping the first final pose that overlaps
    no ship; at speed 0 the ship stays where ``pose_at(0)`` puts it (SWA-OVL). ``pose_at(s)`` is
    the final pose at speed ``s`` (the course's first ``s`` clicks); ``overlaps(pose)`` says
    whether the ship there would overlap another ship.

    Raises:
        ValueError: a negative speed.
    """
    if speed < 0:
        raise ValueError(f"speed cannot be negative, got {speed}")
    tried: list[int] = []
    for s in range(speed, 0, -1):
        pose = pose_at(s)
        if not overlaps(pose):
            return StepDown(s, pose, tuple(tried))
        tried.append(s)
    return StepDown(0, pose_at(0), tuple(tried))
