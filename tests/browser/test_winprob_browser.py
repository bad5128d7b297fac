"""Issue 24 item 2 in a real browser: the win-probability graph under the board.

The analysed fixture game (``channel_skirmish-analysed``, a real ``wake analyse`` output) is in
the test server's store; its analysis is kept beside it here, as ``wake import`` does. Expected
values come from the record and ``viewer.winprob`` (the read model), never from hard-coded
numbers. Checks: the graph is drawn with each side's line and band and the turning points
marked; its cursor follows ArrowRight in the page; a click on the graph (a turning point, then a
point of a line, with no wait between) jumps to that event and the server catches up; a turning
point's hover tells the swing in players' words; the move list shows the analysis's own notes
under their own filter, apart from people's annotations.

Run: ``.venv/bin/pytest tests/browser/test_winprob_browser.py -p no:playwright -q``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from domain.analysis import stored
from domain.record import read_record_file
from domain.store import GameStore
from tests.browser.conftest import Server
from tests.browser.test_viewer_browser import (
    GAMES_DIR,
    expect,
    expect_event,
    explain_column,
    focus_page,
    open_game,
    scrubber,
    shot,
)
from viewer.timeline import Timeline
from viewer.winprob import TITLE, graph_data

ANALYSED_FILE = GAMES_DIR / "morze" / "channel_skirmish-analysed.wake.json"


def _centre(box: dict[str, float] | None) -> tuple[float, float]:
    assert box is not None and box["width"] > 0
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def test_the_win_probability_graph_follows_the_replay_and_jumps_on_click(
    page: Any, server: Server, artifacts: Path
) -> None:
    rec = read_record_file(ANALYSED_FILE)
    assert rec.analysis is not None
    game_id = rec.header.game_id
    stored.save_analysis(GameStore(str(server.store)), game_id, rec.analysis)
    tl = Timeline(rec.header, rec.events)
    graph = graph_data(tl, rec.analysis, None)
    assert graph is not None
    turning = [t["event"] for t in graph["turning"]]
    assert turning, "the fixture's analysis has no turning point"
    length = tl.length
    start = 20
    open_game(page, server, game_id, start, length)

    frame = scrubber(page)
    chart = frame.locator("#wp-chart")
    expect(chart.locator(".main-svg").first).to_be_visible()
    expect(chart).to_contain_text(TITLE)
    expect(frame.locator("#wp-about")).to_contain_text("not a truth about the position")
    # a band and a line per side, then the turning points: one marker each
    traces = chart.locator("g.trace.scatter")
    expect(traces).to_have_count(2 * len(graph["sides"]) + 1)
    expect(chart).to_have_attribute("data-turning", " ".join(map(str, turning)))
    markers = traces.last.locator("path.point")
    expect(markers).to_have_count(len(turning))
    shot(page, artifacts, "60-winprob-graph-event-20")

    # the cursor sits at the current event and follows a key press, in the page
    cursor = chart.locator(".cursor")
    expect(cursor).to_have_text(f"event {start}")
    x_before = _centre(cursor.bounding_box())[0]
    focus_page(page)
    page.keyboard.press("ArrowRight")
    expect(cursor).to_have_text(f"event {start + 1}")
    expect_event(page, start + 1, length)
    assert _centre(cursor.bounding_box())[0] > x_before

    # a turning point: its hover tells the swing; a click on it jumps there
    target = turning[-1]
    x, y = _centre(markers.nth(len(turning) - 1).bounding_box())
    page.mouse.move(x, y)
    hover = chart.locator(".hoverlayer")
    expect(hover).to_contain_text("turning point")
    expect(hover).to_contain_text("Royal Navy")
    shot(page, artifacts, f"61-winprob-turning-point-hover-event-{target}")
    page.mouse.click(x, y)
    expect_event(page, target, length)
    expect(cursor).to_have_text(f"event {target}")
    assert str(target) in graph["notes"]  # its note under the explain panel, apart from people's
    expect(explain_column(page)).to_contain_text(f"Analysis of event {target}")

    # then a click on a point of a side's line jumps to that point's event (the graph must not
    # have moved since the turning point's click: the position line above the board once grew
    # a line there, and the click landed on another chart)
    line = graph["series"][graph["sides"][0]]
    index = min(  # the point nearest the game's middle, away from where we are
        (i for i, p in enumerate(line) if abs(p[0] - target) > 20 and p[0] > start + 20),
        key=lambda i: abs(line[i][0] - length // 2),
    )
    wanted = line[index][0]
    point = traces.nth(len(graph["sides"])).locator("path.point").nth(index)
    page.mouse.move(*_centre(point.bounding_box()))
    expect(hover).to_contain_text(re.compile(r"event \d+:"))
    # the point the pointer is on, as its hover names it ("closest" picks among the points
    # near the pointer; the event is the one the person clicking reads)
    named = re.search(r"event (\d+):", hover.text_content() or "")
    assert named is not None and abs(int(named.group(1)) - wanted) <= 10, named
    wanted = int(named.group(1))
    page.mouse.click(*_centre(point.bounding_box()))
    expect_event(page, wanted, length)
    expect(cursor).to_have_text(f"event {wanted}")

    # the analysis's own notes in the move list, under their own filter
    moves = frame.locator("#moves")
    expect(moves.locator(".analysis-note")).to_have_count(len(graph["notes"]))
    expect(moves.locator(".annotation")).to_have_count(0)  # nobody annotated this game
    frame.locator("#wp-only input").check()
    expect(frame.locator("#move-count")).to_contain_text(
        f"{len(graph['notes'])} of {length} events"
    )
    expect(moves.locator(".move")).to_have_count(len(graph["notes"]))
    shot(page, artifacts, f"62-winprob-event-{target}-analysis-notes")
