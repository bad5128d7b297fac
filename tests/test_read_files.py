"""Every read command takes a record file as well as a stored game's id (issue 22 item 13):
``log``, ``explain``, ``show``, ``annotate``, ``annotations`` and ``withdraw-annotation`` as
``rerun``, ``fork`` and ``report`` do; ``verify`` prints its results on stdout, and a divergence
reads as ``rerun``'s field diff."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from domain.store import GameStore
from tests.cli_helpers import wake
from tests.forge import load, rechain
from tests.helpers import FIXTURES

RIVER_PLATE = FIXTURES / "games" / "morze" / "river_plate-annihilation.wake.json"
RIVER_PLATE_ID = "00000000-0000-4000-8000-000000000001"


@pytest.fixture()
def store(tmp_path: Path) -> str:
    location = str(tmp_path / "read.sqlite3")
    code, _, err = wake("import", str(RIVER_PLATE), "--store", location)
    assert code == 0, err
    return location


@pytest.mark.parametrize(
    "args",
    [
        ["log", "{game}", "--from", "100", "--to", "140"],
        ["explain", "{game}", "122"],
        ["show", "{game}", "--event", "122", "--json"],
        ["show", "{game}", "--turn", "2"],
        ["show", "{game}", "--json", "--as", "kriegsmarine"],
    ],
)
def test_a_record_file_reads_as_the_stored_game(store: str, args: list[str]) -> None:
    """Item 13: the same output from the file as from the stored game it imports as."""
    code, from_file, err = wake(*[a.format(game=RIVER_PLATE) for a in args])
    assert code == 0, err
    code, from_store, err = wake(*[a.format(game=RIVER_PLATE_ID) for a in args], "--store", store)
    assert code == 0, err
    assert from_file == from_store and from_file


def test_bad_reads_of_a_file_are_one_line_exit_2(tmp_path: Path) -> None:
    """Item 13: an event out of range, a missing or tampered file: one line, exit 2."""
    code, _, err = wake("explain", str(RIVER_PLATE), "999")
    assert code == 2 and "the game has events 1..291, not 999" in err and err.count("\n") == 1
    code, _, err = wake("log", str(tmp_path / "missing.wake.json"))
    assert code == 2 and "cannot read" in err and err.count("\n") == 1
    body = load()
    body["events"][10]["payload"]["note"] = "edited"
    bad = tmp_path / "bad.wake.json"
    bad.write_text(json.dumps(body), "utf-8")
    code, _, err = wake("show", str(bad))
    assert code == 2 and "digest does not match" in err and err.count("\n") == 1


def test_annotate_a_record_file_imports_it_first(tmp_path: Path) -> None:
    """Item 13: ``annotate FILE`` stores the game (as ``wake fork FILE`` does) and annotates
    it; ``annotations FILE`` lists what an exported record carries, without storing it."""
    location = str(tmp_path / "notes.sqlite3")
    code, out, err = wake(
        "annotate", str(RIVER_PLATE), "12", "--author", "Ann", "--kind", "disputed",
        "--text", "the shot should have missed", "--store", location,
    )  # fmt: skip
    assert code == 0, err
    assert f"annotation #1 on event 12 of game {RIVER_PLATE_ID}" in out
    assert GameStore(location).game_ids() == [RIVER_PLATE_ID]
    exported = tmp_path / "annotated.wake.json"
    code, _, err = wake("export", RIVER_PLATE_ID, "-o", str(exported), "--store", location)
    assert code == 0, err
    code, out, err = wake("annotations", str(exported), "--store", str(tmp_path / "none.db"))
    assert code == 0, err
    assert "#1  event 12  disputed  by Ann" in out and "the shot should have missed" in out
    assert not (tmp_path / "none.db").exists()
    code, out, err = wake(
        "withdraw-annotation", str(exported), "1", "--author", "Ann", "--store", location
    )
    assert code == 0 and "withdrawn" in out, err


def test_verify_prints_on_stdout_with_the_readable_field_diff(tmp_path: Path) -> None:
    """Item 13: a sound chain over an edited roll (a forged record) diverges on re-run; the
    result is on stdout and shows both versions in words and the differing field as ``wake
    rerun`` does, no Python dict."""
    code, out, _ = wake("verify", str(RIVER_PLATE))
    assert code == 0 and f"{RIVER_PLATE}: OK - 291 events" in out
    body = load()
    roll = next(e for e in body["events"] if e["topic"] == "wake.DiceRolled/1")
    face = roll["payload"]["roll"]["faces"][0]
    roll["payload"]["roll"]["faces"][0] = face % 10 + 1
    forged = tmp_path / "forged.wake.json"
    forged.write_text(json.dumps(rechain(body)), "utf-8")
    code, out, _ = wake("verify", str(forged))
    assert code == 1
    assert f"{forged}: DIVERGES - event {roll['seq']} differs on re-run (rule PL-" in out
    assert "  differing fields (recorded != re-run):" in out
    assert f"roll.faces[0]: {face % 10 + 1} != {face}" in out
    assert "{'" not in out


def test_legal_orders_of_a_record_file(tmp_path: Path) -> None:
    """Item 13: ``legal FILE`` lists the orders open at the end of the record, as for the
    stored game (PL-1: a new Morze game starts with the initiative roll)."""
    location = str(tmp_path / "legal.sqlite3")
    scenario = FIXTURES / "scenarios" / "morze" / "river_plate.json"
    code, out, err = wake("start", "morze", str(scenario), "--seed", "3", "--store", location)
    assert code == 0, err
    game_id = out.strip().splitlines()[-1]
    exported = tmp_path / "live.wake.json"
    code, _, err = wake("export", game_id, "-o", str(exported), "--store", location)
    assert code == 0, err
    code, from_file, err = wake("legal", str(exported))
    assert code == 0, err
    assert from_file == wake("legal", game_id, "--store", location)[1]
    assert '"roll_initiative"' in from_file
