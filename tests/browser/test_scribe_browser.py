"""The scribe's page in Chromium (issue 20): a short real Morze w ogniu game recorded by clicking
and typing dice only — started from an uploaded scenario, a refused order (PL-2), a move clicked
on the board, a take-back, attacks declared by picking targets (PL-3/PL-4a) and resolved with
dice entered face by face (PL-4). The game recorded verifies with ``wake verify --strict`` and is
event for event the game the same orders give through the engine."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from domain.engine import CommandEnvelope, Session
from domain.events import CommandIssued
from domain.scribe import table as T
from domain.store import GameStore
from tests.browser.conftest import ROOT, _stop, context_page, launch
from tests.browser.scribe_helpers import (
    Clicks,
    board_drawn,
    click_board,
    faces,
    give,
    pick,
    settle,
    text,
    unit_at,
)

pytestmark = pytest.mark.usefixtures("chromium_path")

DUEL = {
    "id": "scribe_duel",
    "title": "Scribe duel",
    "table": {"width": 100, "height": 60},
    "sides": [{"id": "alpha", "name": "Alpha"}, {"id": "bravo", "name": "Bravo"}],
    "units": [
        {"id": "a1", "name": "Aurora", "side": "alpha", "class": "heavy_cruiser", "x": 40, "y": 30},
        {
            "id": "b1",
            "name": "Bellona",
            "side": "bravo",
            "class": "heavy_cruiser",
            "x": 55,
            "y": 30,
        },
    ],
    "victory": {"annihilation": True, "turn_limit": 2},
}


@dataclass(frozen=True)
class ScribeServer:
    url: str
    store: Path
    log: Path


@pytest.fixture(scope="module")
def scribe_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ScribeServer]:
    tmp = tmp_path_factory.mktemp("scribe")
    store = tmp / "store.sqlite"
    GameStore(str(store))
    proc, url, _, log = launch(tmp, ["--store", str(store), "--scribe"])
    try:
        yield ScribeServer(url, store, log)
    finally:
        _stop(proc)


@pytest.fixture
def scribe_page(
    browser: Any, scribe_server: ScribeServer, artifacts: Path, request: pytest.FixtureRequest
) -> Iterator[Any]:
    yield from context_page(
        browser, scribe_server, artifacts, request, viewport={"width": 1440, "height": 1100}
    )


def _state(store: Path) -> Any:
    games = GameStore(str(store))
    (gid,) = [g for g in games.game_ids() if games.header(g).parent is None][:1] or [None]
    assert gid is not None
    current = T.current_game(games, gid)
    return games, current, games.state(current)


def _deciding(page: Any) -> str:
    page.get_by_text("Decision:").first.wait_for()
    line = page.get_by_text("Decision:").first.inner_text()
    return line.removeprefix("Decision:").strip().rstrip(".")


def test_a_morze_game_recorded_by_clicks_and_dice_only(
    scribe_page: Any, scribe_server: ScribeServer, tmp_path: Path, artifacts: Path
) -> None:
    page = scribe_page
    clicks = Clicks()
    scenario = tmp_path / "duel.json"
    scenario.write_text(json.dumps(DUEL))
    page.goto(scribe_server.url)
    settle(page, "Start a new game")
    page.locator('input[type="file"]').set_input_files(str(scenario))
    settle(page, "Scenario: duel.json")
    page.get_by_role("combobox").filter(has_text="").first.wait_for()
    page.get_by_label("Rule system").click()
    page.get_by_role("option", name="morze").click()
    settle(page)
    page.get_by_text("rolled at the table").first.click()
    page.get_by_role("button", name="Start the game").click()
    settle(page, "Decision: the table")
    board_drawn(page)

    # PL-1: the initiative roll, both d10s entered face by face (Alpha 7, Bravo 3)
    clicks.begin()
    pick(page, "Roll for initiative (both sides roll a d10)", clicks)
    give(page, clicks)
    settle(page, "Roll:")
    assert "initiative [PL-1]: Alpha: d10" in text(page)
    faces(page, ["7", "3"], clicks)
    settle(page, "Recorded: Roll for initiative")
    clicks.end("initiative")

    # PL-2: Bravo (no initiative) moves first; a move too long is refused and records nothing
    assert _deciding(page) == "Bravo"
    games, gid, state = _state(scribe_server.store)
    before = state.seq
    pick(page, "Move Bellona")
    x_box = page.get_by_role("spinbutton", name="Where Bellona goes: x")
    x_box.fill("90")
    page.get_by_role("spinbutton", name="Where Bellona goes: y").fill("30")
    page.get_by_role("spinbutton", name="Where Bellona goes: y").press("Enter")
    settle(page, "Refused:")
    assert "[rule PL-2" in text(page)
    assert page.get_by_role("button", name="Give the order").is_disabled()
    assert _state(scribe_server.store)[2].seq == before  # nothing appended
    page.screenshot(path=str(artifacts / "scribe-refused.png"))

    # the point clicked on the board instead, inside the ring
    x, y = unit_at(page, "b1")
    click_board(page, x - 6, y + 2)
    give(page)
    settle(page, "Recorded: Move Bellona")
    # a whole order in clicks: the unit on the board, its destination, give
    clicks.begin()
    pick(page, "End movement", clicks)
    give(page, clicks)
    settle(page, "Recorded: End movement")
    clicks.end("end movement")

    # Alpha moves (the unit clicked on the board), takes the move back (kept as a variation),
    # and moves again
    clicks.begin()
    x, y = unit_at(page, "a1")
    click_board(page, x, y, clicks)
    settle(page, "Where Aurora goes")
    click_board(page, x + 5, y - 5, clicks)
    give(page, clicks)
    settle(page, "Recorded: Move Aurora")
    clicks.end("move")
    page.locator('[data-testid="stMain"]').get_by_text("Table", exact=True).click()
    page.get_by_role("button", name="Take back the last order").click()
    settle(page, "was taken back")
    games, gid, state = _state(scribe_server.store)
    header = games.header(gid)
    assert header.parent is not None  # play goes on in a variation ...
    assert games.state(header.parent.game_id).seq > state.seq  # ... the line taken back is kept
    pick(page, "Move Aurora")
    x, y = unit_at(page, "a1")
    click_board(page, x + 4, y)
    give(page)
    settle(page, "Recorded: Move Aurora")
    pick(page, "End movement")
    give(page)
    settle(page, "Recorded: End movement")

    # PL-3/PL-4a: each side declares its attack by picking the target
    for _ in range(2):
        side = _deciding(page)
        ship = "Aurora" if side == "Alpha" else "Bellona"
        target = "Bellona" if side == "Alpha" else "Aurora"
        clicks.begin()
        pick(page, f"Declare an attack with {ship}", clicks)
        pick(page, target, clicks, exact=False)
        give(page, clicks)
        settle(page, f"Recorded: Declare an attack with {ship}")
        clicks.end("attack")
        pick(page, "End declarations")
        give(page)
        settle(page, "Recorded: End declarations")

    # PL-4: resolution, every die asked for by name and purpose
    pick(page, "Resolve the declared attacks")
    give(page)
    entered = 0
    while "Roll:" in text(page) and entered < 12:
        faces(page, ["8"])
        entered += 1
    settle(page, "Recorded: Resolve the declared attacks")
    assert entered >= 2
    page.screenshot(path=str(artifacts / "scribe-morze.png"))

    # the game recorded verifies, and the same orders through the engine give the same events
    games, gid, state = _state(scribe_server.store)
    record = tmp_path / "scribed.wake.json"
    wake = Path(sys.executable).with_name("wake")
    subprocess.run(
        [str(wake), "export", gid, "-o", str(record), "--store", str(scribe_server.store)],
        check=True,
        cwd=ROOT,
    )
    verified = subprocess.run(
        [str(wake), "verify", "--strict", str(record)], cwd=ROOT, capture_output=True, text=True
    )
    assert verified.returncode == 0, verified.stdout + verified.stderr
    header, facts = games.facts(gid)
    again = Session(header.model_copy(update={"parent": None}))
    for fact in facts:
        if fact.topic == CommandIssued.TOPIC:
            issued = fact.payload
            again.submit(
                CommandEnvelope(
                    side=issued["side"],
                    command=issued["command"],
                    dice=issued.get("dice"),
                    time=issued.get("time"),
                )
            )
    assert [(f.topic, f.payload) for f in again.facts] == [(f.topic, f.payload) for f in facts]
    # an ordinary order in at most 3 clicks plus its dice (the initiative roll: 2 + 2 faces)
    assert all(n <= 3 for label, n, _ in clicks.orders if label != "initiative"), clicks.orders
