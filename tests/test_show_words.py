"""Issue 21 item 7 for ``wake show``'s table: every bundled game, at a few events, as the umpire
and as each side, reads in players' words: units, sides and the side to act by their display
names, kinds and statuses in words, a "where" that says something for every unit, no id, repr,
``None`` or digest (the checks of ``wake log``'s scan, ``tests.words_scan.log_problems``).

Design note 8 and issue 21 items 1-3 (hidden information is sealed, not missing): a side's
table shows another side's hidden units (SHIPS hands and face-down fleets, ST-1.3) only as a
count of face-down cards, never what they are; its own by name.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from rich.console import Console

from domain.cli.render import state_table
from domain.engine import apply_fact, header_for, new_game
from domain.read_model import HIDDEN_KIND, GameView, redact_view
from domain.record import Record, read_record_file
from tests.cli_helpers import wake
from tests.helpers import FIXTURES, RECORDS, small_scenario
from tests.words_scan import game_ids, id_pattern, log_problems

FACE_DOWN_ROW = re.compile(r"│ (\d+) face down\s*│ ([^│]*?)\s*│")
ROW = re.compile(r"^│(.*)│$")


@dataclass
class Shown:
    """One ``wake show`` table: at which event, for whom, its text and the views behind it."""

    event: int
    viewer: str | None
    text: str
    umpire: GameView
    view: GameView


def table_text(view: GameView, event: int) -> str:
    """The table as ``wake show`` prints it (``domain.cli.render.state_table``), as text."""
    out = io.StringIO()
    Console(file=out, width=300, highlight=False).print(state_table(view, event))
    return out.getvalue()


def _events(record: Record) -> list[int]:
    """The start, a third, two thirds, the end, and the first sealed choice (SHIPS' face-down
    fleets, ST-1.3: the only moment a side holds hidden ships, not cards)."""
    length = len(record.events)
    sealed = [f.seq for f in record.events if "Committed" in f.topic][:1]
    return sorted({0, length // 3, 2 * length // 3, length, *sealed})


def shown_tables(path: Path) -> Iterator[Shown]:
    """The tables of ``path``'s game at the events :func:`_events` picks, as the umpire and as
    each side."""
    record = read_record_file(path)
    state = new_game(record.header)
    sides: list[str | None] = [None, *(s.id for s in record.header.sides)]
    wanted = _events(record)
    for fact in [None, *record.events]:
        if fact is not None:
            state = apply_fact(state, fact, check=False)
        if state.seq not in wanted:
            continue
        umpire = state.ruleset.read_model(state.rules)
        for viewer in sides:
            view = redact_view(umpire, viewer)
            yield Shown(state.seq, viewer, table_text(view, state.seq), umpire, view)


def _leaks(shown: Shown) -> list[str]:
    """What ``shown`` (a side's table) tells of another side's hidden units: a name it may not
    know, or a count of face-down units that is not the number that side holds."""
    viewer = shown.viewer
    if viewer is None:
        return []
    known = {u.name for u in shown.view.units if u.kind != HIDDEN_KIND}
    secret = {
        u.name
        for u in shown.umpire.units
        if u.private and u.side != viewer and u.name not in known
    }
    found = [f"hidden name {n}" for n in secret if id_pattern(n).search(shown.text)]
    labels = {s.id: s.name for s in shown.view.sides}
    counted: dict[str, int] = {}
    for count, side in FACE_DOWN_ROW.findall(shown.text):
        counted[side] = counted.get(side, 0) + int(count)
    for side_id, name in labels.items():
        held = sum(1 for u in shown.umpire.units if u.private and u.side == side_id)
        said = sum(n for label, n in counted.items() if label.startswith(name))
        if side_id != viewer and said != held:
            found.append(f"{name}: {said} face down shown, {held} held")
    return found


def test_the_leak_check_finds_a_hidden_card_named() -> None:
    """The check itself: a side's table that names another side's card, or miscounts its
    hand, is a leak (design note 8)."""
    path = FIXTURES / "games/ships/multi4-line_weapon.wake.json"
    shown = next(s for s in shown_tables(path) if s.viewer == "P2" and s.event > 0)
    assert _leaks(shown) == []
    umpire_text = table_text(shown.umpire, shown.event)
    assert _leaks(Shown(shown.event, "P2", umpire_text, shown.umpire, shown.view))


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_bundled_games_table_is_in_players_words(path: Path) -> None:
    """Issue 21 item 7: ``wake show``'s table of every bundled game, as the umpire and as
    each side: no id of the game's sides, units or cards (nor a hidden placeholder's), no repr,
    ``None``, digest or ``snake_case`` id; every unit's "where" filled; a side never reads
    another side's hidden cards (design note 8)."""
    ids = game_ids(path)
    found: list[str] = []
    for shown in shown_tables(path):
        who = f"as {shown.viewer or 'umpire'} at {shown.event}"
        named = {**ids}
        for unit in [*shown.umpire.units, *shown.view.units]:
            if unit.id != unit.name and unit.id not in {s.id for s in shown.view.sides}:
                named[unit.id] = unit.name
        lines = shown.text.splitlines()
        found += [f"{who}: {p}" for p in log_problems(lines, named)]
        rows = [m.group(1).split("│") for line in lines if (m := ROW.match(line))]
        found += [f"{who}: empty cell in {row}" for row in rows if any(not c.strip() for c in row)]
        found += [f"{who}: {leak}" for leak in _leaks(shown)]
    assert not found, f"{len(found)} problems, e.g.\n" + "\n".join(found[:15])


@pytest.mark.parametrize(
    ("game", "active"),
    [
        ("morze/river_plate-annihilation", "Royal Navy to act"),
        ("armada/core_learning-score", "Rebel Alliance to act"),
        ("ships/multi4-line_weapon", "Galactic Empire (P4) to act"),
        ("iron_oak/mobile_bay-fire5", "Confederacy (CSA) to act"),
    ],
)
def test_wake_show_names_the_side_to_act_and_every_unit(game: str, active: str) -> None:
    """Issue 21 item 7, the games the review read: ``wake show GAME --event 40`` itself (the
    CLI) titles the side to act by name and writes no unit by its id; a unit off the map says
    why (Iron & Oak's Tecumseh waits at the S edge)."""
    path = FIXTURES / f"games/{game}.wake.json"
    code, out, _ = wake("show", str(path), "--event", "40")
    assert code == 0, out
    assert active in " ".join(out.split())
    assert log_problems(out.splitlines(), game_ids(path)) == []
    if game.startswith("iron_oak"):
        assert "off the map at the S edge, not yet entered" in out


def test_a_table_with_no_unit_yet_says_so() -> None:
    """Issue 21 item 7: before the fleets are dealt (SHIPS setup, ST-1.3) the table has no row;
    it says that no unit is in play yet rather than print an empty grid."""
    path = FIXTURES / "games/ships/multi4-line_weapon.wake.json"
    code, out, _ = wake("show", str(path), "--event", "1")
    assert code == 0, out
    assert "No units in play yet (setup)." in " ".join(out.split())
    code, out, _ = wake("show", str(path), "--event", "40")
    assert code == 0 and "No units in play yet" not in out


def test_a_unit_named_by_an_id_reads_as_words() -> None:
    """A scenario of a player's own may still name a unit by a code (the bundled ones no longer
    do: ``tests/test_words_scan.py``); ``wake show``'s table writes it as words, as the log
    does, never the ``snake_case`` id."""
    scenario = small_scenario()
    scenario["units"][0]["id"] = scenario["units"][0]["name"] = "merchant_01"
    header = header_for("morze", scenario, game_id="00000000-0000-4000-8000-0000000000ab", seed=1)
    state = new_game(header)
    text = table_text(state.ruleset.read_model(state.rules), 0)
    assert "merchant 01" in text
    assert "merchant_01" not in text
