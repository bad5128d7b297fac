"""The scribe's board JSON (``viewer.figures.board_json``, built without plotly's validation to
halve a hosted table's server time, issue 20) is the validated figure's JSON exactly: every
ruleset, the SHIPS table, at events with moves and attacks highlighted, and a side's view."""

from __future__ import annotations

import json

import pytest

from domain.read_model import redact_view
from domain.record import read_record_file
from tests.helpers import FIXTURES
from viewer.figures import board_figure, board_height, board_json
from viewer.replay_app import _highlight
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
