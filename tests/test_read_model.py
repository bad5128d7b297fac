"""The generic read model's optional geometry (design note 12): ``UnitView.shapes``,
``BoardView.features`` and ``GameView.overlays``, and that rulesets without geometry (Morze,
Iron & Oak) leave them empty, so their views are exactly what they were."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from domain.engine import replay
from domain.read_model import (
    BoardView,
    FeatureView,
    GameView,
    OverlayView,
    ShapeView,
    UnitView,
)
from domain.record import read_record_file

GAMES = Path(__file__).resolve().parents[1] / "fixtures" / "games"


def test_a_shape_is_a_polygon_a_polyline_or_a_circle() -> None:
    square = ShapeView(part="base", points=[(0, 0), (1, 0), (1, 1), (0, 1)])
    assert square.closed and not square.is_circle and square.style == "base"
    arc = ShapeView(part="arc", style="arc", points=[(0, 0), (5, 5)], closed=False)
    assert not arc.closed
    disc = ShapeView(part="base", centre=(3.0, 4.0), radius=2.0)
    assert disc.is_circle and disc.points == []
    for bad in (
        {"part": "base", "points": [(0, 0), (1, 1)]},  # a polygon needs three points
        {"part": "arc", "points": [(0, 0)], "closed": False},  # a polyline two
        {"part": "base", "centre": (0, 0)},  # a circle needs a radius
        {"part": "base", "centre": (0, 0), "radius": 0},  # a positive one
        {"part": "base", "centre": (0, 0), "radius": 1, "points": [(0, 0), (1, 0), (0, 1)]},
        {"part": "base", "points": [(0, 0), (1, 0), (0, 1)], "style": "sparkles"},
        {"part": "base", "points": [(0, 0), (1, 0), (0, 1)], "colour": "red"},  # extra
    ):
        with pytest.raises(ValidationError):
            ShapeView(**bad)  # type: ignore[arg-type]


def test_overlays_are_polylines_unless_closed_and_features_polygons() -> None:
    sight = OverlayView(kind="line_of_sight", points=[(0, 0), (10, 0)], units=["a", "b"])
    assert not sight.closed and sight.label == ""
    band = OverlayView(kind="range", points=[(0, 0), (1, 0), (0, 1)], closed=True)
    assert band.closed
    rock = FeatureView(id="rock", points=[(0, 0), (1, 0), (0, 1)], kind="shoal")
    assert rock.closed and rock.details == {}
    with pytest.raises(ValidationError):
        FeatureView(id="rock", points=[(0, 0), (1, 0)])
    with pytest.raises(ValidationError):
        sight.label = "changed"  # type: ignore[misc]  # frozen


def test_geometry_fields_default_to_empty() -> None:
    unit = UnitView(id="u", side="a", name="U", kind="ship", status="active", damage=0, strength=1)
    board = BoardView(kind="grid", width=5, height=5)
    assert unit.shapes == [] and board.features == []
    view = GameView(
        ruleset="x",
        ruleset_name="X",
        scenario="s",
        turn=1,
        phase="p",
        active_side=None,
        sides=[],
        units=[unit],
        board=board,
    )
    assert view.overlays == []


@pytest.mark.parametrize(
    "record",
    ["morze/river_plate-annihilation.wake.json", "iron_oak/mobile_bay-fort-magazine.wake.json"],
)
def test_rulesets_without_geometry_have_no_shapes(record: str) -> None:
    """Morze and Iron & Oak views carry no shapes, features or overlays: drawn as before."""
    rec = read_record_file(GAMES / record)
    for facts in ([], rec.events):
        state = replay(rec.header, facts)
        view = state.ruleset.read_model(state.rules)
        assert view.units and all(u.shapes == [] for u in view.units)
        assert view.board.features == [] and view.overlays == []
        dumped = view.model_dump(exclude_defaults=True)
        assert "overlays" not in dumped and "features" not in dumped["board"]


def test_a_zone_board_may_seat_its_players_round_a_table() -> None:
    """Issue 21 item 11: a zone board says how its seats are drawn (``columns`` by default, or
    ``ring``: round a table in seating order, the last beside the first), and a unit may carry
    the values printed on its card ``tile``; both are plain data, empty by default."""
    board = BoardView(kind="zones", width=2, height=2, zones=["a"], seats=["P1", "P2"])
    assert board.seating == "columns"
    assert BoardView(kind="zones", width=2, height=2, seating="ring").seating == "ring"
    with pytest.raises(ValidationError):
        BoardView(kind="zones", width=2, height=2, seating="spiral")  # type: ignore[arg-type]
    unit = UnitView(id="u", side="P1", name="U", kind="ship", status="active", damage=0, strength=1)
    assert unit.tile == {}


def test_ships_seats_its_players_round_the_table_with_ships_as_card_tiles() -> None:
    """SHIPS & TACTICS (ST-3.1: seating order matters, the last player beside the first): the
    board is seated in a ring in seating order; every ship is a card tile showing its attack
    (guns long/medium/short) and hull, and no private unit (a hand card, a face-down ship)
    carries a tile, so a side's view shows other sides' hidden cards as backs only."""
    from domain.read_model import redact_view
    from viewer.timeline import Timeline

    rec = read_record_file(GAMES / "ships" / "multi6-nadesico.wake.json")
    tl = Timeline(rec.header, rec.events)
    seen_ships = 0
    for seq in range(0, tl.length + 1, 97):
        view = tl.view_at(seq)
        assert view.board.seating == "ring"
        assert view.board.seats == [s.id for s in view.sides]  # the seating order
        for u in view.units:
            if u.kind == "ship":
                seen_ships += 1
                assert u.tile == {"attack": u.details["guns"], "hull": u.strength}
            if u.private:
                assert u.tile == {}
        for side in view.board.seats:
            for u in redact_view(view, side).units:
                assert not (u.private and u.side != side and u.tile)
    assert seen_ships
