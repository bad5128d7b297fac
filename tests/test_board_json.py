"""The board JSON the scribe's page and a hosted table send (``viewer.figures.board_json``, drawn on
plain dicts by ``viewer.plain_figure`` for a tenth of plotly's server time, issue 20) is the
validated figure's JSON exactly: every ruleset, the SHIPS table, at events with moves and attacks
highlighted, a side's view, and a unit's reach drawn while an order is entered."""

from __future__ import annotations

import json

import pytest

from domain.read_model import redact_view
from domain.record import read_record_file
from tests.helpers import FIXTURES
from viewer.figures import board_figure, board_height, board_json
from viewer.plain_figure import PlainFigure
from viewer.replay_app import _highlight
from viewer.scribe.board import ring_overlays
from viewer.timeline import Timeline

GAMES = [
    "games/morze/river_plate-annihilation.wake.json",
    "games/iron_oak/mobile_bay-fort-magazine.wake.json",
    "games/armada/core_learning-score.wake.json",
    "games/ships/multi6-nadesico.wake.json",
]


@pytest.mark.parametrize("path", GAMES)
def test_the_unvalidated_board_is_the_same_json(path: str) -> None:
    record = read_record_file(FIXTURES / path)
    tl = Timeline(record.header, record.events)
    last = len(record.events)
    sides = [None, record.header.sides[0].id]
    for event in sorted({0, 1, last // 3, last // 2, last - 1, last}):
        for viewer in sides:
            view = redact_view(tl.view_at(event), viewer)
            highlight = _highlight(tl, event, viewer)
            height = board_height(view)
            fast = json.loads(board_json(view, highlight, height=height))
            checked = json.loads(board_figure(view, highlight, height=height).to_json())
            assert fast == checked, (path, event, viewer)


@pytest.mark.parametrize("path", GAMES)
def test_the_scribes_board_with_a_units_reach_is_the_same_json(path: str) -> None:
    """The scribe's board (issue 20) draws a chosen unit's reach as overlay areas with no line
    of their own (a Morze move ring), which the replay's events never show."""
    record = read_record_file(FIXTURES / path)
    tl = Timeline(record.header, record.events)
    view = tl.view_at(1)
    rings = [o for unit in view.units for o in ring_overlays(unit, view)]
    shown = view.model_copy(update={"overlays": [*view.overlays, *rings]})
    height = board_height(shown)
    fast = json.loads(board_json(shown, None, height=height))
    checked = json.loads(board_figure(shown, None, height=height).to_json())
    assert fast == checked


def test_the_plain_figure_refuses_a_property_it_does_not_know() -> None:
    """A magic-underscore name the plain figure cannot resolve is refused, not guessed."""
    with pytest.raises(ValueError, match="marker_sizemode"):
        PlainFigure().update_layout(marker_sizemode="area")
