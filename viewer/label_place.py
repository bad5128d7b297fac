"""Where each unit's name goes on a continuous board drawn in Python (the PNG, the report, the
scribe's board), so that no two names overlap (issue 21 item 10: Armada squadrons that cluster
wrote their names over each other). The replay's own board does the same in the browser
(``viewer/scrubber/static/board-labels.js``).

Each name takes the first of its candidate places (above or below a marker, beside it; under,
over or beside a unit's outline) whose box is clear of the names already placed and of the
markers; the current event's units are placed first, units out of play last. A name with no
clear place is left off the board: it is still in the unit's hover. Text boxes are estimated
from the characters (plotly's 10 px font), on the scale the board is drawn at: the figure's
height over the board's visible height (the board keeps its aspect ratio)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

CHAR_PX = 6.0  # an average character of plotly's 10 px sans-serif, generously
LINE_PX = 13.0
GAP_PX = 2.0
# the figure's margins and axis titles: what of its height the plot itself gets
PLOT_HEIGHT_SHARE = 0.78


@dataclass(frozen=True)
class Anchor:
    """One name to place: ``marker`` (a point with a marker of ``radius`` px) or ``outline``
    (a unit drawn by its shapes: their bounding box ``x0, y0, x1, y1``), in board units."""

    uid: str
    text: str
    x0: float
    y0: float
    x1: float
    y1: float
    radius: float = 0.0  # px, for a marker

    @property
    def is_marker(self) -> bool:
        return self.x0 == self.x1 and self.y0 == self.y1


@dataclass(frozen=True)
class Placed:
    """Where a name went: the point its text hangs from and plotly's ``textposition``."""

    x: float
    y: float
    position: str


Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in px (y up)


def _overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _candidates(a: Anchor, scale: float) -> list[tuple[Placed, Box]]:
    """The places a name may take, best first, each with its text box in px."""
    w, h = max(1, len(a.text)) * CHAR_PX, LINE_PX
    px0, py0, px1, py1 = a.x0 * scale, a.y0 * scale, a.x1 * scale, a.y1 * scale
    cx, cy = (px0 + px1) / 2, (py0 + py1) / 2
    r = a.radius + GAP_PX
    if a.is_marker:
        above, below, right, left = cy + r, cy - r, cx + r, cx - r
        point = (a.x0, a.y0)
        tops = (point, point, point, point)
    else:
        above, below, right, left = py1 + GAP_PX, py0 - GAP_PX, px1 + GAP_PX, px0 - GAP_PX
        mid_x, mid_y = (a.x0 + a.x1) / 2, (a.y0 + a.y1) / 2
        tops = ((mid_x, a.y0), (mid_x, a.y1), (a.x1, mid_y), (a.x0, mid_y))
    under: Box = (cx - w / 2, below - h, cx + w / 2, below)
    over: Box = (cx - w / 2, above, cx + w / 2, above + h)
    beside_r: Box = (right, cy - h / 2, right + w, cy + h / 2)
    beside_l: Box = (left - w, cy - h / 2, left, cy + h / 2)
    if a.is_marker:  # a marker's name above it first, as plotly's "top center"
        return [
            (Placed(*tops[0], "top center"), over),
            (Placed(*tops[1], "bottom center"), under),
            (Placed(*tops[2], "middle right"), beside_r),
            (Placed(*tops[3], "middle left"), beside_l),
        ]
    return [  # an outline's name under it first, as the board always wrote it
        (Placed(*tops[0], "bottom center"), under),
        (Placed(*tops[1], "top center"), over),
        (Placed(*tops[2], "middle right"), beside_r),
        (Placed(*tops[3], "middle left"), beside_l),
    ]


def board_scale(height_px: float, visible_height: float) -> float:
    """Pixels per board unit for a figure ``height_px`` tall showing ``visible_height``."""
    return height_px * PLOT_HEIGHT_SHARE / max(visible_height, 1e-9)


def place_names(
    anchors: Sequence[Anchor],
    scale: float,
    markers: Iterable[tuple[float, float, float]] = (),
    texts: Iterable[tuple[float, float, str]] = (),
) -> dict[str, Placed | None]:
    """Each anchor's place, in the order given (the first placed win), or None: no clear
    place. No name may cover ``markers`` ((x, y, radius px) of every marker drawn) nor
    ``texts`` ((x, y, text) written centred there: hull zones' numbers, features' names)."""
    taken: list[Box] = [
        (x * scale - r, y * scale - r, x * scale + r, y * scale + r) for x, y, r in markers
    ]
    for x, y, text in texts:
        w = len(text) * CHAR_PX / 2
        taken.append(
            (x * scale - w, y * scale - LINE_PX / 2, x * scale + w, y * scale + LINE_PX / 2)
        )
    placed: dict[str, Placed | None] = {}
    for anchor in anchors:
        own = (anchor.x0 * scale, anchor.y0 * scale)
        placed[anchor.uid] = None
        for place, box in _candidates(anchor, scale):
            clear = all(
                not _overlaps(box, other)
                # a marker's own circle is where its name hangs from, not in its way
                for other in taken
                if not (anchor.is_marker and _is_own(other, own, anchor.radius))
            )
            if clear:
                placed[anchor.uid] = place
                taken.append(box)
                break
    return placed


def _is_own(box: Box, centre: tuple[float, float], radius: float) -> bool:
    return (
        abs((box[0] + box[2]) / 2 - centre[0]) < 1e-6
        and abs((box[1] + box[3]) / 2 - centre[1]) < 1e-6
        and abs((box[2] - box[0]) / 2 - radius) < 1e-6
    )
