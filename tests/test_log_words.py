"""Issue 21 item 7: ``wake log`` reads in players' words for every bundled game, the umpire's
log and each side's (``--as SIDE``): side, unit and card names, never their ids, no Python
reprs, no digests, no ``snake_case`` ids. Rule IDs ([PL-1], [IO-6.3.7], [SWA-2.3]) and the dice
and odds text stay as they are.

The names are read from each game's own data (its scenario and the ruleset's data files, as
the record's header carries them, and the units of its read models), not from the text
checked: every ``{"id": ..., "name": ...}`` object of that data is an id a person must not
read where the name differs. A side id written in capitals (SHIPS' seats ``P1``..``P6``, Iron
& Oak's ``USA`` and ``CSA``) is the players' own name for that seat (the rules write
"Bombshell (CSA)", IO-9.2; SHIPS seats its players round a table, ST-0) and reads as it is, as
in the viewer's move list.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from domain.engine import new_game
from domain.move_list import log_lines
from domain.record import read_record_file
from tests.helpers import RECORDS
from tests.words_scan import game_ids, log_problems

LOG_LINE = re.compile(r"^ {0,5}\d+[* ] \S")


def test_the_log_scan_finds_what_it_looks_for() -> None:
    ids = {"royal_navy": "Royal Navy", "campbell": "HMS Campbell", "escort": "Convoy escort"}
    bad = [
        "     1  order #1 by royal_navy: campbell moves to (78, 30)",
        "    50  order #23 by escort: corvette 1 moves 8 cm to (32, 112)",
        "   640* atlanta suffers engine_stopped [IO-6.3.7]: marker",
        "     2  dials ['victory'] " + "ab" * 32 + " None",
    ]
    found = log_problems(bad, ids)
    assert any(f.startswith("id royal_navy") for f in found)
    assert any(f.startswith("id campbell") for f in found)
    assert any(f.startswith("id escort") for f in found)
    assert any(f.startswith("snake_case engine_stopped") for f in found)
    assert any(f.startswith("quoted id 'victory'") for f in found)
    assert {"hex digest", "None", "list repr ['"} <= {f.split(":")[0] for f in found}
    good = [
        "     5  order #1 by Royal Navy: HMS Campbell moves 12 cm to (78, 30)",
        "     2  Kriegsmarine initiative [PL-1] d10 rolled 2 = 2 vs Royal Navy d10 rolled 2 = 2"
        " -> tie; chance of success 9/20 (45%)",
        "    21* USS Cumberland's order is carried out",
        "    49* turn 1: movement phase, Convoy escort to act",
    ]
    assert log_problems(good, ids) == []


def test_the_ids_come_from_the_games_own_data() -> None:
    """The map is built from the record (scenario, data, read models), not written here."""
    morze = game_ids(next(p for p in RECORDS if p.name == "river_plate-annihilation.wake.json"))
    assert morze["royal_navy"] == "Royal Navy"
    assert morze["graf_spee"] == "Admiral Graf Spee"
    ships = game_ids(next(p for p in RECORDS if p.name == "multi3-three_players.wake.json"))
    assert ships["short_warp"] == "Short warp"  # a card of the data
    assert "P1" not in ships  # a seat reads as it is


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_bundled_games_log_is_in_players_words(path: Path) -> None:
    """Issue 21 item 7: ``wake log`` (``domain.move_list.log_lines``, the CLI's own function)
    of every bundled game, as the umpire and, where information is hidden, as each side: no
    id of the game's sides, units or cards where it has a name, no repr, digest or
    ``snake_case`` id; every event one numbered line, automatic ones marked ``*``."""
    record = read_record_file(path)
    ids = game_ids(path)
    viewers: list[str | None] = [None]
    if new_game(record.header).ruleset.meta.hidden_information:
        viewers += [side.id for side in record.header.sides]
    found: list[str] = []
    for viewer in viewers:
        lines = list(log_lines(record.header, record.events, viewer))
        assert len(lines) == len(record.events)
        assert all(LOG_LINE.match(line) for line in lines)
        marks = [line[6] == "*" for line in lines]
        assert marks == [fact.automatic for fact in record.events]
        found += [f"as {viewer or 'umpire'}: {p}" for p in log_problems(lines, ids)]
    assert not found, f"{len(found)} problems, e.g.\n" + "\n".join(found[:15])
