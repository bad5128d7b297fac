"""Issue 13 in a real browser: scrubbing happens in the page (the scrubber component), so no key
press is lost, Back/Forward walk the visited positions, and a side's view holds none of the
other sides' hidden values, in what is drawn or in the move list.

Run: ``.venv/bin/pytest tests/browser -p no:playwright -x -q``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from domain.read_model import redact_view
from domain.record import read_record_file
from tests.browser.conftest import Server
from tests.browser.test_viewer_browser import (
    GAMES_DIR,
    RIVER_PLATE,
    SCRUBBER,
    Game,
    board,
    expect,
    expect_event,
    focus_page,
    open_game,
    position_line,
    position_text,
    river_plate,
    scrubber,
    shot,
)
from viewer.timeline import Timeline

__all__ = ["river_plate"]  # the module fixture, shared


def test_a_fast_burst_of_key_presses_moves_exactly_that_many_events(
    page: Any, server: Server, artifacts: Path, river_plate: Game
) -> None:
    """Ten ArrowRight presses 50 ms apart (focus on the page) move exactly ten events, then the
    server catches up once (URL, Explain panel); ten ArrowLeft presses come back."""
    length = river_plate.length
    open_game(page, server, RIVER_PLATE, 150, length)
    focus_page(page)
    for _ in range(10):
        page.keyboard.press("ArrowRight")
        page.wait_for_timeout(50)
    expect_event(page, 160, length)
    for _ in range(10):
        page.keyboard.press("ArrowLeft")
        page.wait_for_timeout(50)
    expect_event(page, 150, length)
    page.keyboard.press("Shift+ArrowRight")  # a turn
    target = river_plate.timeline.next_turn_start(150)
    expect_event(page, target, length)
    shot(page, artifacts, f"20-burst-then-next-turn-event-{target}")


def test_back_and_forward_return_to_the_visited_positions(
    page: Any, server: Server, artifacts: Path, river_plate: Game
) -> None:
    """Back returns to the previous position the user settled on, Forward goes again."""
    length = river_plate.length
    open_game(page, server, RIVER_PLATE, 150, length)
    moves = scrubber(page).locator("#moves")
    for target in (120, 200):
        row = moves.locator(f'.move[data-seq="{target}"]')
        row.scroll_into_view_if_needed()
        row.click()
        expect_event(page, target, length)
    page.go_back()
    expect_event(page, 120, length)
    page.go_back()
    expect_event(page, 150, length)
    page.go_forward()
    expect_event(page, 120, length)
    shot(page, artifacts, "21-back-forward-event-120")


SHIPS_FILE = GAMES_DIR / "ships" / "multi4-line_weapon.wake.json"


def test_a_side_view_shows_none_of_the_other_sides_hidden_values(
    page: Any, server: Server, artifacts: Path
) -> None:
    """SHIPS & TACTICS, viewed as P2 from the link (``?as=P2``): after P1 draws, the board's
    data and the whole move list (every event of the game) hold none of P1's cards that P2
    never sees; the umpire sees them (a picked card's details name it)."""
    rec = read_record_file(SHIPS_FILE)
    tl = Timeline(rec.header, rec.events)
    draw = next(
        f for f in rec.events if f.topic == "ships.CardsDrawn/1" and f.payload["player"] == "P1"
    )
    seen = json.dumps(
        [redact_view(tl.view_at(s), "P2").model_dump(mode="json") for s in range(tl.length + 1)]
    ) + "\n".join(tl.text(s, "P2") for s in range(1, tl.length + 1))
    secret = [c for c in draw.payload["cards"] if c not in seen]
    assert secret, "P1's draw has no card P2 never sees"
    event = draw.seq + 6
    page.goto(f"{server.url}/?game={rec.header.game_id}&event={event}&as=P2")
    expect(position_line(page)).to_have_text(position_text(event, tl.length))
    expect(board(page).locator(".main-svg").first).to_be_visible()
    frame = next(f for f in page.frames if "scrubber" in f.url)
    drawn = frame.evaluate("() => JSON.stringify(document.getElementById('board').data)")
    listed = scrubber(page).locator("#moves").inner_text()
    page_text = page.locator("body").inner_text()
    assert "hidden" in drawn
    for card in secret:
        assert card not in drawn and card not in listed and card not in page_text, card
    shot(page, artifacts, f"22-ships-as-p2-event-{event}")
    page.goto(f"{server.url}/?game={rec.header.game_id}&event={event}")  # the umpire
    expect(position_line(page)).to_have_text(position_text(event, tl.length))
    expect(page.locator(SCRUBBER)).to_have_count(1)
    frame = next(f for f in page.frames if "scrubber" in f.url)
    frame.wait_for_function("() => document.getElementById('board').data !== undefined")
    # the umpire picks the unit holding a secret card: its details below the board name it
    holder = next(
        u for u in tl.view_at(event).units if u.private and u.details.get("card") in secret
    )
    scrubber(page).locator("#unit-select").select_option(holder.id)
    card = str(holder.details["card"]).replace("_", " ")  # an id read as words (issue 21 item 7)
    expect(scrubber(page).locator("#unit-info")).to_contain_text(card)


def test_units_out_of_play_can_be_left_off_the_board(
    page: Any, server: Server, artifacts: Path, river_plate: Game
) -> None:
    """Issue 13, a readable board: at the end of the River Plate annihilation the sunk ships
    are drawn as crosses; the toggle above the board leaves them off, and back on."""
    length = river_plate.length
    open_game(page, server, RIVER_PLATE, length, length)
    frame = next(f for f in page.frames if "scrubber" in f.url)

    def out_traces() -> list[str]:
        names: list[str] = frame.evaluate(
            "() => document.getElementById('board').data.map((t) => t.name || '')"
        )
        return [name for name in names if name.endswith("(out)")]

    assert out_traces(), "the annihilation ends with ships out of play"
    toggle = scrubber(page).locator("#show-out")
    toggle.uncheck()
    for _ in range(50):  # the redraw takes an animation frame: poll for it
        if not out_traces():
            break
        page.wait_for_timeout(50)
    assert out_traces() == []
    expect_event(page, length, length)  # the position stays
    shot(page, artifacts, f"24-out-of-play-hidden-event-{length}")
    toggle.check()
    for _ in range(50):
        if out_traces():
            break
        page.wait_for_timeout(50)
    assert out_traces()


CONVOY_FILE = GAMES_DIR / "morze" / "convoy_battle-large.wake.json"


def test_a_long_games_move_list_is_windowed_and_still_reaches_every_event(
    page: Any, server: Server, artifacts: Path
) -> None:
    """Issue 13 (move list, a step in a long game): the convoy game (~1,750 events) keeps only
    the rows around the current event in the page, the current one highlighted; scrolling the
    list to its top brings the first events in, and a click there jumps; stepping far away
    (End) brings the rows around the new position in, highlighted."""
    rec = read_record_file(CONVOY_FILE)
    tl = Timeline(rec.header, rec.events)
    length = tl.length
    assert length > 1200, "the convoy game is the long one"
    event = length // 2
    open_game(page, server, rec.header.game_id, event, length)
    moves = scrubber(page).locator("#moves")
    expect(moves.locator(".move.current")).to_have_attribute("data-seq", str(event))
    in_page = moves.locator(".move").count()
    assert 100 < in_page < length // 2, in_page
    expect(scrubber(page).locator("#move-count")).to_contain_text(f"{length} of {length} events")
    moves.evaluate("(list) => { list.scrollTop = 0; }")
    first = moves.locator('.move[data-seq="1"]')
    expect(first).to_be_attached()
    first.scroll_into_view_if_needed()
    first.click()
    expect_event(page, 1, length)
    expect(first).to_have_class(re.compile(r"\bcurrent\b"))
    focus_page(page)
    page.keyboard.press("End")
    expect_event(page, length, length)
    last = moves.locator(f'.move[data-seq="{length}"]')
    expect(last).to_have_class(re.compile(r"\bcurrent\b"))
    expect(last).to_contain_text(tl.events[length - 1].text)
    shot(page, artifacts, f"25-convoy-move-list-event-{length}")


TOP = "(e) => e.getBoundingClientRect().top + window.scrollY"


def board_tops(page: Any, frame: Any, length: int) -> dict[int, float]:
    """The board's top in the scrubber's frame at events across the whole game (the slider
    moves in the page), the start and the end included."""
    tops = {}
    for event in sorted({*range(0, length + 1, max(1, length // 40)), length}):
        frame.locator("#slider").fill(str(event))
        expect(position_line(page)).to_have_text(position_text(event, length))
        tops[event] = frame.locator("#board").evaluate(TOP)
    return tops


def test_the_board_stays_put_while_one_scrubs(page: Any, server: Server, river_plate: Game) -> None:
    """Issue 21 item 9: the position line and the swing note above the board keep their height
    whatever an event's text (one line or two, the last event with no next swing), so the board
    and the graphs under it never move as one scrubs, and a click lands where one aimed (a click
    on the win-probability graph landed on another chart when they moved)."""
    length = river_plate.length
    open_game(page, server, RIVER_PLATE, 0, length)
    tops = board_tops(page, scrubber(page), length)
    assert len(set(tops.values())) == 1, tops
