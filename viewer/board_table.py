"""A zone board whose seats sit round a table (``BoardView.seating == "ring"``), drawn as the
replay viewer's own board draws it (``viewer/scrubber/static/board-table.js``), for the figures
drawn in Python: the PNG export, the scribe page's board and the dispute report.

Each seat is a panel on the rim of a table, in seating order (the first at the bottom, then
clockwise, so the last sits beside the first; a dotted line runs round through them). A panel
holds the seat's name and VP and its zones two to a row in the board's zone order; in each
zone, the units with a ``tile`` are cards (their name, the tile's values, their damage, their
status once out), private units are a face-down stack with a count ("×3"), and the other units
small labelled markers (a zone too full says "+N more"). Every unit keeps a point (for attack
lines, the highlight, hovers and the scribe's clicks): an invisible marker over each card and
stack carries its id.

Generic on the read model: nothing here knows a rule system. Coordinates are design pixels (y
up), the axes kept square; text is sized by how many figure pixels a design pixel gets.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from dataclasses import dataclass, field

from domain.read_model import HIDDEN_KIND, GameView, UnitView
from viewer.figure_style import FOCUS_COLOUR, Point, _esc, _fmt, _rgba
from viewer.plain_figure import Figure, scatter

PW = 290.0  # a seat's panel width
PAD = 5.0
HEAD = 16.0  # the seat's name and VP
CAP = 11.0  # a zone's caption
TH = 40.0  # a card tile
STRIP = 14.0  # one line of markers
GAP = 12.0  # between panels
CW = (PW - 3 * PAD) / 2  # a zone's width
SLOT = CW / 2  # a marker and its label
BACK_W, BACK_H = 16.0, 22.0  # a card back
OUT_GREY = "#A0A0A0"
TABLE_FILL, TABLE_LINE, SEATING_LINE = "#E8EFE6", "#B8C8B4", "#9AAE95"
RATIOS = (0.25, 0.35, 0.5, 0.7, 1.0, 1.4, 2.0, 2.8, 4.0)  # table width over depth, tried


def is_ring(view: GameView) -> bool:
    """Whether ``view``'s board is seats round a table."""
    return view.board.kind == "zones" and view.board.seating == "ring"


def seat_of(unit: UnitView) -> str:
    """The seat a unit sits at: its ``seat`` detail, else its side."""
    seat = unit.details.get("seat")
    return seat if isinstance(seat, str) and seat else unit.side


def zone_axes(view: GameView) -> tuple[list[str], list[str]]:
    """Seat and zone names in board order; seats / zones used by units but not listed go last."""
    seats = list(view.board.seats) or [s.id for s in view.sides]
    zones = list(view.board.zones)
    for u in view.units:
        if u.zone is None:
            continue
        if seat_of(u) not in seats:
            seats.append(seat_of(u))
        if u.zone not in zones:
            zones.append(u.zone)
    return seats, zones


@dataclass(frozen=True)
class Box:
    x0: float
    x1: float
    y0: float
    y1: float

    @property
    def centre(self) -> Point:
        return ((self.x0 + self.x1) / 2, (self.y0 + self.y1) / 2)


@dataclass(frozen=True)
class Tile:
    unit: UnitView
    box: Box


@dataclass(frozen=True)
class Stack:
    units: list[UnitView]
    side: str
    box: Box


@dataclass(frozen=True)
class Marker:
    unit: UnitView
    at: Point
    width: float  # room for its label
    more: int = 0  # units of the zone beyond this last slot


@dataclass
class Panel:
    seat: str
    box: Box
    zones: list[tuple[str, Box]] = field(default_factory=list)


@dataclass
class TableLayout:
    """Where everything of one table goes: panels, cards, stacks, markers, and each unit's
    point and place in words; ``a``/``b`` the table's half width and depth, ``k`` figure pixels
    per design pixel."""

    panels: list[Panel]
    tiles: list[Tile]
    stacks: list[Stack]
    markers: list[Marker]
    overflow: list[UnitView]
    pts: dict[str, Point]
    where: dict[str, str]
    x_range: tuple[float, float]
    y_range: tuple[float, float]
    a: float
    b: float
    k: float


def _has_tile(unit: UnitView) -> bool:
    return bool(unit.tile)


def _on_edge(i: int, n: int, w: float, h: float, shift: float) -> Point:
    """Seat ``i`` of ``n`` on the edge of a ``w`` x ``h`` table (centred), from the bottom's
    middle going clockwise on screen (left, top, right), ``shift`` of a seat's spacing along."""
    per = 2 * (w + h)
    d = ((i + shift) * per / n) % per
    x, y = 0.0, -h / 2
    for length, (dx, dy) in (
        (w / 2, (-1, 0)),
        (h, (0, 1)),
        (w, (1, 0)),
        (h, (0, -1)),
        (w / 2, (-1, 0)),
    ):
        step = min(d, length)
        x, y, d = x + dx * step, y + dy * step, d - step
        if d <= 0:
            break
    return (x, y)


@dataclass(frozen=True)
class _Ring:
    k: float
    xr: float
    yr: float
    a: float
    b: float
    centres: list[Point]


def _seat_centres(n: int, ph: float, width: float, height: float) -> _Ring:
    """Panel centres round a table, far enough apart that no two panels meet, the table's shape
    (width over depth, a seat's shift) chosen to draw the panels largest in a plot of
    ``width`` x ``height`` pixels."""
    best: _Ring | None = None
    for ratio in RATIOS:
        for shift in (0.0, 0.5):
            unit = [_on_edge(i, n, ratio, 1.0, shift) for i in range(n)]
            t = (ph + GAP) / 2
            for i in range(n):
                for j in range(i + 1, n):
                    dx = abs(unit[i][0] - unit[j][0])
                    dy = abs(unit[i][1] - unit[j][1])
                    need_x = (PW + GAP) / dx if dx > 1e-9 else math.inf
                    need_y = (ph + GAP) / dy if dy > 1e-9 else math.inf
                    t = max(t, min(need_x, need_y))
            xs = [p[0] * t for p in unit]
            ys = [p[1] * t for p in unit]
            xr = max(abs(x) for x in xs) + PW / 2 + PAD
            yr = max(abs(y) for y in ys) + ph / 2 + PAD
            k = min(width / (2 * xr), height / (2 * yr))
            better = (
                best is None
                or k > best.k * 1.01
                or (k > best.k * 0.99 and xr * yr < best.xr * best.yr)
            )
            if better:
                best = _Ring(k, xr, yr, ratio * t / 2, t / 2, list(zip(xs, ys, strict=True)))
    assert best is not None
    return best


def table_layout(view: GameView, width: float, height: float) -> TableLayout:
    """The table of ``view`` in a plot of ``width`` x ``height`` pixels."""
    seats, zones = zone_axes(view)
    tall_zones = {u.zone for u in view.units if _has_tile(u) and u.zone is not None}
    rows = []
    for i in range(0, len(zones), 2):
        pair = zones[i : i + 2]
        tall = any(z in tall_zones for z in pair)
        rows.append((pair, tall, CAP + (TH + STRIP if tall else 2 * STRIP)))
    ph = HEAD + sum(r[2] for r in rows) + PAD * (len(rows) + 1)
    ring = _seat_centres(max(len(seats), 2), ph, width, height)
    shown = [u for u in view.units if u.zone is not None]
    layout = TableLayout(
        panels=[],
        tiles=[],
        stacks=[],
        markers=[],
        overflow=[],
        pts={},
        where={},
        x_range=(-ring.xr, ring.xr),
        y_range=(-ring.yr, ring.yr),
        a=ring.a,
        b=ring.b,
        k=ring.k,
    )
    for i, seat in enumerate(seats):
        cx, cy = ring.centres[i]
        x0, y1 = cx - PW / 2, cy + ph / 2
        panel = Panel(seat, Box(x0, x0 + PW, cy - ph / 2, y1))
        layout.panels.append(panel)
        top = y1 - PAD - HEAD
        for pair, tall, row_h in rows:
            top -= PAD
            for col, zone in enumerate(pair):
                zx0 = x0 + PAD + col * (CW + PAD)
                panel.zones.append((zone, Box(zx0, zx0 + CW, top - row_h, top)))
                here = [u for u in shown if u.zone == zone and seat_of(u) == seat]
                _fill_zone(layout, here, zone, seat, zx0, top, row_h, tall)
            top -= row_h
    return layout


def _fill_zone(
    layout: TableLayout,
    here: list[UnitView],
    zone: str,
    seat: str,
    zx0: float,
    top: float,
    row_h: float,
    tall: bool,
) -> None:
    """One zone of one seat: its cards in a row, then a stack of card backs and the markers."""
    for u in here:
        layout.where[u.id] = f"zone: {_esc(zone)}, seat: {_esc(seat)}"
    cards = [u for u in here if _has_tile(u) and not u.private]
    backs = [u for u in here if u.private]
    rest = [u for u in here if not _has_tile(u) and not u.private]
    y = top - CAP  # the content's top
    if tall and cards:
        w = (CW - (len(cards) - 1) * 3) / len(cards)
        for m, u in enumerate(cards):
            tx0 = zx0 + m * (w + 3)
            layout.tiles.append(Tile(u, Box(tx0, tx0 + w, y - TH, y)))
            # lines end in the card's lower right corner, clear of most of its text
            layout.pts[u.id] = (tx0 + w - min(16.0, w / 4), y - TH + 8)
        y -= TH
    x = zx0
    lines = 1 if tall and cards else max(1, math.floor((y - (top - row_h)) / STRIP))
    if backs:
        sx0, sy1 = zx0 + 2, y - 2
        h = min(BACK_H, lines * STRIP - 2)
        box = Box(sx0, sx0 + BACK_W, sy1 - h, sy1)
        layout.stacks.append(Stack(backs, backs[0].side, box))
        for u in backs:
            layout.pts[u.id] = box.centre
        x = sx0 + BACK_W + 28  # room for its count
    first_line = max(1, math.floor((zx0 + CW - x) / SLOT))
    full_line = max(1, math.floor(CW / SLOT))
    room = first_line + (lines - 1) * full_line if lines > 1 else first_line
    for m, u in enumerate(rest):
        line, col = 0, m
        if m >= first_line:
            line = 1 + (m - first_line) // full_line
            col = (m - first_line) % full_line
        at = ((x if line == 0 else zx0) + col * SLOT + 5, y - STRIP / 2 - line * STRIP)
        if m < room:
            more = len(rest) - room + 1 if m == room - 1 and len(rest) > room else 0
            layout.markers.append(Marker(u, at, SLOT - 12, more))
            layout.pts[u.id] = at
        else:  # drawn as the zone's "+N more": its point is that marker's
            layout.pts[u.id] = layout.markers[-1].at
            layout.overflow.append(u)


def _font(k: float, base: int) -> int:
    return max(6, min(base + 1, round(base * k)))


def _fit(text: str, width_px: float, size: int) -> str:
    """``text`` cut to what fits in ``width_px`` at font ``size``."""
    most = max(3, math.floor(width_px / (size * 0.58)))
    return text if len(text) <= most else text[: most - 1] + "…"


def tile_values(unit: UnitView) -> str:
    """A card's values as printed on it: ``attack 1/3/2 · hull 5``."""
    return " · ".join(f"{k} {_fmt(v)}" for k, v in unit.tile.items())


def _rect(box: Box, **style: object) -> dict[str, object]:
    return {"type": "rect", "x0": box.x0, "x1": box.x1, "y0": box.y0, "y1": box.y1, **style}


def _note(x: float, y: float, text: str, **style: object) -> dict[str, object]:
    return {"x": x, "y": y, "xref": "x", "yref": "y", "showarrow": False, "text": text, **style}


def draw_table(
    fig: Figure,
    view: GameView,
    layout: TableLayout,
    colours: Mapping[str, str],
    names: Mapping[str, str],
    hovers: Mapping[str, str],
) -> None:
    """Draw the table of ``layout`` on ``fig``: the table, the seating line, the panels and
    their zones, the cards, the stacks and the markers, each unit by its name (its seat is
    the panel's; ``hovers``: each unit's hover)."""
    k = layout.k
    small, body = _font(k, 9), _font(k, 10)
    shapes: list[dict[str, object]] = [
        _rect(
            Box(-layout.a, layout.a, -layout.b, layout.b),
            layer="below",
            fillcolor=TABLE_FILL,
            line={"color": TABLE_LINE, "width": 1},
        )
    ]
    notes: list[dict[str, object]] = []
    loop = " L ".join(f"{p.box.centre[0]:.1f},{p.box.centre[1]:.1f}" for p in layout.panels)
    shapes.append(
        {
            "type": "path",
            "path": f"M {loop} Z",
            "layer": "below",
            "line": {"color": SEATING_LINE, "width": 2, "dash": "dot"},
        }
    )
    vp = {s.id: s.vp for s in view.sides}
    for p in layout.panels:
        colour = colours.get(p.seat, "#555555")
        active = view.active_side == p.seat
        shapes.append(
            _rect(
                p.box,
                layer="below",
                fillcolor="white",
                line={"color": colour, "width": 4 if active else 2},
            )
        )
        name = names.get(p.seat, p.seat)
        head = name if name == p.seat else f"{name} ({p.seat})"
        y = p.box.y1 - PAD - HEAD / 2 + 1
        notes.append(
            _note(
                p.box.x0 + PAD,
                y,
                f"<b>{_esc(_fit(head, (PW - 70) * k, body))}</b>",
                xanchor="left",
                yanchor="middle",
                font={"size": body, "color": colour},
            )
        )
        if p.seat in vp:
            notes.append(
                _note(
                    p.box.x1 - PAD,
                    y,
                    f"{vp[p.seat]} VP" + (" · to act" if active else ""),
                    xanchor="right",
                    yanchor="middle",
                    font={"size": small, "color": "#333333"},
                )
            )
        for zone, box in p.zones:
            shapes.append(
                _rect(
                    box, layer="below", fillcolor="#F6F7F9", line={"color": "#D8DCE0", "width": 1}
                )
            )
            notes.append(
                _note(
                    box.x0 + 2,
                    box.y1 - 1,
                    _esc(zone),
                    xanchor="left",
                    yanchor="top",
                    font={"size": max(6, small - 1), "color": "#888888"},
                )
            )
    hover_x: list[float] = []
    hover_y: list[float] = []
    hover_ids: list[str] = []
    hover_text: list[str] = []
    for t in layout.tiles:
        u = t.unit
        colour = colours.get(u.side, "#555555")
        out = u.status != "active"
        shapes.append(
            _rect(
                t.box,
                layer="below",
                fillcolor="#EEEEEE" if out else _rgba(colour, 0.14),
                line={
                    "color": OUT_GREY if out else colour,
                    "width": 1.5,
                    "dash": "dot" if out else "solid",
                },
            )
        )
        width_px = (t.box.x1 - t.box.x0 - 6) * k
        damage = f"damage {u.damage}/{u.strength}" + ("" if not out else f" · {u.status}")
        lines = [
            f"<b>{_esc(_fit(u.name, width_px, body))}</b>",
            _esc(_fit(tile_values(u), width_px, small)),
            _esc(_fit(damage, width_px, small)),
        ]
        notes.append(
            _note(
                t.box.x0 + 3,
                t.box.y1 - 2,
                "<br>".join(lines),
                xanchor="left",
                yanchor="top",
                align="left",
                font={"size": small, "color": "#888888" if out else "#222222"},
            )
        )
        cx, cy = t.box.centre
        hover_x.append(cx)
        hover_y.append(cy)
        hover_ids.append(u.id)
        hover_text.append(hovers.get(u.id, _esc(u.name)))
    for s in layout.stacks:
        colour = colours.get(s.side, "#555555")
        for d in (4.0, 2.0, 0.0):
            box = Box(s.box.x0 + d, s.box.x1 + d, s.box.y0 + d / 2, s.box.y1 + d / 2)
            shapes.append(
                _rect(
                    box,
                    layer="below",
                    fillcolor=_rgba(colour, 0.85),
                    line={"color": "white", "width": 1},
                )
            )
        notes.append(
            _note(
                s.box.x1 + 6,
                s.box.centre[1],
                f"×{len(s.units)}",
                xanchor="left",
                yanchor="middle",
                font={"size": body, "color": "#333333"},
            )
        )
        known = [_esc(u.name) for u in s.units if u.kind != HIDDEN_KIND]
        hidden = len(s.units) - len(known)
        said = [f"<b>{_esc(names.get(s.side, s.side))}: {len(s.units)} face down</b>", *known]
        if hidden:
            said.append(f"{hidden} hidden from this view")
        for u in s.units:  # each card of the stack can be hovered and picked where it lies
            hover_x.append(s.box.centre[0] + 2)
            hover_y.append(s.box.centre[1])
            hover_ids.append(u.id)
            hover_text.append("<br>".join(said))
    fig.update_layout(shapes=[*fig.layout.shapes, *shapes])
    if hover_x:
        fig.add_trace(
            scatter(
                name="cards",
                uid="cards",
                showlegend=False,
                x=hover_x,
                y=hover_y,
                mode="markers",
                marker={
                    "symbol": "square",
                    "size": max(10.0, TH * k * 0.95),
                    "color": "rgba(0,0,0,0)",
                },
                customdata=hover_ids,
                hovertext=hover_text,
                hovertemplate="%{hovertext}<extra></extra>",
            )
        )
    _draw_markers(fig, layout, colours, names, hovers, small)
    fig.update_layout(annotations=[*fig.layout.annotations, *notes])


def _draw_markers(
    fig: Figure,
    layout: TableLayout,
    colours: Mapping[str, str],
    names: Mapping[str, str],
    hovers: Mapping[str, str],
    size: int,
) -> None:
    """The units without a card: a small marker each, its label beside it, one trace a side."""
    by_side: dict[str, list[Marker]] = {}
    for m in layout.markers:
        by_side.setdefault(m.unit.side, []).append(m)
    for i, (sid, ms) in enumerate(by_side.items()):
        colour = colours.get(sid, "#555555")

        def said(m: Marker, sid: str = sid) -> str:
            if not m.more:
                return hovers.get(m.unit.id, _esc(m.unit.name))
            more = [u for u in layout.overflow if u.side == sid]
            return "<br>".join(f"<b>{_esc(u.name)}</b> · {_esc(u.kind)}" for u in [m.unit, *more])

        fig.add_trace(
            scatter(
                name=_esc(names.get(sid, sid)),
                uid=f"markers{i}",
                showlegend=False,
                x=[m.at[0] for m in ms],
                y=[m.at[1] for m in ms],
                mode="markers+text",
                textposition="middle right",
                text=[
                    f"+{m.more} more"
                    if m.more
                    else _esc(_fit(m.unit.name, m.width * layout.k, size))
                    for m in ms
                ],
                textfont={"size": size, "color": "#222222"},
                customdata=[m.unit.id for m in ms],
                hovertext=[said(m) for m in ms],
                hovertemplate="%{hovertext}<extra></extra>",
                marker={
                    "symbol": ["circle" if m.unit.status == "active" else "x" for m in ms],
                    "size": 8,
                    "color": [colour if m.unit.status == "active" else OUT_GREY for m in ms],
                    "line": {"color": "white", "width": 1},
                },
            )
        )


ROUTE_MARGIN = 3.0
"""How far outside a card an attack line starts, ends and bends (design pixels)."""


def _inside(a: Point, b: Point, box: Box) -> float:
    """How much of the segment ``a``-``b`` runs inside ``box`` (Liang-Barsky clipping)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    t0, t1 = 0.0, 1.0
    sides = ((-dx, a[0] - box.x0), (dx, box.x1 - a[0]), (-dy, a[1] - box.y0), (dy, box.y1 - a[1]))
    for p, q in sides:
        if p == 0:
            if q <= 0:
                return 0.0
            continue
        r = q / p
        if p < 0:
            t0 = max(t0, r)
        else:
            t1 = min(t1, r)
        if t0 >= t1:
            return 0.0
    return (t1 - t0) * math.hypot(dx, dy)


def _ring(box: Box, d: float) -> list[Point]:
    """Eight points round ``box``, ``d`` outside it: its corners and the middles of its sides."""
    x0, x1, y0, y1 = box.x0 - d, box.x1 + d, box.y0 - d, box.y1 + d
    xm, ym = (x0 + x1) / 2, (y0 + y1) / 2
    return [(x0, y0), (xm, y0), (x1, y0), (x1, ym), (x1, y1), (xm, y1), (x0, y1), (x0, ym)]


def card_boxes(layout: TableLayout) -> dict[str, Box]:
    """Every card on the table (tiles and face-down stacks) by the units it stands for."""
    boxes = {t.unit.id: t.box for t in layout.tiles}
    for s in layout.stacks:
        boxes.update({u.id: s.box for u in s.units})
    return boxes


def attack_path(layout: TableLayout, attacker: str, target: str) -> list[Point]:
    """The attack line from ``attacker`` to ``target`` on the table (issue 21 item 11): from
    the edge of the attacker's card to the edge of the target's (a marker's own point for a
    unit drawn as a marker), straight where that crosses no card, else with one bend in the
    room between cards and panels; of those, the one running least over cards, then the
    shortest. A card's text is never under a line that can go round it.
    ``viewer/scrubber/static/board-table.js`` routes the in-page board's lines the same way."""
    boxes = card_boxes(layout)
    cards = list({(b.x0, b.y0): b for b in boxes.values()}.values())

    def ends(uid: str) -> list[Point]:
        box = boxes.get(uid)
        return _ring(box, ROUTE_MARGIN) if box is not None else [layout.pts[uid]]

    def over(a: Point, b: Point) -> float:
        return sum(_inside(a, b, box) for box in cards)

    def cost(path: list[Point]) -> tuple[float, float]:
        legs = list(itertools.pairwise(path))
        return (
            round(sum(over(a, b) for a, b in legs), 6),
            sum(math.dist(a, b) for a, b in legs),
        )

    starts, stops = ends(attacker), ends(target)
    best = min(([a, b] for a in starts for b in stops), key=cost)
    if cost(best)[0] == 0:
        return best
    bends = [p for panel in layout.panels for p in _ring(panel.box, GAP / 2)]
    bends += [p for box in cards for p in _ring(box, ROUTE_MARGIN)]
    for w in bends:
        a = min(starts, key=lambda p: cost([p, w]))
        b = min(stops, key=lambda p: cost([w, p]))
        if cost([a, w, b]) < cost(best):
            best = [a, w, b]
    return best


def focus_table(fig: Figure, layout: TableLayout, focus: frozenset[str]) -> None:
    """The highlighted units drawn bold: a card's or a stack's outline, a marker's ring."""
    boxes = [t.box for t in layout.tiles if t.unit.id in focus]
    boxes += [
        Box(s.box.x0 - 2, s.box.x1 + 6, s.box.y0 - 2, s.box.y1 + 4)
        for s in layout.stacks
        if any(u.id in focus for u in s.units)
    ]
    for box in boxes:
        fig.add_shape(
            type="rect",
            x0=box.x0,
            x1=box.x1,
            y0=box.y0,
            y1=box.y1,
            line={"color": FOCUS_COLOUR, "width": 3},
        )
    ms = [m for m in layout.markers if m.unit.id in focus]
    if ms:
        fig.add_trace(
            scatter(
                name="focus",
                uid="focus",
                x=[m.at[0] for m in ms],
                y=[m.at[1] for m in ms],
                mode="markers",
                showlegend=False,
                marker={
                    "symbol": "circle-open",
                    "size": 16,
                    "color": FOCUS_COLOUR,
                    "line": {"width": 2.5},
                },
                customdata=[m.unit.id for m in ms],
                hoverinfo="skip",
            )
        )


def frame_table(fig: Figure, layout: TableLayout, height: int) -> int:
    """Axes for the table (hidden, square, the table's extent); the figure's height, no taller
    than the table drawn at the width's scale (no empty band above or below it)."""
    (x0, x1), (y0, y1) = layout.x_range, layout.y_range
    hidden = {"visible": False, "showgrid": False, "zeroline": False}
    fig.update_xaxes(range=[x0, x1], **hidden)
    fig.update_yaxes(range=[y0, y1], scaleanchor="x", scaleratio=1, **hidden)
    return round(min(height, (y1 - y0) * layout.k + 100))
