"""Issue 13 in a phone-sized window (390 × 844, a phone's pixel ratio and touch): the board is
the first big thing after a compact header, nothing overflows sideways, the step buttons are
one row of marks that keep their names, text stays readable, and a key press still steps.

One game per kind of board: continuous (Morze's River Plate, Armada's 3' × 3' table, the
tallest board), grid (Iron & Oak) and zones (SHIPS & TACTICS). Screenshots:
``artifacts/browser/narrow-<game>.png`` (the first screen) and ``narrow-<game>-whole.png``.

Run: ``WAKE_REQUIRE_BROWSER=1 .venv/bin/pytest -q -p no:cacheprovider
tests/browser/test_narrow_browser.py``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from domain.record import read_record_file
from tests.browser.conftest import Server, context_page
from tests.browser.test_scrubber_browser import board_tops
from tests.browser.test_viewer_browser import (
    GAMES_DIR,
    RIVER_PLATE,
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
)

__all__ = ["river_plate"]  # the module fixture, shared

WIDTH, HEIGHT = 390, 844
MIN_BOARD_SHOWN = 300  # px of the board inside the first screen, at least
MIN_FONT_PX = 12
STEP_BUTTONS = (  # the step toolbar's accessible names, left to right
    "« Start",
    "‹‹ Previous turn",
    "‹ Previous event",
    "Next event ›",
    "Next turn ››",
    "End »",
)
GAMES = {  # name: (record file, event to open)
    "river-plate": (GAMES_DIR / "morze" / "river_plate-annihilation.wake.json", 150),
    "armada": (GAMES_DIR / "armada" / "core_learning-last-ship.wake.json", 400),
    "iron-oak": (GAMES_DIR / "iron_oak" / "hampton_roads-magazine.wake.json", 300),
    "ships": (GAMES_DIR / "ships" / "multi4-line_weapon.wake.json", 400),
}

# Widest box and smallest font of the visible HTML text in a document (SVG text, plotly's
# labels, is left out: its size is the figure's).
MEASURE = """() => {
  const doc = document.documentElement;
  let minFont = Infinity; let smallest = '';
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const parent = node.parentElement;
    if (!node.textContent.trim() || !parent || parent.closest('svg, style, script')) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const box = range.getBoundingClientRect();
    if (box.width < 2 || box.height < 2) continue;  // hidden, or out of sight (sr-only)
    const size = parseFloat(getComputedStyle(parent).fontSize);
    if (size < minFont) { minFont = size; smallest = node.textContent.trim().slice(0, 60); }
  }
  const main = document.querySelector('[data-testid="stMain"]');
  return {
    width: window.innerWidth, scrollWidth: doc.scrollWidth,
    mainScrollWidth: main ? main.scrollWidth : 0, mainWidth: main ? main.clientWidth : 0,
    minFont, smallest,
  };
}"""


@pytest.fixture
def phone(
    browser: Any, server: Server, artifacts: Path, request: pytest.FixtureRequest
) -> Iterator[Any]:
    """A page in a phone-sized context (its own Streamlit session); on failure a screenshot
    ``FAILED-<test>.png``."""
    yield from context_page(
        browser,
        server,
        artifacts,
        request,
        viewport={"width": WIDTH, "height": HEIGHT},
        device_scale_factor=3,
        is_mobile=True,
        has_touch=True,
    )


def _frame(page: Any) -> Any:
    return next(f for f in page.frames if "scrubber" in f.url)


def _no_overflow(page: Any, where: str) -> None:
    top = page.evaluate(MEASURE)
    inner = _frame(page).evaluate(MEASURE)
    assert top["width"] == WIDTH
    assert top["scrollWidth"] <= WIDTH, f"{where}: the page overflows sideways: {top}"
    assert top["mainScrollWidth"] <= top["mainWidth"], f"{where}: the main pane scrolls: {top}"
    assert inner["scrollWidth"] <= inner["width"] <= WIDTH, f"{where}: the scrubber: {inner}"


def _readable(page: Any, where: str) -> None:
    top = page.evaluate(MEASURE)
    inner = _frame(page).evaluate(MEASURE)
    for doc, name in ((top, "page"), (inner, "scrubber")):
        assert doc["minFont"] >= MIN_FONT_PX, f"{where}: {name} text under 12 px: {doc}"


@pytest.mark.parametrize("game", list(GAMES))
def test_a_phone_sized_window_shows_the_board_first(
    phone: Any, server: Server, artifacts: Path, game: str
) -> None:
    """At 390 × 844: no horizontal overflow in the page or the scrubber's frame; at least
    300 px of the board inside the first screen, with the step buttons one row above it, each
    with its name; no HTML text under 12 px; a key press and a tap on "Next event ›" step."""
    path, event = GAMES[game]
    rec = read_record_file(path)
    length = len(rec.events)
    page = phone
    page.goto(f"{server.url}/?game={rec.header.game_id}&event={event}")
    expect(position_line(page)).to_have_text(position_text(event, length))
    expect(board(page).locator(".main-svg").first).to_be_visible()
    expect_event(page, event, length)
    page.wait_for_timeout(300)  # the frame's height follows its content a frame later

    _no_overflow(page, f"{game} at event {event}")
    frame_box = page.locator('iframe[title*="scrubber"]').bounding_box()
    board_box = board(page).bounding_box()  # in the page's coordinates
    assert frame_box is not None and board_box is not None
    assert board_box["x"] >= 0 and board_box["x"] + board_box["width"] <= WIDTH
    assert board_box["y"] + MIN_BOARD_SHOWN <= HEIGHT, (
        f"{game}: the board starts at {board_box['y']:.0f} px (iframe at "
        f"{frame_box['y']:.0f}), less than {MIN_BOARD_SHOWN} px of it in the first screen"
    )

    tops = set()
    for name in STEP_BUTTONS:
        button = scrubber(page).get_by_role("button", name=name, exact=True)
        expect(button).to_be_visible()
        box = button.bounding_box()
        assert box is not None and box["y"] + box["height"] <= board_box["y"], name
        assert box["height"] >= 32, f"{name}: a small target ({box['height']:.0f} px)"
        tops.add(round(box["y"]))
    assert len(tops) == 1, f"the step buttons wrap into {len(tops)} rows"
    unnamed = _frame(page).evaluate(
        """() => [...document.querySelectorAll('button')]
            .filter((b) => b.getClientRects().length
                     && !(b.getAttribute('aria-label') || b.textContent).trim())
            .map((b) => b.outerHTML)"""
    )
    assert unnamed == []
    _readable(page, f"{game} at event {event}")
    page.screenshot(path=str(artifacts / f"narrow-{game}.png"))

    focus_page(page)
    page.keyboard.press("ArrowRight")
    expect_event(page, event + 1, length)
    scrubber(page).get_by_role("button", name="Next event ›", exact=True).tap()
    expect_event(page, event + 2, length)
    _no_overflow(page, f"{game} at event {event + 2}")

    page.set_viewport_size({"width": WIDTH, "height": 5000})  # the whole page, to look at
    page.wait_for_timeout(500)
    page.screenshot(path=str(artifacts / f"narrow-{game}-whole.png"))


def test_on_a_phone_the_board_stays_put_while_one_scrubs(
    phone: Any, server: Server, river_plate: Game
) -> None:
    """Issue 21 item 9 at 390 px: the position line (three lines here) and the swing note keep
    their height at every event, so the board under them never moves as one scrubs."""
    length = river_plate.length
    open_game(phone, server, RIVER_PLATE, 0, length)
    tops = board_tops(phone, scrubber(phone), length)
    assert len(set(tops.values())) == 1, tops
