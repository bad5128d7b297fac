"""Variations in a real browser (issue 14, "Variations (what-if forks)": "The browser test switches
to a variation"): a fork made with ``wake fork`` on the server's store shows in the open game's
variation tree, a click switches to it at the same event, and the compare chart is drawn.

The parent is Morze's Channel skirmish, which no other browser test opens, so the panel's
short-lived cache of the tree cannot hold a copy from before the fork was made. Expected values
come from the fixture record.

Run: ``.venv/bin/pytest tests/browser -p no:playwright -x -q``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from domain.lineage import order_bounds
from domain.record import read_record_file
from tests.browser.conftest import Server, _wake, wait_idle
from tests.browser.test_viewer_browser import expect_event, open_game, shot

try:
    from playwright.sync_api import expect
except ImportError:  # the chromium_path fixture skips (or fails under WAKE_REQUIRE_BROWSER=1)
    expect = None

ROOT = Path(__file__).resolve().parents[2]
CHANNEL = ROOT / "fixtures" / "games" / "morze" / "channel_skirmish.wake.json"
FORK_TITLE = "what if the destroyers had turned back"


@pytest.fixture(scope="module")
def forked(server: Server) -> tuple[str, str, int, int]:
    """(parent id, fork id, fork event, parent length): the Channel skirmish forked with the CLI
    after the order that ends nearest the middle of the game."""
    rec = read_record_file(CHANNEL)
    length = len(rec.events)
    at = next(n for n in range(length // 2, length) if order_bounds(rec.events, n) is None)
    out = _wake(
        "fork", rec.header.game_id, "--at", str(at), "--title", FORK_TITLE,
        "--store", str(server.store),
    )  # fmt: skip
    return rec.header.game_id, out.strip().splitlines()[-1], at, length


def test_switch_to_a_variation_keeps_the_event(
    page: Any, server: Server, artifacts: Path, forked: tuple[str, str, int, int]
) -> None:
    parent, fork_id, at, length = forked
    event = at - 3  # in both lines
    open_game(page, server, parent, event, length)
    tree = page.locator('[data-testid="stText"]').filter(has_text="main line: ")
    expect(tree).to_contain_text(f"└ after event {at}: {FORK_TITLE} · {at} events")
    expect(tree).to_contain_text("▶ main line: ")  # the open line
    shot(page, artifacts, "variations-01-tree")
    page.get_by_role("button", name="Switch to this line", exact=True).click()
    expect_event(page, event, at)  # the fork has its first `at` events: the event is kept
    expect(page).to_have_url(re.compile(rf"[?&]game={fork_id}(&|#|$)"))
    expect(tree).to_contain_text(f"▶ └ after event {at}: {FORK_TITLE}")
    chart = page.locator('[data-testid="stPlotlyChart"]').filter(
        has_text="this line (solid) and the other (dashed)"
    )
    expect(chart.locator(".main-svg").first).to_be_visible()
    wait_idle(page)
    shot(page, artifacts, "variations-02-switched-to-fork")
