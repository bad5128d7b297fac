"""Issue 21 item 9, "One screen": at 1440 × 900 the board and the move list are on screen
together, the board entirely above the fold, with the current event's row in view and the
Explain panel beside them; on a phone the Explain panel is one tap from the board ("Explain ↓").

One game per kind of board (the games of ``test_narrow_browser``). Screenshots:
``artifacts/browser/first-screen-<game>.png`` and ``phone-explain-<game>.png``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from domain.record import read_record_file
from tests.browser.conftest import Server, context_page
from tests.browser.test_narrow_browser import GAMES, phone
from tests.browser.test_narrow_browser import HEIGHT as PHONE_HEIGHT
from tests.browser.test_viewer_browser import board, expect, expect_event, scrubber

__all__ = ["phone"]  # the phone-sized page fixture, shared

WIDTH, HEIGHT = 1440, 900


@pytest.fixture
def desktop(
    browser: Any, server: Server, artifacts: Path, request: pytest.FixtureRequest
) -> Iterator[Any]:
    yield from context_page(
        browser, server, artifacts, request, viewport={"width": WIDTH, "height": HEIGHT}
    )


def _open(page: Any, server: Server, game: str) -> tuple[int, int]:
    path, event = GAMES[game]
    length = len(read_record_file(path).events)
    page.goto(f"{server.url}/?game={read_record_file(path).header.game_id}&event={event}")
    expect(board(page).locator(".main-svg").first).to_be_visible()
    expect_event(page, event, length)
    page.wait_for_timeout(500)  # the frame's height follows its content a frame later
    return event, length


def _box(locator: Any) -> dict[str, float]:
    box = locator.bounding_box()
    assert box is not None
    return dict(box)


@pytest.mark.parametrize("game", list(GAMES))
def test_the_board_and_the_moves_share_the_first_screen(
    desktop: Any, server: Server, artifacts: Path, game: str
) -> None:
    """At 1440 × 900 with a mouse: the whole board above the fold; the move list starts below
    it and its current row (the event shown) is inside the first screen; the Explain heading
    too; no "Explain ↓" (the panel is beside the board). After a step the new current row is
    still on the first screen."""
    page = desktop
    event, length = _open(page, server, game)
    board_box = _box(board(page))
    assert board_box["y"] + board_box["height"] <= HEIGHT, f"{game}: board ends {board_box}"
    moves = scrubber(page).locator("#moves")
    current = moves.locator(".move.current")
    expect(current).to_have_attribute("data-seq", str(event))
    for when in ("opened", "after a step"):
        row = _box(current)
        assert row["y"] >= board_box["y"] + board_box["height"], f"{game} {when}: {row}"
        assert row["y"] + row["height"] <= HEIGHT, f"{game} {when}: current row at {row}"
        if when == "opened":
            scrubber(page).get_by_role("button", name="Next event ›", exact=True).click()
            expect_event(page, event + 1, length)
            expect(current).to_have_attribute("data-seq", str(event + 1))
            page.wait_for_timeout(300)
    explain = _box(page.get_by_role("heading", name="Explain"))
    assert explain["y"] < HEIGHT
    expect(scrubber(page).get_by_role("button", name="Explain ↓")).to_be_hidden()
    page.screenshot(path=str(artifacts / f"first-screen-{game}.png"))


@pytest.mark.parametrize("game", ["river-plate", "ships"])
def test_on_a_phone_the_explain_panel_is_one_tap_from_the_board(
    phone: Any, server: Server, artifacts: Path, game: str
) -> None:
    """At 390 × 844 the Explain panel is stacked far below the board; "Explain ↓", above the
    board, brings its heading into view in one tap."""
    page = phone
    _open(page, server, game)
    heading = page.get_by_role("heading", name="Explain")
    assert _box(heading)["y"] > PHONE_HEIGHT  # below the first screen
    button = scrubber(page).get_by_role("button", name="Explain ↓")
    expect(button).to_be_visible()
    assert _box(button)["y"] < _box(board(page))["y"]
    button.tap()
    page.wait_for_timeout(500)
    top = _box(heading)["y"]
    assert 0 <= top < PHONE_HEIGHT / 2, f"{game}: the Explain heading at {top:.0f} px"
    page.screenshot(path=str(artifacts / f"phone-explain-{game}.png"))
