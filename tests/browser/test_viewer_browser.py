"""The replay viewer in a real browser: what a person sees and clicks.

Each test opens its own browser context (so its own Streamlit session) on the server started by
``conftest.server`` over a temp store holding every bundled fixture game, and saves a screenshot
to ``artifacts/browser/`` at the end. Expected values come from the fixture record itself
(``Timeline`` and the raw events), not from hard-coded numbers, so a change of fixture or of the
app's wording makes a test fail instead of passing on stale values.

Run: ``.venv/bin/pytest tests/browser -p no:playwright -x -q``.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from domain.record import read_record_file
from domain.record.model import Record
from domain.words import unit_labels
from tests.browser.conftest import Server, wait_idle
from viewer.timeline import Timeline

try:
    from playwright.sync_api import expect
except ImportError:  # the chromium_path fixture skips (or fails under WAKE_REQUIRE_BROWSER=1)
    expect = None

ROOT = Path(__file__).resolve().parents[2]
GAMES_DIR = ROOT / "fixtures" / "games"
MORZE = GAMES_DIR / "morze"
RIVER_PLATE_FILE = MORZE / "river_plate-annihilation.wake.json"
DENMARK_FILE = MORZE / "denmark_strait-draw.wake.json"
RIVER_PLATE = "00000000-0000-4000-8000-000000000001"
ATTACK_RESOLVED = "morze.AttackResolved/1"
DICE_ROLLED = "wake.DiceRolled/1"

# The scrubber's "Event N / LENGTH · Turn T · phase · text" line above the board.
POSITION = re.compile(r"^Event (\d+) / (\d+)(?: · Turn (\d+) · )?")
SCRUBBER = 'iframe[title*="scrubber"]'


@dataclass(frozen=True)
class Game:
    record: Record
    timeline: Timeline

    @property
    def length(self) -> int:
        return self.timeline.length


@pytest.fixture(scope="module")
def river_plate() -> Game:
    rec = read_record_file(RIVER_PLATE_FILE)
    assert rec.header.game_id == RIVER_PLATE
    return Game(rec, Timeline(rec.header, rec.events))


# --- helpers -------------------------------------------------------------------------------------


def scrubber(page: Any) -> Any:
    """The scrubber component's frame (board, strip, charts, move list)."""
    return page.frame_locator(SCRUBBER)


def position_line(page: Any) -> Any:
    """The scrubber's position line (not the Explain panel's "Event N —")."""
    return scrubber(page).locator("#position")


def board(page: Any) -> Any:
    return scrubber(page).locator("#board")


def position_text(event: int, length: int) -> re.Pattern[str]:
    """Matches the position line at exactly ``event`` (so "Event 15 /" never matches 150)."""
    return re.compile(rf"^Event {event} / {length}(?: ·|$)")


def current_position(page: Any) -> tuple[int, int, int | None]:
    """(event, length, turn or None at the start) read from the page."""
    line = position_line(page)
    expect(line).to_have_count(1)
    match = POSITION.match(line.inner_text().strip())
    assert match, f"no position line: {line.inner_text()!r}"
    turn = int(match[3]) if match[3] else None
    return int(match[1]), int(match[2]), turn


def open_game(page: Any, server: Server, game_id: str, event: int, length: int) -> None:
    page.goto(f"{server.url}/?game={game_id}&event={event}")
    expect(position_line(page)).to_have_text(position_text(event, length))
    expect(board(page).locator(".main-svg").first).to_be_visible()
    wait_idle(page)


def expect_event(page: Any, event: int, length: int) -> None:
    """Wait until the scrubber shows ``event``, then until the server caught up: the URL and
    the Explain panel follow."""
    expect(position_line(page)).to_have_text(position_text(event, length))
    expect(board(page)).to_have_attribute("data-event", str(event))
    expect(page).to_have_url(re.compile(rf"[?&]event={event}(&|#|$)"))
    if event > 0:
        expect(explain_column(page)).to_contain_text(f"Event {event} — ")
    wait_idle(page, chart=False)


def focus_page(page: Any) -> None:
    """A click on the title: keys then go to the page (the scrubber listens there too)."""
    page.get_by_role("heading", level=1).click(position={"x": 5, "y": 5})


def shot(page: Any, artifacts: Path, name: str) -> None:
    page.screenshot(path=str(artifacts / f"{name}.png"))


def explain_column(page: Any) -> Any:
    return page.locator('[data-testid="stColumn"]').filter(
        has=page.get_by_role("heading", name="Explain")
    )


def uploader(page: Any) -> Any:
    return page.locator('[data-testid="stSidebar"] input[type="file"]')


def _percent(fraction: str) -> str:
    """The explain panel's exact-chance format, e.g. "7/10 (70%)"; a certainty is the bare
    fraction (computed independently)."""
    value = Fraction(fraction)
    return fraction if value in (0, 1) else f"{fraction} ({float(value):.0%})"


def _faces(faces: list[int]) -> str:
    """A roll's faces as the panel writes them: "8", "3 and 1", "9, 2 and 5"."""
    words = [str(f) for f in faces]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def _odds(roll: dict[str, Any]) -> str:
    """The odds that matter for a roll against a number or on a table (issue 21 item 8)."""
    if roll["p_success"] is not None:
        return f"chance of success {_percent(roll['p_success'])}"
    return f"chance of this result {_percent(roll['p_outcome'])}"


# --- tests ---------------------------------------------------------------------------------------


def test_load_at_url_position(
    page: Any, server: Server, artifacts: Path, river_plate: Game
) -> None:
    """``?game=…&event=150`` opens River Plate at event 150.

    Checks: the scrubber's position line reads "Event 150 / 291"; its slider's value is 150;
    the title (h1) contains "River Plate"; the board is drawn (a ``.main-svg`` in the
    scrubber's ``#board``) with unit markers; no exception box on the page.
    """
    length = river_plate.length
    assert length == 291
    open_game(page, server, RIVER_PLATE, 150, length)

    assert current_position(page)[:2] == (150, length)
    expect(page.get_by_role("heading", level=1)).to_contain_text("River Plate")
    expect(scrubber(page).get_by_role("slider", name="Event")).to_have_value("150")
    expect(board(page).locator(".main-svg").first).to_be_visible()
    assert board(page).locator("path.point").count() > 0, "the board has no unit markers"
    expect(page.locator('[data-testid="stException"]')).to_have_count(0)
    shot(page, artifacts, "01-load-river-plate-event-150")


def test_keyboard_scrubbing(page: Any, server: Server, artifacts: Path, river_plate: Game) -> None:
    """Keys move the replay, and the URL's ``event`` parameter follows after each rerun.

    Checks: with the scrubber's "Event" slider focused, each ArrowRight from 150 moves one
    event (151, 152, 153: "Event 153 / 291", slider value 153, ``event=153`` in the URL once
    the server caught up); Home gives "Event 0 / 291" (``event=0``); with the focus on the page
    (a click on the title), "n" (next swing) jumps to the first swing after event 0, computed
    from the Timeline.

    The three presses are sent quickly, as a person would: none may be lost.
    """
    tl = river_plate.timeline
    length = tl.length
    open_game(page, server, RIVER_PLATE, 150, length)
    slider = scrubber(page).get_by_role("slider", name="Event")
    slider.focus()
    for _ in range(3):
        slider.press("ArrowRight")
    expect_event(page, 153, length)
    expect(slider).to_have_value("153")

    slider.press("Home")
    expect_event(page, 0, length)
    expect(slider).to_have_value("0")

    focus_page(page)  # keys then go to the page; the scrubber listens there too
    expect(slider).not_to_be_focused()
    swing = tl.next_swing(0)
    assert swing is not None and swing.seq > 0
    page.keyboard.press("n")
    expect_event(page, swing.seq, length)
    assert current_position(page)[0] > 0
    shot(page, artifacts, f"02-keyboard-next-swing-event-{swing.seq}")


def test_navigation_buttons(page: Any, server: Server, artifacts: Path, river_plate: Game) -> None:
    """The "Next event ›" button moves one event; "Next turn ››" jumps to the next turn start.

    Checks: from 150, "Next event ›" gives 151 (same turn); "Next turn ››" then gives the
    Timeline's next turn start after 151 and the "Turn N" in the position line changes to that
    event's turn (one more than before).
    """
    tl = river_plate.timeline
    length = tl.length
    open_game(page, server, RIVER_PLATE, 150, length)
    _, _, turn_before = current_position(page)
    assert turn_before == tl.turn_of(150)

    scrubber(page).get_by_role("button", name="Next event ›", exact=True).click()
    expect_event(page, 151, length)
    assert current_position(page)[2] == tl.turn_of(151)

    target = tl.next_turn_start(151)
    assert 151 < target < length
    scrubber(page).get_by_role("button", name="Next turn ››", exact=True).click()
    expect_event(page, target, length)
    _, _, turn_after = current_position(page)
    assert turn_after == tl.turn_of(target)
    assert turn_after is not None and turn_before is not None and turn_after > turn_before
    shot(page, artifacts, f"03-buttons-next-turn-event-{target}")


def test_chart_click_jumps(page: Any, server: Server, artifacts: Path, river_plate: Game) -> None:
    """Clicking a point of the "Damage per side" chart moves the replay to that point's event.

    The chart's points carry their event seq as customdata; trace i / point j is
    ``tl.damage_side.points`` series i / point j. Checks: after clicking the centre of a point
    that is not at the current event, the position line shows that event, which is one of the
    damage-change events, and the chart's cursor label reads "event N". The charts are drawn in
    the scrubber once per game: the click and the cursor do not rebuild them.
    """
    tl = river_plate.timeline
    length = tl.length
    start = 150
    open_game(page, server, RIVER_PLATE, start, length)

    series = list(tl.damage_side.points.items())
    name, points = series[0]
    seqs = [seq for seq, _ in points]
    if seqs[-1] < length:  # timeseries_figure carries the value to the end with a hidden point
        seqs.append(length)
    candidates = [i for i, seq in enumerate(seqs) if 0 < seq < length and seq != start]
    assert candidates, f"{name}: no damage change to click"
    index = candidates[len(candidates) // 2]
    target = seqs[index]
    changes = {seq for _, pts in series for seq, _ in pts}
    assert target in changes

    chart = scrubber(page).locator('[data-chart="dmg_side"]')
    expect(chart.locator(".main-svg").first).to_be_visible()
    trace = chart.locator("g.trace.scatter").nth(0)
    point = trace.locator("path.point")
    expect(point).to_have_count(len(seqs))
    box = point.nth(index).bounding_box()
    assert box is not None and box["width"] > 0
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)

    expect_event(page, target, length)
    event = current_position(page)[0]
    assert event != start and event in changes
    expect(chart.locator(".cursor")).to_have_text(f"event {target}")
    shot(page, artifacts, f"04-chart-click-damage-event-{target}")


def _first_damaging_attack(rec: Record) -> tuple[int, list[dict[str, Any]]]:
    """Seq of the first AttackResolved with damage > 0, and the DiceRolled payloads behind it.

    The rolls are the DiceRolled events immediately before it in the same order, read from the
    record's raw events (the same scope as ``wake explain``).
    """
    events = list(rec.events)
    for i, fact in enumerate(events):
        if fact.topic == ATTACK_RESOLVED and fact.payload.get("damage", 0) > 0:
            rolls: list[dict[str, Any]] = []
            for prev in reversed(events[:i]):
                if prev.command != fact.command or prev.topic != DICE_ROLLED:
                    break
                rolls.insert(0, prev.payload)
            return fact.seq, rolls
    raise AssertionError("the fixture has no damaging attack")


def test_explain_attack(page: Any, server: Server, artifacts: Path, river_plate: Game) -> None:
    """The Explain panel of a damaging attack shows its dice, rules, target numbers and odds.

    Expected strings are computed from the DiceRolled events just before the first
    AttackResolved with damage > 0. Checks: each roll's "faces [..]", its rule id (the fixture's
    attack uses PL-4b to hit, PL-4c defence, PL-4d damage), each "needs at least N (N+)"
    comparison, and each exact chance "a/b (x.y%)" of the outcome and of success.
    """
    rec = river_plate.record
    seq, rolls = _first_damaging_attack(rec)
    assert rolls, f"no dice behind attack event {seq}"
    rules = {roll["rule"] for roll in rolls}
    assert {"PL-4b", "PL-4c", "PL-4d"} <= rules, rules
    open_game(page, server, RIVER_PLATE, seq, river_plate.length)

    panel = explain_column(page)
    expect(panel).to_have_count(1)
    expect(panel).to_contain_text(f"Event {seq} — ")
    text = panel.inner_text()
    expected: list[str] = []
    for roll in rolls:
        expected.append(f"rule {roll['rule']}")
        expected.append(f"rolled {_faces(roll['roll']['faces'])}")
        if roll["comparison"] == "at_least":
            n = roll["compared_with"]
            expected.append(f"needs at least {n} ({n}+)")
        expected.append(_odds(roll))
    missing = [s for s in expected if s not in text]
    assert not missing, f"missing from the Explain panel: {missing}\n--- panel ---\n{text}"
    shot(page, artifacts, f"05-explain-attack-event-{seq}")


def test_bad_upload(
    page: Any, server: Server, artifacts: Path, river_plate: Game, tmp_path: Path
) -> None:
    """Broken uploads give a readable error, never a traceback.

    Checks, for a truncated copy of the River Plate record and for valid JSON that is not a
    record: an alert containing "Not a valid Wake record" and the uploaded file's name is shown,
    the page has no ``stException`` element and no "Traceback" text.
    """
    open_game(page, server, RIVER_PLATE, 150, river_plate.length)
    truncated = tmp_path / "truncated.wake.json"
    data = RIVER_PLATE_FILE.read_bytes()
    truncated.write_bytes(data[: len(data) // 3])
    not_record = tmp_path / "not_a_record.json"
    not_record.write_text('{"hello": [1, 2, 3], "format": "something else"}\n')

    for path in (truncated, not_record):
        uploader(page).set_input_files(str(path))
        alert = page.locator('[data-testid="stAlert"]').filter(has_text=path.name)
        expect(alert.first).to_contain_text("Not a valid Wake record")
        wait_idle(page, chart=False)
        expect(page.locator('[data-testid="stException"]')).to_have_count(0)
        expect(page.get_by_text("Traceback")).to_have_count(0)
        shot(page, artifacts, f"06-bad-upload-{path.name.split('.')[0]}")


def test_good_upload(page: Any, server: Server, artifacts: Path, river_plate: Game) -> None:
    """Uploading the Denmark Strait record opens it.

    Checks: the title (h1) changes from River Plate to "Denmark Strait"; the caption names the
    uploaded file as the source and its event count; the position line's length is the
    record's; the board is drawn again; the only alert says it was verified; no exception.
    """
    denmark = read_record_file(DENMARK_FILE)
    open_game(page, server, RIVER_PLATE, 150, river_plate.length)
    title = page.get_by_role("heading", level=1)
    expect(title).to_contain_text("River Plate")

    uploader(page).set_input_files(str(DENMARK_FILE))
    expect(title).to_contain_text("Denmark Strait")
    n = len(denmark.events)
    expect(position_line(page)).to_have_text(re.compile(rf"^Event \d+ / {n}\b"))
    wait_idle(page)
    expect(page.get_by_text(f"source: {DENMARK_FILE.name}")).to_have_count(1)
    expect(page.get_by_text(f"{n} events · ")).to_have_count(1)
    expect(board(page).locator(".main-svg").first).to_be_visible()
    alerts = page.locator('[data-testid="stAlert"]')  # only the verification status
    expect(alerts).to_have_count(1)
    expect(alerts.first).to_contain_text("Verified: every order re-run gives the recorded events")
    expect(page.locator('[data-testid="stException"]')).to_have_count(0)
    shot(page, artifacts, "07-good-upload-denmark-strait")


def test_switching_games_starts_at_the_beginning(
    page: Any, server: Server, artifacts: Path, river_plate: Game
) -> None:
    """Picking another stored game opens it at event 0, not at the previous game's event.

    Regression: the previous game's ``?event=150`` was applied to the newly picked game.
    """
    open_game(page, server, RIVER_PLATE, 150, river_plate.timeline.length)
    page.get_by_label("Stored games").click()
    page.keyboard.type("Narvik")  # the list is long and virtualised: filter it as a user would
    page.get_by_role("option", name=re.compile("Narvik")).click()
    expect_event(page, 0, 245)
    shot(page, artifacts, "08-switch-game-narvik-event-0")


IRON_OAK_FILE = MORZE.parent / "iron_oak" / "mobile_bay-fort-magazine.wake.json"


def test_explain_iron_oak_gunnery(page: Any, server: Server, artifacts: Path) -> None:
    """IO-6.2 in the browser: an Iron & Oak fire with a modifier shows both dice pools (gun dice
    and "opposed by" defence dice), the location, every modifier's rule ID, the damage-chart
    band in words and the exact odds; the grid board is drawn."""
    rec = read_record_file(IRON_OAK_FILE)
    length = len(rec.events)
    index = next(
        i
        for i, f in enumerate(rec.events)
        if f.topic == "iron_oak.GunneryResolved/1"
        and f.payload["attack"] == "guns"
        and "." not in f.payload["target"]
        and rec.events[i - 1].payload["roll"]["modifiers"]
    )
    fact, roll = rec.events[index], rec.events[index - 1].payload
    open_game(page, server, rec.header.game_id, fact.seq, length)
    panel = explain_column(page)
    expect(panel).to_contain_text(f"Event {fact.seq} — ")
    text = panel.inner_text()
    p = fact.payload
    expected = [
        f"CR {p['cr']} vs DR {p['dr']}",
        p["band_text"],
        f"hit {p['location']}",
        "opposed by",
        f"rolled {_faces(roll['roll']['faces'])}",
        f"rolled {_faces(roll['opposed_by']['faces'])}",
        *(f"[{m['rule']}]" for m in roll["roll"]["modifiers"]),
        _odds(roll),
    ]
    missing = [s for s in expected if s not in text]
    assert not missing, f"missing from the Explain panel: {missing}\n--- panel ---\n{text}"
    expect(scrubber(page).get_by_text("depth 5", exact=False).first).to_be_visible()
    shot(page, artifacts, f"09-iron-oak-gunnery-event-{fact.seq}")


ARMADA_MANEUVER = "armada.ShipManeuvered/1"


def _data_to_page(page: Any, x: float, y: float) -> tuple[float, float]:
    """Page pixel coordinates of a board data point, from plotly.js's own axes."""
    frame = next(f for f in page.frames if "scrubber" in f.url)
    found = frame.evaluate(
        """([x, y]) => {
            const gd = document.getElementById('board');
            const box = gd.getBoundingClientRect();
            const xa = gd._fullLayout.xaxis, ya = gd._fullLayout.yaxis;
            return [box.left + xa._offset + xa.d2p(x), box.top + ya._offset + ya.d2p(y)];
        }""",
        [x, y],
    )
    outer = page.locator(SCRUBBER).bounding_box()
    assert outer is not None
    return float(found[0]) + outer["x"], float(found[1]) + outer["y"]


def test_armada_board_draws_ships_with_zones_and_shields(
    page: Any, server: Server, artifacts: Path
) -> None:
    """An Armada game (started and played by the bots with the CLI) in the generic viewer.

    Checks, mid-game just after a ship's maneuver: the title is the game's; the board draws
    every ship in play with its name and the shields of each hull zone written in it (the
    labels of the read model at that event), the obstacles with their kind, filled shapes
    (bases, zones, heading markers, obstacles); hovering over a ship shows the essentials and a
    click shows its full status below the board (speed, shields per zone, defence tokens,
    dials revealed so far); no exception.
    """
    rec = read_record_file(server.armada_record)
    assert rec.header.game_id == server.armada_game and rec.header.ruleset.id == "armada"
    tl = Timeline(rec.header, rec.events)
    moves = [f.seq for f in rec.events if f.topic == ARMADA_MANEUVER]
    assert moves, "the bots' game has no maneuver"
    event = moves[len(moves) // 2]
    view = tl.view_at(event)
    open_game(page, server, server.armada_game, event, tl.length)
    expect(page.get_by_role("heading", level=1)).to_contain_text("Armada learning battle")

    board_ = board(page)
    expect(board_.locator(".main-svg").first).to_be_visible()
    ships = [u for u in view.units if u.kind == "ship" and u.status == "active"]
    assert ships and all(len([s for s in u.shapes if s.style == "zone"]) == 4 for u in ships)
    drawn = Counter(board_.locator("g.textpoint text").all_text_contents())
    # each label is the ship's name as the Python board and the move list give it (issue 21
    # item 7: a long name was once labelled by its id read as words)
    names = unit_labels(view.units)
    labels = [
        names[u.id] if u.damage == 0 else f"{names[u.id]} {u.damage}/{u.strength}" for u in ships
    ]
    missing = [label for label in labels if drawn[label] < 1]
    assert not missing, f"ships without a label on the board: {missing}; drawn {drawn}"
    shields = Counter(s.label for u in ships for s in u.shapes if s.style == "zone")
    short = {label: n for label, n in shields.items() if drawn[label] < n}
    assert not short, f"zone labels missing: {short}; drawn {drawn}"
    kinds = Counter(f.label for f in view.board.features)
    assert kinds and all(drawn[k] >= n for k, n in kinds.items())
    assert board_.locator("path.js-fill").count() >= 2 * 3 + 1  # per side + the obstacles
    expect(page.locator('[data-testid="stException"]')).to_have_count(0)
    shot(page, artifacts, f"10-armada-board-event-{event}")

    ship = ships[0]
    assert ship.position is not None
    page.mouse.move(*_data_to_page(page, *ship.position))
    hover = board_.locator(".hoverlayer .hovertext")
    expect(hover).to_have_count(1)
    expect(hover).to_contain_text(ship.name)
    expect(hover).to_contain_text(f"damage {ship.damage}/{ship.strength}")
    shot(page, artifacts, f"11-armada-hover-{ship.id}-event-{event}")
    page.mouse.click(*_data_to_page(page, *ship.position))
    info = page.frame_locator(SCRUBBER).locator("#unit-info")
    details = ship.details
    for part in (
        f"{ship.name} · ",  # named, no internal id (issue 21 item 7)
        f"speed{details['speed']}",
        f"shields{details['shields']}",
        f"defense tokens{details['defense_tokens']}",
        f"dials face down{details['dials_face_down']}",
        # commands as words: "R1 concentrate fire", not "concentrate_fire" (issue 21 item 7)
        *(
            [f"dials revealed{str(details['dials_revealed']).replace('_', ' ')}"]
            if details["dials_revealed"]
            else []
        ),
    ):
        expect(info).to_contain_text(str(part))


SHIPS_FILE = MORZE.parent / "ships" / "multi4-line_weapon.wake.json"


def test_ships_four_players_in_a_players_view(page: Any, server: Server, artifacts: Path) -> None:
    """SHIPS & TACTICS with 4 players: the table draws the four seats; switched to P2's view,
    P1's draw is sealed in the Explain panel (its cards shown as "?") while P2's own is not."""
    rec = read_record_file(SHIPS_FILE)
    length = len(rec.events)
    drawn = {
        f.payload["player"]: f
        for f in rec.events
        if f.topic == "ships.CardsDrawn/1" and f.payload["rule"] == "ST-1.2"
    }
    tl = Timeline(rec.header, rec.events)
    p2 = tl.side_names["P2"]  # "View as" lists the sides by their names

    def cards(player: str) -> str:  # the cards by their names, as the panel writes them
        names = tl.names_at(drawn[player].seq, None)
        return ", ".join(names.name(card) for card in drawn[player].payload["cards"])

    open_game(page, server, rec.header.game_id, drawn["P1"].seq, length)
    # the seats round the table (issue 21 item 11): one panel each, headed by its side's name
    heads = " ".join(t.text_content() or "" for t in board(page).locator(".annotation-text").all())
    assert all(f"({p})" in heads for p in ("P1", "P2", "P3", "P4")), heads
    panel = explain_column(page)
    expect(panel).to_contain_text(cards("P1"))  # the umpire sees all
    page.locator('[data-testid="stSidebar"]').get_by_text(p2, exact=True).click()
    wait_idle(page, "Sealed")
    expect(panel).to_contain_text("P1 draws 8: ?, ?, ?, ?, ?, ?, ?, ?")
    expect(panel).not_to_contain_text(cards("P1"))
    shot(page, artifacts, "12-ships-four-players-p2-view")
    page.goto(f"{server.url}/?game={rec.header.game_id}&event={drawn['P2'].seq}")
    expect(position_line(page)).to_have_text(position_text(drawn["P2"].seq, length))
    wait_idle(page)
    page.locator('[data-testid="stSidebar"]').get_by_text(p2, exact=True).click()
    wait_idle(page)
    expect(panel).to_contain_text(cards("P2"))  # its own cards


def test_clicking_a_move_jumps_there(
    page: Any, server: Server, artifacts: Path, river_plate: Game
) -> None:
    """Issue 13 (move list): the whole game is listed, grouped by turn and phase, the current
    event highlighted; a click on any row (before or after the cursor) moves the replay there,
    and the server catches up (URL, Explain panel)."""
    tl = river_plate.timeline
    length = tl.length
    open_game(page, server, RIVER_PLATE, 150, length)
    moves = scrubber(page).locator("#moves")
    expect(moves.locator(".move")).to_have_count(length + 1)  # and the start
    expect(moves.locator(".move.current")).to_have_attribute("data-seq", "150")
    info = tl.info(150)
    assert info is not None
    expect(
        moves.locator(".group", has_text=f"Turn {info.turn} · {info.phase}").first
    ).to_be_visible()
    for target in (148, 230):
        row = moves.locator(f'.move[data-seq="{target}"]')
        row.scroll_into_view_if_needed()
        row.click()
        expect_event(page, target, length)
        expect(row).to_have_class(re.compile(r"\bcurrent\b"))
        expect(row).to_contain_text(tl.events[target - 1].text)
    # a kind filter keeps only that kind's rows
    scrubber(page).locator('.filter[data-filter="kind"] summary').click()
    kind = scrubber(page).locator('.filter[data-filter="kind"] label')
    kind.filter(has_text=re.compile(r"^\s*attack declared\s*$")).click()  # kinds as words
    shown = moves.locator(".move:visible")
    expected = sum(1 for e in tl.events if e.kind == "AttackDeclared")
    expect(shown).to_have_count(expected)
    shot(page, artifacts, "13-move-list-click-event-230")
