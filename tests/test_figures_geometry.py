"""viewer.figures draws read-model geometry generically (design note 12): unit shapes, board
features and overlays, batched into a few traces, with escaped hover text."""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go
from shapely.geometry import Point, Polygon

from domain.read_model import (
    BoardView,
    FeatureView,
    GameView,
    OverlayView,
    ShapeView,
    UnitView,
)
from domain.rulesets.armada.geometry import ZONES
from domain.rulesets.armada.ruleset import ArmadaRuleset
from domain.rulesets.armada.state import with_ship
from tests.armada_helpers import Game, armada, bundled, duel
from tests.test_figures import _unit, _view, continuous_view, hover_of, point_of, trace
from viewer.figures import board_figure

__all__ = ["armada"]  # the fixture, imported for pytest

BOARD = BoardView(kind="continuous", width=200, height=100, unit="mm")


def _ship(uid: str, side: str, x: float, y: float, **kw: Any) -> UnitView:
    """A 10 × 20 ship at (x, y) facing +y: base, two zones, an arc line, a heading marker."""

    def box(x0: float, y0: float, x1: float, y1: float) -> list[tuple[float, float]]:
        return [(x + x0, y + y0), (x + x1, y + y0), (x + x1, y + y1), (x + x0, y + y1)]

    shapes = [
        ShapeView(part="base", points=box(-5, -10, 5, 10)),
        ShapeView(part="front", style="zone", label="3", points=box(-4, 0, 4, 9)),
        ShapeView(part="rear", style="zone", label="1", points=box(-4, -9, 4, 0)),
        ShapeView(part="arc", style="arc", points=[(x, y), (x - 30, y + 30)], closed=False),
        ShapeView(part="heading", style="heading", points=[(x - 2, y + 11), (x + 2, y + 11),
                                                           (x, y + 14)]),
    ]  # fmt: skip
    return _unit(uid, side, position=(x, y), heading=0.0, shapes=shapes, **kw)


def _fighter(uid: str, side: str, x: float, y: float) -> UnitView:
    disc = ShapeView(part="base", centre=(x, y), radius=3.0)
    return _unit(uid, side, kind="squadron", position=(x, y), shapes=[disc])


def shaped_view(**kw: Any) -> GameView:
    units = [
        _ship("victory", "km", 50, 50),
        _ship("cr90", "rn", 150, 50, details={"speed": 3, "damage_face_up": "Blinded Gunners"}),
        _ship("wreck", "rn", 120, 20, status="destroyed"),
        _fighter("tie", "km", 70, 70),
        _unit("plain", "rn", position=(100.0, 90.0)),  # no shapes: drawn as before
    ]
    features = [
        FeatureView(id="rock", name="Asteroid", kind="asteroid", label="asteroid",
                    points=[(90, 40), (110, 40), (100, 60)]),
    ]  # fmt: skip
    overlays = [
        OverlayView(kind="line_of_sight", points=[(50, 59), (150, 41)], label="medium",
                    units=["victory", "cr90"]),
        OverlayView(kind="range", points=[(40, 60), (60, 60), (50, 90)], closed=True,
                    label="front arc, close", units=["victory"]),
        OverlayView(kind="path", points=[(150, 60), (150, 80), (140, 95)], label="speed 2"),
    ]  # fmt: skip
    board = BOARD.model_copy(update={"features": features})
    return _view(units, board, overlays=overlays, **kw)


def _parts(t: Any) -> list[list[tuple[float, float]]]:
    """The outlines batched into one trace, split at the ``None`` gaps."""
    parts: list[list[tuple[float, float]]] = [[]]
    for x, y in zip(t.x, t.y, strict=True):
        if x is None:
            parts.append([])
        else:
            parts[-1].append((x, y))
    return parts


def test_shapes_are_filled_polygons_in_the_side_colour() -> None:
    fig = board_figure_of(shaped_view())
    zones = trace(fig, "Royal Navy zones")
    assert zones.fill == "toself" and zones.line.color == "#0072B2"
    assert zones.fillcolor.startswith("rgba(0,114,178,")
    front, rear = _parts(zones)  # cr90's two zones, each a closed ring
    assert rear[0] == (146, 41)
    assert front[0] == front[-1] and len(front) == 5 and front[0] == (146, 50)
    assert trace(fig, "Kriegsmarine zones").fillcolor.startswith("rgba(213,94,0,")
    assert trace(fig, "Royal Navy bases").fill == "toself"
    assert trace(fig, "Royal Navy headings").fill == "toself"
    arcs = trace(fig, "Royal Navy arcs")
    assert arcs.fill is None and arcs.mode == "lines" and _parts(arcs) == [[(150, 50), (120, 80)]]


def test_zone_labels_sit_inside_their_zone() -> None:
    fig = board_figure_of(shaped_view())
    labels = trace(fig, "Royal Navy labels")
    assert list(labels.text) == ["3", "1"] and labels.mode == "text"
    view = shaped_view()
    cr90 = next(u for u in view.units if u.id == "cr90")
    for x, y, shape in zip(labels.x, labels.y, [s for s in cr90.shapes if s.label], strict=True):
        assert Polygon(shape.points).contains(Point(x, y))
    assert "front: 3" in labels.hovertext[0] and "CR90" in labels.hovertext[0]


def test_a_circle_is_drawn_as_a_closed_ring() -> None:
    bases = trace(board_figure_of(shaped_view()), "Kriegsmarine bases")
    ship, disc = _parts(bases)
    assert len(ship) == 5 and len(disc) > 16 and disc[0] == disc[-1]
    assert all(abs(Point(p).distance(Point(70, 70)) - 3.0) < 1e-9 for p in disc)


def test_units_out_of_play_draw_their_shapes_grey_without_labels() -> None:
    fig = board_figure_of(shaped_view())
    out = trace(fig, "Royal Navy shapes (out)")
    assert out.line.dash == "dot" and out.fill is None and len(_parts(out)) == 5
    assert "wreck" not in " ".join(trace(fig, "Royal Navy labels").hovertext)
    assert "wreck" in trace(fig, "Royal Navy (out)").customdata


def test_a_shaped_unit_keeps_its_marker_and_full_hover() -> None:
    fig = board_figure_of(shaped_view())
    assert point_of(fig, "cr90") == (150, 50)
    text = hover_of(fig, "cr90")
    for part in ("CR90", "speed: 3", "damage_face_up: Blinded Gunners", "heading: 0°"):
        assert part in text
    rn = trace(fig, "Royal Navy")
    sizes = dict(zip(rn.customdata, rn.marker.size, strict=True))
    assert sizes["cr90"] < sizes["plain"]  # shapes show the ship; its marker only marks it
    texts = dict(zip(rn.customdata, rn.text, strict=True))
    assert texts == {"cr90": "", "plain": "PLAIN"}  # the name goes under the shapes instead
    names = trace(fig, "Royal Navy names")
    assert list(names.text) == ["CR90"] and (names.x[0], names.y[0]) == (150, 40)
    assert tuple(names.textposition) == ("bottom center",)  # room under it: its place


def test_units_without_shapes_draw_as_before() -> None:
    """A view with no geometry gets no extra traces (Morze, Iron & Oak)."""
    fig = board_figure_of(continuous_view())
    assert [t.name for t in fig.data] == ["Royal Navy", "Royal Navy (out)", "Kriegsmarine"]


def test_features_are_grey_with_labels() -> None:
    fig = board_figure_of(shaped_view())
    features = trace(fig, "board features")
    assert features.fill == "toself" and features.line.color == "#7F7F7F"
    assert "128,128,128" in features.fillcolor
    labels = trace(fig, "feature labels")
    assert list(labels.text) == ["asteroid"]
    assert "Asteroid" in labels.hovertext[0] and "kind: asteroid" in labels.hovertext[0]


def test_overlays_are_dashed_one_trace_per_kind_with_labels() -> None:
    fig = board_figure_of(shaped_view())
    sight = trace(fig, "line of sight")
    assert sight.line.dash == "dash" and _parts(sight) == [[(50, 59), (150, 41)]]
    band = trace(fig, "range")
    assert band.fill == "toself" and band.line.dash == "dash"
    assert trace(fig, "path").line.dash == "dash"
    labels = trace(fig, "overlay labels")
    assert list(labels.text) == ["medium", "front arc, close", "speed 2"]
    assert (labels.x[0], labels.y[0]) == (100, 50)  # the middle of the line
    assert "VICTORY, CR90" in labels.hovertext[0]  # the units it relates to, by name


def test_shapes_and_overlays_sit_under_the_markers() -> None:
    names = [t.name for t in board_figure_of(shaped_view()).data]
    assert names.index("board features") < names.index("Royal Navy zones")
    assert names.index("Royal Navy zones") < names.index("line of sight")
    assert names.index("overlay labels") < names.index("Royal Navy")
    assert names.index("Royal Navy labels") < names.index("Royal Navy")


def test_no_trace_per_polygon() -> None:
    """Many ships cost no more traces than one: shapes are batched per side and style."""
    one = board_figure_of(shaped_view())
    many_units = [_ship(f"s{i}", "rn" if i % 2 else "km", 10 + i, 50) for i in range(60)]
    many = board_figure_of(_view(many_units, BOARD))
    per_side = 8  # bases, zones, headings, arcs, names, labels, markers, out markers
    assert len(many.data) <= 2 * per_side
    assert len(many.data) <= len(one.data)
    assert len(_parts(trace(many, "Royal Navy zones"))) == 60


def test_record_text_in_geometry_is_escaped() -> None:
    """Labels, names and hover text from a record are never HTML: plotly would render it."""
    evil = "<img src=x onerror=alert(1)>"
    shape = ShapeView(part=evil, style="zone", label=evil, points=[(0, 0), (9, 0), (0, 9)])
    unit = _unit("x", "rn", name=evil, position=(1.0, 1.0), shapes=[shape])
    board = BOARD.model_copy(
        update={
            "features": [
                FeatureView(id="f", name=evil, kind=evil, label=evil, details={evil: evil},
                            points=[(50, 50), (60, 50), (50, 60)])
            ]
        }
    )  # fmt: skip
    overlay = OverlayView(kind=evil, label=evil, units=["x"], details={evil: evil},
                          points=[(0, 0), (9, 9)])  # fmt: skip
    fig = board_figure_of(_view([unit], board, overlays=[overlay]))
    texts: list[str] = []
    for t in fig.data:
        for attr in ("text", "hovertext", "hovertemplate", "name"):
            value = getattr(t, attr, None)
            if isinstance(value, str):
                texts.append(value)
            elif value is not None:
                texts += [str(v) for v in value]
    joined = "\n".join(texts)
    assert "<img" not in joined and "&lt;img src=x onerror=alert(1)&gt;" in joined


def test_an_armada_board(armada: ArmadaRuleset) -> None:
    """The Armada read model through the generic figure: each side's ships' zones labelled with
    their shields, squadrons as circles, the learning scenario's obstacles; no Armada branch."""
    game = Game(duel())
    view = armada.read_model(game.state)
    fig = board_figure_of(view)
    labels = trace(fig, "Galactic Empire labels")
    victory = game.state.ships["victory"]
    assert list(labels.text) == [str(victory.shields[z]) for z in ZONES]
    rebels = trace(fig, "Rebel Alliance zones")
    assert len(_parts(rebels)) == 2 * 4
    assert len(_parts(trace(fig, "Rebel Alliance bases"))) == 2 + 1  # two ships, one X-wing
    assert len(fig.data) <= 2 * 8
    learning = board_figure_of(armada.read_model(Game(bundled("core_learning")).state))
    assert list(trace(learning, "feature labels").text) == [
        "station", "asteroid", "asteroid", "asteroid", "debris", "debris"
    ]  # fmt: skip


def board_figure_of(view: GameView) -> go.Figure:
    return board_figure(view)


def test_a_square_table_gets_a_taller_board() -> None:
    """Armada's 3' × 3' table is drawn taller than Morze's 120 × 60 cm one; grids keep the
    default height."""
    from tests.test_figures import grid_view
    from viewer.figures import BOARD_HEIGHT, TALL_BOARD_HEIGHT, board_height

    assert board_height(continuous_view()) == BOARD_HEIGHT
    assert board_height(shaped_view()) == BOARD_HEIGHT  # 200 × 100 mm
    square = _view([], BoardView(kind="continuous", width=914.4, height=914.4, unit="mm"))
    assert board_height(square) == TALL_BOARD_HEIGHT
    assert board_height(grid_view()) == BOARD_HEIGHT


def test_focus_on_a_shaped_unit_outlines_its_base() -> None:
    """The current event's units: a shaped unit's base outline goes bold instead of a ring
    that would hide its zone labels; a unit without shapes keeps the ring."""
    from viewer.figures import FOCUS_COLOUR, Highlight, board_figure

    fig = board_figure(shaped_view(), Highlight(focus=frozenset({"cr90", "plain"})))
    outline = trace(fig, "focus outline")
    assert outline.line.color == FOCUS_COLOUR and outline.line.width == 3
    assert _parts(outline) == [[(145, 40), (155, 40), (155, 60), (145, 60), (145, 40)]]
    assert list(trace(fig, "focus").customdata) == ["plain"]


def test_the_board_opens_zoomed_to_the_action(armada: ArmadaRuleset) -> None:
    """Issue 13 (board): a continuous board opens on the units in play with a margin, square
    and inside the table, when they gather in part of it; spread over the table it shows the
    whole board. Every unit's shapes stay inside the window."""
    game = Game(duel())
    view = armada.read_model(game.state)
    fig = board_figure(view)
    x0, x1 = fig.layout.xaxis.range
    y0, y1 = fig.layout.yaxis.range
    assert x1 - x0 == y1 - y0  # square, like the table
    for unit in view.units:
        for shape in unit.shapes:
            for x, y in shape.points:
                assert x0 <= x <= x1 and y0 <= y <= y1
    crowded = game.state
    for ship_id, (x, y) in {"victory": (400.0, 400.0), "cr90": (470.0, 520.0)}.items():
        crowded = with_ship(crowded, ship_id, x=x, y=y)
    crowded = with_ship(crowded, "nebulon", destroyed=True)
    squadrons = dict(crowded.squadrons)
    for sq_id, sq in squadrons.items():
        squadrons[sq_id] = sq.model_copy(update={"x": 430.0 + len(sq_id), "y": 460.0})
    crowded = crowded.model_copy(update={"squadrons": squadrons})
    fig = board_figure(armada.read_model(crowded))
    x0, x1 = fig.layout.xaxis.range
    width = crowded.data.geometry.play_area.width
    assert x1 - x0 < 0.8 * width  # zoomed in on the two ships
    assert x0 < 400.0 - 60 and x1 > 470.0 + 40
