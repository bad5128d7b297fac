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

import math
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import plotly.graph_objects as go

from domain.read_model import FeatureView, GameView, ShapeView, UnitView
from domain.words import Names, unit_labels
from viewer.board_geometry import (
    _draw_features,
    _draw_overlays,
    _draw_shapes,
    _label_point,
    _line_trace,
    _outline,
)
from viewer.board_table import (
    TableLayout,
    attack_path,
    draw_table,
    focus_table,
    frame_table,
    is_ring,
    seat_of,
    table_layout,
    zone_axes,
)
from viewer.charts import timeseries_figure
from viewer.figure_style import (
    ATTACK_COLOUR,
    BOARD_HEIGHT,
    BOARD_UIREVISION,
    FOCUS_COLOUR,
    MAX_TURN_MARKS,
    MIN_FILL_ALPHA,
    PALETTE,
    SLOT_RADIUS,
    SLOT_SPAN,
    TALL_BOARD_HEIGHT,
    TIMESERIES_UIREVISION,
    Geometry,
    Point,
    _damage_ratio,
    _esc,
    _fmt,
    _marker_size,
    _rgba,
)
from viewer.label_place import Anchor, Placed, board_scale, place_names
from viewer.plain_figure import Figure, PlainFigure, Trace, drawing_plain, scatter


@dataclass(frozen=True)
class Highlight:
    """What the current event did, drawn on the board.

    ``moves`` are in board coordinates (continuous), cell coordinates (grid) or
    (seat index, zone index) (zones).
    """

    moves: tuple[tuple[str, Point, Point], ...] = ()  # (unit id, from, to)
    attacks: tuple[tuple[str, str], ...] = ()  # (attacker unit id, target unit id)
    focus: frozenset[str] = field(default_factory=frozenset)  # unit ids to emphasise


def moved_units(before: GameView, after: GameView) -> list[tuple[str, Point, Point]]:
    """Each unit that moved from ``before`` to ``after``: (id, from, to), a grid cell by its
    centre (``Highlight.moves``)."""
    old = {u.id: u for u in before.units}
    moves: list[tuple[str, Point, Point]] = []
    for unit in after.units:
        prev = old.get(unit.id)
        if prev is None:
            continue
        if unit.position and prev.position and unit.position != prev.position:
            moves.append((unit.id, prev.position, unit.position))
        elif unit.cell and prev.cell and unit.cell != prev.cell:
            moves.append(
                (
                    unit.id,
                    (prev.cell[0] + 0.5, prev.cell[1] + 0.5),
                    (unit.cell[0] + 0.5, unit.cell[1] + 0.5),
                )
            )
    return moves


def side_colours(side_ids: list[str]) -> dict[str, str]:
    """Stable colour per side by order; the palette cycles for more than six sides."""
    return {sid: PALETTE[i % len(PALETTE)] for i, sid in enumerate(side_ids)}


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
    seats, zones = zone_axes(view)
    groups = {}
    where: dict[str, str] = {}
    for u in units:
        if u.zone is None:
            continue
        seat = seat_of(u)
        groups.setdefault((float(seats.index(seat)), float(zones.index(u.zone))), []).append(u.id)
        where[u.id] = _where(u, seat)
    return _spread(groups), where


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
    labels: dict[str, str] | None = None,
    places: Mapping[str, Placed | None] | None = None,
) -> Trace:
    """One side's markers (in play, or ``out``), named where ``places`` put each name (a unit
    missing from ``places`` above its marker; ``None``: no clear place, the hover names it)."""
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
    return scatter(
        name=_esc(name),  # legend text: plotly renders tags in it
        uid=uid,
        legendgroup=side_name,
        x=[pts[u.id][0] for u in units],
        y=[pts[u.id][1] for u in units],
        mode="markers+text",
        # a unit drawn with shapes is named under them instead (its zone labels are inside);
        # hidden cards (a hand) crowd a box: they show on hover only
        text=[
            ""
            if u.private or (u.shapes and not out) or (places or {}).get(u.id, True) is None
            else _esc(_label(u, labels))
            for u in units
        ],
        textposition=[_position(places, u.id) for u in units],
        textfont={"size": 10, "color": "#888888" if out else "#222222"},
        customdata=[u.id for u in units],
        hovertext=[_hover(u, side_name, where[u.id], names) for u in units],
        hovertemplate="%{hovertext}<extra></extra>",
        marker=marker,
    )


def _position(places: Mapping[str, Placed | None] | None, uid: str) -> str:
    place = (places or {}).get(uid)
    return place.position if place is not None else "top center"


def _name_places(
    view: GameView,
    pts: dict[str, Point],
    highlight: Highlight | None,
    height: int,
    labels: dict[str, str],
) -> dict[str, Placed | None]:
    """Where each unit's name goes on a continuous board (``viewer.label_place``): the
    current event's units first, then the units in play, then those out of play."""
    (_, _), (y0, y1) = _action_window(view)
    scale = board_scale(height, y1 - y0)
    first = set(highlight.focus) if highlight else set()
    if highlight:
        first |= {u for u, _, _ in highlight.moves} | {
            u for pair in highlight.attacks for u in pair
        }
    units = [u for u in view.units if u.id in pts and not u.private]
    units.sort(key=lambda u: (u.id not in first, u.status != "active"))
    anchors: list[Anchor] = []
    for u in units:
        text = _label(u, labels)
        closed = [sh for sh in u.shapes if sh.closed or sh.is_circle]
        if closed and u.status == "active":
            outline = [p for sh in closed for p in _outline(sh)]
            xs, ys = [p[0] for p in outline], [p[1] for p in outline]
            anchors.append(Anchor(u.id, text, min(xs), min(ys), max(xs), max(ys)))
        else:
            x, y = pts[u.id]
            radius = 6.0 if u.status != "active" else _marker_size(u) / 2
            anchors.append(Anchor(u.id, text, x, y, x, y, radius))
    markers = [
        (*pts[u.id], 6.0 if u.status != "active" else _marker_size(u) / 2)
        for u in view.units
        if u.id in pts
    ]
    shapes: list[ShapeView | FeatureView] = [
        *view.board.features,
        *(sh for u in units if u.status == "active" for sh in u.shapes),
    ]
    texts = [  # what the board writes centred on shapes: zones' numbers, features' names
        (*_label_point(g), text) for g in shapes if (text := str(getattr(g, "label", "") or ""))
    ]
    return place_names(anchors, scale, markers, texts)


def _label(unit: UnitView, labels: dict[str, str] | None) -> str:
    """A unit's label on the board, in players' words: its display name (``unit_labels``:
    numbered where several share a name, with its seat), and its damage once it has taken any,
    as the replay viewer's board labels it (issue 21)."""
    label = (labels or {}).get(unit.id) or unit.name or unit.id
    if unit.damage > 0 and unit.strength > 0:
        label += f" {unit.damage}/{unit.strength}"
    return label


def _draw_board(fig: Figure, view: GameView) -> None:
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
        box = {"type": "rect", "layer": "below", "fillcolor": "#F4F6F8"}
        cells = [  # one layout update: add_shape per box cost ~7 ms each (200 ms a board)
            {**box, "x0": c, "y0": r, "x1": c + 1, "y1": r + 1, "line": {"color": grey, "width": 1}}
            for c in range(cols)
            for r in range(rows)
        ]
        fig.update_layout(shapes=[*fig.layout.shapes, *cells])
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
    seats, zones = zone_axes(view)
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


def _cells_trace(fig: Figure, view: GameView) -> None:
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
        scatter(
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
    # labels in the top-left corner, clear of the units; the label most boxes share (Iron &
    # Oak's "depth 5") is left to the hover, so the exceptions (shoals, banks) stand out
    counts = Counter(c.label for c in cells if c.label)
    common = next((label for label, n in counts.most_common(1) if n > len(cells) // 2), None)
    labels = [
        {
            "x": cell.cell[0] + 0.03,
            "y": cell.cell[1] + 0.03,  # row 0 is at the top: small y is the box's top edge
            "xref": "x",
            "yref": "y",
            "text": _esc(cell.label),
            "showarrow": False,
            "xanchor": "left",
            "yanchor": "top",
            "font": {"size": 9, "color": "#888888"},
        }
        for cell in cells
        if cell.label and cell.label != common
    ]
    fig.update_layout(annotations=[*fig.layout.annotations, *labels])


def _draw_highlight(
    fig: Figure,
    view: GameView,
    highlight: Highlight,
    pts: dict[str, Point],
    colours: dict[str, str],
    table: TableLayout | None = None,
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
        # on a table the line runs from card edge to card edge, never over a card's text
        path = attack_path(table, attacker, target) if table is not None else []
        path = path or [pts[attacker], pts[target]]
        fig.add_trace(
            scatter(
                name="attack",
                legendgroup="attack",
                showlegend=first,
                x=[x for x, _ in path],
                y=[y for _, y in path],
                mode="lines",
                line={"color": ATTACK_COLOUR, "dash": "dash", "width": 2},
                customdata=[attacker] * (len(path) - 1) + [target],
                hovertemplate=(
                    f"{_esc(units[attacker].name if attacker in units else attacker)} → "
                    f"{_esc(units[target].name if target in units else target)}"
                    "<extra>attack</extra>"
                ),
            )
        )
        first = False
    if table is not None:  # a card's or a stack's outline, a marker's ring
        focus_table(fig, table, highlight.focus)
        return
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
            scatter(
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


TABLE_WIDTH = 980  # pixels a seats-round-a-table board is laid out for (the PNG is 1000 wide)


def board_figure(
    view: GameView, highlight: Highlight | None = None, *, height: int = BOARD_HEIGHT
) -> go.Figure:
    """The board of one game state: units per side, out-of-play units, and the event highlight;
    seats round a table (``seating == "ring"``) as the table (``viewer.board_table``)."""
    fig = go.Figure()
    _draw_board_figure(fig, view, highlight, height)
    return fig


def _draw_board_figure(
    fig: Figure, view: GameView, highlight: Highlight | None, height: int
) -> None:
    side_ids = [s.id for s in view.sides]
    side_ids += list(dict.fromkeys(u.side for u in view.units if u.side not in side_ids))
    names = {s.id: s.name for s in view.sides}
    colours = side_colours(side_ids)
    hover_names = view_names(view)
    labels = unit_labels(view.units)
    if is_ring(view):
        _table_figure(fig, view, highlight, height, names, colours, hover_names)
        return
    pts, where = _placements(view)
    places = (  # names that never overlap (issue 21 item 10)
        _name_places(view, pts, highlight, height, labels)
        if view.board.kind == "continuous"
        else None
    )

    _draw_board(fig, view)
    _draw_features(fig, view)
    for i, sid in enumerate(side_ids):  # shapes under every marker
        drawn = [u for u in view.units if u.side == sid and u.shapes]
        if drawn:
            _draw_shapes(fig, i, drawn, names.get(sid, sid), colours[sid], labels, places)
    _draw_overlays(fig, view, {u.id: u.name for u in view.units})
    for i, sid in enumerate(side_ids):  # uids by side order: plotly.js uses them in CSS selectors
        name = names.get(sid, sid)
        drawn = [u for u in view.units if u.side == sid and u.id in pts]
        active = [u for u in drawn if u.status == "active"]
        out = [u for u in drawn if u.status != "active"]
        args = (pts, where, name, colours[sid])
        fig.add_trace(
            _unit_trace(
                name,
                f"side{i}",
                active,
                *args,
                out=False,
                names=hover_names,
                labels=labels,
                places=places,
            )
        )
        if out:
            fig.add_trace(
                _unit_trace(
                    f"{name} (out)",
                    f"out{i}",
                    out,
                    *args,
                    out=True,
                    names=hover_names,
                    labels=labels,
                    places=places,
                )
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


def _table_figure(
    fig: Figure,
    view: GameView,
    highlight: Highlight | None,
    height: int,
    names: dict[str, str],
    colours: dict[str, str],
    hover_names: Names,
) -> None:
    """Seats round a table: each seat's panel with its zones, cards, face-down stacks and
    markers (``viewer.board_table``), the current event's attacks and units drawn over it."""
    layout: TableLayout = table_layout(view, TABLE_WIDTH, max(height - 50, 200))
    hovers = {
        u.id: _hover(u, names.get(u.side, u.side), layout.where[u.id], hover_names)
        for u in view.units
        if u.id in layout.where
    }
    shown_height = frame_table(fig, layout, height)
    draw_table(fig, view, layout, colours, names, hovers)
    if highlight is not None:
        _draw_highlight(fig, view, highlight, layout.pts, colours, table=layout)
    fig.update_layout(
        title={"text": _title(view, names), "x": 0.01, "xanchor": "left"},
        height=shown_height,
        margin={"l": 10, "r": 10, "t": 40, "b": 10},
        showlegend=False,  # the panels name the sides; attack lines carry their hover
        uirevision=BOARD_UIREVISION,
        plot_bgcolor="white",
        hovermode="closest",
    )


def board_json(
    view: GameView, highlight: Highlight | None = None, *, height: int = BOARD_HEIGHT
) -> str:
    """:func:`board_figure` as plotly JSON, drawn on plain dicts (``viewer.plain_figure``):
    the same JSON (``tests/test_board_json.py``) for about a tenth of the server's time, which
    a hosted table pays for every view at every event (issue 20's load: the board was half of
    it)."""
    fig = PlainFigure()
    with drawing_plain():
        _draw_board_figure(fig, view, highlight, height)
    return fig.to_json()


# --- static export -------------------------------------------------------------------------------


def figure_png(fig: Figure, *, width: int = 1000, height: int | None = None) -> bytes:
    """PNG bytes of a figure (kaleido drives a headless Chromium), as tall as the figure is
    drawn (600 pixels when it sets no height)."""
    if height is None:
        height = int(fig.layout.height or 600)
    try:
        data: object = fig.to_image(format="png", width=width, height=height)
    except Exception as err:
        raise RuntimeError(f"static export needs Chromium: {err}") from err
    if not isinstance(data, bytes):
        raise RuntimeError(f"static export returned {type(data).__name__}, not PNG bytes")
    return data


__all__ = [  # with what the viewer's other modules import from here
    "BOARD_HEIGHT",
    "FOCUS_COLOUR",
    "MAX_TURN_MARKS",
    "PALETTE",
    "TALL_BOARD_HEIGHT",
    "TIMESERIES_UIREVISION",
    "Highlight",
    "_label_point",
    "_outline",
    "board_figure",
    "board_height",
    "board_json",
    "figure_png",
    "side_colours",
    "timeseries_figure",
]
