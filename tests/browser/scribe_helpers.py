"""Driving the scribe's page (issue 20) in Chromium as a person at a table would: choosing
orders and their fields by clicking pills and the board, entering dice face by face, reading
what the page says. Each helper waits for the page to settle."""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from typing import Any

APP_IDLE = '[data-testid="stApp"][data-test-script-state="notRunning"]'
BOARD = 'iframe[title*="board_input"]'
TIMEOUT_MS = 30_000


@dataclass
class Clicks:
    """Clicks and seconds per order, as a scripted scribe enters them (the benchmark's figures)."""

    orders: list[tuple[str, int, float]] = field(default_factory=list)  # (label, clicks, seconds)
    _count: int = 0
    _start: float = 0.0

    def begin(self) -> None:
        self._count = 0
        self._start = time.perf_counter()

    def click(self) -> None:
        self._count += 1

    def end(self, label: str) -> None:
        self.orders.append((label, self._count, time.perf_counter() - self._start))


def settle(page: Any, text: str | re.Pattern[str] | None = None) -> None:
    """Wait for ``text`` (when given), then for the script to be idle."""
    if text is not None:
        page.get_by_text(text).first.wait_for(state="visible", timeout=TIMEOUT_MS)
    page.wait_for_timeout(150)
    page.locator(APP_IDLE).wait_for(state="attached", timeout=TIMEOUT_MS)


def board_drawn(page: Any) -> None:
    page.frame_locator(BOARD).locator("#board .main-svg").first.wait_for(
        state="visible", timeout=TIMEOUT_MS
    )


def pick(page: Any, name: str, clicks: Clicks | None = None, *, exact: bool = True) -> None:
    """Click the pill (an order, a choice, a die face) called ``name``."""
    page.get_by_role("radio", name=name, exact=exact).first.click()
    if clicks is not None:
        clicks.click()
    settle(page)


def give(page: Any, clicks: Clicks | None = None) -> None:
    button = page.get_by_role("button", name="Give the order")
    button.wait_for(timeout=TIMEOUT_MS)
    page.wait_for_function(
        "() => [...document.querySelectorAll('button')].some("
        "b => b.innerText.includes('Give the order') && !b.disabled)",
        timeout=TIMEOUT_MS,
    )
    button.click()
    if clicks is not None:
        clicks.click()
    settle(page)


ENTERED = re.compile(r"Faces entered for this order \((\d+)\)")


def _entered(page: Any) -> int:
    found = ENTERED.search(text(page))
    return int(found.group(1)) if found else 0


def faces(page: Any, values: list[str], clicks: Clicks | None = None) -> None:
    """Enter dice faces one by one (each a pill of the die being asked for), each time waiting
    until the page shows it entered (or the order recorded, after the last die)."""
    for value in values:
        page.get_by_text(re.compile(r"die \d+: ")).first.wait_for(timeout=TIMEOUT_MS)
        settle(page)
        before = _entered(page)
        pick(page, value, clicks)
        deadline = time.monotonic() + TIMEOUT_MS / 1000
        while _entered(page) <= before and "Roll:" in text(page):
            if time.monotonic() > deadline:
                raise AssertionError(f"the face {value} was not taken")
            page.wait_for_timeout(100)


def _board_point(page: Any, x: float, y: float) -> dict[str, float]:
    frame = page.frame_locator(BOARD)
    board_drawn(page)
    point: dict[str, float] = frame.locator("#board").evaluate(
        """(b, xy) => { const l = b._fullLayout;
            return {x: l.xaxis._offset + l.xaxis.c2p(xy[0]),
                    y: l.yaxis._offset + l.yaxis.c2p(xy[1])}; }""",
        [x, y],
    )
    return point


def click_board(page: Any, x: float, y: float, clicks: Clicks | None = None) -> None:
    """Click the board at board coordinates (x, y)."""
    point = _board_point(page, x, y)
    page.frame_locator(BOARD).locator("#board").click(position=point)
    if clicks is not None:
        clicks.click()
    settle(page)


def unit_at(page: Any, unit: str) -> tuple[float, float]:
    """Where the board draws a unit's marker (board coordinates)."""
    frame = page.frame_locator(BOARD)
    board_drawn(page)
    xy: list[float] = frame.locator("#board").evaluate(
        """(b, id) => { for (const t of b.data) { const c = t.customdata || [];
            if (!t.mode || !t.mode.includes('markers')) continue;
            for (let i = 0; i < c.length; i++) if (c[i] === id) return [t.x[i], t.y[i]]; }
            return null; }""",
        unit,
    )
    assert xy is not None, f"{unit} is not drawn on the board"
    return float(xy[0]), float(xy[1])


def click_unit(page: Any, unit: str, clicks: Clicks | None = None) -> None:
    x, y = unit_at(page, unit)
    click_board(page, x, y, clicks)


def text(page: Any) -> str:
    """The page's main text (the sidebar left out)."""
    main = page.locator("[data-testid=\"stMain\"]")
    return str(main.inner_text() if main.count() else page.inner_text("body"))
