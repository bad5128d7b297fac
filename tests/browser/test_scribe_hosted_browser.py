"""Hosted mode (``wake serve``) in Chromium, issue 20: one SHIPS & TACTICS table, a device per
capability link — the umpire's and each player's phone. Two devices entering the same step at
once record it once (the other is told); a player seals its face-down fleet (ST-1.3) from its
own link; the other player's page — its DOM in every frame and every websocket message it
receives — never holds the first player's hidden cards; the umpire's page shows the new event
without a reload; a wrong or missing link gets the public view and records nothing."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from domain.engine import header_for
from domain.events import CommandIssued
from domain.scribe import table as T
from domain.scribe.start import bundled_scenarios
from domain.seed_commit import committed_dice, new_secret
from domain.store import GameStore
from tests.browser.conftest import _stop, launch
from tests.browser.scribe_helpers import give, pick, settle, text

pytestmark = pytest.mark.usefixtures("chromium_path")

GAME_ID = "00000000-0000-4000-8000-0000000e1001"


@dataclass(frozen=True)
class Table:
    url: str
    store: Path
    links: dict[str, str]


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Table]:
    tmp = tmp_path_factory.mktemp("hosted")
    store_path = tmp / "store.sqlite"
    store = GameStore(str(store_path))
    scenario = next(s for s in bundled_scenarios() if s.ruleset == "ships" and s.name == "multi2")
    secret = new_secret(41)
    header = header_for("ships", scenario.data, game_id=GAME_ID, seed=41)
    header = header.model_copy(update={"dice": committed_dice(secret)})
    store.create_game(header, secret)
    links = T.issue_links(store, GAME_ID)
    proc, url, _, _ = launch(tmp, ["--store", str(store_path), "--hosted"])
    try:
        yield Table(url, store_path, links)
    finally:
        _stop(proc)


class Wire:
    """Every websocket frame and fetched body a page receives, as bytes, to scan for leaks."""

    def __init__(self, page: Any) -> None:
        self.frames: list[bytes] = []
        page.on("websocket", self._socket)

    def _socket(self, ws: Any) -> None:
        def keep(payload: Any) -> None:
            self.frames.append(payload if isinstance(payload, bytes) else payload.encode())

        ws.on("framereceived", keep)

    def holds(self, needle: str) -> bool:
        raw = needle.encode("utf-8")
        return any(raw in frame for frame in self.frames)


def _device(browser: Any, url: str) -> tuple[Any, Any, Wire]:
    context = browser.new_context(viewport={"width": 1300, "height": 1000})
    context.set_default_timeout(90_000)
    context.set_default_navigation_timeout(90_000)
    page = context.new_page()
    wire = Wire(page)
    # each device waits for the page's own text (settle); the fourth page's "load" event did
    # not come within 90 s here (it failed CI twice), while its text did
    page.goto(url, wait_until="commit")
    return context, page, wire


def _dom(page: Any) -> str:
    """Every frame's HTML (the board is drawn in a component's frame)."""
    return "\n".join(frame.content() for frame in page.frames)


def test_a_hosted_table_each_side_on_its_own_link(browser: Any, table: Table) -> None:
    store = GameStore(str(table.store))
    umpire, u_page, _ = _device(browser, f"{table.url}/record?key={table.links['umpire']}")
    p1, p1_page, _ = _device(browser, f"{table.url}/record?key={table.links['P1']}")
    p2, p2_page, p2_wire = _device(browser, f"{table.url}/record?key={table.links['P2']}")
    stranger, s_page, _ = _device(browser, f"{table.url}/record?key=not-a-link")
    try:
        settle(u_page, "Decision: the table")
        settle(p1_page, "Your decision")  # a player may trigger the table's own steps
        settle(s_page, "Recording needs a link")
        assert "Orders" not in text(s_page)

        # two devices give the same step at once: it is recorded once, the other is told
        start = "Start battle 1: deal the hands and draw the order cards"
        pick(u_page, start)
        pick(p1_page, start)
        buttons = [pg.get_by_role("button", name="Give the order") for pg in (u_page, p1_page)]
        for button in buttons:
            button.wait_for()
        for button in buttons:  # both clicks go out within milliseconds, before either reruns
            button.evaluate("b => b.click()")
        for pg in (u_page, p1_page):
            done = re.compile(r"Recorded: Start battle 1|another device entered an order", re.I)
            settle(pg, done)
        _, facts = store.facts(T.current_game(store, GAME_ID))
        started = [f for f in facts if f.topic.endswith("BattleStarted/1")]
        assert len(started) == 1
        assert len([f for f in facts if f.topic == CommandIssued.TOPIC]) == 1

        # P1 seals its fleet on its own phone; P2 waits
        settle(p1_page, "Your decision")
        settle(p2_page, re.compile(r"Waiting for .+ to decide"))
        state = store.state(GAME_ID)
        hand = state.rules.players["P1"].hand
        secret_names = _hidden_names(state, "P1", "P2")
        assert secret_names, "P1 holds cards P2's deck cannot show"
        pick(p1_page, "Place your fleet face down", exact=False)  # marked sealed: 🔒
        first = p1_page.get_by_role("radiogroup").nth(1)  # the first hand card's field
        first.get_by_role("radio", name="Vanguard box").click()
        settle(p1_page)
        give(p1_page)
        settle(p1_page, "Recorded: Place your fleet face down")
        # the umpire's page shows the new event without a reload
        settle(u_page, re.compile(rf"event {store.state(GAME_ID).seq} "))
        settle(p2_page)
        assert hand  # P1 held cards; none of the ones P2 cannot know reaches P2's device
        seen = _dom(p2_page)
        leaks = [n for n in secret_names if n in seen or p2_wire.holds(n)]
        assert not leaks, f"P2's page holds P1's hidden cards: {leaks}"
        assert not p2_wire.holds(store_secret(store, "P1"))
    finally:
        for context in (umpire, p1, p2, stranger):
            context.close()


def store_secret(store: GameStore, side: str) -> str:
    return T.side_secret(store, GAME_ID, side)


def _hidden_names(state: Any, owner: str, viewer: str) -> list[str]:
    """Display names of ``owner``'s hand cards that ``viewer``'s own deck does not hold (so any
    sight of them on the viewer's device is a leak)."""
    ruleset = state.ruleset
    view = ruleset.read_model(state.rules)
    own = {u.name for u in view.units if u.side == viewer}
    hand = [u.name for u in view.units if u.side == owner and u.private]
    return sorted({n for n in hand if n and n not in own and len(n) > 3})
