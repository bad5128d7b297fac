"""Units' names on a continuous board drawn in Python never overlap (issue 21 item 10: the
Armada learning game's squadrons wrote their names over each other where they clustered; the
PNG export, the report and the scribe's board draw this figure)."""

from __future__ import annotations

from typing import Any

import pytest

from domain.record import read_record_file
from domain.words import unit_labels
from tests.helpers import FIXTURES
from viewer.figures import Highlight, board_figure
from viewer.label_place import CHAR_PX, LINE_PX, Anchor, board_scale, place_names
from viewer.timeline import Timeline

Box = tuple[float, float, float, float]


def _box(x: float, y: float, text: str, position: str, radius: float, scale: float) -> Box:
    """The text box plotly draws for ``position`` at (x, y), in px, as estimated."""
    w, h = len(text) * CHAR_PX, LINE_PX
    px, py = x * scale, y * scale
    vertical, horizontal = position.split()
    if horizontal == "center":
        x0 = px - w / 2
    elif horizontal == "right":
        x0 = px + radius
    else:
        x0 = px - radius - w
    if vertical == "top":
        y0 = py + radius
    elif vertical == "bottom":
        y0 = py - radius - h
    else:
        y0 = py - h / 2
    return (x0, y0, x0 + w, y0 + h)


def _apart(a: Box, b: Box) -> bool:
    return a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]


def test_names_in_a_cluster_take_other_places_or_give_way() -> None:
    """Nine markers 2 px apart: the first name takes its place above, the others take what is
    left around the cluster or stay off the board (the hover names them); no two overlap."""
    anchors = [Anchor(f"u{i}", f"Squadron {i}", i * 0.2, 0.0, i * 0.2, 0.0, 5.0) for i in range(9)]
    scale = 10.0
    placed = place_names(anchors, scale, [(a.x0, a.y0, 5.0) for a in anchors])
    assert placed["u0"] is not None and placed["u0"].position == "top center"
    kept = {uid: p for uid, p in placed.items() if p is not None}
    assert 1 < len(kept) < 9
    boxes = [
        _box(p.x, p.y, next(a.text for a in anchors if a.uid == uid), p.position, 7.0, scale)
        for uid, p in kept.items()
    ]
    assert all(_apart(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1 :])


def test_an_outlines_name_goes_under_it_unless_taken() -> None:
    ship = Anchor("ship", "Victory II-class Star Destroyer", 0.0, 0.0, 10.0, 6.0)
    placed = place_names([ship], 20.0)
    assert placed["ship"] is not None and placed["ship"].position == "bottom center"
    assert (placed["ship"].x, placed["ship"].y) == (5.0, 0.0)
    blocked = place_names([ship], 20.0, texts=[(5.0, -0.4, "a name right under it")])
    assert blocked["ship"] is not None and blocked["ship"].position == "top center"


def _names(fig: Any) -> list[tuple[str, float, float, str, float]]:
    """Every unit name the figure writes: text, x, y, position, and the marker's radius."""
    found = []
    for trace in fig.data:
        if trace.mode not in ("markers+text", "text") or not trace.uid:
            continue
        if not (trace.uid.startswith(("side", "out", "names"))):
            continue
        positions = trace.textposition
        for k, text in enumerate(trace.text or ()):
            if not text:
                continue
            where = positions[k] if isinstance(positions, tuple | list) else positions
            size = trace.marker.size if trace.mode == "markers+text" else 0
            radius = (size[k] if isinstance(size, tuple | list) else size or 0) / 2
            found.append((text, trace.x[k], trace.y[k], where, radius))
    return found


@pytest.fixture(scope="module")
def learning() -> Timeline:
    record = read_record_file(FIXTURES / "games/armada/core_learning-score.wake.json")
    return Timeline(record.header, list(record.events))


@pytest.mark.parametrize("event", [300, 450, 600, 750])
def test_the_armada_learning_games_names_never_overlap(learning: Timeline, event: int) -> None:
    """SWA learning game, seed 1: wherever the squadrons cluster, the names the board writes
    are apart (as estimated from their characters), and the current event's units keep
    theirs."""
    view = learning.view_at(event)
    moved = next(u.id for u in view.units if u.status == "active" and not u.private)
    fig = board_figure(view, Highlight(focus=frozenset({moved})))
    names = _names(fig)
    y0, y1 = fig.layout.yaxis.range
    scale = board_scale(fig.layout.height, y1 - y0)
    boxes = [_box(x, y, text, pos, r + 2, scale) for text, x, y, pos, r in names]
    assert len(boxes) > 5
    assert all(_apart(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1 :])
    mover = unit_labels(view.units)[moved]
    assert any(text.startswith(mover) for text, *_ in names)  # placed first, so placed
