"""Tests for viewer.figures: board figures for each board kind, time series, PNG export."""

from __future__ import annotations

import shutil
from typing import Any

import plotly.graph_objects as go
import pytest

from domain.read_model import (
    BoardView,
    CellView,
    GameView,
    ResultView,
    SideView,
    UnitView,
)
from viewer.figures import (
    PALETTE,
    Highlight,
    board_figure,
    figure_png,
    side_colours,
    timeseries_figure,
)

SIDES = [
    SideView(id="rn", name="Royal Navy", vp=0, units_total=3, units_active=2),
    SideView(id="km", name="Kriegsmarine", vp=3, units_total=2, units_active=2),
]


def _unit(uid: str, side: str, **kw: Any) -> UnitView:
    base: dict[str, Any] = {
        "id": uid,
        "side": side,
        "name": uid.upper(),
        "kind": "Heavy cruiser",
        "status": "active",
        "damage": 0,
        "strength": 4,
    }
    return UnitView(**(base | kw))


def _view(units: list[UnitView], board: BoardView, **kw: Any) -> GameView:
    base: dict[str, Any] = {
        "ruleset": "morze",
        "ruleset_name": "Morze w ogniu",
        "scenario": "river_plate",
        "turn": 3,
        "phase": "combat",
        "active_side": "rn",
        "sides": SIDES,
        "units": units,
        "board": board,
    }
    return GameView(**(base | kw))


def continuous_view(**kw: Any) -> GameView:
    units = [
        _unit(
            "exeter",
            "rn",
            damage=2,
            position=(10.0, 20.0),
            details={"speed_cm": 15, "hit": "4+", "moved": True, "target": None},
        ),
        _unit("ajax", "rn", kind="Light cruiser", strength=3, position=(12.5, 30.0)),
        _unit("achilles", "rn", status="destroyed", damage=3, strength=3, position=(14.0, 40.0)),
        _unit("graf_spee", "km", kind="Pocket battleship", strength=6, position=(90.0, 25.0)),
        _unit("tacoma", "km", kind="Merchant", position=(95.0, 50.0)),
    ]
    board = BoardView(kind="continuous", width=120, height=60, unit="cm")
    return _view(units, board, **kw)


def grid_view() -> GameView:
    units = [
        _unit("a1", "rn", cell=(1, 1)),
        _unit("a2", "rn", cell=(1, 1)),
        _unit("b1", "km", cell=(1, 1)),
        _unit("b2", "km", cell=(3, 2)),
        _unit("b3", "km", status="sunk", cell=(0, 0)),
    ]
    cells = [
        CellView(cell=(1, 1), label="Narrows", details={"depth": "shallow", "mines": None}),
        CellView(cell=(3, 2), label="Port"),
    ]
    return _view(units, BoardView(kind="grid", width=5, height=4, cells=cells))


def zones_view() -> GameView:
    units = [
        _unit("a1", "rn", zone="close", details={"seat": "north"}),
        _unit("a2", "rn", zone="far", details={"seat": "south"}),
        _unit("b1", "km", zone="close"),  # no seat detail: its side id is the seat
        _unit("b2", "km", zone="close"),
    ]
    board = BoardView(
        kind="zones", width=0, height=0, zones=["far", "close"], seats=["north", "south", "km"]
    )
    return _view(units, board)


def trace(fig: go.Figure, name: str) -> Any:
    found = [t for t in fig.data if t.name == name]
    assert len(found) == 1, f"expected one trace named {name!r}, got {len(found)}"
    return found[0]


def point_of(fig: go.Figure, uid: str) -> tuple[float, float]:
    """Plotted position of a unit (searching the per-side unit traces)."""
    for t in fig.data:
        if t.name in {"attack", "focus", "cells"} or t.customdata is None:
            continue
        ids = list(t.customdata)
        if uid in ids:
            i = ids.index(uid)
            return (t.x[i], t.y[i])
    raise AssertionError(f"{uid} not drawn")


def hover_of(fig: go.Figure, uid: str) -> str:
    for t in fig.data:
        if t.name not in {"attack", "focus", "cells"} and t.customdata and uid in t.customdata:
            return str(t.hovertext[list(t.customdata).index(uid)])
    raise AssertionError(f"{uid} not drawn")


# --- palette -------------------------------------------------------------------------------------


def test_side_colours_stable_and_cycling() -> None:
    ids = [f"s{i}" for i in range(8)]
    colours = side_colours(ids)
    assert colours["s0"] == "#0072B2"
    assert colours["s1"] == "#D55E00"
    assert colours["s6"] == colours["s0"]  # cycles after six
    assert side_colours(ids[:2]) == {"s0": colours["s0"], "s1": colours["s1"]}
    assert len(set(PALETTE)) == len(PALETTE)


# --- continuous board ----------------------------------------------------------------------------


def test_one_active_trace_per_side_with_unit_ids() -> None:
    fig = board_figure(continuous_view())
    rn, km = trace(fig, "Royal Navy"), trace(fig, "Kriegsmarine")
    assert list(rn.customdata) == ["exeter", "ajax"]
    assert list(km.customdata) == ["graf_spee", "tacoma"]
    assert list(rn.text) == ["EXETER 2/4", "AJAX"]  # display names, damage once taken
    assert rn.mode == "markers+text"
    assert rn.marker.symbol == "circle"
    assert rn.marker.line.color == "#0072B2"
    assert km.marker.line.color == "#D55E00"
    assert (rn.x[0], rn.y[0]) == (10.0, 20.0)


def test_destroyed_units_go_to_the_out_trace() -> None:
    fig = board_figure(continuous_view())
    out = trace(fig, "Royal Navy (out)")
    assert list(out.customdata) == ["achilles"]
    assert "achilles" not in trace(fig, "Royal Navy").customdata
    assert out.marker.symbol in {"x", "x-thin-open"}
    # a side with nothing out gets no "(out)" trace
    assert not [t for t in fig.data if t.name == "Kriegsmarine (out)"]


def test_marker_size_grows_with_strength() -> None:
    km = trace(board_figure(continuous_view()), "Kriegsmarine")
    graf_spee, tacoma = km.marker.size
    assert graf_spee > tacoma


def test_hover_shows_full_status() -> None:
    text = hover_of(board_figure(continuous_view()), "exeter")
    for part in ("EXETER", "Heavy cruiser", "Royal Navy", "active", "2/4"):
        assert part in text
    assert "exeter" not in text  # issue 21 item 7: the name, never the internal id
    assert "position: (10, 20)" in text
    for line in ("speed_cm: 15", "hit: 4+", "moved: yes"):  # a flag as players say it
        assert line in text
    assert "target" not in text  # None details are skipped


def test_damage_fades_the_fill() -> None:
    rn = trace(board_figure(continuous_view()), "Royal Navy")
    exeter, ajax = rn.marker.color  # exeter 2/4 damage, ajax undamaged
    assert ajax == "rgba(0,114,178,1.00)"
    alpha = float(exeter.rstrip(")").split(",")[-1])
    assert 0 < alpha < 1


def test_equal_aspect_and_table() -> None:
    fig = board_figure(continuous_view())
    assert fig.layout.yaxis.scaleanchor == "x"
    assert "cm" in fig.layout.xaxis.title.text
    assert "cm" in fig.layout.yaxis.title.text
    table = [s for s in fig.layout.shapes if s.type == "rect"]
    assert len(table) == 1
    assert (table[0].x0, table[0].y0, table[0].x1, table[0].y1) == (0, 0, 120, 60)


def test_title_legend_and_uirevision() -> None:
    fig = board_figure(continuous_view())
    assert fig.layout.title.text == "Morze w ogniu · river_plate · turn 3, combat"
    assert fig.layout.legend.orientation == "h"
    assert fig.layout.uirevision is not None
    assert board_figure(grid_view()).layout.uirevision == fig.layout.uirevision


def test_title_shows_result() -> None:
    win = ResultView(winner="km", reason="annihilation", rule="PL-7", vp={"km": 9})
    assert board_figure(continuous_view(result=win)).layout.title.text.endswith(
        " · result: Kriegsmarine"
    )
    draw = ResultView(winner=None, reason="turn limit", rule="PL-7", vp={})
    assert board_figure(continuous_view(result=draw)).layout.title.text.endswith(" · result: draw")


def test_move_highlight_draws_an_arrow() -> None:
    hl = Highlight(moves=(("exeter", (5.0, 15.0), (10.0, 20.0)),))
    fig = board_figure(continuous_view(), hl)
    arrows = [a for a in fig.layout.annotations if a.showarrow]
    assert len(arrows) == 1
    a = arrows[0]
    assert (a.x, a.y, a.ax, a.ay) == (10.0, 20.0, 5.0, 15.0)
    assert (a.xref, a.yref, a.axref, a.ayref) == ("x", "y", "x", "y")


def test_attack_highlight_draws_a_dashed_line() -> None:
    hl = Highlight(attacks=(("graf_spee", "exeter"), ("ajax", "nobody")))
    fig = board_figure(continuous_view(), hl)
    attack = trace(fig, "attack")  # the attack on an unknown unit is skipped
    assert attack.mode == "lines"
    assert attack.line.dash == "dash"
    assert list(zip(attack.x, attack.y, strict=True)) == [(90.0, 25.0), (10.0, 20.0)]


def test_focus_ring() -> None:
    fig = board_figure(continuous_view(), Highlight(focus=frozenset({"ajax", "tacoma"})))
    focus = trace(fig, "focus")
    assert sorted(focus.customdata) == ["ajax", "tacoma"]
    assert point_of(fig, "ajax") == (focus.x[0], focus.y[0])
    assert not [t for t in board_figure(continuous_view()).data if t.name == "focus"]


# --- grid board ----------------------------------------------------------------------------------


def test_grid_cells_drawn() -> None:
    fig = board_figure(grid_view())
    assert len([s for s in fig.layout.shapes if s.type == "rect"]) == 5 * 4
    cells = trace(fig, "cells")
    assert list(cells.text) == ["Narrows", "Port"]
    assert {a.text for a in fig.layout.annotations if not a.showarrow} == {"Narrows", "Port"}
    assert (cells.x[0], cells.y[0]) == (1.5, 1.5)
    assert "depth: shallow" in cells.hovertext[0]
    assert "mines" not in cells.hovertext[0]
    assert fig.layout.yaxis.scaleanchor == "x"


def test_units_sharing_a_cell_get_distinct_points_inside_it() -> None:
    fig = board_figure(grid_view())
    shared = [point_of(fig, uid) for uid in ("a1", "a2", "b1")]
    assert len(set(shared)) == 3
    for x, y in shared:
        assert 1 < x < 2 and 1 < y < 2
    assert point_of(fig, "b2") == (3.5, 2.5)  # alone: cell centre
    assert list(trace(fig, "Kriegsmarine (out)").customdata) == ["b3"]
    assert "cell: (1, 1)" in hover_of(fig, "a1")


def test_many_units_in_one_cell_stay_inside() -> None:
    units = [_unit(f"u{i}", "rn", cell=(0, 0)) for i in range(11)]
    fig = board_figure(_view(units, BoardView(kind="grid", width=2, height=2)))
    pts = [point_of(fig, f"u{i}") for i in range(11)]
    assert len(set(pts)) == 11
    assert all(0 < x < 1 and 0 < y < 1 for x, y in pts)


def test_grid_move_arrow_between_cell_centres() -> None:
    fig = board_figure(grid_view(), Highlight(moves=(("b2", (2.0, 2.0), (3.0, 2.0)),)))
    (a,) = [a for a in fig.layout.annotations if a.showarrow]
    assert (a.ax, a.ay, a.x, a.y) == (2.5, 2.5, 3.5, 2.5)


# --- zones board ---------------------------------------------------------------------------------


def test_zones_place_units_by_seat_and_zone() -> None:
    fig = board_figure(zones_view())
    assert list(fig.layout.xaxis.ticktext) == ["north", "south", "km"]
    assert list(fig.layout.yaxis.ticktext) == ["far", "close"]
    assert point_of(fig, "a1") == (0.0, 1.0)  # north, close
    assert point_of(fig, "a2") == (1.0, 0.0)  # south, far
    b1, b2 = point_of(fig, "b1"), point_of(fig, "b2")
    assert b1 != b2
    for x, y in (b1, b2):  # seat "km" (side id), zone "close", inside the box
        assert abs(x - 2) < 0.5 and abs(y - 1) < 0.5
    assert "zone: far, seat: south" in hover_of(fig, "a2")


# --- time series ---------------------------------------------------------------------------------

SERIES = {
    "Royal Navy": [(0, 0.0), (7, 3.0), (12, 5.0)],
    "Kriegsmarine": [(0, 0.0), (20, 2.0)],
}


def test_timeseries_traces() -> None:
    fig = timeseries_figure("VP", SERIES, cursor=9, colours={"Kriegsmarine": "#D55E00"})
    rn, km = trace(fig, "Royal Navy"), trace(fig, "Kriegsmarine")
    assert rn.line.shape == "hv" and km.line.shape == "hv"
    assert rn.mode == "lines+markers"
    assert list(rn.customdata) == [0, 7, 12]
    assert list(rn.y) == [0.0, 3.0, 5.0]
    assert km.line.color == "#D55E00"
    assert "event %{x}" in rn.hovertemplate and "Royal Navy" in rn.hovertemplate
    assert fig.layout.xaxis.title.text == "event"
    assert fig.layout.clickmode == "event+select"
    assert fig.layout.uirevision is not None


def test_timeseries_cursor_and_turn_lines() -> None:
    fig = timeseries_figure("VP", SERIES, cursor=9, turn_starts=[(1, 0), (2, 10)])
    solid = [s for s in fig.layout.shapes if s.line.dash in (None, "solid")]
    assert [(s.x0, s.x1) for s in solid] == [(9, 9)]
    dotted = [s for s in fig.layout.shapes if s.line.dash == "dot"]
    assert sorted(s.x0 for s in dotted) == [0, 10]
    labels = {a.text for a in fig.layout.annotations}
    assert {"T1", "T2", "event 9"} <= labels


def test_timeseries_extends_to_end() -> None:
    fig = timeseries_figure("VP", SERIES, cursor=0, end=25)
    rn, km = trace(fig, "Royal Navy"), trace(fig, "Kriegsmarine")
    assert list(rn.x) == [0, 7, 12, 25] and list(rn.y) == [0.0, 3.0, 5.0, 5.0]
    assert list(rn.customdata) == [0, 7, 12, 25]
    assert list(km.x) == [0, 20, 25]
    # no extension when the series already reaches the end
    assert list(trace(timeseries_figure("VP", SERIES, cursor=0, end=20), "Kriegsmarine").x) == [
        0,
        20,
    ]


def test_timeseries_empty() -> None:
    fig = timeseries_figure("VP", {}, cursor=3)
    assert not fig.data
    assert fig.layout.title.text == "VP"
    assert [a.text for a in fig.layout.annotations] == ["no data"]


# --- static export -------------------------------------------------------------------------------


@pytest.mark.skipif(shutil.which("chromium") is None, reason="static export needs Chromium")
def test_figure_png() -> None:
    png = figure_png(board_figure(continuous_view()), width=500, height=300)
    assert png.startswith(b"\x89PNG")


def test_a_long_game_marks_at_most_40_turns_on_a_chart() -> None:
    """A 400-turn game: the chart draws at most MAX_TURN_MARKS turn lines and labels (every n-th
    turn), plus the cursor; it once drew all of them one by one, taking half a minute."""
    from viewer.figures import MAX_TURN_MARKS, timeseries_figure

    turns = [(t, t * 25) for t in range(1, 401)]
    fig = timeseries_figure("x", {"a": [(0, 0.0), (10_000, 5.0)]}, cursor=5, turn_starts=turns)
    assert len(fig.layout.shapes) <= MAX_TURN_MARKS + 1
    labels = [a.text for a in fig.layout.annotations if a.text.startswith("T")]
    assert 0 < len(labels) <= MAX_TURN_MARKS and labels[0] == "T1"


def test_a_grid_shows_only_the_boxes_that_differ() -> None:
    """Issue 21 item 10: Iron & Oak's "depth 5" in every box ran into the ship names; the
    label most boxes share goes to the hover only, the exceptions (a shoal, a bank) stay
    written on the board, and every box keeps its hover."""
    cells = [CellView(cell=(c, r), label="depth 5") for c in range(3) for r in range(3)]
    cells[0] = CellView(cell=(0, 0), label="depth 0 bank")
    cells[4] = CellView(cell=(1, 1), label="depth 2")
    board = BoardView(kind="grid", width=3, height=3, unit="box", cells=cells)
    fig = board_figure(_view([_unit("monitor", "rn", cell=(1, 1))], board))
    written = sorted(a.text for a in fig.layout.annotations)
    assert written == ["depth 0 bank", "depth 2"]
    hover = next(t for t in fig.data if t.name == "cells").hovertext
    assert sum("depth 5" in h for h in hover) == 7
    assert len(fig.layout.shapes) >= 9  # every box drawn
