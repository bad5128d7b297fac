"""Issue 13, a board a newcomer reads at a glance, in a real browser: a unit picked (on the board
or in the list above it) shows its reach as rings (PL-2 / PL-4 in Morze, IO-6.1 / IO-5.1.5-6 in
Iron & Oak, SWA-RNG / SWA-3.1 / SWA-3.2 in Armada) and everything about it below the board; the
hover holds only the essentials; unit labels never overlap; the units the current event names
are drawn above the others.

Run: ``WAKE_REQUIRE_BROWSER=1 .venv/bin/pytest tests/browser/test_board_browser.py``.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from domain.read_model import GameView, UnitView
from domain.record import read_record_file
from domain.words import unit_labels
from tests.browser.conftest import Server
from tests.browser.test_viewer_browser import (
    GAMES_DIR,
    IRON_OAK_FILE,
    RIVER_PLATE,
    Game,
    _data_to_page,
    board,
    expect,
    open_game,
    river_plate,
    scrubber,
    shot,
)
from viewer.timeline import Timeline

__all__ = ["river_plate"]  # the module fixture, shared

ARMADA_ATTACK = "armada.AttackDeclared/1"


def _frame(page: Any) -> Any:
    return next(f for f in page.frames if "scrubber" in f.url)


def _traces(page: Any) -> list[dict[str, Any]]:
    """The board's plotly traces as drawn: name, meta, x and y."""
    found: list[dict[str, Any]] = _frame(page).evaluate(
        """() => document.getElementById('board').data.map((t) => ({
            name: t.name || '', meta: t.meta || '', x: Array.from(t.x || []),
            y: Array.from(t.y || []), text: Array.isArray(t.text) ? t.text : [] }))"""
    )
    return found


def _wait_for(page: Any, check: Any, what: str) -> Any:
    """Poll ``check()`` (the board redraws in an animation frame) until it is truthy."""
    for _ in range(100):
        got = check()
        if got:
            return got
        page.wait_for_timeout(50)
    raise AssertionError(f"timed out waiting for {what}")


def _pick(page: Any, unit_id: str) -> None:
    scrubber(page).locator("#unit-select").select_option(unit_id)


def _ring(page: Any, kind: str, unit_id: str) -> dict[str, Any]:
    name = f"{kind} of {unit_id}"
    found: dict[str, Any] = _wait_for(
        page, lambda: next((t for t in _traces(page) if t["name"] == name), None), name
    )
    return found


def _loops(trace: dict[str, Any]) -> list[list[tuple[float, float]]]:
    """The rings of a batched line trace (null-separated)."""
    loops: list[list[tuple[float, float]]] = [[]]
    for x, y in zip(trace["x"], trace["y"], strict=True):
        if x is None:
            loops.append([])
        else:
            loops[-1].append((float(x), float(y)))
    return [loop for loop in loops if loop]


def _active(view: GameView, kind: str | None = None) -> list[UnitView]:
    return [
        u
        for u in view.units
        if u.status == "active" and (kind is None or u.kind == kind) and not u.private
    ]


def test_a_picked_morze_unit_shows_its_move_and_gun_range_rings(
    page: Any, server: Server, artifacts: Path, river_plate: Game
) -> None:
    """PL-2 (a move is a straight line of up to the speed from the centre) and PL-4 (range
    centre to centre): the rings are circles of exactly those radii around the unit; its
    details show below the board; the hover is short; picking none clears both."""
    event = river_plate.length // 3
    view = river_plate.timeline.view_at(event)
    unit = _active(view)[0]
    assert unit.position is not None
    open_game(page, server, RIVER_PLATE, event, river_plate.length)
    _pick(page, unit.id)
    for kind, radius in (
        ("move", float(unit.details["speed_cm"] or 0)),
        ("range", float(unit.details["range_cm"] or 0)),
    ):
        (loop,) = _loops(_ring(page, kind, unit.id))
        distances = [math.dist(p, unit.position) for p in loop]
        assert max(distances) - min(distances) < 1e-6 and abs(distances[0] - radius) < 1e-6
    info = scrubber(page).locator("#unit-info")
    expect(info).to_contain_text(f"{unit.name} · ")  # named, no internal id (issue 21 item 7)
    expect(info).to_contain_text("speed cm")
    expect(info).to_contain_text("gun range")
    expect(info).to_contain_text("PL-4")
    shot(page, artifacts, f"30-morze-rings-{unit.id}-event-{event}")

    page.mouse.move(*_data_to_page(page, *unit.position))
    hover = board(page).locator(".hoverlayer .hovertext")
    expect(hover).to_have_count(1)
    expect(hover).to_contain_text(unit.name)
    expect(hover).to_contain_text("click for details")
    expect(hover).not_to_contain_text("speed_cm")  # the details are below the board, not here

    _pick(page, "")
    _wait_for(page, lambda: not any(" of " in t["name"] for t in _traces(page)), "rings gone")
    expect(info).to_be_hidden()


def test_a_click_on_a_unit_picks_it_and_a_second_click_clears_it(
    page: Any, server: Server, artifacts: Path, river_plate: Game
) -> None:
    """Picking on the board itself: the list above follows the click."""
    event = river_plate.length // 3
    view = river_plate.timeline.view_at(event)
    unit = _active(view)[-1]
    assert unit.position is not None
    open_game(page, server, RIVER_PLATE, event, river_plate.length)
    picker = scrubber(page).locator("#unit-select")
    page.mouse.click(*_data_to_page(page, *unit.position))
    expect(picker).to_have_value(unit.id)
    _ring(page, "range", unit.id)
    page.mouse.click(*_data_to_page(page, *unit.position))
    expect(picker).to_have_value("")


def test_iron_oak_rings_count_grid_boxes(page: Any, server: Server, artifacts: Path) -> None:
    """IO-6.1: Short in the same GB, Medium one GB away, Long two (8-neighbour steps), drawn
    as squares of boxes around the ship's box, clipped to the map; a powered ship free to move
    also shows Maneuver 1 and 2 (IO-5.1.5, IO-5.1.6)."""
    rec = read_record_file(IRON_OAK_FILE)
    tl = Timeline(rec.header, rec.events)
    event = tl.length // 2
    view = tl.view_at(event)
    ship = next(u for u in _active(view) if u.cell is not None and u.kind != "fort" and u.rings)
    assert ship.cell is not None
    open_game(page, server, rec.header.game_id, event, tl.length)
    _pick(page, ship.id)
    cols, rows = int(view.board.width), int(view.board.height)
    want = {
        (max(0, ship.cell[0] - d), min(cols, ship.cell[0] + d + 1)): d
        for d in (int(r.distance) for r in ship.rings if r.kind == "range")
    }
    got = {
        (min(x for x, _ in loop), max(x for x, _ in loop)): loop
        for loop in _loops(_ring(page, "range", ship.id))
    }
    assert set(got) == set(want), (got.keys(), want)
    for (x0, x1), loop in got.items():
        d = want[(x0, x1)]
        ys = [y for _, y in loop]
        assert (min(ys), max(ys)) == (max(0, ship.cell[1] - d), min(rows, ship.cell[1] + d + 1))
    if any(r.kind == "move" for r in ship.rings):
        assert len(_loops(_ring(page, "move", ship.id))) == 2
    expect(scrubber(page).locator("#unit-info")).to_contain_text("IO-6.1")
    shot(page, artifacts, f"31-iron-oak-rings-{ship.id}-event-{event}")


_LABEL_BOXES = """() => {
    const gd = document.getElementById('board');
    const groups = gd.querySelectorAll('.scatterlayer .trace');
    const boxes = [];
    gd.data.forEach((t, i) => {
        const unitLabels = t.meta === 'unit' || (t.name || '').endsWith(' names');
        if (!unitLabels || (t.name || '').endsWith('(current)') || !groups[i]) return;
        for (const node of groups[i].querySelectorAll('.textpoint text')) {
            if (!node.textContent) continue;
            const b = node.getBoundingClientRect();
            if (b.width > 0) boxes.push([node.textContent, b.left, b.top, b.right, b.bottom]);
        }
    });
    return {boxes, hidden: Number(gd.dataset.labelsHidden || 0)};
}"""


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    """Whether two screen boxes (x0, y0, x1, y1) overlap by more than a pixel: glyph boxes of
    neighbours may touch."""
    return a[0] < b[2] - 1 and b[0] < a[2] - 1 and a[1] < b[3] - 1 and b[1] < a[3] - 1


def _overlaps(boxes: list[list[Any]]) -> list[tuple[str, str]]:
    found = []
    for i, (a, ax0, ay0, ax1, ay1) in enumerate(boxes):
        for b, bx0, by0, bx1, by1 in boxes[i + 1 :]:
            if _overlap((ax0, ay0, ax1, ay1), (bx0, by0, bx1, by1)):
                found.append((a, b))
    return found


def test_armada_labels_never_overlap_and_a_ship_shows_its_range_bands(
    page: Any, server: Server, artifacts: Path
) -> None:
    """The crowded Armada board at several attacks: no two unit labels overlap, and every
    active unit's label is either drawn or counted as left off (its hover still names it).
    A picked ship shows the three range bands (SWA-RNG) measured from its base: each ring
    keeps the band's distance from the base's outline; its details show below the board."""
    rec = read_record_file(server.armada_record)
    tl = Timeline(rec.header, rec.events)
    attacks = [f.seq for f in rec.events if f.topic == ARMADA_ATTACK]
    assert attacks, "the bots' game has no attack"
    picks = sorted({attacks[0], attacks[len(attacks) // 2], attacks[-1]})
    open_game(page, server, server.armada_game, picks[0], tl.length)
    for event in picks:
        page.goto(f"{server.url}/?game={server.armada_game}&event={event}")
        expect(board(page)).to_have_attribute("data-event", str(event))
        view = tl.view_at(event)
        shown = _wait_for(page, lambda: _frame(page).evaluate(_LABEL_BOXES), "labels")
        assert not _overlaps(shown["boxes"]), (
            event,
            [b for b in shown["boxes"] if b[0].startswith("tie")],
        )
        assert len(shown["boxes"]) + shown["hidden"] >= len(_active(view)), (event, shown)
        shot(page, artifacts, f"32-armada-labels-event-{event}")

    event = picks[-1]
    view = tl.view_at(event)
    ship = _active(view, "ship")[0]
    _pick(page, ship.id)
    loops = _loops(_ring(page, "range", ship.id))
    assert len(loops) == 3
    base = next(s for s in ship.shapes if s.style == "base" and s.closed)
    edges = list(zip(base.points, [*base.points[1:], base.points[0]], strict=True))

    def to_base(p: tuple[float, float]) -> float:
        def seg(a: tuple[float, float], b: tuple[float, float]) -> float:
            dx, dy = b[0] - a[0], b[1] - a[1]
            t = max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / (dx * dx + dy * dy)))
            return math.dist(p, (a[0] + t * dx, a[1] + t * dy))

        return min(seg(a, b) for a, b in edges)

    bands = sorted(r.distance for r in ship.rings if r.kind == "range")
    for loop, band in zip(sorted(loops, key=lambda lp: max(x for x, _ in lp)), bands, strict=True):
        gaps = [to_base(p) for p in loop]
        # a polygon of 48 sides around each corner: within 0.3 % of the band, never beyond
        assert max(gaps) <= band + 1e-6 and min(gaps) >= band * 0.997, (band, min(gaps))
    info = scrubber(page).locator("#unit-info")
    for part in ("speed", "shields", "defense tokens", "SWA-RNG"):
        expect(info).to_contain_text(part)
    shot(page, artifacts, f"33-armada-rings-{ship.id}-event-{event}")


# every unit label and every unit marker as drawn (screen boxes), each with its unit's id (a
# label of a unit with an outline: none)
_LABEL_AND_MARKER_BOXES = """() => {
    const gd = document.getElementById('board');
    const groups = gd.querySelectorAll('.scatterlayer .trace');
    const labels = []; const markers = [];
    const box = (node) => { const b = node.getBoundingClientRect();
        return b.width > 0 ? [b.left, b.top, b.right, b.bottom] : null; };
    gd.data.forEach((t, i) => {
        const name = t.name || ''; const g = groups[i];
        if (!g) return;
        const ids = Array.from(t.customdata || []);
        const units = t.meta === 'unit';
        if (units) for (const p of g.querySelectorAll('.points path.point')) {
            const b = box(p);
            if (b && p.__data__) markers.push([ids[p.__data__.i], ...b]);
        }
        // a unit drawn as a marker is labelled in its own trace, one with an outline in its
        // side's "names" trace; the units the event names are drawn again "(current)"
        const unitLabels = (units || name.endsWith(' names')) && !name.endsWith('(current)');
        if (!unitLabels) return;
        for (const tp of g.querySelectorAll('.textpoint')) {
            const text = tp.querySelector('text');
            const b = text && text.textContent ? box(text) : null;
            if (b) labels.push([text.textContent, units ? ids[tp.__data__.i] : null, ...b]);
        }
    });
    return {labels, markers};
}"""


def _labels_on_markers(found: dict[str, Any]) -> list[tuple[str, str]]:
    """Each (label, unit) where a unit's label covers another unit's marker (a pixel of
    slack: estimated boxes, drawn glyphs)."""
    hits = []
    for text, own, lx0, ly0, lx1, ly1 in found["labels"]:
        for uid, mx0, my0, mx1, my1 in found["markers"]:
            if uid == own:
                continue
            if _overlap((lx0, ly0, lx1, ly1), (mx0, my0, mx1, my1)):
                hits.append((text, uid))
    return hits


def test_unit_labels_never_cover_another_units_marker(
    page: Any, server: Server, artifacts: Path
) -> None:
    """Issue 21 item 10: the in-page board placed labels clear of each other but not of the
    units' markers (a squadron's name written over the next squadron's dot); the Python board
    (``viewer/label_place.py``) keeps every marker clear. On the crowded convoy board and the
    Armada game at its attacks, no unit label covers another unit's marker."""
    convoy = GAMES_DIR / "morze" / "convoy_battle-large.wake.json"
    rec = read_record_file(convoy)
    armada = read_record_file(server.armada_record)
    attacks = [f.seq for f in armada.events if f.topic == ARMADA_ATTACK]
    boards = [(rec.header.game_id, e, len(rec.events)) for e in (1, min(1500, len(rec.events)))]
    boards += [(server.armada_game, e, len(armada.events)) for e in (attacks[0], attacks[-1])]
    found: list[tuple[str, int, str, str]] = []
    for game, event, length in boards:
        open_game(page, server, game, event, length)
        drawn = _wait_for(
            page,
            lambda: (d := _frame(page).evaluate(_LABEL_AND_MARKER_BOXES))["labels"] and d,
            "labels and markers",
        )
        assert drawn["markers"], (game, event)
        found += [(game, event, text, uid) for text, uid in _labels_on_markers(drawn)]
        shot(page, artifacts, f"36-labels-clear-of-markers-{game[:8]}-event-{event}")
    assert not found, f"{len(found)} labels over markers, e.g. {found[:8]}"


def test_board_labels_are_the_units_names_as_the_python_board_writes_them(
    page: Any, server: Server, river_plate: Game
) -> None:
    """Issue 21 item 7: the in-page board labelled a unit whose name is long by its id read as
    words (``graf spee`` for the Admiral Graf Spee, ``tie 1``); each label is now the name the
    Python board and the move list give it (``domain.words.unit_labels``), with its damage."""
    event = 120
    open_game(page, server, RIVER_PLATE, event, river_plate.length)
    drawn = _wait_for(
        page,
        lambda: (d := _frame(page).evaluate(_LABEL_AND_MARKER_BOXES))["labels"] and d,
        "labels",
    )
    view = river_plate.timeline.view_at(event)
    names = unit_labels(view.units)
    units = {u.id: u for u in view.units}
    shown = {uid: text for text, uid, *_ in drawn["labels"] if uid is not None}
    assert shown, "no unit label drawn"
    for uid, text in shown.items():
        unit = units[uid]
        damage = f" {unit.damage}/{unit.strength}" if unit.damage > 0 else ""
        assert text == names[uid] + damage, (uid, text)
    assert "Admiral Graf Spee" in {t.split(" 1/")[0].split(" 2/")[0] for t in shown.values()}


def test_the_units_an_event_names_are_drawn_above_the_others(
    page: Any, server: Server, river_plate: Game
) -> None:
    """At an attack the attacker and target are drawn again last (no other marker hides
    them), then the attack line above them."""
    rec = river_plate.record
    event = next(f.seq for f in rec.events if f.topic == "morze.AttackDeclared/1")
    open_game(page, server, RIVER_PLATE, event, river_plate.length)
    names = [t["name"] for t in _traces(page)]
    current = [i for i, n in enumerate(names) if n.endswith("(current)")]
    units = [i for i, t in enumerate(_traces(page)) if t["meta"] == "unit" and i not in current]
    assert current and min(current) > max(units)
    assert names.index("attack") > max(current)


def test_iron_oak_boxes_show_only_the_notes_that_stand_out(
    page: Any, server: Server, artifacts: Path
) -> None:
    """Issue 21 item 10: Iron & Oak's "depth 5" in every box ran into ship names. The note most
    boxes share is left to the hover; every other box note (banks, mines, shoals) is drawn."""
    rec = read_record_file(IRON_OAK_FILE)
    tl = Timeline(rec.header, rec.events)
    event = tl.length // 2
    cells = [c for c in tl.view_at(event).board.cells if c.label]
    counts: dict[str, int] = {}
    for cell in cells:
        counts[cell.label] = counts.get(cell.label, 0) + 1
    common, most = max(counts.items(), key=lambda kv: kv[1])
    assert most > len(tl.view_at(event).board.cells) // 2, counts  # the fixture has a common note
    open_game(page, server, rec.header.game_id, event, tl.length)
    notes = _wait_for(
        page,
        lambda: _frame(page).evaluate(
            "() => (document.getElementById('board').layout.annotations || []).map((a) => a.text)"
        ),
        "the board's notes",
    )
    assert common not in notes
    assert sorted(n for n in notes if n in counts) == sorted(
        c.label for c in cells if c.label != common
    )
    shot(page, artifacts, f"34-iron-oak-box-notes-event-{event}")


def test_labels_left_off_for_room_come_back_when_zoomed(
    page: Any, server: Server, artifacts: Path
) -> None:
    """Issue 21 item 10: the convoy game leaves labels off where 40-odd units crowd (the hover
    still names them); zoomed in with the board's own button, the labels are placed again for
    what is in view and fewer are left off; "Reset axes" puts the whole board back."""
    convoy = GAMES_DIR / "morze" / "convoy_battle-large.wake.json"
    rec = read_record_file(convoy)
    length = len(rec.events)
    event = min(1500, length)
    open_game(page, server, rec.header.game_id, event, length)
    hidden = lambda: _frame(page).evaluate(  # noqa: E731
        "() => Number(document.getElementById('board').dataset.labelsHidden || 0)"
    )
    before = _wait_for(page, hidden, "labels left off at the start")
    assert before > 0, "the crowded convoy board leaves some labels off"
    window = _frame(page).evaluate(
        "() => { const l = document.getElementById('board')._fullLayout;"
        " return [l.xaxis.range.slice(), l.yaxis.range.slice()]; }"
    )
    # zoomed in as a person does, with the board's "Zoom in" button (twice: a quarter of it)
    zoom_in = scrubber(page).locator('#board .modebar-btn[data-title="Zoom in"]')
    for _ in range(2):
        board(page).hover()
        zoom_in.click()
        page.wait_for_timeout(300)
    after = _wait_for(page, lambda: (h := hidden()) < before and h + 1, "labels placed again")
    assert after - 1 < before
    shown = _frame(page).evaluate(
        "() => document.getElementById('board')._fullLayout.xaxis.range.slice()"
    )
    assert abs(shown[1] - shown[0]) < 0.5 * abs(window[0][1] - window[0][0]), shown  # zoomed
    shot(page, artifacts, f"35-convoy-zoomed-labels-event-{event}")
    board(page).hover()  # "Reset axes": the whole board again
    scrubber(page).locator('#board .modebar-btn[data-title="Reset axes"]').click()
    # the whole board is crowded again: about as many labels left off as before the zoom (the
    # ranges plotly keeps for a zoom differ from the board's own by the axes' equal scale)
    back = _wait_for(page, lambda: (h := hidden()) > after - 1 and h + 1, "crowded again")
    assert abs((back - 1) - before) <= max(2, before // 10), (before, after - 1, back - 1)
