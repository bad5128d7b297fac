"""Tests for domain.board: continuous table, grid of boxes and circular seating."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from domain.board import Cell, ContinuousBoard, GridBoard, Point, ZoneBoard

TABLE = ContinuousBoard(width=120.0, height=90.0)
GRID = GridBoard(columns=5, rows=5)


# --- ContinuousBoard -------------------------------------------------------------------------


def test_contains_edges_inclusive() -> None:
    assert TABLE.contains((0.0, 0.0))
    assert TABLE.contains((120.0, 90.0))
    assert not TABLE.contains((120.01, 10.0))
    assert not TABLE.contains((10.0, -0.01))


def test_dimensions_must_be_positive() -> None:
    with pytest.raises(ValidationError):
        ContinuousBoard(width=0, height=10)
    with pytest.raises(ValidationError):
        ContinuousBoard(width=10, height=-1)


def test_distance_centre_to_centre() -> None:
    """PL-4: range is measured centre to centre."""
    assert TABLE.distance((0.0, 0.0), (3.0, 4.0)) == 5.0


def test_clamp() -> None:
    assert TABLE.clamp((-5.0, 100.0)) == (0.0, 90.0)
    assert TABLE.clamp((10.0, 20.0)) == (10.0, 20.0)


def test_step_toward_full_speed() -> None:
    """PL-2: straight-line move from the centre, up to speed."""
    assert TABLE.step_toward((0.0, 0.0), (30.0, 40.0), 10.0) == (6.0, 8.0)


def test_step_toward_never_passes_target() -> None:
    assert TABLE.step_toward((0.0, 0.0), (3.0, 4.0), 10.0) == (3.0, 4.0)


def test_step_toward_stop_short() -> None:
    assert TABLE.step_toward((0.0, 0.0), (10.0, 0.0), 20.0, stop_short=4.0) == (6.0, 0.0)
    # Already closer than stop_short: no move, never backwards.
    assert TABLE.step_toward((0.0, 0.0), (3.0, 0.0), 20.0, stop_short=4.0) == (0.0, 0.0)


def test_step_toward_zero_distance_returns_origin() -> None:
    assert TABLE.step_toward((5.0, 5.0), (5.0, 5.0), 10.0) == (5.0, 5.0)
    assert TABLE.step_toward((5.0, 5.0), (50.0, 5.0), 0.0) == (5.0, 5.0)


def test_step_toward_rounding_never_overshoots() -> None:
    # 1 at 45 degrees: plain rounding gives (0.71, 0.71), 1.004 away; must step back.
    end = TABLE.step_toward((0.0, 0.0), (50.0, 50.0), 1.0)
    assert end == (0.7, 0.7)
    assert TABLE.distance((0.0, 0.0), end) <= 1.0


def test_step_toward_off_grid_origin_stays_put() -> None:
    # No 2-decimal point lies within 0.001 of (0.004, 0) along the line, so no move.
    assert TABLE.step_toward((0.004, 0.0), (10.0, 0.0), 0.001) == (0.004, 0.0)


def test_step_toward_clamped_at_table_edge() -> None:
    """PL-2: a move toward a point off the table ends on the edge."""
    end = TABLE.step_toward((115.0, 45.0), (200.0, 45.0), 20.0)
    assert end == (120.0, 45.0)


def test_step_toward_rejects_bad_arguments() -> None:
    with pytest.raises(ValueError, match="off the board"):
        TABLE.step_toward((-1.0, 0.0), (5.0, 5.0), 1.0)
    with pytest.raises(ValueError, match="max_distance"):
        TABLE.step_toward((1.0, 1.0), (5.0, 5.0), -1.0)
    with pytest.raises(ValueError, match="stop_short"):
        TABLE.step_toward((1.0, 1.0), (5.0, 5.0), 1.0, stop_short=-1.0)


def test_step_toward_respects_decimals() -> None:
    end = TABLE.step_toward((0.0, 0.0), (1.0, 2.0), 1.0, decimals=1)
    assert end == (round(end[0], 1), round(end[1], 1))
    assert TABLE.distance((0.0, 0.0), end) <= 1.0


boards = st.builds(
    ContinuousBoard,
    width=st.floats(min_value=0.5, max_value=500.0),
    height=st.floats(min_value=0.5, max_value=500.0),
)
coords = st.floats(min_value=-100.0, max_value=700.0, allow_nan=False)


@st.composite
def moves(draw: st.DrawFn) -> tuple[ContinuousBoard, Point, Point, float, float, int]:
    board = draw(boards)
    origin = (
        draw(st.floats(min_value=0.0, max_value=board.width)),
        draw(st.floats(min_value=0.0, max_value=board.height)),
    )
    target = (draw(coords), draw(coords))
    max_distance = draw(st.floats(min_value=0.0, max_value=300.0))
    stop_short = draw(st.floats(min_value=0.0, max_value=50.0))
    decimals = draw(st.integers(min_value=0, max_value=4))
    return board, origin, target, max_distance, stop_short, decimals


@given(moves())
def test_step_toward_properties(
    move: tuple[ContinuousBoard, Point, Point, float, float, int],
) -> None:
    """PL-2: never beyond speed, always on the table, never past the target."""
    board, origin, target, max_distance, stop_short, decimals = move
    end = board.step_toward(origin, target, max_distance, stop_short, decimals)
    assert board.distance(origin, end) <= max_distance
    assert board.contains(end)
    # Never further from the origin than the target is (plus one rounding quantum).
    quantum = 10.0**-decimals
    assert board.distance(origin, end) <= board.distance(origin, target) + 2 * quantum


@given(moves())
def test_step_toward_result_is_rounded(
    move: tuple[ContinuousBoard, Point, Point, float, float, int],
) -> None:
    board, origin, target, max_distance, stop_short, decimals = move
    end = board.step_toward(origin, target, max_distance, stop_short, decimals)
    if end != origin:
        assert end == (round(end[0], decimals), round(end[1], decimals))


# --- GridBoard ---------------------------------------------------------------------------------


def test_grid_contains() -> None:
    assert GRID.contains((0, 0))
    assert GRID.contains((4, 4))
    assert not GRID.contains((5, 0))
    assert not GRID.contains((0, -1))


def test_grid_distance_is_chebyshev() -> None:
    """IO-6.1: same box 0, adjacent 1 (diagonals too), two away 2."""
    assert GRID.distance((2, 2), (2, 2)) == 0
    assert GRID.distance((2, 2), (3, 3)) == 1
    assert GRID.distance((2, 2), (2, 3)) == 1
    assert GRID.distance((2, 2), (4, 3)) == 2
    assert GRID.distance((0, 0), (4, 4)) == 4


def test_neighbours_centre_and_corner() -> None:
    centre = GRID.neighbours((2, 2))
    assert len(centre) == 8
    assert centre == [(1, 1), (1, 2), (1, 3), (2, 1), (2, 3), (3, 1), (3, 2), (3, 3)]
    assert GRID.neighbours((0, 0)) == [(0, 1), (1, 0), (1, 1)]
    assert len(GRID.neighbours((4, 2))) == 5


def test_is_diagonal_step() -> None:
    assert GRID.is_diagonal_step((1, 1), (2, 2))
    assert GRID.is_diagonal_step((1, 1), (0, 2))
    assert not GRID.is_diagonal_step((1, 1), (1, 2))
    assert not GRID.is_diagonal_step((1, 1), (3, 3))


def test_validate_path_ok() -> None:
    """IO-5.0: one diagonal per turn is allowed."""
    assert GRID.validate_path([(0, 0), (1, 0), (2, 1)], max_steps=2, max_diagonals=1) is None
    assert GRID.validate_path([(0, 0)], max_steps=0, max_diagonals=0) is None


def test_validate_path_second_diagonal_rejected() -> None:
    """IO-5.0: a second diagonal in the same turn is refused, naming the step."""
    reason = GRID.validate_path([(0, 0), (1, 1), (2, 2)], max_steps=3, max_diagonals=1)
    assert reason is not None
    assert "step 2" in reason and "diagonal" in reason


def test_validate_path_too_long() -> None:
    reason = GRID.validate_path([(0, 0), (1, 0), (2, 0), (3, 0)], max_steps=2, max_diagonals=1)
    assert reason is not None and "step 3" in reason


def test_validate_path_jump_and_stay_rejected() -> None:
    reason = GRID.validate_path([(0, 0), (2, 0)], max_steps=3, max_diagonals=1)
    assert reason is not None and "step 1" in reason and "neighbour" in reason
    reason = GRID.validate_path([(0, 0), (0, 0)], max_steps=3, max_diagonals=1)
    assert reason is not None and "step 1" in reason


def test_validate_path_off_board() -> None:
    reason = GRID.validate_path([(4, 4), (5, 4)], max_steps=3, max_diagonals=1)
    assert reason is not None and "step 1" in reason and "board" in reason
    assert GRID.validate_path([(9, 9)], max_steps=3, max_diagonals=1) is not None
    assert GRID.validate_path([], max_steps=3, max_diagonals=1) == "path is empty"


def test_diagonal_squeeze() -> None:
    """IO-5.1.6: no diagonal squeeze between enemies on both sides."""
    enemies: set[Cell] = {(1, 0), (0, 1)}

    def enemy(c: Cell) -> bool:
        return c in enemies

    assert GRID.diagonal_squeeze((0, 0), (1, 1), enemy)
    assert GRID.diagonal_squeeze((1, 1), (0, 0), enemy)
    # Only one side blocked: allowed.
    assert not GRID.diagonal_squeeze((0, 0), (1, 1), lambda c: c == (1, 0))
    # Orthogonal steps never squeeze.
    assert not GRID.diagonal_squeeze((0, 0), (1, 0), enemy)


cells = st.tuples(st.integers(0, 4), st.integers(0, 4))


@given(cells, cells)
def test_grid_distance_symmetric_and_neighbours_at_one(a: Cell, b: Cell) -> None:
    assert GRID.distance(a, b) == GRID.distance(b, a)
    assert (b in GRID.neighbours(a)) == (GRID.distance(a, b) == 1)


# --- ZoneBoard ---------------------------------------------------------------------------------


def test_zone_neighbours_circular() -> None:
    board = ZoneBoard(seats=["a", "b", "c", "d"], zones=["vanguard", "rearguard"])
    assert board.neighbours("a") == ("d", "b")
    assert board.neighbours("d") == ("c", "a")


def test_zone_neighbours_two_players() -> None:
    board = ZoneBoard(seats=["a", "b"], zones=["vanguard", "rearguard"])
    assert board.neighbours("a") == ("b", "b")


def test_line_targets() -> None:
    """ST-3.1: a line weapon hits the centre and both neighbours."""
    four = ZoneBoard(seats=["a", "b", "c", "d"], zones=["vanguard"])
    assert four.line_targets("a") == ["d", "a", "b"]
    assert four.line_targets("c") == ["b", "c", "d"]
    two = ZoneBoard(seats=["a", "b"], zones=["vanguard"])
    assert two.line_targets("a") == ["b", "a"]
    three = ZoneBoard(seats=["a", "b", "c"], zones=["vanguard"])
    assert sorted(three.line_targets("b")) == ["a", "b", "c"]


def test_zone_board_validation() -> None:
    with pytest.raises(ValidationError):
        ZoneBoard(seats=["a"], zones=["vanguard"])
    with pytest.raises(ValidationError):
        ZoneBoard(seats=["a", "a"], zones=["vanguard"])
    with pytest.raises(ValueError, match="unknown seat"):
        ZoneBoard(seats=["a", "b"], zones=[]).neighbours("z")


@given(st.integers(min_value=2, max_value=12), st.data())
def test_line_targets_properties(n: int, data: st.DataObject) -> None:
    seats = [f"p{i}" for i in range(n)]
    board = ZoneBoard(seats=seats, zones=["vanguard"])
    centre = data.draw(st.sampled_from(seats))
    targets = board.line_targets(centre)
    assert centre in targets
    assert len(targets) == len(set(targets)) == min(n, 3)
    assert set(targets) == {centre, *board.neighbours(centre)}
