"""Plotly figures for the replay viewer: the board and time series, drawn from read models only.

Nothing here knows a game rule. ``board_figure`` draws a ``GameView`` (continuous table, grid of
cells or seats x zones), optionally with a ``Highlight`` of what the current event did;
``timeseries_figure`` draws step lines over event numbers with a cursor; ``figure_png`` exports a
static image.

Damage is shown by the marker fill: an undamaged unit is a solid disc, and the fill fades towards
a hollow ring in the side's colour as damage approaches strength (the outline stays opaque).

Geometry from the read model is drawn as data, whatever the ruleset: a unit's ``shapes`` as
filled polygons and circles in its side's colour (by ``style``: a light ``base``, ``zone`` parts
with their label written inside, thin ``arc`` lines, a solid ``heading`` marker), the board's
``features`` in grey, the game's ``overlays`` as dashed lines with their labels. Shapes are
batched: one Plotly trace per side and style (polygons separated by ``None`` gaps), never one
per polygon; a unit with shapes keeps a small marker at its position that carries its hover.
A unit without shapes is drawn exactly as before.
"""

from __future__ import annotations

import html
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import plotly.graph_objects as go
from shapely.geometry import LineString
from shapely.geometry import Point as ShapelyPoint
from shapely.geometry import Polygon as ShapelyPolygon
from shapely.ops import polylabel

from domain.read_model import Detail, FeatureView, GameView, OverlayView, ShapeView, UnitView
from domain.words import Names, unit_labels, value_text

# Okabe-Ito colour-blind-friendly palette, in side order.
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9")
ATTACK_COLOUR = "#C00000"
FOCUS_COLOUR = "#111111"
BOARD_UIREVISION = "wake-board"
TIMESERIES_UIREVISION = "wake-timeseries"

MIN_FILL_ALPHA = 0.15  # fill opacity of a unit whose damage has reached its strength
MAX_MARKER_SIZE = 28
SLOT_RADIUS = 0.28  # ring radius of units sharing one cell / box (cell size 1)
SLOT_SPAN = 0.38  # half-width of the square used when a cell / box holds many units

SHAPED_MARKER_SIZE = 9  # the marker of a unit drawn with shapes: small, over its centre
SHAPE_FILL_ALPHA = {"base": 0.10, "zone": 0.30, "heading": 0.90}
FEATURE_FILL = "rgba(128,128,128,0.30)"
FEATURE_LINE = "#7F7F7F"
OUT_LINE = "#A0A0A0"
OVERLAY_COLOURS = {"line_of_sight": ATTACK_COLOUR, "range": "#6A3D9A", "path": "#117733"}
OVERLAY_OTHER = ("#882255", "#44AA99", "#999933", "#332288")
CIRCLE_QUAD_SEGS = 8  # a circle is drawn as a 32-gon

Point = tuple[float, float]
Geometry = ShapeView | FeatureView | OverlayView


@dataclass(frozen=True)
class Highlight:
    """What the current event did, drawn on the board.

    ``moves`` are in board coordinates (continuous), cell coordinates (grid) or
    (seat index, zone index) (zones).
    """

    moves: tuple[tuple[str, Point, Point], ...] = ()  # (unit id, from, to)
    attacks: tuple[tuple[str, str], ...] = ()  # (attacker unit id, target unit id)
    focus: frozenset[str] = field(default_factory=frozenset)  # unit ids to emphasise


def side_colours(side_ids: list[str]) -> dict[str, str]:
    """Stable colour per side by order; the palette cycles for more than six sides."""
    return {sid: PALETTE[i % len(PALETTE)] for i, sid in enumerate(side_ids)}


# --- small helpers -------------------------------------------------------------------------------


def _fmt(value: Detail | float) -> str:
    """A detail as players read it: yes/no, short numbers, lists in words (issue 21 item 7)."""
    return value_text(value)


def _esc(text: str) -> str:
    return html.escape(text, quote=False)


def _rgba(hex_colour: str, alpha: float) -> str:
    h = hex_colour.lstrip("#")
    r, g, b = (int(h[i : i + 2], 16) for i in (0, 2, 4))
    return f"rgba({r},{g},{b},{alpha:.2f})"


def _damage_ratio(unit: UnitView) -> float:
    if unit.strength <= 0:
        return 0.0 if unit.damage <= 0 else 1.0
    return min(max(unit.damage / unit.strength, 0.0), 1.0)


def _marker_size(unit: UnitView) -> float:
    if unit.shapes:  # its shapes show it; the marker only marks the centre and holds the hover
        return float(SHAPED_MARKER_SIZE)
    return float(min(10 + 3 * max(unit.strength, 0), MAX_MARKER_SIZE))


def _slots(centre: Point, n: int) -> list[Point]:
    """Deterministic, distinct spots for ``n`` units in a unit-size box around ``centre``."""
    cx, cy = centre
    if n <= 1:
        return [centre]
    if n <= 6:  # a ring, starting at the top, clockwise
        return [
            (
                cx + SLOT_RADIUS * math.cos(math.pi / 2 - 2 * math.pi * i / n),
                cy + SLOT_RADIUS * math.sin(math.pi / 2 - 2 * math.pi * i / n),
            )
            for i in range(n)
        ]
    k = math.ceil(math.sqrt(n))  # a k x k square, row by row
    step = 2 * SLOT_SPAN / (k - 1)
    return [(cx - SLOT_SPAN + (i % k) * step, cy + SLOT_SPAN - (i // k) * step) for i in range(n)]


def _spread(groups: dict[Point, list[str]]) -> dict[str, Point]:
    """Unit id -> plotted point, spreading the units of each box around the box centre."""
    placed: dict[str, Point] = {}
    for centre, ids in groups.items():
        placed.update(zip(ids, _slots(centre, len(ids)), strict=True))
    return placed


def _hover(unit: UnitView, side_name: str, where: str, names: Names | None = None) -> str:
    """A unit's hover: its name, side, state and details, with the units and cards its
    details name written as their names (``names``: ``view_names`` of the view)."""
    say = names.text if names is not None else str
    lines = [
        f"<b>{_esc(unit.name)}</b>",
        f"kind: {_esc(unit.kind)}",
        f"side: {_esc(side_name)}",
        f"status: {_esc(unit.status)}",
        f"damage: {unit.damage}/{unit.strength}",
        where,
    ]
    if unit.heading is not None:
        lines.append(f"heading: {_fmt(unit.heading)}°")
    lines += [
        f"{_esc(k)}: {_esc(say(_fmt(v)))}" for k, v in unit.details.items() if v not in (None, "")
    ]
    return "<br>".join(lines)


def view_names(view: GameView) -> Names:
    """The display names of a view's units and sides, for its hovers (issue 21 item 7)."""
    sides = {s.id: s.name for s in view.sides if s.id.islower()}
    return Names({**sides, **unit_labels(view.units)})


def _where(unit: UnitView, seat: str | None = None) -> str:
    if unit.position is not None:
        return f"position: ({_fmt(unit.position[0])}, {_fmt(unit.position[1])})"
    if unit.cell is not None:
        return f"cell: ({unit.cell[0]}, {unit.cell[1]})"
    if unit.zone is not None:
        return f"zone: {_esc(unit.zone)}" + (f", seat: {_esc(seat)}" if seat else "")
    return "position: off board"


def _title(view: GameView, names: dict[str, str]) -> str:
    title = f"{view.ruleset_name} · {view.scenario} · turn {view.turn}, {view.phase}"
    if view.result is not None:
        winner = view.result.winner
        title += f" · result: {names.get(winner, winner) if winner else 'draw'}"
    return _esc(title)


# --- board ---------------------------------------------------------------------------------------


def _placements(view: GameView) -> tuple[dict[str, Point], dict[str, str]]:
    """Plotted point of every drawable unit, and the hover 'where' line of each."""
    units = view.units
    kind = view.board.kind
    if kind == "continuous":
        pts = {
            u.id: (float(u.position[0]), float(u.position[1]))
            for u in units
            if u.position is not None
        }
        return pts, {u.id: _where(u) for u in units if u.id in pts}
    if kind == "grid":
        groups: dict[Point, list[str]] = {}
        for u in units:
            if u.cell is not None:
                groups.setdefault((u.cell[0] + 0.5, u.cell[1] + 0.5), []).append(u.id)
        pts = _spread(groups)
        return pts, {u.id: _where(u) for u in units if u.id in pts}
    # zones: x = seat column, y = zone row
    seats, zones = _zone_axes(view)
    groups = {}
    where: dict[str, str] = {}
    for u in units:
        if u.zone is None:
            continue
        seat = _seat_of(u)
        groups.setdefault((float(seats.index(seat)), float(zones.index(u.zone))), []).append(u.id)
        where[u.id] = _where(u, seat)
    return _spread(groups), where


def _seat_of(unit: UnitView) -> str:
    seat = unit.details.get("seat")
    return seat if isinstance(seat, str) and seat else unit.side


def _zone_axes(view: GameView) -> tuple[list[str], list[str]]:
    """Seat and zone names in axis order; seats / zones used by units but not listed go last."""
    seats = list(view.board.seats) or [s.id for s in view.sides]
    zones = list(view.board.zones)
    for u in view.units:
        if u.zone is None:
            continue
        if _seat_of(u) not in seats:
            seats.append(_seat_of(u))
        if u.zone not in zones:
            zones.append(u.zone)
    return seats, zones


def _unit_trace(
    name: str,
    uid: str,
    units: list[UnitView],
    pts: dict[str, Point],
    where: dict[str, str],
    side_name: str,
    colour: str,
    *,
    out: bool,
    names: Names | None = None,
) -> go.Scatter:
    marker: dict[str, Any]
    if out:
        marker = {"symbol": "x", "color": colour, "opacity": 0.45, "size": 12}
    else:
        marker = {
            "symbol": "circle",
            "size": [_marker_size(u) for u in units],
            # damage state: the fill fades from solid to hollow as damage reaches strength
            "color": [_rgba(colour, 1 - (1 - MIN_FILL_ALPHA) * _damage_ratio(u)) for u in units],
            "line": {"color": colour, "width": 2},
        }
    return go.Scatter(
        name=_esc(name),  # legend text: plotly renders tags in it
        uid=uid,
        legendgroup=side_name,
        x=[pts[u.id][0] for u in units],
        y=[pts[u.id][1] for u in units],
        mode="markers+text",
        # a unit drawn with shapes is named under them instead (its zone labels are inside);
        # hidden cards (a hand) crowd a box: they show on hover only
        text=["" if u.private or (u.shapes and not out) else _esc(u.id) for u in units],
        textposition="top center",
        textfont={"size": 10, "color": "#888888" if out else "#222222"},
        customdata=[u.id for u in units],
        hovertext=[_hover(u, side_name, where[u.id], names) for u in units],
        hovertemplate="%{hovertext}<extra></extra>",
        marker=marker,
    )


def _draw_board(fig: go.Figure, view: GameView) -> None:
    """Table / cells / boxes as shapes, plus axes."""
    board = view.board
    grey = "#B0B0B0"
    if board.kind == "continuous":
        fig.add_shape(
            type="rect",
            x0=0,
            y0=0,
            x1=board.width,
            y1=board.height,
            layer="below",
            fillcolor="#EEF3F7",
            line={"color": grey, "width": 1},
        )
        (x0, x1), (y0, y1) = _action_window(view)
        fig.update_xaxes(range=[x0, x1], title_text=f"x ({board.unit})")
        fig.update_yaxes(
            range=[y0, y1],
            title_text=f"y ({board.unit})",
            scaleanchor="x",
            scaleratio=1,
        )
        return
    if board.kind == "grid":
        cols, rows = int(board.width), int(board.height)
        for c in range(cols):
            for r in range(rows):
                fig.add_shape(
                    type="rect",
                    x0=c,
                    y0=r,
                    x1=c + 1,
                    y1=r + 1,
                    layer="below",
                    fillcolor="#F4F6F8",
                    line={"color": grey, "width": 1},
                )
        _cells_trace(fig, view)
        fig.update_xaxes(
            range=[0, cols],
            tickvals=[c + 0.5 for c in range(cols)],
            ticktext=[str(c) for c in range(cols)],
            showgrid=False,
            zeroline=False,
            title_text="column",
        )
        fig.update_yaxes(  # row 0 at the top, as grid maps are printed (IO: row 0 = N edge)
            range=[rows, -0.25],  # a little headroom for the labels of the top row
            tickvals=[r + 0.5 for r in range(rows)],
            ticktext=[str(r) for r in range(rows)],
            showgrid=False,
            zeroline=False,
            title_text="row",
            scaleanchor="x",
            scaleratio=1,
        )
        return
    seats, zones = _zone_axes(view)
    for i in range(len(seats)):
        for j in range(len(zones)):
            fig.add_shape(
                type="rect",
                x0=i - 0.5,
                y0=j - 0.5,
                x1=i + 0.5,
                y1=j + 0.5,
                layer="below",
                fillcolor="#F4F6F8",
                line={"color": grey, "width": 1},
            )
    fig.update_xaxes(
        range=[-0.5, len(seats) - 0.5],
        tickvals=list(range(len(seats))),
        ticktext=seats,
        showgrid=False,
        zeroline=False,
        title_text="seat",
    )
    fig.update_yaxes(  # first zone at the top
        range=[len(zones) - 0.5, -0.5],
        tickvals=list(range(len(zones))),
        ticktext=zones,
        showgrid=False,
        zeroline=False,
        title_text="zone",
    )


def _cells_trace(fig: go.Figure, view: GameView) -> None:
    cells = view.board.cells
    if not cells:
        return
    hover = []
    for cell in cells:
        lines = [f"<b>cell ({cell.cell[0]}, {cell.cell[1]})</b>"]
        if cell.label:
            lines.append(_esc(cell.label))
        lines += [f"{_esc(k)}: {_esc(_fmt(v))}" for k, v in cell.details.items() if v is not None]
        hover.append("<br>".join(lines))
    fig.add_trace(
        go.Scatter(
            name="cells",
            uid="cells",
            x=[c.cell[0] + 0.5 for c in cells],
            y=[c.cell[1] + 0.5 for c in cells],
            mode="markers",  # a faint hover point at the centre; units sit around it
            marker={"size": 6, "color": "#C8C8C8", "opacity": 0.5},
            text=[c.label for c in cells],
            customdata=[f"{c.cell[0]},{c.cell[1]}" for c in cells],
            hovertext=hover,
            hovertemplate="%{hovertext}<extra></extra>",
            showlegend=False,
        )
    )
    for cell in cells:  # labels in the top-left corner, clear of the units
        if cell.label:
            fig.add_annotation(
                x=cell.cell[0] + 0.03,
                y=cell.cell[1] + 0.03,  # row 0 is at the top: small y is the box's top edge
                xref="x",
                yref="y",
                text=_esc(cell.label),
                showarrow=False,
                xanchor="left",
                yanchor="top",
                font={"size": 9, "color": "#888888"},
            )


def _draw_highlight(
    fig: go.Figure,
    view: GameView,
    highlight: Highlight,
    pts: dict[str, Point],
    colours: dict[str, str],
) -> None:
    units = {u.id: u for u in view.units}
    shift = 0.5 if view.board.kind == "grid" else 0.0  # grid moves go cell centre to cell centre
    for uid, src, dst in highlight.moves:
        unit = units.get(uid)
        colour = colours.get(unit.side, FOCUS_COLOUR) if unit else FOCUS_COLOUR
        fig.add_annotation(
            x=dst[0] + shift,
            y=dst[1] + shift,
            ax=src[0] + shift,
            ay=src[1] + shift,
            xref="x",
            yref="y",
            axref="x",
            ayref="y",
            text="",
            showarrow=True,
            arrowhead=2,
            arrowsize=1.2,
            arrowwidth=2,
            arrowcolor=colour,
            standoff=_marker_size(unit) / 2 + 2 if unit else 0,  # stop at the marker's edge
            hovertext=f"{_esc(unit.name if unit else uid)} moves",
        )
    first = True
    for attacker, target in highlight.attacks:
        if attacker not in pts or target not in pts:
            continue
        (x0, y0), (x1, y1) = pts[attacker], pts[target]
        fig.add_trace(
            go.Scatter(
                name="attack",
                legendgroup="attack",
                showlegend=first,
                x=[x0, x1],
                y=[y0, y1],
                mode="lines",
                line={"color": ATTACK_COLOUR, "dash": "dash", "width": 2},
                customdata=[attacker, target],
                hovertemplate=(
                    f"{_esc(units[attacker].name if attacker in units else attacker)} → "
                    f"{_esc(units[target].name if target in units else target)}"
                    "<extra>attack</extra>"
                ),
            )
        )
        first = False
    focused = [u for u in view.units if u.id in highlight.focus and u.id in pts]
    outlined = [u for u in focused if u.shapes]  # drawn with shapes: their outline goes bold
    if outlined:
        outlines: list[Geometry] = [
            s for u in outlined for s in u.shapes if s.style == "base" and (s.closed or s.is_circle)
        ]
        trace = _line_trace(
            "focus outline",
            "focus-outline",
            outlines or [s for u in outlined for s in u.shapes],
            colour=FOCUS_COLOUR,
            dash="solid",
            width=3,
            group="focus",
        )
        fig.add_trace(trace)
    focus = [u for u in focused if not u.shapes]
    if focus:
        fig.add_trace(
            go.Scatter(
                name="focus",
                uid="focus",
                x=[pts[u.id][0] for u in focus],
                y=[pts[u.id][1] for u in focus],
                mode="markers",
                marker={
                    "symbol": "circle-open",
                    "size": [_marker_size(u) + 14 for u in focus],
                    "color": FOCUS_COLOUR,
                    "line": {"width": 3},
                },
                customdata=[u.id for u in focus],
                hoverinfo="skip",
                showlegend=False,
            )
        )


# --- geometry: shapes, features, overlays --------------------------------------------------------


@lru_cache(maxsize=4096)
def _circle_ring(centre: Point, radius: float) -> tuple[Point, ...]:
    ring = ShapelyPoint(centre).buffer(radius, quad_segs=CIRCLE_QUAD_SEGS).exterior.coords
    return tuple((float(x), float(y)) for x, y in ring)


def _outline(geom: Geometry) -> Sequence[Point]:
    """The points to draw: a closed ring (first point repeated), a polyline, or a circle's ring."""
    if geom.centre is not None and geom.radius is not None:
        return _circle_ring(geom.centre, geom.radius)
    if geom.closed:
        return [*geom.points, geom.points[0]]
    return geom.points


def _batched(geoms: Iterable[Geometry]) -> tuple[list[float | None], list[float | None]]:
    """x and y of many outlines in one trace, separated by ``None`` gaps (plotly fills each
    part of a ``toself`` trace on its own)."""
    xs: list[float | None] = []
    ys: list[float | None] = []
    for geom in geoms:
        if xs:
            xs.append(None)
            ys.append(None)
        for x, y in _outline(geom):
            xs.append(x)
            ys.append(y)
    return xs, ys


@lru_cache(maxsize=4096)
def _inner_point(points: tuple[Point, ...], closed: bool) -> Point:
    """Where a label goes: the polygon's pole of inaccessibility (the inside point farthest from
    its edges), or a polyline's midpoint along its length."""
    if not closed:
        mid = LineString(points).interpolate(0.5, normalized=True)
        return (float(mid.x), float(mid.y))
    poly = ShapelyPolygon(points)
    if not poly.is_valid or poly.area <= 0:
        c = poly.centroid if poly.area > 0 else LineString(points).centroid
        return (float(c.x), float(c.y))
    minx, miny, maxx, maxy = poly.bounds
    found = polylabel(poly, tolerance=max(maxx - minx, maxy - miny) / 100)
    return (float(found.x), float(found.y))


def _label_point(geom: Geometry) -> Point:
    if geom.centre is not None:
        return geom.centre
    return _inner_point(tuple(geom.points), geom.closed)


def _fill_trace(
    name: str, uid: str, geoms: Sequence[Geometry], *, fill: str, line: str, group: str
) -> go.Scatter:
    xs, ys = _batched(geoms)
    return go.Scatter(
        name=_esc(name),
        uid=uid,
        legendgroup=group,
        showlegend=False,
        x=xs,
        y=ys,
        mode="lines",
        fill="toself",
        fillcolor=fill,
        line={"color": line, "width": 1},
        hoverinfo="skip",
    )


def _line_trace(
    name: str,
    uid: str,
    geoms: Sequence[Geometry],
    *,
    colour: str,
    dash: str,
    width: float,
    group: str,
) -> go.Scatter:
    xs, ys = _batched(geoms)
    return go.Scatter(
        name=_esc(name),
        uid=uid,
        legendgroup=group,
        showlegend=False,
        x=xs,
        y=ys,
        mode="lines",
        line={"color": colour, "dash": dash, "width": width},
        hoverinfo="skip",
    )


def _label_trace(
    name: str,
    uid: str,
    labelled: Sequence[tuple[Geometry, str]],
    *,
    colour: str,
    size: int,
    group: str | None = None,
) -> go.Scatter:
    """One text trace for many labels, each with its own (escaped) hover text."""
    points = [_label_point(g) for g, _ in labelled]
    return go.Scatter(
        name=_esc(name),
        uid=uid,
        legendgroup=group,
        showlegend=False,
        x=[p[0] for p in points],
        y=[p[1] for p in points],
        mode="text",
        text=[_esc(str(getattr(g, "label", ""))) for g, _ in labelled],
        textposition="middle center",
        textfont={"size": size, "color": colour},
        hovertext=[hover for _, hover in labelled],
        hovertemplate="%{hovertext}<extra></extra>",
    )


def _draw_features(fig: go.Figure, view: GameView) -> None:
    features = view.board.features
    if not features:
        return
    group = "board features"
    fig.add_trace(
        _fill_trace(
            group, "features", list(features), fill=FEATURE_FILL, line=FEATURE_LINE, group=group
        )
    )
    labelled = []
    for f in features:
        lines = [f"<b>{_esc(f.name or f.id)}</b> ({_esc(f.id)})"]
        if f.kind:
            lines.append(f"kind: {_esc(f.kind)}")
        lines += [f"{_esc(k)}: {_esc(_fmt(v))}" for k, v in f.details.items() if v is not None]
        labelled.append((f, "<br>".join(lines)))
    fig.add_trace(
        _label_trace(
            "feature labels", "feature-labels", labelled, colour="#555555", size=9, group=group
        )
    )


def _below(unit: UnitView) -> Point:
    """Where a shaped unit's name goes: under its outline (lines such as arcs left out)."""
    closed = [s for s in unit.shapes if s.closed or s.is_circle] or unit.shapes
    ys = [y for s in closed for _, y in _outline(s)]
    if unit.position is not None:
        x = float(unit.position[0])
    else:
        xs = [x for s in closed for x, _ in _outline(s)]
        x = (min(xs) + max(xs)) / 2
    return (x, min(ys))


def _draw_shapes(
    fig: go.Figure, i: int, units: list[UnitView], side_name: str, colour: str
) -> None:
    """One side's unit shapes: a trace per style (bases, zones, arcs, headings), one for the
    shapes of units out of play, one for the labels."""
    by_style: dict[str, list[Geometry]] = {"base": [], "zone": [], "heading": [], "arc": []}
    out: list[Geometry] = []
    labelled: list[tuple[Geometry, str]] = []
    named: list[tuple[str, Point]] = []
    for unit in units:
        if unit.status != "active":
            out += unit.shapes
            continue
        named.append((unit.id, _below(unit)))
        for shape in unit.shapes:
            by_style["arc" if not shape.closed else shape.style].append(shape)
            if shape.label:
                hover = (
                    f"<b>{_esc(unit.name)}</b> ({_esc(unit.id)})<br>"
                    f"{_esc(shape.part)}: {_esc(shape.label)}"
                )
                labelled.append((shape, hover))
    if out:
        fig.add_trace(
            _line_trace(
                f"{side_name} shapes (out)",
                f"out-shapes{i}",
                out,
                colour=OUT_LINE,
                dash="dot",
                width=1,
                group=side_name,
            )
        )
    for style in ("base", "zone", "heading"):
        if by_style[style]:
            fig.add_trace(
                _fill_trace(
                    f"{side_name} {style}s",
                    f"{style}s{i}",
                    by_style[style],
                    fill=_rgba(colour, SHAPE_FILL_ALPHA[style]),
                    line=colour,
                    group=side_name,
                )
            )
    if by_style["arc"]:
        fig.add_trace(
            _line_trace(
                f"{side_name} arcs",
                f"arcs{i}",
                by_style["arc"],
                colour=_rgba(colour, 0.55),
                dash="dot",
                width=1,
                group=side_name,
            )
        )
    if named:
        fig.add_trace(
            go.Scatter(
                name=f"{_esc(side_name)} names",
                uid=f"names{i}",
                legendgroup=side_name,
                showlegend=False,
                x=[p[0] for _, p in named],
                y=[p[1] for _, p in named],
                mode="text",
                text=[_esc(uid) for uid, _ in named],
                textposition="bottom center",
                textfont={"size": 10, "color": "#222222"},
                hoverinfo="skip",
            )
        )
    if labelled:
        fig.add_trace(
            _label_trace(
                f"{side_name} labels",
                f"labels{i}",
                labelled,
                colour="#111111",
                size=11,
                group=side_name,
            )
        )


def _overlay_colour(kind: str, kinds: list[str]) -> str:
    if kind in OVERLAY_COLOURS:
        return OVERLAY_COLOURS[kind]
    others = [k for k in kinds if k not in OVERLAY_COLOURS]
    return OVERLAY_OTHER[others.index(kind) % len(OVERLAY_OTHER)]


def _draw_overlays(fig: go.Figure, view: GameView, names: dict[str, str]) -> None:
    """One dashed trace per overlay kind (its areas faintly filled), one trace of labels."""
    if not view.overlays:
        return
    kinds = list(dict.fromkeys(o.kind for o in view.overlays))
    labelled: list[tuple[Geometry, str]] = []
    for j, kind in enumerate(kinds):
        colour = _overlay_colour(kind, kinds)
        of_kind = [o for o in view.overlays if o.kind == kind]
        areas: list[Geometry] = [o for o in of_kind if o.closed]
        lines: list[Geometry] = [o for o in of_kind if not o.closed]
        label = kind.replace("_", " ")
        if areas:
            trace = _fill_trace(
                label,
                f"overlay-areas{j}",
                areas,
                fill=_rgba(colour, 0.08),
                line=colour,
                group=label,
            )
            trace.line.dash = "dash"
            trace.showlegend = not lines
            fig.add_trace(trace)
        if lines:
            trace = _line_trace(
                label, f"overlay{j}", lines, colour=colour, dash="dash", width=2, group=label
            )
            trace.showlegend = True
            fig.add_trace(trace)
        for o in of_kind:
            if not o.label:
                continue
            who = ", ".join(names.get(u, u) for u in o.units)
            lines_ = [f"<b>{_esc(label)}</b>: {_esc(o.label)}"]
            if who:
                lines_.append(_esc(who))
            lines_ += [f"{_esc(k)}: {_esc(_fmt(v))}" for k, v in o.details.items() if v is not None]
            labelled.append((o, "<br>".join(lines_)))
    if labelled:
        fig.add_trace(
            _label_trace("overlay labels", "overlay-labels", labelled, colour="#333333", size=10)
        )


MAX_TURN_MARKS = 40  # turn lines a time-series chart draws at most
BOARD_HEIGHT = 560
TALL_BOARD_HEIGHT = 760
ACTION_PAD = 0.15  # of the board's longer side, around the units in play
ACTION_MIN = 0.6  # a window below this share of the board's longer side is widened


def _action_window(view: GameView) -> tuple[tuple[float, float], tuple[float, float]]:
    """The part of a continuous board to show first: the units in play with a margin (zoom to
    the action), or the whole board when they spread over most of it. Plotly's reset (double
    click) and the user's own zoom work as usual."""
    board = view.board
    pad = 0.03 * max(board.width, board.height)
    whole = ((-pad, board.width + pad), (-pad, board.height + pad))
    points = [
        (p[0] + dx, p[1] + dy)
        for u in view.units
        if u.status == "active" and (p := u.position) is not None
        for dx, dy in _extent(u)
    ]
    if not points:
        return whole
    margin = ACTION_PAD * max(board.width, board.height)
    least = ACTION_MIN * max(board.width, board.height)
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    x0, x1 = min(xs) - margin, max(xs) + margin
    y0, y1 = min(ys) - margin, max(ys) + margin
    span = max(x1 - x0, y1 - y0, least)
    if span >= max(board.width, board.height):
        return whole
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    x0, y0 = cx - span / 2, cy - span / 2
    x0 = min(max(x0, -pad), board.width + pad - span)
    y0 = min(max(y0, -pad), board.height + pad - span)
    return (x0, x0 + span), (y0, y0 + span)


def _extent(unit: UnitView) -> list[tuple[float, float]]:
    """Offsets from a unit's position to the corners of its shapes (a point when it has none)."""
    if unit.position is None or not unit.shapes:
        return [(0.0, 0.0)]
    px, py = unit.position
    found = [(x - px, y - py) for shape in unit.shapes for x, y in shape.points]
    return found or [(0.0, 0.0)]


def board_height(view: GameView) -> int:
    """A figure height for the board: a continuous table as deep as it is wide (Armada's
    3' × 3') gets a taller figure than a long one (Morze's 120 × 60 cm), so its geometry is
    drawn large enough to read; grids and zones keep the default."""
    board = view.board
    if board.kind != "continuous" or board.width <= 0:
        return BOARD_HEIGHT
    wanted = 200 + 700 * board.height / board.width
    return int(min(max(wanted, BOARD_HEIGHT), TALL_BOARD_HEIGHT))


def board_figure(
    view: GameView, highlight: Highlight | None = None, *, height: int = BOARD_HEIGHT
) -> go.Figure:
    """The board of one game state: units per side, out-of-play units, and the event highlight."""
    side_ids = [s.id for s in view.sides]
    side_ids += list(dict.fromkeys(u.side for u in view.units if u.side not in side_ids))
    names = {s.id: s.name for s in view.sides}
    colours = side_colours(side_ids)
    pts, where = _placements(view)
    hover_names = view_names(view)

    fig = go.Figure()
    _draw_board(fig, view)
    _draw_features(fig, view)
    for i, sid in enumerate(side_ids):  # shapes under every marker
        drawn = [u for u in view.units if u.side == sid and u.shapes]
        if drawn:
            _draw_shapes(fig, i, drawn, names.get(sid, sid), colours[sid])
    _draw_overlays(fig, view, {u.id: u.name for u in view.units})
    for i, sid in enumerate(side_ids):  # uids by side order: plotly.js uses them in CSS selectors
        name = names.get(sid, sid)
        drawn = [u for u in view.units if u.side == sid and u.id in pts]
        active = [u for u in drawn if u.status == "active"]
        out = [u for u in drawn if u.status != "active"]
        args = (pts, where, name, colours[sid])
        fig.add_trace(_unit_trace(name, f"side{i}", active, *args, out=False, names=hover_names))
        if out:
            fig.add_trace(
                _unit_trace(f"{name} (out)", f"out{i}", out, *args, out=True, names=hover_names)
            )
    if highlight is not None:
        _draw_highlight(fig, view, highlight, pts, colours)

    fig.update_layout(
        title={"text": _title(view, names), "x": 0.01, "xanchor": "left"},
        height=height,
        margin={"l": 50, "r": 10, "t": 40, "b": 40},
        legend={
            "orientation": "h",
            "yanchor": "top",
            "y": -0.12,
            "x": 0,
            "title": {"text": "fill fades with damage ·"},
        },
        uirevision=BOARD_UIREVISION,
        plot_bgcolor="white",
        hovermode="closest",
    )
    return fig


# --- time series ---------------------------------------------------------------------------------


def timeseries_figure(
    title: str,
    series: dict[str, list[tuple[int, float]]],
    *,
    cursor: int,
    turn_starts: Sequence[tuple[int, int]] = (),
    y_title: str = "",
    colours: dict[str, str] | None = None,
    end: int | None = None,
    height: int = 300,
) -> go.Figure:
    """Step lines over event numbers (value holds until the next point), with a cursor line.

    Every point carries its event seq in ``customdata`` so a click can move the replay there.
    """
    fig = go.Figure()
    fig.update_layout(
        title={"text": _esc(title), "x": 0.01, "xanchor": "left"},
        height=height,
        margin={"l": 50, "r": 10, "t": 50, "b": 40},
        uirevision=TIMESERIES_UIREVISION,
        clickmode="event+select",
        plot_bgcolor="white",
        legend={"orientation": "h", "yanchor": "top", "y": -0.25, "x": 0},
    )
    if not series:
        fig.add_annotation(
            text="no data",
            xref="paper",
            yref="paper",
            x=0.5,
            y=0.5,
            showarrow=False,
            font={"size": 14, "color": "#888888"},
        )
        fig.update_xaxes(visible=False)
        fig.update_yaxes(visible=False)
        return fig

    for i, (name, points) in enumerate(series.items()):
        xs = [seq for seq, _ in points]
        ys = [value for _, value in points]
        sizes = [6.0] * len(xs)
        if end is not None and xs and xs[-1] < end:
            xs.append(end)  # carry the last value to the end; no marker: nothing happened there
            ys.append(ys[-1])
            sizes.append(0.0)
        colour = (colours or {}).get(name, PALETTE[i % len(PALETTE)])
        fig.add_trace(
            go.Scatter(
                name=_esc(name),
                x=xs,
                y=ys,
                mode="lines+markers",
                line_shape="hv",
                line={"color": colour, "width": 2},
                marker={"size": sizes, "color": colour},
                customdata=xs,
                hovertemplate=f"event %{{x}}<br>%{{y}}<extra>{_esc(name)}</extra>",
            )
        )

    # turn lines in one layout update (adding shapes one by one is quadratic in plotly: a
    # 400-turn game took half a minute per chart); a long game labels every n-th turn only
    step = max(1, math.ceil(len(turn_starts) / MAX_TURN_MARKS))
    marks = list(turn_starts)[::step]
    shapes = [
        {
            "type": "line",
            "x0": seq,
            "x1": seq,
            "xref": "x",
            "y0": 0,
            "y1": 1,
            "yref": "paper",
            "layer": "below",
            "line": {"color": "#BBBBBB", "width": 1, "dash": "dot"},
        }
        for _, seq in marks
    ]
    notes = [
        {
            "x": seq,
            "y": 1,
            "xref": "x",
            "yref": "paper",
            "text": f"T{turn}",
            "showarrow": False,
            "xanchor": "left",
            "yanchor": "top",
            "font": {"size": 9, "color": "#888888"},
        }
        for turn, seq in marks
    ]
    fig.update_layout(
        shapes=[*fig.layout.shapes, *shapes], annotations=[*fig.layout.annotations, *notes]
    )
    _cursor(fig, cursor)
    fig.update_xaxes(title_text="event", showgrid=True, gridcolor="#EEEEEE", zeroline=False)
    fig.update_yaxes(title_text=y_title, showgrid=True, gridcolor="#EEEEEE", zeroline=False)
    return fig


def _cursor(fig: go.Figure, cursor: int) -> None:
    fig.add_shape(
        type="line",
        x0=cursor,
        x1=cursor,
        xref="x",
        y0=0,
        y1=1,
        yref="paper",
        line={"color": "#222222", "width": 2},
    )
    fig.add_annotation(
        x=cursor,
        y=1,
        xref="x",
        yref="paper",
        text=f"event {cursor}",
        showarrow=False,
        yanchor="bottom",
        font={"size": 10, "color": "#222222"},
    )


# --- static export -------------------------------------------------------------------------------


def figure_png(fig: go.Figure, *, width: int = 1000, height: int = 600) -> bytes:
    """PNG bytes of a figure (kaleido drives a headless Chromium)."""
    try:
        data: object = fig.to_image(format="png", width=width, height=height)
    except Exception as err:
        raise RuntimeError(f"static export needs Chromium: {err}") from err
    if not isinstance(data, bytes):
        raise RuntimeError(f"static export returned {type(data).__name__}, not PNG bytes")
    return data


__all__ = [
    "Highlight",
    "board_figure",
    "board_height",
    "figure_png",
    "side_colours",
    "timeseries_figure",
]
