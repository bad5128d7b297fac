"""Issue 21 (leftovers, items 3 and 4): the board drawn in Python (the PNG export, the scribe
page, the dispute report) labels units by their display names, never their ids, in every
ruleset; and a board whose seats sit round a table (``seating == "ring"``, SHIPS & TACTICS:
ST-1.1 seating order) is drawn as the table, as the replay viewer's own board draws it
(``viewer/scrubber/static/board-table.js``): each seat's panel round the table in seating
order, its vanguard and rearguard as card tiles (name, attack, hull, damage, sunk), its hand as
card backs with a count, a distinct colour for each of up to six players."""

from __future__ import annotations

import math
from functools import cache
from typing import Any

import plotly.graph_objects as go
import pytest
import shapely

from domain.links import links_of
from domain.read_model import BoardView, GameView, SideView, UnitView, redact_view
from domain.record import read_record_file
from tests.helpers import FIXTURES
from tests.words_scan import id_pattern
from viewer.board_table import PW, table_layout
from viewer.figure_style import BOARD_HEIGHT
from viewer.figures import TABLE_WIDTH, Highlight, board_figure
from viewer.timeline import Timeline

GAMES = [
    "games/morze/river_plate-annihilation.wake.json",
    "games/armada/core_learning-score.wake.json",
    "games/iron_oak/mobile_bay-fire5.wake.json",
    "games/ships/multi2-duel.wake.json",
    "games/ships/multi6-nadesico.wake.json",
]


@cache
def _timeline(path: str) -> Timeline:
    record = read_record_file(FIXTURES / path)
    return Timeline(record.header, record.events)


def _written(fig: go.Figure) -> list[str]:
    """Every text the figure writes on the board (not its hovers): trace texts, annotations."""
    texts = [str(t) for trace in fig.data if trace.text is not None for t in _listed(trace.text)]
    return texts + [str(a.text) for a in fig.layout.annotations if a.text]


def _listed(value: Any) -> list[Any]:
    return list(value) if isinstance(value, list | tuple) else [value]


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.split("/")[-1])
def test_board_labels_are_display_names_in_every_ruleset(game: str) -> None:
    """Issue 21 (leftovers, item 3): no unit is labelled by its id ("a1", "tie_1", "P1-b1-V1")
    where the read model names it, at the start, in the middle and at the end of a game."""
    tl = _timeline(game)
    for seq in (0, tl.length // 2, tl.length):
        view = tl.view_at(seq)
        named = {u.id: u.name for u in view.units if u.name not in ("", "hidden", u.id)}
        for text in _written(board_figure(view)):
            for name in sorted(set(named.values()), key=len, reverse=True):
                text = text.replace(name, "")  # an id inside a name is not the id
            left = [i for i in named if id_pattern(i).search(text)]
            assert not left, (seq, text, left)


def _unit(uid: str, seat: str, zone: str, **kw: Any) -> UnitView:
    base: dict[str, Any] = {
        "id": uid,
        "side": seat,
        "name": f"Ship {uid}",
        "kind": "ship",
        "status": "active",
        "damage": 0,
        "strength": 5,
        "zone": zone,
        "details": {"seat": seat},
    }
    return UnitView(**(base | kw))


def ring_view(seats: int = 6) -> GameView:
    ids = [f"P{i + 1}" for i in range(seats)]
    units = []
    for seat in ids:
        units += [
            _unit(f"{seat}-v", seat, "vanguard", tile={"attack": "1/3/2", "hull": 5}, damage=2),
            _unit(f"{seat}-r", seat, "rearguard", tile={"attack": "0/1/2", "hull": 3}),
            _unit(f"{seat}-a", seat, "air", name="Zaku II"),
            _unit(f"{seat}-h1", seat, "hand", name="Card one", private=True),
            _unit(f"{seat}-h2", seat, "hand", name="Card two", private=True),
        ]
    units[0] = units[0].model_copy(update={"status": "sunk", "damage": 5})
    board = BoardView(
        kind="zones",
        width=2,
        height=4,
        unit="box",
        zones=["vanguard", "rearguard", "air", "hand"],
        seats=ids,
        seating="ring",
    )
    return GameView(
        ruleset="ships",
        ruleset_name="SHIPS & TACTICS multiplayer",
        scenario="test",
        turn=1,
        phase="attack",
        active_side="P2",
        sides=[
            SideView(id=s, name=f"Fleet {s}", vp=i, units_total=5, units_active=5)
            for i, s in enumerate(ids)
        ],
        units=units,
        board=board,
    )


def _panels(fig: go.Figure) -> list[Any]:
    """The seats' panels: white rectangles of a panel's width, in drawing order."""
    return [
        s
        for s in fig.layout.shapes
        if s.type == "rect" and s.fillcolor == "white" and abs((s.x1 - s.x0) - PW) < 1e-6
    ]


def _point(fig: go.Figure, uid: str) -> tuple[float, float]:
    for t in fig.data:
        if t.customdata is not None and t.mode and "markers" in t.mode and uid in t.customdata:
            i = list(t.customdata).index(uid)
            return (t.x[i], t.y[i])
    raise AssertionError(f"{uid} has no marker")


def test_a_ring_board_is_the_table_not_the_seat_by_zone_grid() -> None:
    """Item 4: no seat and zone axes; a panel for every seat, placed round the table in seating
    order (ST-1.1): the first at the bottom, then clockwise, the last beside the first."""
    fig = board_figure(ring_view(6))
    assert fig.layout.xaxis.visible is False and fig.layout.yaxis.visible is False
    assert not fig.layout.xaxis.ticktext
    panels = _panels(fig)
    assert len(panels) == 6
    centres = [((p.x0 + p.x1) / 2, (p.y0 + p.y1) / 2) for p in panels]
    cx = sum(x for x, _ in centres) / 6
    cy = sum(y for _, y in centres) / 6
    # clockwise from the bottom: the angle (from straight down, clockwise on screen) grows
    angles = [math.atan2(-(x - cx), -(y - cy)) % (2 * math.pi) for x, y in centres]
    angles[0] = 0.0 if angles[0] > math.pi else angles[0]  # the first sits at the bottom
    assert angles == sorted(angles), angles
    assert centres[0][1] < cy  # the first seat at the bottom
    # the seating line runs round through the seats and back to the first
    loop = next(s for s in fig.layout.shapes if s.type == "path")
    assert loop.path.startswith("M ") and loop.path.endswith(" Z") and loop.path.count("L") == 5
    # six players, six colours
    assert len({p.line.color for p in panels}) == 6
    assert max(p.line.width for p in panels) == 4  # the seat to act, drawn bold
    heads = [a.text for a in fig.layout.annotations if "Fleet" in str(a.text)]
    assert heads[:2] == ["<b>Fleet P1 (P1)</b>", "<b>Fleet P2 (P2)</b>"]


def test_cards_are_tiles_and_hands_are_card_backs_with_a_count() -> None:
    """Item 4: each seat's vanguard and rearguard are card tiles with the card's name, its
    values, its damage and, once out, its status; a hand is a stack of card backs "×2"."""
    fig = board_figure(ring_view(3))
    notes = [str(a.text) for a in fig.layout.annotations]
    sunk = next(n for n in notes if n.startswith("<b>Ship P1-v</b>"))
    assert sunk == "<b>Ship P1-v</b><br>attack 1/3/2 · hull 5<br>damage 5/5 · sunk"
    assert "<b>Ship P2-v</b><br>attack 1/3/2 · hull 5<br>damage 2/5" in notes
    assert notes.count("×2") == 3  # a hand of two, face down, at each seat
    markers = [t for t in fig.data if t.mode == "markers+text"]
    assert {str(x) for t in markers for x in t.text} == {"Zaku II"}  # the seat is the panel's


def test_every_unit_of_the_table_can_be_clicked_and_hovered_where_it_is_drawn() -> None:
    """Item 4 (the scribe page picks a unit by the marker nearest the click): every unit, the
    cards, the aircraft and the face-down cards, has a marker with its id inside its own seat's
    panel, and a hover that names it (a side's view names only its own hidden cards)."""
    view = ring_view(4)
    fig = board_figure(view)
    panels = _panels(fig)
    seats = [s for s in view.board.seats]
    for unit in view.units:
        x, y = _point(fig, unit.id)
        p = panels[seats.index(unit.side)]
        assert p.x0 <= x <= p.x1 and p.y0 <= y <= p.y1, unit.id
    mine = redact_view(view, "P1")
    seen = board_figure(mine)
    hovers = [str(h) for t in seen.data if t.hovertext is not None for h in _listed(t.hovertext)]
    assert any("Card one" in h for h in hovers)
    assert any("2 hidden from this view" in h for h in hovers)


@pytest.mark.parametrize("game", GAMES[3:], ids=lambda g: g.split("/")[-1])
def test_a_ships_game_exports_its_table(game: str) -> None:
    """Item 4: the bundled SHIPS games' boards (the PNG export's figure) are the table, with a
    panel for each player and every card tile named."""
    tl = _timeline(game)
    view = tl.view_at(tl.length // 2)
    fig = board_figure(view)
    assert len(_panels(fig)) == len(view.board.seats)
    notes = " ".join(str(a.text) for a in fig.layout.annotations)
    for unit in view.units:
        if unit.tile and not unit.private:
            assert unit.name[:12] in notes, unit.name


def _attack_events(tl: Timeline) -> list[int]:
    """The events of a game that draw attack lines (``domain.links.links_of``)."""
    return [
        e
        for e in range(1, tl.length + 1)
        if links_of(tl.decoded[e - 1].model_dump(mode="json"))
    ]


@pytest.mark.parametrize(
    "game",
    ["games/ships/multi4-line_weapon.wake.json", "games/ships/multi6-nadesico.wake.json"],
    ids=lambda g: g.split("/")[-1],
)
def test_attack_lines_never_run_over_a_cards_text(game: str) -> None:
    """Issue 21 items 4 and 11: on the SHIPS table an attack line (attacker to each target,
    a line weapon's three vanguards too, ST-2.2) runs from card edge to card edge and never
    over a card tile or a face-down stack, whose text it would strike through: every drawn
    segment of the attacks of every sixth attacking event of the game (a board takes a fifth
    of a second to draw), checked with shapely against each card's box."""
    tl = _timeline(game)
    crossed: list[str] = []
    lines = 0
    for event in _attack_events(tl)[::6]:
        view = tl.view_at(event)
        links = links_of(tl.decoded[event - 1].model_dump(mode="json"))
        highlight = Highlight(attacks=tuple((ln.source, ln.target) for ln in links))
        fig = board_figure(view, highlight)
        layout = table_layout(view, TABLE_WIDTH, max(BOARD_HEIGHT - 50, 200))
        cards = [(t.unit.name, t.box) for t in layout.tiles]
        cards += [(f"stack of {s.side}", s.box) for s in layout.stacks]
        for trace in (t for t in fig.data if t.name == "attack"):
            lines += 1
            points = [(x, y) for x, y in zip(trace.x, trace.y, strict=True) if x is not None]
            drawn = shapely.LineString(points)
            for name, b in cards:
                inner = shapely.box(b.x0, b.y0, b.x1, b.y1).buffer(-0.5)
                if drawn.intersects(inner):
                    crossed.append(f"event {event}: {trace.customdata[0]} line over {name}")
    assert lines > 10
    assert not crossed, f"{len(crossed)} lines over cards, e.g.\n" + "\n".join(crossed[:10])
