"""Issue 21 items 10 and 11, the SHIPS & TACTICS table as a table, in a real browser: the seats
sit round an oval table in seating order (the last beside the first, which the line weapon
rule ST-3.1 depends on), each a panel in its side's colour holding its vanguard and rearguard as
card tiles (name, attack, hull, damage), its aircraft as markers whose labels never overlap nor
leave the panel, its hand as a face-down stack with a count; a side's view holds no other
side's hidden card; attack lines land on the target cards.

Run: ``WAKE_REQUIRE_BROWSER=1 .venv/bin/pytest tests/browser/test_table_browser.py``.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
import shapely

from domain.read_model import redact_view
from domain.record import read_record_file
from tests.browser.conftest import Server, context_page, wait_idle
from tests.browser.test_viewer_browser import (
    GAMES_DIR,
    board,
    expect,
    open_game,
    position_line,
    position_text,
    scrubber,
    shot,
)
from viewer.timeline import Timeline

LINE_FILE = GAMES_DIR / "ships" / "multi4-line_weapon.wake.json"
SIX_FILE = GAMES_DIR / "ships" / "multi6-nadesico.wake.json"
ATTACK = "ships.AttackDeclared/1"

# every seat panel, card tile, stack and label as drawn, in screen pixels
_DRAWN = """() => {
  const node = document.getElementById('board');
  const geo = window.wakeCtx.tableGeo;
  const fl = node._fullLayout;
  const xa = fl.xaxis; const ya = fl.yaxis;
  const px = (x, y) => [xa.l2p(x) + fl._size.l, ya.l2p(y) + fl._size.t];
  const box = (r) => [...px(r.x0, r.y1), ...px(r.x1, r.y0)];
  const host = node.getBoundingClientRect();
  const rel = (r) => [r.left - host.left, r.top - host.top,
    r.right - host.left, r.bottom - host.top];
  const labels = [...node.querySelectorAll('.scatterlayer .textpoint text')]
    .filter((t) => t.textContent).map((t) => [t.textContent, ...rel(t.getBoundingClientRect())]);
  const notes = [...node.querySelectorAll('.annotation-text-g')]
    .map((g) => [g.textContent, ...rel(g.getBoundingClientRect())]);
  return {
    panels: geo.panels.map((p) => [p.seat, ...box(p), ...px(p.cx, p.cy)]),
    tiles: geo.tiles.map((t) => [t.u.id, ...box(t), ...px(...geo.pts[t.u.id])]),
    stacks: geo.stacks.map((s) => [s.units.map((u) => u.id), ...box(s)]),
    markers: geo.markers.map((m) => [m.u.id, ...px(m.x, m.y)]),
    labels, notes, hidden: Number(node.dataset.labelsHidden),
    data: JSON.stringify(node.data) + JSON.stringify(node.layout.annotations),
  };
}"""


def _frame(page: Any) -> Any:
    return next(f for f in page.frames if "scrubber" in f.url)


def _drawn(page: Any, event: int) -> dict[str, Any]:
    expect(board(page)).to_have_attribute("data-event", str(event))
    frame = _frame(page)
    frame.wait_for_function(
        "() => window.wakeCtx.tableGeo && document.getElementById('board')._fullLayout"
    )
    page.wait_for_timeout(200)
    found: dict[str, Any] = frame.evaluate(_DRAWN)
    return found


def _inside(inner: list[float], outer: list[float], slack: float = 1.0) -> bool:
    return (
        inner[0] >= outer[0] - slack
        and inner[1] >= outer[1] - slack
        and inner[2] <= outer[2] + slack
        and inner[3] <= outer[3] + slack
    )


def _meets(a: list[float], b: list[float]) -> bool:
    return a[0] < b[2] - 1 and b[0] < a[2] - 1 and a[1] < b[3] - 1 and b[1] < a[3] - 1


def _check_table(drawn: dict[str, Any], seats: list[str]) -> None:
    """The panels round the table in seating order, apart; every label inside its panel."""
    panels = drawn["panels"]
    assert [p[0] for p in panels] == seats
    cx = sum(p[5] for p in panels) / len(panels)
    cy = sum(p[6] for p in panels) / len(panels)
    # on screen y runs down: seated clockwise, each seat a step on round the centre, once round
    angles = [math.atan2(-(p[6] - cy), p[5] - cx) for p in panels]
    n = len(angles)
    steps = [(angles[i] - angles[(i + 1) % n]) % (2 * math.pi) for i in range(n)]
    assert all(0 < s < math.pi for s in steps), (angles, steps)
    assert abs(sum(steps) - 2 * math.pi) < 1e-6, steps
    # the last seat beside the first: its panel is one of the first seat's two nearest
    dist = sorted((math.dist(panels[0][5:7], p[5:7]), p[0]) for p in panels[1:])
    assert seats[-1] in {d[1] for d in dist[:2]}, dist
    for i, a in enumerate(panels):
        for b in panels[i + 1 :]:
            assert not _meets(a[1:5], b[1:5]), (a, b)
    boxes = [p[1:5] for p in panels]
    for text, *label in drawn["labels"]:
        assert any(_inside(label, b) for b in boxes), (text, label)
    for i, (a, *ab) in enumerate(drawn["labels"]):
        for b, *bb in drawn["labels"][i + 1 :]:
            assert not _meets(ab, bb), (a, b)


def test_ships_seats_sit_round_the_table_with_cards_and_attack_lines(
    page: Any, server: Server, artifacts: Path
) -> None:
    """Four players at the line weapon's shot (ST-3.1: P1 fires at the vanguards of the centre
    and its two neighbours): the seats round the table in order, P4 beside P1; each vanguard
    card shows its name, attack, hull and damage; the attack lines end at the target cards'
    edges and run over no card (issue 21 item 11: a line struck through the text of the cards
    between)."""
    rec = read_record_file(LINE_FILE)
    tl = Timeline(rec.header, rec.events)
    shot_event = next(f for f in rec.events if f.topic == ATTACK and f.payload["line"])
    event = shot_event.seq
    view = tl.view_at(event)
    open_game(page, server, rec.header.game_id, event, tl.length)
    drawn = _drawn(page, event)
    _check_table(drawn, view.board.seats)
    notes = " | ".join(n[0] for n in drawn["notes"])
    tiles = {t[0]: t[1:5] for t in drawn["tiles"]}
    for u in view.units:
        if u.kind != "ship" or u.zone != "vanguard":
            continue
        assert u.id in tiles, u.id
        for part in (u.name[:12], f"attack {u.tile['attack']}", f"hull {u.tile['hull']}"):
            assert part in notes, (part, notes)
        assert f"damage {u.damage}" in notes
    lines = _frame(page).evaluate(
        """() => {
          const node = document.getElementById('board'); const fl = node._fullLayout;
          return node.data.filter((t) => t.name === 'attack').map((t) => [
            Array.from(t.customdata),
            Array.from(t.x).map((x) => (x === null ? null : fl.xaxis.l2p(x) + fl._size.l)),
            Array.from(t.y).map((y) => (y === null ? null : fl.yaxis.l2p(y) + fl._size.t))]);
        }"""
    )
    assert lines, "no attack line"
    ids, xs, ys = lines[0]
    ends = [i for i in ids if i]
    assert set(shot_event.payload["targets"]) <= set(ends)
    # every line ends at its target's card, on its edge (issue 21 item 11: never over a card's
    # text), and no drawn segment runs over a card tile or a face-down stack
    cards = [shapely.box(*t[1:5]) for t in drawn["tiles"]] + [
        shapely.box(*st[1:5]) for st in drawn["stacks"]
    ]
    for target in shot_event.payload["targets"]:
        card = shapely.box(*tiles[target])
        ends_at = [shapely.Point(xs[i], ys[i]) for i in range(len(xs)) if ids[i] == target]
        assert any(card.distance(e) < 8 for e in ends_at), (target, ends_at, tiles[target])
    for k in range(1, len(xs)):
        if xs[k - 1] is None or xs[k] is None:
            continue
        leg = shapely.LineString([(xs[k - 1], ys[k - 1]), (xs[k], ys[k])])
        assert not any(leg.intersects(c.buffer(-1)) for c in cards), (ids[k], leg)
    # a click on a card picks its ship: its details show below the board
    target = shot_event.payload["targets"][0]
    x0, y0, x1, y1 = tiles[target]
    bb = board(page).bounding_box()
    page.mouse.move(bb["x"] + (x0 + x1) / 2, bb["y"] + (y0 + y1) / 2)
    page.mouse.click(bb["x"] + (x0 + x1) / 2, bb["y"] + (y0 + y1) / 2)
    expect(scrubber(page).locator("#unit-select")).to_have_value(target)
    name = next(u.name for u in view.units if u.id == target)
    expect(scrubber(page).locator("#unit-info")).to_contain_text(name)
    shot(page, artifacts, f"40-ships-table-4-line-weapon-event-{event}")


def test_ships_six_seats_aircraft_labels_stay_in_their_panels(
    page: Any, server: Server, artifacts: Path
) -> None:
    """Six players (issue 21 item 10: aircraft labels overlapped and spilled into other seats):
    at every sampled event with aircraft out, no two labels meet, each stays inside its seat's
    panel, every aircraft has a marker or is counted in a "+N more"."""
    rec = read_record_file(SIX_FILE)
    tl = Timeline(rec.header, rec.events)
    launches = [f.seq for f in rec.events if f.topic == "ships.AircraftLaunched/1"]
    assert launches
    picks = sorted({launches[0], launches[len(launches) // 2], launches[-1]})
    open_game(page, server, rec.header.game_id, picks[0], tl.length)
    for event in picks:
        page.goto(f"{server.url}/?game={rec.header.game_id}&event={event}")
        drawn = _drawn(page, event)
        view = tl.view_at(event)
        _check_table(drawn, view.board.seats)
        aircraft = [u.id for u in view.units if u.kind == "aircraft"]
        marked = {m[0] for m in drawn["markers"]}
        assert len(marked) + drawn["hidden"] >= len(aircraft), (event, marked)
        shot(page, artifacts, f"41-ships-table-6-aircraft-event-{event}")


def test_a_side_sees_other_hands_as_card_backs_with_counts(
    page: Any, server: Server, artifacts: Path
) -> None:
    """Viewed as P2 before the fleets are revealed: every seat's hand is a face-down stack with
    its count; P2's own stack lists its cards on hover, the others' name none of theirs."""
    rec = read_record_file(SIX_FILE)
    tl = Timeline(rec.header, rec.events)
    event = next(f.seq for f in rec.events if f.topic == "ships.FleetCommitted/1")
    view = redact_view(tl.view_at(event), "P2")
    secret = {
        u.name
        for u in tl.view_at(event).units
        if u.private and u.side != "P2" and u.name not in {v.name for v in view.units}
    }
    page.goto(f"{server.url}/?game={rec.header.game_id}&event={event}&as=P2")
    expect(position_line(page)).to_have_text(position_text(event, tl.length))
    drawn = _drawn(page, event)
    counts: dict[str, int] = {}
    for u in view.units:
        if u.private:
            counts[f"{u.side}/{u.zone}"] = counts.get(f"{u.side}/{u.zone}", 0) + 1
    stacks = {}
    for ids, *_ in drawn["stacks"]:
        first = next(u for u in view.units if u.id == ids[0])
        stacks[f"{first.side}/{first.zone}"] = len(ids)
    assert stacks == counts
    notes = [n[0] for n in drawn["notes"]]
    for n in counts.values():
        assert f"×{n}" in notes
    assert secret, "no card hidden from P2"
    for name in secret:
        assert name not in drawn["data"], name
    shot(page, artifacts, f"42-ships-table-6-as-p2-event-{event}")


@pytest.mark.parametrize("width,height", [(1440, 900), (390, 844)])
def test_ships_table_screenshots(
    browser: Any,
    server: Server,
    artifacts: Path,
    request: pytest.FixtureRequest,
    width: int,
    height: int,
) -> None:
    """Screenshots of the four- and six-player tables at a desktop's and a phone's size, with
    the panels still apart and in order."""
    for path in (LINE_FILE, SIX_FILE):
        rec = read_record_file(path)
        tl = Timeline(rec.header, rec.events)
        event = [f.seq for f in rec.events if f.topic == ATTACK][3]
        size = {"width": width, "height": height}
        for page in context_page(browser, server, artifacts, request, viewport=size):
            open_game(page, server, rec.header.game_id, event, tl.length)
            wait_idle(page)
            drawn = _drawn(page, event)
            panels = drawn["panels"]
            for i, a in enumerate(panels):
                for b in panels[i + 1 :]:
                    assert not _meets(a[1:5], b[1:5]), (a, b)
            scrubber(page).locator("#board").scroll_into_view_if_needed()
            shot(page, artifacts, f"43-ships-table-{len(panels)}-{width}x{height}")
