"""Issue 12, gap 6: every command ends bad input with exit status 2 and one line naming the
problem (never a traceback), changes nothing, and an ``import`` batch goes on past a bad file."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from domain.cli import app as cli_app
from domain.cli import listing, render
from domain.cli.app import app
from domain.store import GameStore
from tests.forge import RIVER_PLATE_RECORD, forged
from tests.helpers import FIXTURES

runner = CliRunner()
RIVER_PLATE = FIXTURES / "scenarios" / "morze" / "river_plate.json"
DENMARK = FIXTURES / "games" / "morze" / "denmark_strait-draw.wake.json"


def wake(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"traceback for {args}: {result.exception!r}")
    return result.exit_code, result.output


def one_line_error(code: int, out: str, expect: str) -> None:
    assert code == 2, out
    lines = [line for line in out.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error ("), out
    assert expect in lines[0], out


@pytest.fixture()
def store(tmp_path: Path) -> str:
    return str(tmp_path / "s.sqlite3")


@pytest.fixture()
def game(store: str) -> str:
    code, out = wake("start", "morze", str(RIVER_PLATE), "--seed", "3", "--store", store)
    assert code == 0, out
    gid = out.strip()
    assert wake("submit", gid, '{"type": "roll_initiative"}', "--store", store)[0] == 0
    return gid


def _events(store: str, gid: str) -> int:
    return len(GameStore(store).facts(gid)[1])


@pytest.mark.parametrize(
    ("order", "expect"),
    [
        ("[1,2]", "an order is a JSON object"),
        ("null", "an order is a JSON object"),
        ("7", "an order is a JSON object"),
        ('"move"', "an order is a JSON object"),
        ('{"type": "move", "type": "end_movement"}', "duplicate key 'type'"),
        ('{"type": "move", "x": NaN}', "NaN is not a JSON number"),
        ('{"type": "move", "x": 1e400}', "1e400 is out of range"),
        ('{"type": "move", "x": ' + "9" * 5000 + "}", "integer with 5000 digits"),
        ('{"type": "\\ud800"}', "lone UTF-16 surrogate"),
        ("[" * 5000 + "]" * 5000, "nested deeper than 64 levels"),
        ('{"type": "move"', "not valid JSON"),
    ],
)
def test_submit_refuses_bad_json_in_one_line(
    store: str, game: str, order: str, expect: str
) -> None:
    before = _events(store, game)
    one_line_error(*wake("submit", game, order, "--store", store), expect)
    assert _events(store, game) == before


@pytest.mark.parametrize("field", ['"25"', "true", "25.5"])
def test_order_fields_are_not_coerced(store: str, game: str, field: str) -> None:
    """``"x": "25"`` and ``true`` used to become numbers silently."""
    state = GameStore(store).state(game)
    side = state.rules.active
    unit = state.rules.alive(side)[0]
    order = f'{{"type": "move", "unit": "{unit.id}", "x": {field}, "y": {unit.y}}}'
    before = _events(store, game)
    code, out = wake("submit", game, order, "--side", side, "--store", store)
    if field == "25.5":  # a real number: judged by the rules, not by its type
        assert "should be a valid number" not in out
        return
    one_line_error(code, out, "invalid move: x should be a valid number")
    assert _events(store, game) == before


@pytest.mark.parametrize("dice", ["a,b", "3,,4", "3,4.0", "1_0", "+3", "-3", "٣", ","])
def test_dice_faces_must_be_whole_numbers(store: str, game: str, dice: str) -> None:
    before = _events(store, game)
    code, out = wake("submit", game, '{"type": "end_movement"}', "--dice", dice, "--store", store)
    one_line_error(code, out, "--dice takes the faces rolled as whole numbers")
    assert _events(store, game) == before


@pytest.mark.parametrize("event", ["-1", "12345678901234567890123"])
def test_show_event_out_of_range(store: str, game: str, event: str) -> None:
    one_line_error(*wake("show", game, "--event", event, "--store", store), "--event takes 0..")


def test_export_to_a_directory_leaves_nothing_behind(store: str, game: str, tmp_path: Path) -> None:
    target = tmp_path / "out"
    target.mkdir()
    one_line_error(*wake("export", game, "-o", str(target), "--store", store), "is a directory")
    assert not [p.name for p in tmp_path.iterdir() if "out" in p.name and p.name != "out"]
    assert list(target.iterdir()) == []
    code, _ = wake("export", game, "-o", str(tmp_path / "g.wake.json"), "--store", store)
    assert code == 0 and not list(tmp_path.glob("*.tmp")) and not list(tmp_path.glob(".*tmp"))


def test_verify_exits_2_for_an_unreadable_file(tmp_path: Path) -> None:
    code, out = wake("verify", str(tmp_path / "missing.wake.json"))
    assert code == 2 and "cannot read (No such file or directory)" in out
    code, out = wake("verify", str(tmp_path))
    assert code == 2 and "a directory, not a regular file" in out


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_import_refuses_a_fifo_without_hanging(store: str, tmp_path: Path) -> None:
    fifo = tmp_path / "p.wake.json"
    os.mkfifo(fifo)
    code, out = wake("import", str(fifo), "--store", store)
    assert code == 2 and "a pipe (FIFO), not a regular file" in out


def test_verify_and_import_agree_on_a_non_uuid_game_id(store: str, tmp_path: Path) -> None:
    """With the chain recomputed, ``verify`` used to say OK and ``import`` crashed."""
    path = tmp_path / "id.wake.json"
    path.write_text(forged(lambda b: b["header"].update(game_id="game-1")), "utf-8")
    code, verify_out = wake("verify", str(path))
    assert code == 2 and "is not a UUID in canonical form" in verify_out
    code, import_out = wake("import", str(path), "--store", store)
    assert code == 2 and "is not a UUID in canonical form" in import_out
    assert GameStore(store).game_ids() == []


def test_one_bad_file_does_not_abort_an_import_batch(store: str, tmp_path: Path) -> None:
    bad: dict[str, str] = {
        "deep": '{"format": "wake-record", "a": ' + "[" * 3000 + "]" * 3000 + "}",
        "huge_int": RIVER_PLATE_RECORD.read_text("utf-8").replace(
            '"seq": 1,', '"seq": ' + "1" * 4400 + ",", 1
        ),
        "options": forged(lambda b: b["header"]["options"].update(bogus=True)),
        "not_uuid": forged(lambda b: b["header"].update(game_id="x")),
    }
    paths = []
    for name, text in bad.items():
        path = tmp_path / f"{name}.wake.json"
        path.write_text(text, "utf-8")
        paths.append(path)
    files = [str(RIVER_PLATE_RECORD), *map(str, paths), str(DENMARK)]
    code, out = wake("import", *files, "--store", store)
    assert code == 2, out
    for path in paths:
        assert f"{path}: error (record)" in out, out
    assert len(GameStore(store).game_ids()) == 2
    assert "imported as 00000000-0000-4000-8000-000000000001" in out
    assert "imported as 00000000-0000-4000-8000-000000000006" in out


def test_list_never_cuts_a_game_id(store: str, game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(render, "console", lambda: Console(width=60, highlight=False))
    code, out = wake("list", "--store", store)
    assert code == 0 and game in out, out


def test_record_refuses_a_non_canonical_game_id_and_a_huge_seed(tmp_path: Path) -> None:
    out_file = str(tmp_path / "r.wake.json")
    args = ("record", "morze", str(RIVER_PLATE), "-o", out_file)
    one_line_error(
        *wake(*args, "--seed", "1", "--game-id", "00000000-0000-4000-8000-00000000000A"),
        "--game-id takes a UUID in canonical form",
    )
    one_line_error(*wake(*args, "--seed", str(2**60)), "--seed must lie within")
    assert not Path(out_file).exists()


def test_a_bad_command_file_line_is_one_line(store: str, game: str, tmp_path: Path) -> None:
    commands = tmp_path / "c.jsonl"
    commands.write_text('{"side": null, "command": {"type": "x"}, "dice": [true]}\n', "utf-8")
    code, out = wake("play", game, "--commands", str(commands), "--store", store)
    one_line_error(code, out, "not a command envelope: dice[0]: Input should be a valid integer")


def test_scenario_file_that_is_a_device(store: str) -> None:
    if not Path("/dev/zero").exists():
        pytest.skip("needs /dev/zero")
    code, out = wake("start", "morze", "/dev/zero", "--store", store)
    one_line_error(code, out, "a character device, not a regular file")


def test_an_unexpected_exception_is_one_line_and_exit_3(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def boom(*_: Any, **__: Any) -> None:
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(listing, "plugins", boom)
    monkeypatch.setattr(sys, "argv", ["wake", "rulesets"])
    monkeypatch.delenv("WAKE_DEBUG", raising=False)
    with pytest.raises(SystemExit) as info:
        cli_app.main()
    assert info.value.code == 3
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "error (internal): ZeroDivisionError" in err
    assert "Traceback" not in err
