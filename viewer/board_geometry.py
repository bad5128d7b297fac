"""The board's geometry drawn as data, whatever the ruleset: a unit's ``shapes`` as filled
polygons and circles in its side's colour (by ``style``), the board's ``features`` in grey, the
game's ``overlays`` as dashed lines with their labels. Shapes are batched: one Plotly trace per
side and style (polygons separated by ``None`` gaps), never one per polygon. Split from
``viewer.figures`` (issue 22 item 18), which composes the board from these layers."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache

from shapely.geometry import LineString
from shapely.geometry import Point as ShapelyPoint
from shapely.geometry import Polygon as ShapelyPolygon
from shapely.ops import polylabel

from domain.read_model import GameView, UnitView
from viewer.figure_style import (
    CIRCLE_QUAD_SEGS,
    FEATURE_FILL,
    FEATURE_LINE,
    OUT_LINE,
    OVERLAY_COLOURS,
    OVERLAY_OTHER,
    SHAPE_FILL_ALPHA,
    Geometry,
    Point,
    _esc,
    _fmt,
    _rgba,
)
from viewer.label_place import Placed
from viewer.plain_figure import Figure, Trace, scatter


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
    name: str,
    uid: str,
    geoms: Sequence[Geometry],
    *,
    fill: str,
    line: str,
    group: str,
    dash: str | None = None,
    legend: bool = False,
) -> Trace:
    xs, ys = _batched(geoms)
    return scatter(
        name=_esc(name),
        uid=uid,
        legendgroup=group,
        showlegend=legend,
        x=xs,
        y=ys,
        mode="lines",
        fill="toself",
        fillcolor=fill,
        line={"color": line, "width": 1, "dash": dash},
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
    legend: bool = False,
) -> Trace:
    xs, ys = _batched(geoms)
    return scatter(
        name=_esc(name),
        uid=uid,
        legendgroup=group,
        showlegend=legend,
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
) -> Trace:
    """One text trace for many labels, each with its own (escaped) hover text."""
    points = [_label_point(g) for g, _ in labelled]
    return scatter(
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


def _draw_features(fig: Figure, view: GameView) -> None:
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
    fig: Figure,
    i: int,
    units: list[UnitView],
    side_name: str,
    colour: str,
    labels: Mapping[str, str] | None = None,
    places: Mapping[str, Placed | None] | None = None,
) -> None:
    """One side's unit shapes: a trace per style (bases, zones, arcs, headings), one for the
    shapes of units out of play, one for the labels; each unit named by its display name
    (``labels``, ``domain.words.unit_labels``), never its id: where ``places`` puts the name
    (``viewer.label_place``; ``None``: left to the hover), else under its shapes."""
    labels = labels or {}
    by_style: dict[str, list[Geometry]] = {"base": [], "zone": [], "heading": [], "arc": []}
    out: list[Geometry] = []
    labelled: list[tuple[Geometry, str]] = []
    named: list[tuple[str, Point, str]] = []
    for unit in units:
        if unit.status != "active":
            out += unit.shapes
            continue
        label = labels.get(unit.id) or unit.name
        if unit.damage > 0 and unit.strength > 0:  # as the unit's marker label says it
            label += f" {unit.damage}/{unit.strength}"
        place = (places or {}).get(unit.id, Placed(*_below(unit), "bottom center"))
        if place is not None:
            named.append((label, (place.x, place.y), place.position))
        for shape in unit.shapes:
            by_style["arc" if not shape.closed else shape.style].append(shape)
            if shape.label:
                hover = (
                    f"<b>{_esc(labels.get(unit.id) or unit.name)}</b><br>"
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
            scatter(
                name=f"{_esc(side_name)} names",
                uid=f"names{i}",
                legendgroup=side_name,
                showlegend=False,
                x=[p[0] for _, p, _ in named],
                y=[p[1] for _, p, _ in named],
                mode="text",
                text=[_esc(label) for label, _, _ in named],
                textposition=[position for _, _, position in named],
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


def _draw_overlays(fig: Figure, view: GameView, names: dict[str, str]) -> None:
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
                dash="dash",
                legend=not lines,
            )
            fig.add_trace(trace)
        if lines:
            trace = _line_trace(
                label,
                f"overlay{j}",
                lines,
                colour=colour,
                dash="dash",
                width=2,
                group=label,
                legend=True,
            )
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
