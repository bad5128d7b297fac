"""A game's record carries its variations (issue 20 item 4: "the line taken back is kept as a
variation of the game (shown in the viewer, exported with it)").

``wake export`` writes the other lines of the game's variation tree in the record's optional
``variations`` section, each a whole record; reading the file checks each as a record and against
its parent in the file; ``wake import`` verifies every line before it stores any, and the store it
lands in has the same variation tree. A file whose variations do not belong to the game, or whose
variation was altered, is refused and changes no store.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from domain.engine import header_for
from domain.errors import RecordError
from domain.record import read_record, read_record_file
from domain.scribe import table as T
from domain.store import GameStore
from domain.variations import line_root, variation_tree
from tests.cli_helpers import wake
from tests.helpers import FIXTURES

RIVER_PLATE = FIXTURES / "scenarios" / "morze" / "river_plate.json"
DENMARK = FIXTURES / "games" / "morze" / "denmark_strait-draw.wake.json"


def _taken_back_game(path: Path) -> tuple[GameStore, str, str]:
    """A physical-dice River Plate game at a table (PL-1 initiative, PL-2 movement): two orders,
    the second taken back and given again. Returns the store, the line taken back and the
    game played on."""
    store = GameStore(str(path))
    data = json.loads(RIVER_PLATE.read_text())
    header = header_for("morze", data, game_id="00000000-0000-4000-8000-00000000f0a1", seed=None)
    gid = store.create_game(header)
    T.submit(store, gid, None, {"type": "roll_initiative"}, 0, dice=[7, 3])
    state = store.state(gid)
    side = state.ruleset.to_act(state.rules)[0]
    T.submit(store, gid, side, {"type": "end_movement"}, state.seq)
    played_on = T.take_back(store, gid, 1)
    T.submit(store, played_on, side, {"type": "end_movement"}, state.seq)
    return store, gid, played_on


def _tree(store: GameStore, game_id: str) -> list[tuple[int, str, int | None, int]]:
    root = variation_tree(store, line_root(store, game_id))
    return [(d, v.game_id, v.event, v.length) for d, v in root.walk()]


def test_export_carries_the_line_taken_back_and_import_restores_the_tree(
    tmp_path: Path,
) -> None:
    """PL-2 orders at a table, one taken back: the export of the game played on holds the line
    taken back (with its "taken back" note); a fresh store that imports the file has both games
    in the same variation tree, and the file verifies strictly."""
    store, taken_back, played_on = _taken_back_game(tmp_path / "table.sqlite3")
    out = tmp_path / "game.wake.json"
    code, _, err = wake("export", played_on, "-o", str(out), "--store", str(store.location))
    assert code == 0, err
    record = read_record_file(out, strict=True)
    assert record.header.game_id == played_on
    assert [v.header.game_id for v in record.variations or []] == [taken_back]
    line = (record.variations or [])[0]
    assert line.annotations and "taken back" in line.annotations[0].text

    code, text, err = wake("verify", "--strict", str(out))
    assert code == 0, text + err
    fresh = tmp_path / "fresh.sqlite3"
    code, text, err = wake("import", str(out), "--store", str(fresh))
    assert code == 0, text + err
    assert _tree(GameStore(str(fresh)), played_on) == _tree(store, played_on)
    again = tmp_path / "again.wake.json"
    code, _, err = wake("export", played_on, "-o", str(again), "--store", str(fresh))
    assert code == 0, err
    assert again.read_bytes() == out.read_bytes()  # export -> import -> export is identical


def test_no_variations_writes_the_game_alone(tmp_path: Path) -> None:
    store, _, played_on = _taken_back_game(tmp_path / "table.sqlite3")
    out = tmp_path / "alone.wake.json"
    code, _, err = wake(
        "export", played_on, "-o", str(out), "--no-variations", "--store", str(store.location)
    )
    assert code == 0, err
    assert "variations" not in json.loads(out.read_text())
    assert read_record_file(out, strict=True).variations is None


def _body(tmp_path: Path) -> dict[str, Any]:
    store, _, played_on = _taken_back_game(tmp_path / "table.sqlite3")
    out = tmp_path / "game.wake.json"
    assert wake("export", played_on, "-o", str(out), "--store", str(store.location))[0] == 0
    body: dict[str, Any] = json.loads(out.read_text())
    return body


def _refused(body: dict[str, Any], tmp_path: Path, match: str) -> None:
    """The file is refused by the reader and by ``wake import``, which stores nothing."""
    with pytest.raises(RecordError, match=match):
        read_record(json.dumps(body))
    path = tmp_path / "bad.wake.json"
    path.write_text(json.dumps(body))
    fresh = GameStore(str(tmp_path / "fresh.sqlite3"))
    code, text, _ = wake("import", str(path), "--store", str(fresh.location))
    assert code == 2, text
    assert fresh.game_ids() == []


def test_an_altered_variation_is_refused_and_nothing_is_stored(tmp_path: Path) -> None:
    """A die of the line taken back changed (PL-1's initiative roll): its chain breaks."""
    body = _body(tmp_path)
    line = body["variations"][0]
    rolled = next(e for e in line["events"] if e["topic"] == "wake.DiceRolled/1")
    rolled["payload"]["roll"]["faces"] = [1]
    _refused(body, tmp_path, "variation 1")


def test_a_record_of_another_game_is_no_variation(tmp_path: Path) -> None:
    """A whole valid record (Denmark Strait) slipped in as a variation is not a line of it."""
    body = _body(tmp_path)
    body["variations"].append(json.loads(DENMARK.read_text()))
    _refused(body, tmp_path, "not a line of this game")


def test_variations_do_not_nest(tmp_path: Path) -> None:
    body = _body(tmp_path)
    body["variations"][0]["variations"] = [json.loads(DENMARK.read_text())]
    _refused(body, tmp_path, "variations of its own")


def test_the_game_itself_is_no_variation(tmp_path: Path) -> None:
    body = _body(tmp_path)
    main = {k: v for k, v in body.items() if k != "variations"}
    body["variations"].append(main)
    _refused(body, tmp_path, "twice")
